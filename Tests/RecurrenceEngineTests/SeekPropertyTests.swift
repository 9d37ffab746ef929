import CalendarModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RecurrenceEngine
import SeededRandom
import Synchronization
import Testing

/// Seeking must agree with walking: for any instant T, the occurrences after
/// T found by `occurrences(after:)` (which jumps to T's period) are those of
/// the full expansion from DTSTART that come after T, and `occurrences(in:)`
/// is the expansion cut to the range. Checked on thousands of random
/// recurrences: every frequency, every BYxxx part, COUNT and UNTIL, EXDATE
/// and RDATE, all-day ones, in zones with daylight saving (including
/// half-hour, negative and midnight transitions).
@Suite("Seeking agrees with expanding from the start")
struct SeekPropertyTests {
    /// Fixed so that every run checks the same recurrences; set
    /// CHIME_SEEK_SEED to explore others.
    static let defaultSeed: UInt64 = 0x5EE4_0000_C41D
    static let caseCount = 1500
    /// The walk from DTSTART that seeks are checked against.
    static let expansionLength = 100
    static let instantsPerCase = 6

    @Test("occurrences after an instant, nextOccurrence and occurrences(in:) match the expansion from the start")
    func seekingMatchesTheExpansion() throws {
        let seed = ProcessInfo.processInfo.environment["CHIME_SEEK_SEED"].flatMap { UInt64($0, radix: 16) } ?? Self.defaultSeed
        let run = try Self.check(seed: seed, cases: Self.caseCount, workdays: false)
        for failure in run.failures.prefix(10) {
            Issue.record(Comment(rawValue: failure))
        }
        #expect(run.failures.isEmpty, "\(run.failures.count) disagreements between seeking and expanding (seed \(String(seed, radix: 16)))")
        // The property must not hold by checking nothing.
        let summary = run.summary
        #expect(run.checkedSeeks == Self.caseCount * Self.instantsPerCase, "\(summary)")
        #expect(run.seeksPastTheEnd >= 100, "\(summary)")
        #expect(run.seeksAtATransition >= 20, "\(summary)")
        for frequency in RecurrenceRule.Frequency.allCases {
            #expect(run.frequencies[frequency, default: 0] >= 30, "\(frequency): \(summary)")
        }
        for part in SeekCase.partNames {
            #expect(run.parts[part, default: 0] >= 30, "\(part): \(summary)")
        }
    }

    /// The same for rules with a workday part (every form, with random
    /// rules of every frequency) against random workday calendars: the
    /// seek's look back (FORWARD) and the frontier's look back (BACKWARD)
    /// must miss nothing, and an occurrence that stands for several must go
    /// by the same scheduled time either way.
    @Test("seeking agrees with expanding for workday rules on random workday calendars")
    func seekingMatchesTheExpansionWithWorkdays() throws {
        let seed = ProcessInfo.processInfo.environment["CHIME_SEEK_SEED"].flatMap { UInt64($0, radix: 16) } ?? Self.defaultWorkdaySeed
        let run = try Self.check(seed: seed, cases: Self.workdayCaseCount, workdays: true)
        for failure in run.failures.prefix(10) {
            Issue.record(Comment(rawValue: failure))
        }
        #expect(run.failures.isEmpty, "\(run.failures.count) disagreements between seeking and expanding (seed \(String(seed, radix: 16)))")
        let summary = run.summary
        #expect(run.checkedSeeks == Self.workdayCaseCount * Self.instantsPerCase, "\(summary)")
        #expect(run.seeksPastTheEnd >= 30, "\(summary)")
        for frequency in RecurrenceRule.Frequency.allCases {
            #expect(run.frequencies[frequency, default: 0] >= 10, "\(frequency): \(summary)")
        }
        for part in SeekCase.workdayPartNames {
            #expect(run.parts[part, default: 0] >= 30, "\(part): \(summary)")
        }
        // Moves happened, in both directions, and some reached far.
        #expect(run.movedForward >= 200 && run.movedBackward >= 200 && run.movedFar >= 5, "\(summary)")
    }

