import CalendarModel
import Foundation
import RecurrenceEngine
import SeededRandom

/// Issue #2's workloads (and issue #4's every-workday seek), each measured for Chime's engine and for
/// Foundation's `Calendar.RecurrenceRule` in the same run, in Asia/Shanghai.
///
/// Chime's figure is the median of several runs. Foundation walks every
/// rule from its start at tens of microseconds per occurrence, so where a
/// full run would take minutes it runs a sample and the figure is
/// extrapolated per unit; the output marks those rows.
public struct RecurrenceBenchmark {
    public struct Row {
        public var name: String
        public var unit: String
        public var ours: Double
        public var foundation: Double
        public var foundationNote: String
        public var target: String
        public var total: Bool
    }

    let zoneName = "Asia/Shanghai"
    let repetitions: Int
    /// Scales every workload down for a smoke run.
    let scale: Double

    /// Workload letters to run; empty runs them all.
    let only: Set<Character>

    public init(repetitions: Int = 5, scale: Double = 1, only: Set<Character> = []) {
        self.repetitions = repetitions
        self.scale = scale
        self.only = only
    }

    public func run(report: (String) -> Void) throws {
        report("recurrence benchmark — \(zoneName), medians of \(repetitions) runs for Chime; µs per unit")
        report(RecurrenceBenchmark.header)
        for (letter, workload) in zip("abcdefgh", try workloads()) where only.isEmpty || only.contains(letter) {
            report(RecurrenceBenchmark.format(try workload()))
        }
    }

    static let header = "workload                                   unit         chime µs   foundation µs     ratio   target     foundation run"

    static func format(_ row: Row) -> String {
        func number(_ value: Double) -> String { String(format: value >= 100 ? "%10.1f" : "%10.3f", value) }
        let name = row.name.padding(toLength: 42, withPad: " ", startingAt: 0)
        let unit = row.unit.padding(toLength: 10, withPad: " ", startingAt: 0)
        let ratio = String(format: "%8.0fx", row.foundation / max(row.ours, 1e-9))
        let target = row.target.padding(toLength: 10, withPad: " ", startingAt: 0)
        return "\(name) \(unit) \(number(row.ours))   \(number(row.foundation)) \(ratio)   \(target) \(row.foundationNote)"
    }

    func count(_ n: Int) -> Int { max(1, Int(Double(n) * scale)) }

    func workloads() throws -> [() throws -> Row] {
        let zone = try TimeZoneRules.named(zoneName)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zoneName)!
        calendar.firstWeekday = 2
        let start2020 = LocalDateTime(parsing: "2020-01-01T08:50:00")!

        func expansion(_ name: String, _ text: String, start: LocalDateTime, occurrences n: Int, sample: Int,
                       target: String, foundationRule: Calendar.RecurrenceRule) -> () throws -> Row {
            return {
                let rule = try RecurrenceRule(rfc5545: text)
                let recurrence = Recurrence(rule: rule, start: start, timeZone: zone)
                let ours = median {
                    var checksum: Int64 = 0
                    for occurrence in recurrence.occurrences().prefix(n) { checksum &+= occurrence.instant }
                    return checksum
                } / Double(n)
                let foundationStart = calendar.date(from: components(start))!
                let size = min(n, sample)
                let foundation = time {
                    var checksum = 0.0
                    for date in foundationRule.recurrences(of: foundationStart).prefix(size) { checksum += date.timeIntervalSince1970 }
                    return Int64(checksum)
                } / Double(size)
                return Row(name: name, unit: "occurrence", ours: ours, foundation: foundation,
                           foundationNote: size < n ? "sample of \(size), per occurrence" : "full", target: target, total: false)
            }
        }

        /// Per query: Chime's next occurrence after each of `instants`, and
        /// Foundation's (the first of its recurrences within `window` seconds)
        /// after the first three.
        func nextAfter(_ instants: [Date], _ recurrence: Recurrence, start: LocalDateTime, window: TimeInterval,
                       foundationRule: Calendar.RecurrenceRule) -> (ours: Double, foundation: Double, sample: Int) {
            let ours = median {
                var checksum: Int64 = 0
                for after in instants { checksum &+= recurrence.nextOccurrence(after: after)!.instant }
                return checksum
            } / Double(instants.count)
            let foundationStart = calendar.date(from: components(start))!
            let sample = min(instants.count, 3)
            let foundation = time {
                var checksum = 0.0
                for after in instants.prefix(sample) {
                    let next = foundationRule.recurrences(of: foundationStart, in: after..<after.addingTimeInterval(window))
                        .first { $0 > after }!
                    checksum += next.timeIntervalSince1970
                }
                return Int64(checksum)
            } / Double(sample)
            return (ours, foundation, sample)
        }

