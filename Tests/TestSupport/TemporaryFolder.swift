import Foundation
import Glibc
import Synchronization
import Testing

/// A folder of its own under the system's temporary folder, named
/// `<prefix>-<UUID>`, removed with everything in it when the value goes.
/// A class, so that a suite or fixture holding it removes it exactly once,
/// when the last holder is done; one still held when the test process
/// exits (by a static, a cycle, or a test cut short) goes at exit.
public final class TemporaryFolder: Sendable {
    public let path: String

    /// The folders not yet removed, for the sweep at exit.
    private static let live: Mutex<Set<String>> = {
        atexit { TemporaryFolder.sweep() }
        return Mutex([])
    }()

    private static func sweep() {
        for path in live.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Creates the folder (0700) unless `create` is false: some tests need the
    /// name of a folder that does not exist yet, and it is removed all the same.
    /// A folder that cannot be made is the caller's recorded failure.
    public init(_ prefix: String, create: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        _ = Self.live.withLock { $0.insert(path) }
        guard create else { return }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            Issue.record("no temporary folder \(path): \(error)", sourceLocation: sourceLocation)
        }
    }

    /// `path` + "/" + `name`.
    public func appending(_ name: String) -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
        _ = Self.live.withLock { $0.remove(path) }
    }
}

/// Runs `body` with the path of a new empty folder under the system's temporary
/// folder, and removes the folder and everything in it afterwards.
public func withTemporaryDirectory<T>(_ prefix: String = "chime-tests", _ body: (String) throws -> T) throws -> T {
    let folder = TemporaryFolder(prefix)
    return try withExtendedLifetime(folder) { try body(folder.path) }
}