    /// `lastOccurrence` seeks back from the series' end; the expansion from
    /// DTSTART says what the last occurrence is. Checked on random
    /// recurrences whose whole expansion is short enough to walk, workday
    /// rules among them, and on those without an end (nil).
    @Test("the last occurrence found from the end is the last of the expansion from the start, for random recurrences")
    func lastOccurrenceMatchesTheExpansion() throws {
        var random = SplitMix64(seed: Self.defaultSeed ^ 0x1A57)
        var zones: [TimeZoneRules] = []
        for name in SeekCase.zoneNames { zones.append(try TimeZoneRules.named(name)) }
        var compared = 0, withoutEnd = 0, excludedLast = 0, movedLast = 0
        var failures: [String] = []
        for index in 0..<600 {
            let example = SeekCase.make(&random, zones: zones, workdays: index % 3 == 0)
            let found = example.recurrence.lastOccurrence()
            guard let rule = example.rule, rule.end == nil else {
                let expansion = Array(example.recurrence.occurrences().prefix(5_001))
                guard expansion.count <= 5_000 else { continue }
                compared += 1
                if found != expansion.last { failures.append("case \(index) \(example): expansion's last \(expansion.last.map(Self.show) ?? "nil"), found \(found.map(Self.show) ?? "nil")") }
                if example.exceptions.contains(where: { $0 > (expansion.last?.scheduledTime ?? example.start) }) { excludedLast += 1 }
                if expansion.last?.daysMoved ?? 0 != 0 { movedLast += 1 }
                continue
            }
            withoutEnd += 1
            if found != nil { failures.append("case \(index) \(example): a rule without an end, yet a last occurrence \(Self.show(found!))") }
        }
        for failure in failures.prefix(10) { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.isEmpty, "\(failures.count) disagreements")
        // Not true by checking nothing: many finite series, some whose scheduled end is excluded or moved.
        #expect(compared >= 250 && withoutEnd >= 50 && excludedLast >= 5 && movedLast >= 5,
                "compared \(compared), without an end \(withoutEnd), last excluded \(excludedLast), last moved \(movedLast)")
    }

    static let defaultWorkdaySeed: UInt64 = 0x5EE4_0000_3D4A
    static let workdayCaseCount = 400

    /// With half days (half a day of leave, a morning worked), each half of
    /// a day is a schedule of its own, and the engine keeps one look-back
    /// for each and one for days worked whole: seeking must still agree, and
    /// every occurrence must keep the rule in the half of the day it was
    /// scheduled in (an all-day one on the whole day).
    @Test("seeking agrees with expanding for workday rules on random calendars with half days, each occurrence judged by its half")
    func seekingMatchesTheExpansionWithHalfDays() throws {
        let seed = ProcessInfo.processInfo.environment["CHIME_SEEK_SEED"].flatMap { UInt64($0, radix: 16) } ?? Self.defaultHalfDaySeed
        let run = try Self.check(seed: seed, cases: Self.workdayCaseCount, workdays: true, halfDays: true)
        for failure in run.failures.prefix(10) {
            Issue.record(Comment(rawValue: failure))
        }
        #expect(run.failures.isEmpty, "\(run.failures.count) disagreements (seed \(String(seed, radix: 16)))")
        let summary = run.summary
        #expect(run.checkedSeeks == Self.workdayCaseCount * Self.instantsPerCase, "\(summary)")
        for part in SeekCase.workdayPartNames {
            #expect(run.parts[part, default: 0] >= 30, "\(part): \(summary)")
        }
        #expect(run.movedForward >= 200 && run.movedBackward >= 200 && run.judgedByHalf >= 10_000, "\(summary), judged \(run.judgedByHalf)")
    }

    static let defaultHalfDaySeed: UInt64 = 0x5EE4_0000_4A1F

    /// Whether `occurrence` keeps `form` on `schedule`, the days judged in
    /// the half of the day it was scheduled in (an all-day one: whole days).
    static func keeps(_ occurrence: Occurrence, _ form: WorkdayRule, _ schedule: some WorkdaySchedule) -> Bool {
        let half = schedule.half(of: occurrence.scheduledTime)
        let worked = { (day: Int) in
            let date = CivilDate(dayNumber: day)
            return occurrence.isAllDay ? schedule.isWorkday(date) : schedule.isWorkday(date, in: half)
        }
        let scheduled = occurrence.scheduledTime.date.dayNumber, landed = scheduled + occurrence.daysMoved
        switch form {
        case .skip: return occurrence.daysMoved == 0 && worked(scheduled)
        case .makeup:
            let date = CivilDate(dayNumber: scheduled)
            return occurrence.daysMoved == 0
                && (occurrence.isAllDay ? schedule.isMakeupWorkday(date) : schedule.isMakeupWorkday(date, in: half))
        case .forward: return occurrence.daysMoved >= 0 && worked(landed) && (scheduled..<landed).allSatisfy { !worked($0) }
        case .backward: return occurrence.daysMoved <= 0 && worked(landed) && (landed + 1..<scheduled + 1).allSatisfy { !worked($0) }
        case .firstAfterBreak(let days): return occurrence.daysMoved == 0 && worked(scheduled) && (scheduled - days..<scheduled).allSatisfy { !worked($0) }
        }
    }

    struct Run {
        var failures: [String] = []
        var checkedSeeks = 0, checkedRanges = 0, seeksPastTheEnd = 0, seeksAtATransition = 0
        var frequencies: [RecurrenceRule.Frequency: Int] = [:]
        var parts: [String: Int] = [:]
        /// Occurrences of the expansions that a workday rule moved, and those moved more than a month.
        var movedForward = 0, movedBackward = 0, movedFar = 0
        /// Occurrences checked against their half of the day's rule.
        var judgedByHalf = 0

        var summary: String {
            "seeks \(checkedSeeks), ranges \(checkedRanges), past the end \(seeksPastTheEnd), at a transition \(seeksAtATransition), "
                + "moved forward \(movedForward), back \(movedBackward), far \(movedFar), \(frequencies), \(parts)"
        }
    }

    /// Checks `cases` random recurrences from `seed`.
    static func check(seed: UInt64, cases: Int, workdays: Bool, halfDays: Bool = false) throws -> Run {
        var random = SplitMix64(seed: seed)
        var zones: [TimeZoneRules] = []
        for name in SeekCase.zoneNames { zones.append(try TimeZoneRules.named(name)) }
        var run = Run()
        for index in 0..<cases {
            let example = SeekCase.make(&random, zones: zones, workdays: workdays, halfDays: halfDays)
            let recurrence = example.recurrence
            let expansion = Array(recurrence.occurrences().prefix(Self.expansionLength))
            // Shorter than asked: the expansion is complete, so it also says
            // where the occurrences end.
            let complete = expansion.count < Self.expansionLength
            run.frequencies[example.rule?.frequency ?? .daily, default: 0] += 1
            for part in SeekCase.partNames + SeekCase.workdayPartNames where example.description.contains(part) {
                run.parts[part, default: 0] += 1
            }
            for occurrence in expansion where occurrence.daysMoved != 0 {
                if occurrence.daysMoved > 0 { run.movedForward += 1 } else { run.movedBackward += 1 }
                if abs(occurrence.daysMoved) > 31 { run.movedFar += 1 }
            }
            // RDATEs are not judged by the workday rule.
            if halfDays, example.extras.isEmpty, let form = example.rule?.workdayRule, let schedule = example.workdays {
                for occurrence in expansion {
                    run.judgedByHalf += 1
                    if !Self.keeps(occurrence, form, schedule) {
                        run.failures.append("seed=\(String(seed, radix: 16)) case=\(index) \(example)\n"
                            + "\(Self.show(occurrence)) does not keep \(form) in its half")
                    }
                }
            }
            // Empty only when EXDATE takes out DTSTART and everything else, or
            // UNTIL comes before DTSTART.
            let startInstant = Int64(example.zone.resolve(example.start).instant)
            let first = expansion.first?.instant ?? startInstant
            let last = expansion.last?.instant ?? startInstant

            for _ in 0..<Self.instantsPerCase {
                let after = example.pickInstant(&random, first: first, last: last, expansion: expansion)
                let wanted = random.int(1...8)
                let expectedTail = expansion.filter { $0.instant > after.seconds }
                // Past the end of a truncated expansion nothing is known.
                let known = complete ? wanted + 1 : min(wanted, expectedTail.count)
                let expected = Array(expectedTail.prefix(known))
                // Both overloads: whole seconds, and a Date (which may carry a fraction).
                let sequence = after.date.timeIntervalSince1970 == Double(after.seconds) && random.chance(0.5)
                    ? recurrence.occurrences(after: after.seconds) : recurrence.occurrences(after: after.date)
                let actual = Array(sequence.prefix(known))
                let next = recurrence.nextOccurrence(after: after.date)
                run.checkedSeeks += 1
                if complete && expectedTail.isEmpty { run.seeksPastTheEnd += 1 }
                if after.isAtATransition { run.seeksAtATransition += 1 }
                if actual != expected || (known > 0 && next != expected.first) || (complete && expectedTail.isEmpty && next != nil) {
                    run.failures.append("""
                        seed=\(String(seed, radix: 16)) case=\(index) \(example)
                        after \(after.date) (\(after.seconds)\(after.date.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) == 0 ? "" : ", fractional"))
                        expected (from the expansion): \(expected.map(Self.show).joined(separator: " "))
                        occurrences(after:):           \(actual.map(Self.show).joined(separator: " "))
                        nextOccurrence(after:):        \(next.map(Self.show) ?? "nil")
                        """)
                }
            }

            for _ in 0..<2 {
                // Past the end of a truncated expansion nothing is known.
                let known = complete ? Date.distantFuture : Date(timeIntervalSince1970: TimeInterval(last))
                let a = min(example.pickInstant(&random, first: first, last: last, expansion: expansion).date, known)
                let b = min(example.pickInstant(&random, first: first, last: last, expansion: expansion).date, known)
                let range = min(a, b)..<max(a, b)
                let expected = expansion.filter { range.contains($0.date) }
                let actual = recurrence.occurrences(in: range)
                run.checkedRanges += 1
                if actual != expected {
                    run.failures.append("""
                        seed=\(String(seed, radix: 16)) case=\(index) \(example)
                        in \(range.lowerBound.timeIntervalSince1970)..<\(range.upperBound.timeIntervalSince1970)
                        expected (from the expansion): \(expected.map(Self.show).joined(separator: " "))
                        occurrences(in:):              \(actual.map(Self.show).joined(separator: " "))
                        """)
                }
            }
        }

        return run
    }

    /// An occurrence, with the time it was scheduled at when that differs.
    static func show(_ occurrence: Occurrence) -> String {
        occurrence.scheduledTime == occurrence.localTime ? occurrence.rfc3339 : "\(occurrence.rfc3339)(\(occurrence.scheduledTime))"
    }

    /// RFC 5545 makes such a recurrence DTSTART alone. Units are stepped
    /// through one at a time until 400 years (the Gregorian cycle) pass
    /// without a candidate; at HOURLY and finer that is millions of units,
    /// and SECONDLY;INTERVAL=2 with an odd BYSECOND is never recognised as
    /// empty. Each query runs on its own thread, at the lowest priority so
    /// that a runaway one spins without slowing the rest of the suite;
    /// answering takes milliseconds, and the minute it is given only tells a
    /// hang from an answer (at nice 19, a loaded machine can hold the
    /// thread off for seconds: how fast it is, is the benchmark's to say).
    @Test("a rule that can never produce yields DTSTART alone, from the start and from a seek, without a hang", arguments: [
        // One candidate an hour, so no second one to pick.
        "FREQ=HOURLY;BYMINUTE=5;BYSETPOS=2",
        "FREQ=MINUTELY;BYSECOND=5;BYSETPOS=2",
        // Two-second steps from :00 only ever visit even seconds.
        "FREQ=SECONDLY;INTERVAL=2;BYSECOND=1",
        // The kind already recognised up front, for comparison.
        "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30",
    ])
    func neverProducingRulesAnswerPromptly(_ text: String) throws {
        let recurrence = Recurrence(rule: try RecurrenceRule(rfc5545: text),
                                    start: try #require(LocalDateTime(parsing: "2020-01-01T09:00:00")),
                                    timeZone: try TimeZoneRules.named("Europe/London"))
        let fromStart = Self.withDeadline(seconds: 60) { recurrence.occurrences().prefix(2).map(\.rfc3339) }
        #expect(fromStart == ["2020-01-01T09:00:00+00:00"], "from the start: \(fromStart.map { "\($0)" } ?? "no answer within 60 s")")
        // 2020-06-01T00:00:00Z, after DTSTART.
        let fromSeek = Self.withDeadline(seconds: 60) { recurrence.occurrences(after: Int64(1_590_969_600)).prefix(1).map(\.rfc3339) }
        #expect(fromSeek == [], "after a seek: \(fromSeek.map { "\($0)" } ?? "no answer within 60 s")")
    }

    /// Runs `work` on its own thread and waits at most `seconds` for it. A
    /// thread that overruns is left to finish (or not) on its own; the test
    /// has failed either way.
    static func withDeadline<T: Sendable>(seconds: Double, _ work: @escaping @Sendable () -> T) -> T? {
        let result = SeekResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // An overrunning thread spins until the process ends; at the
            // lowest priority it leaves the cores to the tests still running.
            #if canImport(Glibc)
            // (On Linux the nice value belongs to the thread, so 0 is this one.)
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            #endif
            let value = work()
            result.value.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result.value.withLock { $0 }
    }
}

