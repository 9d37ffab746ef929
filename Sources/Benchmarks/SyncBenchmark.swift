import CalDAVSync
import CalendarModel
import CalendarStore
import Foundation
import HTTPDownload
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// Issue #20's sync figures against a Radicale this benchmark starts on
/// 127.0.0.1 (from .build/caldav-venv, contrib/caldav/setup), its storage
/// seeded with `items` resources written as files (uploading 10,000 would
/// take longer than everything measured): Chime's first sync of the
/// collection into a new store beside vdirsyncer's first sync of it into a
/// folder (the peer, run as the command a person runs), each the median of
/// `runs`; then, for Chime, a sync after one remote change and one with
/// nothing changed, in requests and milliseconds, with vdirsyncer's time
/// for the same two.
///
/// Chime's syncs run in this process through the engine `chime sync` uses
/// (so its requests can be counted); vdirsyncer's time includes starting
/// Python, which is what using it costs. Radicale is asked for a full
/// listing once before anything is timed, so that neither side pays for
/// building its caches.
public struct SyncBenchmark {
    let items: Int
    let runs: Int

    public init(items: Int = 10_000, runs: Int = 3) {
        self.items = max(2, items)
        self.runs = max(1, runs)
    }

    /// Issue #20: Chime's first sync within half of vdirsyncer's.
    static let firstSyncTarget = 0.5
    /// Issue #20: requests for a sync after one remote change, and with none.
    static let oneChangeRequestTarget = 3
    static let nothingChangedRequestTarget = 1

