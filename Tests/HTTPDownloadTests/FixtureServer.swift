import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TestSupport

/// Server/fixture-server.py, started with python3 on 127.0.0.1 and a port
/// the system picks; killed when `stop()` is called or it is released.
final class FixtureServer: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let folder = PackagePaths.root + "/Tests/HTTPDownloadTests/Server"
    static let script = folder + "/fixture-server.py"

    let port: Int
    private let process: Process
    private let stopped = Mutex(false)

    init() throws {
        guard FileManager.default.fileExists(atPath: Self.script) else { throw Failure(description: "the fixture server is missing: no \(Self.script)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script]
        let out = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot start python3 \(Self.script) (install python3): \(error)")
        }
        // The first line is the port; read on a thread so that a server that never prints fails the test.
        let line = Mutex<String?>(nil)
        let printed = DispatchSemaphore(value: 0)
        let reader = out.fileHandleForReading
        Thread {
            var bytes: [UInt8] = []
            while bytes.count < 64, let byte = try? reader.read(upToCount: 1)?.first, byte != 10 { bytes.append(byte) }
            line.withLock { $0 = String(decoding: bytes, as: UTF8.self) }
            printed.signal()
        }.start()
        guard printed.wait(timeout: .now() + 60) == .success, let text = line.withLock({ $0 }), let port = Int(text) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failure(description: "python3 \(Self.script) printed no port")
        }
        self.process = process
        self.port = port
    }

    deinit { stop() }

    var base: String { "http://127.0.0.1:\(port)" }

    func url(_ path: String) -> String { base + path }

    func stop() {
        guard stopped.withLock({ let first = !$0; $0 = true; return first }) else { return }
        // SIGKILL: under the test runner SIGTERM left python3 running and waitUntilExit waiting for ever.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
