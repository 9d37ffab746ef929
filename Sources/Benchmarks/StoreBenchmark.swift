import CalendarModel
import CalendarStore
import Foundation
import SeededRandom

/// Issue #3's store workloads on a real file: 100,000 single events and
/// 10,000 recurring ones saved in one batch, then one-week queries.
/// (The cold `chime agenda` process comes with the command.)
public struct StoreBenchmark {
    let singles: Int
    let recurring: Int
    let queries: Int

    public init(scale: Double = 1) {
        singles = max(10, Int(100_000 * scale))
        recurring = max(1, Int(10_000 * scale))
        queries = max(3, Int(50 * scale))
    }

    /// Runs the `chime` built beside this benchmark on the store, as a person would.
    func coldAgenda(path: String) throws -> (milliseconds: Double, lines: Int)? {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("chime").path
        guard FileManager.default.isExecutableFile(atPath: executable) else { return nil }
        var samples: [Double] = []
        var lines = 0
        let clock = ContinuousClock()
        for _ in 0..<5 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["agenda", "--db", path]
            var environment = ProcessInfo.processInfo.environment
            environment["TZ"] = "Asia/Shanghai"
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            let elapsed = try clock.measure {
                try process.run()
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                lines = data.split(separator: UInt8(ascii: "\n")).count
            }
            samples.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
        }
        samples.sort()
        return (samples[2], lines)
    }

    public func run(report: (String) -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-bench-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let zone = try TimeZoneRules.named("Asia/Shanghai")
        let store = try CalendarStore(path: folder + "/chime.db", machineTimeZone: zone)
        let calendar = try store.defaultCalendarForNewEvents().identifier
        var random = SplitMix64(seed: 3)
        let firstDay = CivilDate(year: 2024, month: 1, day: 1)!.dayNumber
        let days = CivilDate(year: 2028, month: 12, day: 31)!.dayNumber - firstDay
        var events: [Event] = []
        events.reserveCapacity(singles + recurring)
        let rules = try ["FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH"]
            .map { try RecurrenceRule(rfc5545: $0) }
        for index in 0..<(singles + recurring) {
            let day = CivilDate(dayNumber: firstDay + random.int(0...days))
            let start = LocalDateTime(date: day, hour: random.int(7...20), minute: random.element([0, 15, 30, 45]))!
            let end = LocalDateTime(localSeconds: start.localSeconds + Int64(random.element([15, 30, 60, 90])) * 60)
            let rule = index >= singles ? random.element(rules) : nil
            events.append(Event(calendarIdentifier: calendar, title: "Event \(index)",
                                start: .zoned(start, zone: "Asia/Shanghai"), end: .zoned(end, zone: "Asia/Shanghai"),
                                recurrenceRule: rule, alarms: index % 3 == 0 ? [.relative(seconds: -600)] : []))
        }
        let clock = ContinuousClock()
        let queueing = try clock.measure {
            for event in events { try store.save(event, commit: false) }
        }
        let committing = try clock.measure { try store.commit() }
        let insert = queueing + committing
        var samples: [Double] = []
        var found = 0
        for query in 0..<queries {
            let monday = CivilDate(year: 2026, month: 1, day: 5)!.dayNumber + 7 * (query % 100)
            let from = Date(timeIntervalSince1970: TimeInterval(Int64(monday) * 86_400 - 8 * 3600))
            let elapsed = try clock.measure {
                found = try store.events(overlapping: from..<from.addingTimeInterval(7 * 86_400)).count
            }
            samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
        }
        samples.sort()
        let agenda = try coldAgenda(path: folder + "/chime.db")
        let seconds = Double(insert.components.seconds) + Double(insert.components.attoseconds) / 1e18
        report("store benchmark — \(singles) single and \(recurring) recurring events, Asia/Shanghai")
        func secondsOf(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
        report(String(format: "insert all in one batch        %8.2f s     target ≤ 2 s     (%.2f s validating and queueing, %.2f s committing)",
                      seconds, secondsOf(queueing), secondsOf(committing)))
        report(String(format: "one-week query (median of %d)  %8.2f ms    target ≤ 20 ms   (%d events in the last week)",
                      queries, samples[samples.count / 2], found))
        if let agenda {
            report(String(format: "cold `chime agenda` process    %8.2f ms    target ≤ 100 ms  (median of 5, wall clock, %d lines)",
                          agenda.milliseconds, agenda.lines))
        } else {
            report("cold `chime agenda` process    not measured: build chime beside chime-bench (swift build -c release)")
        }
    }
}