private final class SeekResultBox<T: Sendable>: Sendable {
    let value = Mutex<T?>(nil)
}

// MARK: - Random recurrences

/// Signed values for BY parts, on top of the shared generator.
private extension SplitMix64 {
    /// Values from 1…bound, each negated at random.
    mutating func signed(_ count: Int, upTo bound: Int) -> [Int] {
        distinct(count, from: Array(1...bound)).map { chance(0.3) ? -$0 : $0 }
    }
}

private struct SeekCase: CustomStringConvertible {
    static let zoneNames = [
        "America/New_York", "Europe/London", "Australia/Sydney",
        "Australia/Lord_Howe",  // a 30-minute shift
        "Europe/Dublin",        // negative daylight saving in the zoneinfo data
        "America/Sao_Paulo",    // transitions at midnight until 2019
        "Pacific/Chatham",      // +12:45 / +13:45
        "America/St_Johns", "Asia/Kolkata", "UTC",
    ]
    static let partNames = ["COUNT=", "UNTIL=", "INTERVAL=", "BYSETPOS=", "BYWEEKNO=", "BYYEARDAY=", "BYMONTHDAY=",
                            "BYMONTH=", "BYDAY=", "BYHOUR=", "BYMINUTE=", "BYSECOND=", "WKST=", "EXDATE", "RDATE", "all-day"]
    static let workdayPartNames = ["X-WORKDAY=SKIP", "X-WORKDAY=FORWARD", "X-WORKDAY=BACKWARD", "X-WORKDAY=MAKEUP",
                                   "X-WORKDAY=RETURN"]

