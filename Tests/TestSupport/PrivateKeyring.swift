import Foundation
import Glibc
import Testing

/// A desktop keyring of the test's own: a session bus and GNOME Keyring's
/// Secret Service on it, started by `contrib/keyring` in a temporary folder
/// and stopped when the value goes. `environment` points `secret-tool` (and
/// so `chime`) at it.
public final class PrivateKeyring: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let folder: TemporaryFolder
    /// DBUS_SESSION_BUS_ADDRESS, the variable that names the keyring's bus.
    public let environment: [String: String]

    public init() throws {
        folder = TemporaryFolder("chime-keyring")
        let script = PackagePaths.root + "/contrib/keyring"
        let started = try runProcess(script, ["start", folder.path])
        guard started.status == 0 else { throw Failure(description: "contrib/keyring start: \(started.status) \(started.err)") }
        var found: [String: String] = [:]
        for line in try String(contentsOfFile: folder.appending("env"), encoding: .utf8).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            found[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let address = found["DBUS_SESSION_BUS_ADDRESS"] else { throw Failure(description: "contrib/keyring wrote no bus address") }
        environment = ["DBUS_SESSION_BUS_ADDRESS": address]
    }

    deinit {
        _ = try? runProcess(PackagePaths.root + "/contrib/keyring", ["stop", folder.path])
    }

    /// What `secret-tool lookup ATTRIBUTES` prints, nil when the keyring holds nothing under them.
    public func lookup(_ attributes: [String]) throws -> String? {
        var environment = ProcessInfo.processInfo.environment
        environment.merge(self.environment) { $1 }
        let found = try runProcess("/usr/bin/secret-tool", ["lookup"] + attributes, environment: environment)
        return found.status == 0 ? found.out : nil
    }
}
