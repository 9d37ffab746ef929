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
    /// Where to keep the store between runs (for profiling the queries):
    /// built there when missing, reused without the insert when present.
    let keptPath: String?
    /// Which mixes to run (`calendar`, `endless`); empty: both.
    let mixes: [String]

    /// `queries`: how many one-week queries to time (default 50, scaled).
    public init(scale: Double = 1, keptPath: String? = nil, mixes: [String] = [], queries: Int? = nil) {
        self.mixes = mixes
        singles = max(10, Int(100_000 * scale))
        recurring = max(1, Int(10_000 * scale))
        self.queries = max(3, queries ?? Int(50 * scale))
        self.keptPath = keptPath
    }

    /// Runs the `chime` built beside this benchmark on the store, as a person would.
    func coldAgenda(path: String) throws -> (milliseconds: Double, lines: Int)? {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("chime").path
        guard FileManager.default.isExecutableFile(atPath: executable) else { return nil }
        var samples: [Double] = []
        var lines = 0
        let clock = ContinuousClock()
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "Asia/Shanghai"
        for _ in 0..<5 {
            var output: [UInt8] = []
            let elapsed = try clock.measure {
                output = try ChildProcess.run(executable, ["agenda", "--db", path], environment: environment).output
            }
            lines = output.split(separator: UInt8(ascii: "\n")).count
            samples.append(Self.milliseconds(elapsed))
        }
        samples.sort()
        return (samples[2], lines)
    }

    /// The recurring series of each workload, by share. `calendar`: what a
    /// working person's calendar holds: weekly meetings that end and that
    /// do not, courses of a few weeks, daily runs with a count, monthly and
    /// yearly ones. `endless`: the stress case, every series endless and
    /// most of them daily, so that a week holds about 20,000 occurrences.
    enum Mix: String {
        case calendar, endless

        var rules: [(share: Int, rule: String)] {
            switch self {
            case .calendar:
                [(20, "FREQ=WEEKLY"), (30, "FREQ=WEEKLY;UNTIL=+9M"), (15, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT=40"),
                 (10, "FREQ=DAILY;COUNT=20"), (10, "FREQ=MONTHLY;BYDAY=-1FR"), (10, "FREQ=YEARLY"),
                 (5, "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH")]
            case .endless:
                [(25, "FREQ=DAILY"), (25, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), (25, "FREQ=MONTHLY;BYDAY=-1FR"),
                 (25, "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH")]
            }
        }
    }

    /// The benchmark's events, the same for every run: starts spread over
    /// 2024–2028 between 07:00 and 20:45, a third with an alarm.
    func events(_ mix: Mix, calendar: ItemIdentifier) throws -> [Event] {
        var random = SplitMix64(seed: 3)
        let firstDay = CivilDate(year: 2024, month: 1, day: 1)!.dayNumber
        let days = CivilDate(year: 2028, month: 12, day: 31)!.dayNumber - firstDay
        let weighted = mix.rules.flatMap { Array(repeating: $0.rule, count: $0.share) }
        var events: [Event] = []
        events.reserveCapacity(singles + recurring)
        for index in 0..<(singles + recurring) {
            let day = CivilDate(dayNumber: firstDay + random.int(0...days))
            let start = LocalDateTime(date: day, hour: random.int(7...20), minute: random.element([0, 15, 30, 45]))!
            let end = LocalDateTime(localSeconds: start.localSeconds + Int64(random.element([15, 30, 60, 90])) * 60)
            var rule: RecurrenceRule?
            if index >= singles {
                var text = random.element(weighted)
                // "+9M": until nine months after the start.
                if text.hasSuffix("UNTIL=+9M") {
                    let until = CivilDate(dayNumber: day.dayNumber + 274)
                    text = text.replacingOccurrences(of: "+9M", with: until.basicFormat + "T235959Z")
                }
                rule = try RecurrenceRule(rfc5545: text)
            }
            events.append(Event(calendarIdentifier: calendar, title: "Event \(index)",
                                start: .zoned(start, zone: "Asia/Shanghai"), end: .zoned(end, zone: "Asia/Shanghai"),
                                recurrenceRule: rule, alarms: index % 3 == 0 ? [.relative(seconds: -600)] : []))
        }
        return events
    }

    /// One-week queries over successive weeks of 2026: the median and the
    /// number of events in the last week.
    func weekQueries(_ store: CalendarStore) throws -> (milliseconds: Double, fastest: Double, events: Int) {
        let clock = ContinuousClock()
        var samples: [Double] = []
        var found = 0
        for query in 0..<queries {
            let monday = CivilDate(year: 2026, month: 1, day: 5)!.dayNumber + 7 * (query % 100)
            let from = Date(timeIntervalSince1970: TimeInterval(Int64(monday) * 86_400 - 8 * 3600))
            let elapsed = try clock.measure {
                found = try store.events(overlapping: from..<from.addingTimeInterval(7 * 86_400)).count
            }
            samples.append(Self.milliseconds(elapsed))
        }
        samples.sort()
        return (samples[samples.count / 2], samples[0], found)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }

    public func run(report: (String) -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-bench-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let zone = try TimeZoneRules.named("Asia/Shanghai")
        report("store benchmark — \(singles) single and \(recurring) recurring events, Asia/Shanghai")
        for mix in [Mix.calendar, .endless] where mixes.isEmpty || mixes.contains(mix.rawValue) {
            // --keep PATH keeps the calendar mix at PATH and the endless one beside it.
            let kept = keptPath.map { mix == .calendar ? $0 : $0 + "-endless" }
            let path = kept ?? folder + "/\(mix.rawValue).db"
            let reused = kept.map { FileManager.default.fileExists(atPath: $0) } ?? false
            let store = try CalendarStore(path: path, machineTimeZone: zone)
            let events = try events(mix, calendar: try store.defaultCalendarForNewEvents().identifier)
            let clock = ContinuousClock()
            let queueing = try clock.measure {
                if !reused { for event in events { try store.save(event, commit: false) } }
            }
            let committing = try clock.measure { if !reused { try store.commit() } }
            let bare = reused ? nil : try bareInsert(events, folder: folder)
            let week = try weekQueries(store)
            let bareWeek = try bare.map { try bareWeekQueries($0.database) }
            let agenda = try coldAgenda(path: path)
            report("")
            report("\(mix.rawValue): " + mix.rules.map { "\($0.share)% \($0.rule)" }.joined(separator: ", "))
            if reused {
                report("insert all in one batch        not measured: the store at \(path) was reused")
            } else {
                report(String(format: "insert all in one batch        %8.2f s     target ≤ 2 s     (%.2f s validating and queueing, %.2f s committing)",
                              Self.milliseconds(queueing + committing) / 1e3, Self.milliseconds(queueing) / 1e3,
                              Self.milliseconds(committing) / 1e3))
                if let bare {
                    report(String(format: "  peer: bare SQLite, same rows  %8.2f s                      (id, title, times, rule; two indexes; one transaction)",
                                  Self.milliseconds(bare.duration) / 1e3))
                }
            }
            // The 20 ms target is a working person's calendar's; the endless
            // mix, seven times the events in a week, is a stress case beside it.
            let weekTarget = mix == .calendar ? "target ≤ 20 ms " : "stress case,   "
            report(String(format: "one-week query (median of %d)  %8.2f ms    %@  (%d events in the last week; fastest %.2f ms%@)",
                          queries, week.milliseconds, weekTarget, week.events, week.fastest,
                          mix == .calendar ? "" : "; the target is the calendar mix's"))
            if let bareWeek {
                report(String(format: "  peer: bare SQLite, rows read  %8.2f ms                     (%d rows of the last week read, not expanded)",
                              bareWeek.milliseconds, bareWeek.rows))
            }
            if let agenda {
                report(String(format: "cold `chime agenda` process    %8.2f ms    target ≤ 100 ms  (median of 5, wall clock, %d lines)",
                              agenda.milliseconds, agenda.lines))
            } else {
                report("cold `chime agenda` process    not measured: build chime beside chime-bench (swift build -c release)")
            }
        }
    }
}
