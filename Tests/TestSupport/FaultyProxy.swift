import Foundation
import Glibc
import SystemCalls
import Testing

/// contrib/caldav/faulty-proxy.py in front of a test server: it passes
/// requests on, except those its rules name, which it answers 503 with a
/// Retry-After or drops without an answer (a server killed mid-request).
/// Requests are numbered from 1 as they arrive. Killed when released.
public final class FaultyProxy: Sendable {
    public static let script = PackagePaths.root + "/contrib/caldav/faulty-proxy.py"

    public let port: Int
    private let process: Process

    /// `rules`: `N:503:SECONDS` or `N:drop` (see the script).
    public init(upstream: String, rules: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let python = CalDAVServer.venv + "/bin/python"
        try #require(FileManager.default.isExecutableFile(atPath: python), "no \(python): run contrib/caldav/setup", sourceLocation: sourceLocation)
        for _ in 1...3 {
            let port = try LoopbackPort.free()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [Self.script, upstream, String(port)] + rules
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // Listening within 30 s, or not at all (a port taken meanwhile ends it at once); the bound tells a hang from an answer.
            waitUntil(seconds: 30) { !process.isRunning || LoopbackPort.accepts(port) }
            if process.isRunning, LoopbackPort.accepts(port) {
                self.port = port
                self.process = process
                return
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        throw CalDAVServer.Failure(description: "faulty-proxy.py did not start on 127.0.0.1")
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }
}
