import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a caller of `Daemon.start` matches: `chimed` exits 69 on `.alreadyRunning`.
@Suite("The daemon's error codes")
struct DaemonErrorTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-daemon-error-\(UUID().uuidString)").path

    private func daemon(runtime: String) throws -> Daemon {
        let storePath = folder + "/data/chime.db"
        if !FileManager.default.fileExists(atPath: storePath) { _ = try CalendarStore(path: storePath, machineTimeZone: .utc) }
        var options = Daemon.Options(storePath: storePath, runtimeFolder: runtime)
        options.handlesSignals = false
        return Daemon(options: options, notifier: LogNotifier { _ in }, log: { _ in })
    }

    @Test("a runtime folder that cannot be made is a runtime-folder error, with mkdir's errno beneath")
    func runtimeFolder() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let daemon = try daemon(runtime: folder + "/missing/chime")
        #expect {
            try daemon.start()
        } throws: { error in
            guard let error = error as? DaemonError else { return false }
            return error.code == .runtimeFolder && error.systemError?.code == ENOENT && error.systemError?.call == "mkdir"
        }
    }

    @Test("a second daemon on the same runtime folder and store is told another one is running")
    func alreadyRunning() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let first = try daemon(runtime: folder + "/run/chime")
        try first.start()
        defer { first.shutdown() }
        let second = try daemon(runtime: folder + "/run/chime")
        #expect {
            try second.start()
        } throws: { error in
            (error as? DaemonError)?.code == .alreadyRunning
        }
    }
}
