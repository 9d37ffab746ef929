import AlarmScheduler
import CalendarModel
import DaemonControl
import Foundation
import Testing

/// The one style of `--json`, and the one shape of a coming firing.
@Suite("JSON output")
struct JSONOutputTests {
    /// The text every `--json` document must be: what Foundation writes for
    /// the same object pretty-printed with sorted keys.
    static func restyled(_ text: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    @Test("every --json command prints one document in one style: pretty-printed, keys sorted, slashes unescaped")
    func oneStyle() throws {
        let scratch = Scratch()
        let event = scratch.add("event", "Stand-up", "--start", "2026-12-01T09:30", "--repeat", "FREQ=DAILY", "--alarm", "-10m",
                                "--url", "https://example.org/a/b")
        let reminder = scratch.add("reminder", "Tea", "--due", "2026-12-01T10:00", "--alarm", "0m")
        let commands: [[String]] = [
            ["status", "--json"], ["calendars", "--json"], ["list", "events", "--json"], ["list", "reminders", "--json"],
            ["agenda", "--json"], ["next", "--count", "3", "--json"], ["missed", "--json"], ["show", event, "--json"],
            ["show", reminder, "--json"], ["workday", "2026-12-01", "--json"], ["holidays", "--year", "2026", "--json"],
            ["workdays", "--from", "2026-12-01", "--to", "2026-12-07", "--json"], ["location", "--status", "--json"],
            ["add", "event", "Lunch", "--start", "2026-12-01T12:00", "--json"], ["calendar", "add", "Work", "--json"],
            ["complete", reminder, "--json"], ["remove", event, "--json"],
        ]
        for arguments in commands {
            let run = scratch.run(arguments)
            #expect(run.status == 0, "chime \(arguments.joined(separator: " ")): \(run.errors)")
            #expect(run.text.hasPrefix("{\n  \""), "chime \(arguments.joined(separator: " ")): \(run.text)")
            #expect(try run.text == Self.restyled(run.text), "chime \(arguments.joined(separator: " ")) is not in the one style")
        }
    }

    @Test("chime next --json and the daemon's next answer are one type: the same firings decode to equal NextFiring values")
    func nextShapesAgree() throws {
        let scratch = Scratch()
        // After the wall clock as well as the scratch clock: the daemon plans from now.
        _ = scratch.add("event", "Launch", "--start", "2040-03-04T09:30", "--repeat", "FREQ=WEEKLY;COUNT=3", "--alarm", "-10m")
        _ = scratch.add("reminder", "Renew", "--due", "2040-03-05")
        _ = scratch.add("event", "Call", "--start", "2040-03-06T15:00", "--alarm-at", "2040-03-06T14:00")
        struct Listing: Decodable { var firings: [NextFiring] }
        let printed = try JSONDecoder().decode(Listing.self, from: Data(scratch.ok("next", "--count", "5", "--json").text.utf8)).firings
        #expect(printed.count == 5)
        #expect(printed.first?.at == "2040-03-04T09:20:00+08:00" && printed.first?.trigger == "10m before")
        #expect(printed.contains { $0.title == "Renew" && $0.kind == "reminder" && $0.trigger == "at 09:00 on the day" })
        #expect(printed.contains { $0.title == "Call" && $0.at == "2040-03-06T14:00:00+08:00" && $0.why == nil })

        let runtime = scratch.folder + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var options = Daemon.Options(storePath: scratch.path, runtimeFolder: runtime + "/chime")
        options.handlesSignals = false
        let zone = scratch.zone
        options.machineZone = { try! TimeZoneRules.named(zone) }
        let daemon = Daemon(options: options, notifier: LogNotifier(write: { _ in }), log: { _ in })
        try daemon.start()
        defer { daemon.shutdown() }
        let reply = try DaemonClient(environment: ["XDG_RUNTIME_DIR": runtime]).send(.next(count: 5), timeout: 30)
        guard case .next(let answered) = reply else {
            Issue.record("the daemon refused: \(reply)")
            return
        }
        #expect(answered == printed)
    }
}