        let weekdays: [Locale.Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]

        /// The next occurrence at 08:50 of FREQ=DAILY;X-WORKDAY=SKIP from 2000 on
        /// `workdays`, after random instants of 2025 and 2026. Foundation's peer
        /// knows no holidays: the next weekday of FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR
        /// from the same start.
        func nextWorkday(_ name: String, on workdays: BenchmarkWorkdays) throws -> Row {
            let queries = count(1_000)
            let start = LocalDateTime(parsing: "2000-01-01T08:50:00")!
            let recurrence = Recurrence(rule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP"), start: start,
                                        timeZone: zone, workdays: workdays)
            let firstInstant = Int64(LocalDateTime(parsing: "2025-01-01T00:00:00")!.localSeconds - 8 * 3600)
            let lastInstant = Int64(LocalDateTime(parsing: "2026-12-20T00:00:00")!.localSeconds - 8 * 3600)
            var random = SplitMix64(seed: 20_252_026)
            let instants = (0..<queries).map { _ in
                Date(timeIntervalSince1970: TimeInterval(random.int64(firstInstant...lastInstant)))
            }
            let rule = Calendar.RecurrenceRule(calendar: calendar, frequency: .weekly, matchingPolicy: .strict,
                                               weekdays: weekdays.map { .every($0) })
            let (ours, foundation, sample) = nextAfter(instants, recurrence, start: start, window: 4 * 86_400, foundationRule: rule)
            return Row(name: name, unit: "query", ours: ours, foundation: foundation,
                       foundationNote: "weekdays without holidays; sample of \(sample), per query", target: "≤ 5", total: false)
        }