    let rule: RecurrenceRule?
    let zone: TimeZoneRules
    let start: LocalDateTime
    let isAllDay: Bool
    let exceptions: [LocalDateTime]
    let extras: [LocalDateTime]
    let workdays: RandomSchedule?
    let recurrence: Recurrence

    var description: String {
        var text = "RRULE:\(rule?.rfc5545 ?? "(none)") DTSTART;TZID=\(zone.identifier):"
        text += isAllDay ? start.date.basicFormat + " (all-day)" : start.basicFormat
        if !exceptions.isEmpty { text += " EXDATE:" + exceptions.map { isAllDay ? $0.date.basicFormat : $0.basicFormat }.joined(separator: ",") }
        if !extras.isEmpty { text += " RDATE:" + extras.map { isAllDay ? $0.date.basicFormat : $0.basicFormat }.joined(separator: ",") }
        if let workdays { text += " workdays: \(workdays)" }
        return text
    }

    struct Instant {
        var seconds: Int64
        var date: Date
        var isAtATransition = false
    }

    /// An instant to seek from: an occurrence itself (the bound is strict),
    /// a second either side, somewhere between, before DTSTART, past the
    /// last, or in the middle of a transition, sometimes with a fraction of a
    /// second.
    func pickInstant(_ random: inout SplitMix64, first: Int64, last: Int64, expansion: [Occurrence]) -> Instant {
        let instants = expansion.isEmpty ? [first] : expansion.map(\.instant)
        var seconds: Int64
        var isAtATransition = false
        switch random.int(0...9) {
        case 0, 1: seconds = random.element(instants)
        case 2: seconds = random.element(instants) - 1
        case 3: seconds = random.element(instants) + 1
        case 4:
            // Now and then the very ends of time.
            if random.chance(0.1) {
                let end = random.chance(0.5) ? Date.distantPast : Date.distantFuture
                return Instant(seconds: Int64(end.timeIntervalSince1970), date: end)
            }
            seconds = first - random.int64(1...10_000_000)
        case 5: seconds = last + random.int64(0...100_000)
        case 6:
            // The middle of a transition near an occurrence, where the wall
            // clock skips or repeats.
            let near = random.element(instants)
            seconds = near
            for offset in stride(from: Int64(-86_400 * 200), through: 86_400 * 200, by: 3600) {
                let moment = near + offset
                if zone.offset(at: moment) != zone.offset(at: moment + 3600) {
                    seconds = moment + random.int64(0...3600)
                    isAtATransition = true
                    break
                }
            }
        default: seconds = random.int64(min(first, last)...max(first, last))
        }
        var date = Date(timeIntervalSince1970: TimeInterval(seconds))
        if random.chance(0.15) {
            let fraction = Double(random.int(1...999)) / 1000
            date = date.addingTimeInterval(random.chance(0.5) ? fraction : -fraction)
            seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        }
        return Instant(seconds: seconds, date: date, isAtATransition: isAtATransition)
    }