    public func run(report: (String) -> Void) throws {
        guard let radicale = BuildFolder.executable("caldav-venv/bin/radicale"),
              let vdirsyncer = BuildFolder.executable("caldav-venv/bin/vdirsyncer") else {
            throw BenchmarkError(description: "no .build/caldav-venv with radicale and vdirsyncer: run contrib/caldav/setup")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-sync-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let collectionPath = "/ann/bench/"
        let bytes = try seed(storage: folder + "/storage/collection-root" + collectionPath)
        let server = try RadicaleServer(executable: radicale, folder: folder)
        defer { server.stop() }
        let collectionURL = server.base + collectionPath
        let credentials = HTTPCredentials(user: "ann", password: "secret")
        let warm = try HTTPClient().send(HTTPRequest(.propfind, collectionURL, headers: [HTTPHeader("Depth", "1")],
                                                     credentials: credentials, timeLimit: 600))
        guard warm.status == 207 else { throw BenchmarkError(description: "Radicale answered the first listing with HTTP \(warm.status)") }

        report("sync benchmark — \(items) resources (\(String(format: "%.2f", Double(bytes) / 1_048_576)) MB) in one collection of Radicale on 127.0.0.1, "
               + "medians of \(runs) runs")
        var peerFirst: [Double] = [], chimeFirst: [Double] = [], chimeFirstCPU: [Double] = []
        var lastChime: (store: CalendarStore, state: SyncState, engine: SyncEngine, url: String)?
        let peer = VdirsyncerPeer(executable: vdirsyncer, collectionURL: collectionURL, folder: folder)
        for run in 1...runs {
            peerFirst.append(try peer.firstSync(run: run, expecting: items))
            let chime = try chimeAccount(server: server, credentials: credentials, store: folder + "/chime-\(run).db")
            let clock = ContinuousClock()
            var outcome: SyncEngine.Outcome?
            let cpu = Self.cpuMilliseconds()
            let collection = try chime.state.collections().first { $0.url == chime.url }
            guard let collection else { throw BenchmarkError(description: "the collection is gone from the sync state") }
            let elapsed = try clock.measure { outcome = try chime.engine.sync(collection) }
            chimeFirstCPU.append(Self.cpuMilliseconds() - cpu)
            guard let outcome else { continue }
            guard outcome.downloaded == items, outcome.skipped.isEmpty else {
                throw BenchmarkError(description: "Chime's first sync brought \(outcome.downloaded) of \(items) resources: \(outcome.skipped.prefix(3))")
            }
            chimeFirst.append(Self.milliseconds(elapsed))
            lastChime = chime
        }
        let peerMedian = Self.median(peerFirst), chimeMedian = Self.median(chimeFirst)
        let ratio = chimeMedian / peerMedian
        report(String(format: "vdirsyncer first sync (peer)     %9.0f ms", peerMedian) + "    (runs: \(Self.list(peerFirst)))")
        report(String(format: "chime first sync                 %9.0f ms    %.2f× vdirsyncer (target ≤ %.1f×: ", chimeMedian, ratio, Self.firstSyncTarget)
               + (ratio <= Self.firstSyncTarget ? "met" : "not met") + "; runs: \(Self.list(chimeFirst)); "
               + String(format: "Chime's own CPU %.0f ms)", Self.median(chimeFirstCPU)))

        guard let chime = lastChime else { return }
        // One remote change: another device edits one resource.
        let changed = collectionURL + "item-00001.ics"
        let edit = try HTTPClient().send(HTTPRequest(.put, changed, headers: [HTTPHeader("Content-Type", "text/calendar; charset=utf-8")],
                                                     body: Array(Self.resource(1, summary: "Moved by the phone").utf8),
                                                     credentials: credentials, timeLimit: 60))
        guard (200..<300).contains(edit.status) else { throw BenchmarkError(description: "the remote edit was answered HTTP \(edit.status)") }
        for (label, expected, target) in [("one remote change", 1, Self.oneChangeRequestTarget), ("nothing changed", 0, Self.nothingChangedRequestTarget)] {
            let before = chime.engine.requestCount
            var outcome: SyncEngine.Outcome?
            let cpu = Self.cpuMilliseconds()
            // As `chime sync` does: the collection as the last sync left it (its token, its mark).
            let collection = try chime.state.collections().first { $0.url == chime.url }
            guard let collection else { throw BenchmarkError(description: "the collection is gone from the sync state") }
            let elapsed = try ContinuousClock().measure { outcome = try chime.engine.sync(collection) }
            let ownCPU = Self.cpuMilliseconds() - cpu
            guard let outcome else { continue }
            guard outcome.downloaded == expected else {
                throw BenchmarkError(description: "Chime's sync after \(label) brought \(outcome.downloaded) resources, not \(expected)")
            }
            let requests = chime.engine.requestCount - before
            // The peer syncs the same state of the server: its folder took the first sync, so it sees the same one change, then none.
            let peerTime = try peer.sync(run: runs)
            report(("chime sync, " + label + ":").padding(toLength: 33, withPad: " ", startingAt: 0)
                   + String(format: "%8.1f ms    ", Self.milliseconds(elapsed))
                   + "\(requests) request\(requests == 1 ? "" : "s") (target ≤ \(target): \(requests <= target ? "met" : "not met")); "
                   + String(format: "Chime's own CPU %.0f ms", ownCPU) + (outcome.examinedLocalItems ? ", local items exported to compare" : "")
                   + String(format: "; vdirsyncer %.0f ms", peerTime))
        }
    }

    // MARK: Chime

    /// A new store with the server's account added as `chime account add` adds it.
    private func chimeAccount(server: RadicaleServer, credentials: HTTPCredentials,
                              store path: String) throws -> (store: CalendarStore, state: SyncState, engine: SyncEngine, url: String) {
        let store = try CalendarStore(path: path, machineTimeZone: .utc)
        let state = try SyncState(store: store)
        let discovered = try CalendarDiscovery(credentials: credentials).discover(server.base + "/")
        let account = SyncState.Account(name: "bench", address: server.base + "/", user: "ann", passwordCommand: ["true"])
        let collections = try state.adopt(account, discovered: discovered)
        guard let collection = collections.first(where: { $0.url.hasSuffix("/ann/bench/") }) else {
            throw BenchmarkError(description: "discovery found no /ann/bench/ among \(collections.map(\.url))")
        }
        return (store, state, SyncEngine(store: store, state: state, credentials: credentials, timeLimit: 600), collection.url)
    }

    // MARK: The collection

    /// Writes the resources as Radicale's filesystem storage holds them; their size in bytes.
    private func seed(storage: String) throws -> Int {
        try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
        let props = #"{"C:supported-calendar-component-set": "VEVENT,VTODO", "D:displayname": "Bench", "tag": "VCALENDAR"}"#
        try Data(props.utf8).write(to: URL(fileURLWithPath: storage + ".Radicale.props"))
        var bytes = 0
        for index in 1...items {
            let text = Self.resource(index, summary: "Item \(index)")
            bytes += text.utf8.count
            try Data(text.utf8).write(to: URL(fileURLWithPath: storage + Self.name(index)))
        }
        return bytes
    }

    static func name(_ index: Int) -> String { "item-" + String(format: "%05d", index) + ".ics" }

    /// One resource of a working calendar: mostly events of an hour with a
    /// reminder 15 minutes before, every fifth a weekly series, every tenth
    /// a to-do due that day.
    static func resource(_ index: Int, summary: String) -> String {
        let day = CivilDate(year: 2026, month: 1, day: 1)!.adding(days: index % 730)
        let date = String(format: "%04d%02d%02d", day.year, day.month, day.day)
        let hour = String(format: "%02d", 8 + index % 10)
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime//sync benchmark//EN"]
        if index % 10 == 0 {
            lines += ["BEGIN:VTODO", "UID:todo-\(index)@bench.example", "DTSTAMP:20261201T000000Z", "DUE:\(date)T\(hour)0000Z",
                      "SUMMARY:\(summary)", "PRIORITY:5"]
        } else {
            lines += ["BEGIN:VEVENT", "UID:event-\(index)@bench.example", "DTSTAMP:20261201T000000Z", "DTSTART:\(date)T\(hour)0000Z",
                      "DTEND:\(date)T\(hour)5000Z", "SUMMARY:\(summary)", "LOCATION:Room \(index % 40)",
                      "DESCRIPTION:Agenda for the meeting numbered \(index)\\, with notes."]
            if index % 5 == 0 { lines.append("RRULE:FREQ=WEEKLY;COUNT=10") }
        }
        lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT15M", "END:VALARM"]
        lines += [index % 10 == 0 ? "END:VTODO" : "END:VEVENT", "END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }

    /// This process's user and system time so far: Chime's own work in a
    /// sync, without the server's (another process) or the waiting.
    static func cpuMilliseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func list(_ values: [Double]) -> String { values.map { String(format: "%.0f", $0) }.joined(separator: ", ") }
}

/// Radicale on a free port of 127.0.0.1 with Basic authentication (user
/// `ann`, password `secret`, no delay after a wrong one) and the storage
/// in `folder/storage`; killed by `stop()`.
private final class RadicaleServer {
    let base: String
    private let process: Process

    init(executable: String, folder: String) throws {
        try Data("ann:secret\n".utf8).write(to: URL(fileURLWithPath: folder + "/users"))
        var lastPort = 0
        for _ in 1...3 {
            let port = try LoopbackPort.free()
            lastPort = port
            let config = """
                [server]
                hosts = 127.0.0.1:\(port)
                [auth]
                type = htpasswd
                htpasswd_filename = \(folder)/users
                htpasswd_encryption = plain
                delay = 0
                [storage]
                filesystem_folder = \(folder)/storage
                [logging]
                level = warning

                """
            try Data(config.utf8).write(to: URL(fileURLWithPath: folder + "/radicale.conf"))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["--config", folder + "/radicale.conf"]
            process.environment = ["HOME": folder, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Started within a minute, or it never will (a port taken meanwhile ends it at once).
            var listening = false
            for _ in 0..<1200 where process.isRunning {
                listening = LoopbackPort.accepts(port)
                if listening { break }
                usleep(50_000)
            }
            if listening {
                self.base = "http://127.0.0.1:\(port)"
                self.process = process
                return
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        throw BenchmarkError(description: "Radicale did not start on 127.0.0.1 (last port tried: \(lastPort))")
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// vdirsyncer syncing the collection with a folder of .ics files, each run
/// with a folder and status of its own (`discover` first, untimed, as a
/// person runs it once).
private struct VdirsyncerPeer {
    let executable: String
    let collectionURL: String
    let folder: String

    private func paths(_ run: Int) -> (config: String, local: String) {
        (folder + "/vdirsyncer-\(run).conf", folder + "/vdirsyncer-\(run)/local/")
    }

    private var environment: [String: String] { ["HOME": folder, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"] }

    /// A first sync into an empty folder: its milliseconds, once the folder holds every resource.
    func firstSync(run: Int, expecting count: Int) throws -> Double {
        let (config, local) = paths(run)
        try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
        let text = """
            [general]
            status_path = "\(folder)/vdirsyncer-\(run)/status/"
            [pair bench]
            a = "server"
            b = "folder"
            collections = null
            [storage server]
            type = "caldav"
            url = "\(collectionURL)"
            username = "ann"
            password = "secret"
            [storage folder]
            type = "filesystem"
            path = "\(local)"
            fileext = ".ics"

            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: config))
        let discovered = try ChildProcess.run(executable, ["-c", config, "discover", "bench"], environment: environment)
        guard discovered.status == 0 else {
            throw BenchmarkError(description: "vdirsyncer discover exited \(discovered.status): \(String(decoding: discovered.output, as: UTF8.self))")
        }
        let milliseconds = try sync(run: run)
        let files = try FileManager.default.contentsOfDirectory(atPath: local).filter { $0.hasSuffix(".ics") }.count
        guard files == count else { throw BenchmarkError(description: "vdirsyncer's first sync left \(files) of \(count) resources in its folder") }
        return milliseconds
    }

    /// One `vdirsyncer sync` of run `run`'s pair: its milliseconds.
    func sync(run: Int) throws -> Double {
        let measured = try ChildProcess.measure(executable, ["-c", paths(run).config, "sync"], environment: environment)
        guard measured.status == 0 else { throw BenchmarkError(description: "vdirsyncer sync exited \(measured.status)") }
        return measured.wallMilliseconds
    }
}