        let afterInstant = Int64(LocalDateTime(parsing: "2026-11-30T00:00:00")!.localSeconds - 8 * 3600)
        return [
            expansion("(a) FREQ=DAILY", "FREQ=DAILY", start: start2020, occurrences: count(200_000), sample: count(5_000),
                      target: "≤ 0.5", foundationRule: .init(calendar: calendar, frequency: .daily, matchingPolicy: .strict)),
            expansion("(b) FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", start: start2020,
                      occurrences: count(200_000), sample: count(5_000), target: "≤ 0.5",
                      foundationRule: .init(calendar: calendar, frequency: .weekly, matchingPolicy: .strict,
                                            weekdays: weekdays.map { .every($0) })),
            expansion("(c) FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYDAY=-1FR", start: LocalDateTime(parsing: "2020-01-31T08:50:00")!,
                      occurrences: count(20_000), sample: count(2_000), target: "≤ 2",
                      foundationRule: .init(calendar: calendar, frequency: .monthly, matchingPolicy: .strict, weekdays: [.nth(-1, .friday)])),
            expansion("(d) FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
                      start: LocalDateTime(parsing: "2020-02-29T08:50:00")!, occurrences: count(2_000), sample: count(200),
                      target: "—", foundationRule: .init(calendar: calendar, frequency: .yearly, matchingPolicy: .strict,
                                                          months: [2], daysOfTheMonth: [29])),
            {
                // (e) the next occurrence after 2026-11-30T00:00 of a DAILY rule from 2000.
                let queries = count(1_000)
                let start = LocalDateTime(parsing: "2000-01-01T08:50:00")!
                let recurrence = Recurrence(rule: try RecurrenceRule(rfc5545: "FREQ=DAILY"), start: start, timeZone: zone)
                let instants = (0..<queries).map { Date(timeIntervalSince1970: TimeInterval(afterInstant + Int64($0) * 3607)) }
                let rule = Calendar.RecurrenceRule(calendar: calendar, frequency: .daily, matchingPolicy: .strict)
                let (ours, foundation, sample) = nextAfter(instants, recurrence, start: start, window: 3 * 86_400, foundationRule: rule)
                return Row(name: "(e) next after 2026-11-30, DAILY from 2000", unit: "query", ours: ours, foundation: foundation,
                           foundationNote: "sample of \(sample), per query", target: "≤ 2", total: false)
            },
            {
                // (f) 10,000 weekly rules with random BYDAY sets and starts in 2015–2026.
                let rules = count(10_000)
                var random = SplitMix64(seed: 20_261_130)
                var specs: [(rule: RecurrenceRule, start: LocalDateTime, days: [Locale.Weekday])] = []
                let codes: [Weekday] = [.sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday]
                let foundationDays: [Locale.Weekday] = [.sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday]
                let firstDay = CivilDate(year: 2015, month: 1, day: 1)!.dayNumber
                let lastDay = CivilDate(year: 2026, month: 11, day: 29)!.dayNumber
                for _ in 0..<rules {
                    var mask = 0
                    while mask == 0 { mask = Int(random.next() % 128) }
                    let chosen = (0..<7).filter { mask & (1 << $0) != 0 }
                    let day = CivilDate(dayNumber: firstDay + Int(random.next() % UInt64(lastDay - firstDay)))
                    let start = LocalDateTime(date: day, hour: Int(random.next() % 24), minute: Int(random.next() % 60))!
                    let rule = try RecurrenceRule(frequency: .weekly, daysOfTheWeek: chosen.map { .every(codes[$0]) })
                    specs.append((rule, start, chosen.map { foundationDays[$0] }))
                }
                let after = Date(timeIntervalSince1970: TimeInterval(afterInstant))
                let ours = median {
                    var checksum: Int64 = 0
                    for spec in specs {
                        let recurrence = Recurrence(rule: spec.rule, start: spec.start, timeZone: zone)
                        checksum &+= recurrence.nextOccurrence(after: after)!.instant
                    }
                    return checksum
                } / 1000
                let sample = min(rules, 20)
                let foundation = time {
                    var checksum = 0.0
                    for spec in specs.prefix(sample) {
                        let rule = Calendar.RecurrenceRule(calendar: calendar, frequency: .weekly, matchingPolicy: .strict,
                                                           weekdays: spec.days.map { .every($0) })
                        let start = calendar.date(from: components(spec.start))!
                        let next = rule.recurrences(of: start, in: after..<after.addingTimeInterval(8 * 86_400)).first { $0 > after }!
                        checksum += next.timeIntervalSince1970
                    }
                    return Int64(checksum)
                } / 1000 * Double(rules) / Double(sample)
                return Row(name: "(f) \(rules) weekly rules, next after 2026-11-30", unit: "ms total", ours: ours,
                           foundation: foundation, foundationNote: "sample of \(sample) rules, extrapolated",
                           target: "≤ 30 ms", total: true)
            },
            {
                // (g) the next workday at 08:50 (FREQ=DAILY;X-WORKDAY=SKIP from 2000, on
                // China's 2025–2026 calendar) after random instants of those two years.
                try nextWorkday("(g) next workday, DAILY;X-WORKDAY=SKIP", on: BenchmarkWorkdays.china2025And2026)
            },
            {
                // (h) as (g), the calendar with a morning of leave on every tenth
                // workday (请半天假): the engine judges each time by its half of
                // the day, with a look-back per half.
                try nextWorkday("(h) next workday, half days (1 in 10)",
                                on: BenchmarkWorkdays.china2025And2026.withMorningsOff(everyNthWorkday: 10))
            },
        ]
    }

    func components(_ time: LocalDateTime) -> DateComponents {
        DateComponents(year: time.date.year, month: time.date.month, day: time.date.day,
                       hour: time.hour, minute: time.minute, second: time.second)
    }

    /// Median wall time of `repetitions` runs, in microseconds.
    func median(_ body: () -> Int64) -> Double {
        var samples: [Double] = []
        for _ in 0..<repetitions { samples.append(time(body)) }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// One run's wall time, in microseconds; the checksum keeps the work alive.
    func time(_ body: () -> Int64) -> Double {
        let clock = ContinuousClock()
        var checksum: Int64 = 0
        let elapsed = clock.measure { checksum = body() }
        if checksum == 42 { print("", terminator: "") }
        return Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
    }
}