    static func make(_ random: inout SplitMix64, zones: [TimeZoneRules], workdays: Bool = false, halfDays: Bool = false) -> SeekCase {
        while true {
            if let example = try? attempt(&random, zones: zones, workdays: workdays, halfDays: halfDays) { return example }
        }
    }

    private static func attempt(_ random: inout SplitMix64, zones: [TimeZoneRules], workdays withWorkdays: Bool, halfDays: Bool) throws -> SeekCase? {
        let zone = random.element(zones)
        let frequency: RecurrenceRule.Frequency = random.element([
            .yearly, .yearly, .yearly, .monthly, .monthly, .monthly, .weekly, .weekly, .daily, .daily, .daily,
            .hourly, .hourly, .minutely, .minutely, .secondly,
        ])
        let isAllDay = frequency >= .daily && random.chance(0.12)
        let subDaily = frequency < .daily

        // Any hour at all, gaps and folds included.
        let startDay = CivilDate(dayNumber: CivilDate.dayNumber(year: 2000, month: 1, day: 1) + random.int(0...(31 * 365)))
        let start = LocalDateTime(date: startDay, hour: isAllDay ? 0 : random.int(0...23),
                                  minute: isAllDay || random.chance(0.5) ? 0 : random.int(0...59),
                                  second: isAllDay || random.chance(0.8) ? 0 : random.int(0...59))!

        var interval = 1
        if random.chance(0.35) {
            switch frequency {
            case .yearly: interval = random.int(2...4)
            case .monthly: interval = random.int(2...13)
            case .weekly: interval = random.int(2...5)
            case .daily: interval = random.int(2...40)
            // Past a day, an HOURLY step visits each date at most once, and
            // with day limits the rule gets sparse enough to make the
            // 100-occurrence walk take seconds.
            case .hourly: interval = random.int(2...23)
            case .minutely: interval = random.int(2...150)
            case .secondly: interval = random.int(2...90)
            }
        }

        var months: [Int] = [], monthDays: [Int] = [], yearDays: [Int] = [], weekNumbers: [Int] = []
        var weekdays: [RecurrenceRule.DayOfWeek] = []
        var hours: [Int] = [], minutes: [Int] = [], seconds: [Int] = []
        if random.chance(0.25) { months = random.distinct(random.int(1...4), from: Array(1...12)) }
        if frequency == .yearly && random.chance(0.25) { weekNumbers = random.signed(random.int(1...3), upTo: 53) }
        if (frequency == .yearly || subDaily) && random.chance(0.12) { yearDays = random.signed(random.int(1...3), upTo: 366) }
        if frequency != .weekly && random.chance(0.25) { monthDays = random.signed(random.int(1...4), upTo: 31) }
        if subDaily && !yearDays.isEmpty {
            // Days of the year against days of the month or months can
            // exclude each other for good, and a sub-daily rule takes
            // minutes per empty year to find that out (see
            // neverProducingRulesAnswerPromptly); keep one of them. A
            // sub-daily rule on a few days a year is sparse enough to make
            // the expansion itself slow, so no weekdays either.
            months = []
            monthDays = []
        }
        let sparseDays = subDaily && !yearDays.isEmpty
        if !sparseDays && random.chance(0.4) {
            let numbered = (frequency == .monthly || (frequency == .yearly && weekNumbers.isEmpty)) && random.chance(0.5)
            for day in random.distinct(random.int(1...4), from: Array(0...6)) {
                var position = 0
                if numbered {
                    let bound = frequency == .monthly || !months.isEmpty ? 5 : 53
                    position = random.int(1...bound) * (random.chance(0.4) ? -1 : 1)
                }
                weekdays.append(RecurrenceRule.DayOfWeek(Weekday(rawValue: day)!, position: position))
            }
        }
        if frequency <= .daily && !months.isEmpty && !monthDays.isEmpty && !weekdays.isEmpty {
            // All three day limits at once make a sparse rule (BYMONTH=8;
            // BYMONTHDAY=24;BYDAY=FR,MO,SA), whose walk to 100 occurrences
            // crosses centuries a day at a time.
            months = []
        }
        if !isAllDay {
            if random.chance(0.25) { hours = random.distinct(random.int(1...4), from: Array(0...23)) }
            // SECONDLY walks every second of a minute that BYMINUTE rules out.
            if frequency != .secondly && random.chance(0.2) { minutes = random.distinct(random.int(1...4), from: Array(0...59)) }
            if random.chance(frequency == .secondly ? 0.5 : 0.12) {
                seconds = random.distinct(random.int(1...(frequency == .secondly ? 20 : 3)), from: Array(0...59))
            }
        }
        if frequency == .secondly && !seconds.isEmpty && interval > 1 {
            // SECONDLY;INTERVAL=2;BYSECOND=1 from :00 never produces and is
            // not recognised as empty (see neverProducingRulesAnswerPromptly).
            interval = 1
        }
        if frequency == .daily && !weekdays.isEmpty && interval % 7 == 0 { interval += 1 }

        var setPositions: [Int] = []
        let hasByPart = !(months.isEmpty && monthDays.isEmpty && yearDays.isEmpty && weekNumbers.isEmpty && weekdays.isEmpty
            && hours.isEmpty && minutes.isEmpty && seconds.isEmpty)
        if hasByPart && random.chance(0.18) {
            // A position past the candidates every period has makes a rule
            // that never produces; below DAILY that is the slow case above.
            let bound: Int
            switch frequency {
            case .secondly: bound = 1
            case .minutely: bound = max(seconds.count, 1)
            case .hourly: bound = max(minutes.count, 1) * max(seconds.count, 1)
            case .daily: bound = min(max(hours.count, 1) * max(minutes.count, 1) * max(seconds.count, 1), 6)
            case .weekly:
                let days = weekdays.isEmpty ? 1 : weekdays.count
                bound = min(days * max(hours.count, 1) * max(minutes.count, 1) * max(seconds.count, 1), 6)
            default: bound = 6
            }
            setPositions = random.distinct(random.int(1...2), from: Array(1...bound)).map { random.chance(0.4) ? -$0 : $0 }
        }

        var end: RecurrenceRule.End?
        switch random.int(0...9) {
        case 0...2: end = .count(random.int(1...150))
        case 3...5:
            let span: Int64
            switch frequency {
            case .yearly: span = 60 * 366 * 86_400
            case .monthly: span = 12 * 366 * 86_400
            case .weekly: span = 3 * 366 * 86_400
            case .daily: span = 400 * 86_400
            case .hourly: span = 20 * 86_400
            case .minutely: span = 86_400
            case .secondly: span = 2 * 3600
            }
            let until = LocalDateTime(localSeconds: start.localSeconds + random.int64(0...span))
            switch random.int(0...2) {
            case 0: end = .until(.date(until.date))
            case 1: end = .until(.local(until))
            default: end = .until(.utc(until))
            }
        default: end = nil
        }

        var rule = random.chance(withWorkdays ? 0 : 0.03) ? nil : try RecurrenceRule(
            frequency: frequency, interval: interval, end: end, daysOfTheWeek: weekdays, daysOfTheMonth: monthDays,
            daysOfTheYear: yearDays, weeksOfTheYear: weekNumbers, monthsOfTheYear: months, hours: hours, minutes: minutes,
            seconds: seconds, setPositions: setPositions, firstDayOfTheWeek: Weekday(rawValue: random.int(0...6))!)
        var workdays: RandomSchedule?
        if withWorkdays {
            var schedule = RandomSchedule(&random, around: start.date)
            if halfDays { schedule = schedule.withHalfDays(&random) }
            var form: WorkdayRule
            switch random.int(0...9) {
            case 0...1: form = .skip
            case 2...3: form = .forward
            case 4...5: form = .backward
            case 6...7: form = .makeup
            default:
                // A break the calendar never has would leave nothing to check
                // but the walk to the 400-year bound, which is slow at
                // DAILY and finer (see WorkdayRecurrenceTests for that bound).
                let longest = min(schedule.longestBreak, WorkdayRule.longestReach)
                form = .firstAfterBreak(days: longest > 5 && random.chance(0.15) ? random.int(6...longest) : random.int(1...max(1, min(5, longest))))
            }
            // Rules that would keep nothing or walk for long are left out,
            // as for plain rules above, to keep the run short; what is
            // checked is whether seeking agrees, not how long a walk takes.
            // MAKEUP needs makeup days and no weekdays that may miss them
            // all; SECONDLY rules would move up to 86,400 times a day.
            if case .makeup = form, schedule.makeupCount == 0 || !weekdays.isEmpty { form = .skip }
            if frequency == .secondly, case .forward = form { form = .skip }
            if frequency == .secondly, case .backward = form { form = .skip }
            rule = try rule?.withWorkdayRule(form)
            workdays = schedule
        }

        // RDATEs near the start (before it too), EXDATEs on some of the
        // rule's own occurrences and on a few times that are not.
        func nearby() -> LocalDateTime {
            let reach: Int64 = subDaily ? 3 * 86_400 : 3 * 366 * 86_400
            var time = LocalDateTime(localSeconds: start.localSeconds + random.int64(-reach / 10...reach))
            if isAllDay { time = LocalDateTime(date: time.date)! }
            return time
        }
        var extras: [LocalDateTime] = []
        if random.chance(0.3) { for _ in 0..<random.int(1...5) { extras.append(nearby()) } }
        var exceptions: [LocalDateTime] = []
        if random.chance(0.3) {
            let plain = build(rule: rule, start: start, zone: zone, isAllDay: isAllDay, exceptions: [], extras: extras,
                              workdays: workdays)
            let some = Array(plain.occurrences().prefix(60))
            // (None at all when UNTIL, read in UTC, falls before DTSTART.)
            if !some.isEmpty { for _ in 0..<random.int(1...6) { exceptions.append(random.element(some).scheduledTime) } }
            if random.chance(0.5) { exceptions.append(nearby()) }
        }
        let recurrence = build(rule: rule, start: start, zone: zone, isAllDay: isAllDay, exceptions: exceptions, extras: extras,
                               workdays: workdays)
        return SeekCase(rule: rule, zone: zone, start: start, isAllDay: isAllDay, exceptions: exceptions, extras: extras,
                        workdays: workdays, recurrence: recurrence)
    }

    private static func build(rule: RecurrenceRule?, start: LocalDateTime, zone: TimeZoneRules, isAllDay: Bool,
                              exceptions: [LocalDateTime], extras: [LocalDateTime], workdays: RandomSchedule?) -> Recurrence {
        if isAllDay {
            // Sub-daily rules and time parts were kept out above, so this does not throw.
            return try! Recurrence(rule: rule, startDate: start.date, timeZone: zone,
                                   exceptionDates: exceptions.map(\.date), extraDates: extras.map(\.date), workdays: workdays)
        }
        return Recurrence(rule: rule, start: start, timeZone: zone, exceptionDates: exceptions, extraDates: extras,
                          workdays: workdays)
    }
}
