import CalendarModel
import CalendarStore
import Foundation
import SeededRandom
import TestSupport
import Testing

/// Splitting a series changes nothing but what the split asked: for random
/// series (COUNT, UNTIL or neither; EXDATEs, RDATEs, detached occurrences,
/// some moved on their own; all-day ones), a change of "this and future
/// occurrences" at a random occurrence, with a new title and a new start,
/// lists the same occurrences as before: the earlier ones as they were, the
/// later ones retitled and moved by the same wall-clock shift (a detached
/// occurrence keeps its own title, and its own time when it was moved on its
/// own, unless it is the one the change was made to). Removing "this and
/// future" leaves exactly the earlier ones.
@Suite("A split series together equals the unsplit one")
struct SplitPropertyTests {
    /// Fixed so that every run checks the same series; set CHIME_SPLIT_SEED to explore others.
    static let defaultSeed: UInt64 = 0x5EE4_0000_5B17
    static let caseCount = 160

    struct Tally {
        var failures: [String] = []
        var counts: [String: Int] = [:]
        mutating func note(_ feature: String) { counts[feature, default: 0] += 1 }
    }

    @Test("the split series and their detached occurrences list what the unsplit series did, with the edited fields aside")
    func splitsMatchTheUnsplitSeries() throws {
        let seed = ProcessInfo.processInfo.environment["CHIME_SPLIT_SEED"].flatMap { UInt64($0, radix: 16) } ?? Self.defaultSeed
        var random = SplitMix64(seed: seed)
        let fixture = try StoreFixture()
        let store = try fixture.open()
        var tally = Tally()
        for index in 0..<Self.caseCount {
            try Self.check(index, &random, store, &tally)
        }
        for failure in tally.failures.prefix(10) { Issue.record(Comment(rawValue: failure)) }
        #expect(tally.failures.isEmpty, "\(tally.failures.count) of \(Self.caseCount) splits changed more than asked (seed \(String(seed, radix: 16)))")
        // The property must not hold by checking nothing.
        for feature in ["COUNT", "UNTIL", "no end", "EXDATE after the cut", "EXDATE before the cut", "RDATE", "detached after the cut",
                        "detached moved on its own", "cut at an RDATE", "cut at a detached occurrence", "cut at the start", "rule over before the cut",
                        "nothing repeats after the cut", "all-day", "shifted", "removed"] {
            #expect(tally.counts[feature, default: 0] >= 3, "\(feature): \(tally.counts)")
        }
    }

    /// One random series, split at one of its occurrences.
    static func check(_ index: Int, _ random: inout SplitMix64, _ store: CalendarStore, _ tally: inout Tally) throws {
        let calendar = ItemCalendar(title: "Case \(index)")
        try store.save(calendar)
        let zone = random.element(["Asia/Shanghai", "UTC"])
        let allDay = random.chance(0.2)
        let firstDay = CivilDate(year: 2026, month: 12, day: 1)!.adding(days: random.int(0...6))
        let clock = allDay ? LocalDateTime(date: firstDay)! : LocalDateTime(date: firstDay, hour: random.int(8...11), minute: random.element([0, 15, 30]))!
        var parts: [String]
        switch random.int(0...(allDay ? 2 : 3)) {
        case 0: parts = ["FREQ=DAILY", "INTERVAL=\(random.int(1...3))"]
        case 1:
            let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
            parts = ["FREQ=WEEKLY", "INTERVAL=\(random.int(1...2))"]
            if random.chance(0.6) { parts.append("BYDAY=" + random.distinct(random.int(1...3), from: 0...6).sorted().map { days[$0] }.joined(separator: ",")) }
        case 2: parts = ["FREQ=MONTHLY"]
        default: parts = ["FREQ=HOURLY", "INTERVAL=\(random.int(5...13))"]
        }
        switch random.int(0...4) {
        case 0, 1:
            parts.append("COUNT=\(random.int(2...20))")
            tally.note("COUNT")
        case 2, 3:
            let last = firstDay.adding(days: random.int(3...70))
            parts.append(allDay ? "UNTIL=\(last.basicFormat)" : "UNTIL=\(last.basicFormat)T\(String(format: "%02d", random.int(0...23)))0000Z")
            tally.note("UNTIL")
        default:
            tally.note("no end")
        }
        if allDay { tally.note("all-day") }
        let rule = try RecurrenceRule(rfc5545: parts.joined(separator: ";"))
        let start: ItemTime = allDay ? .date(firstDay) : .zoned(clock, zone: zone)
        let end: ItemTime = allDay ? .date(firstDay.adding(days: random.int(0...1)))
            : .zoned(LocalDateTime(localSeconds: clock.localSeconds + Int64(random.element([0, 1800, 3600, 5400]))), zone: zone)
        var series = Event(calendarIdentifier: calendar.identifier, title: "Series", start: start, end: end, recurrenceRule: rule)
        for _ in 0..<random.int(0...3) {
            let day = firstDay.adding(days: random.int(1...60))
            series.extraDates.append(allDay ? LocalDateTime(date: day)! : LocalDateTime(date: day, hour: random.int(6...20), minute: random.element([0, 45]))!)
        }
        if !series.extraDates.isEmpty { tally.note("RDATE") }
        try store.save(series)

        let range = LocalDateTime(date: firstDay.adding(days: -3))!.localSeconds..<LocalDateTime(date: firstDay.adding(days: 150))!.localSeconds
        func listed() throws -> [Event] {
            let dates = Date(timeIntervalSince1970: TimeInterval(range.lowerBound - 86_400))..<Date(timeIntervalSince1970: TimeInterval(range.upperBound + 86_400))
            return try store.events(overlapping: dates, calendars: [calendar.identifier])
        }
        // Exceptions and detached occurrences among the occurrences there are.
        let plain = try listed()
        guard plain.count >= 2 else { return }
        for occurrence in plain.dropFirst() where random.chance(0.12) {
            try store.remove(occurrence, span: .thisEvent)
        }
        for (number, occurrence) in try listed().enumerated() where random.chance(0.1) {
            var detached = occurrence
            detached.title = "Detached \(number)"
            if random.chance(0.5) && !allDay {
                detached.start = .zoned(LocalDateTime(localSeconds: occurrence.start.wallClock.localSeconds + 900), zone: zone)
                detached.end = .zoned(LocalDateTime(localSeconds: occurrence.end.wallClock.localSeconds + 900), zone: zone)
            }
            try store.save(detached, span: .thisEvent)
        }
        series = try store.event(identifier: series.identifier)
        let before = try listed()
        let cutEvent = random.element(before)
        let cut = try #require(cutEvent.originalStart)

        // Features of this case, for the tally.
        if series.exceptionDates.contains(where: { $0 >= cut }) { tally.note("EXDATE after the cut") }
        if series.exceptionDates.contains(where: { $0 < cut }) { tally.note("EXDATE before the cut") }
        let detachedAfter = before.filter { $0.identifier != series.identifier && $0.originalStart! >= cut }
        if !detachedAfter.isEmpty { tally.note("detached after the cut") }
        if detachedAfter.contains(where: { $0.start.wallClock != $0.originalStart }) { tally.note("detached moved on its own") }
        if series.extraDates.contains(cut) { tally.note("cut at an RDATE") }
        if cutEvent.identifier != series.identifier { tally.note("cut at a detached occurrence") }
        if cut == series.start.wallClock { tally.note("cut at the start") }
        let ruleOnly = try store.recurrence(ofEvent: Event(calendarIdentifier: calendar.identifier, title: "", start: series.start,
                                                           end: series.end, recurrenceRule: rule))
        let cutInstant = try TimeZoneRules.named(allDay ? "Asia/Shanghai" : zone).resolve(cut).instant
        if !ruleOnly.occurrences().contains(where: { $0.instant >= cutInstant }) {
            tally.note("rule over before the cut")
            if !series.extraDates.contains(where: { $0 > cut }) { tally.note("nothing repeats after the cut") }
        }

        let removes = random.chance(0.25)
        let shift: Int64 = removes || allDay ? 0 : random.element([0, 1800, -3600, 7200])
        if shift != 0 { tally.note("shifted") }
        func line(_ event: Event, shiftedBy delta: Int64, title: String) -> String {
            func moved(_ time: ItemTime) -> String { LocalDateTime(localSeconds: time.wallClock.localSeconds + delta).description }
            return "\(moved(event.start))–\(moved(event.end)) \(title)"
        }
        var expected: [String] = []
        for event in before {
            let original = try #require(event.originalStart)
            if original < cut { expected.append(line(event, shiftedBy: 0, title: event.title)); continue }
            if removes { continue }
            if event.identifier == cutEvent.identifier && event.identifier != series.identifier {
                // The detached occurrence the change was made to takes it.
                expected.append(line(event, shiftedBy: shift, title: "Later"))
            } else if event.identifier != series.identifier {
                expected.append(line(event, shiftedBy: event.start.wallClock == original ? shift : 0, title: event.title))
            } else {
                expected.append(line(event, shiftedBy: shift, title: "Later"))
            }
        }
        if removes {
            tally.note("removed")
            try store.remove(cutEvent, span: .futureEvents)
        } else {
            var changed = cutEvent
            changed.title = "Later"
            if shift != 0 {
                changed.start = .zoned(LocalDateTime(localSeconds: changed.start.wallClock.localSeconds + shift), zone: zone)
                changed.end = .zoned(LocalDateTime(localSeconds: changed.end.wallClock.localSeconds + shift), zone: zone)
            }
            try store.save(changed, span: .futureEvents)
        }
        // Compared away from the window's edges, where a shift moves occurrences in or out.
        let inner = (range.lowerBound + 4 * 86_400)..<(range.upperBound - 4 * 86_400)
        func kept(_ text: String) -> Bool {
            inner.contains(LocalDateTime(parsing: text.prefix(19))!.localSeconds)
        }
        let after = try listed().map { line($0, shiftedBy: 0, title: $0.title) }.filter(kept).sorted()
        let wanted = expected.filter(kept).sorted()
        if after != wanted {
            tally.failures.append("case \(index): \(rule.rfc5545) from \(series.start), EXDATE \(series.exceptionDates), RDATE \(series.extraDates), "
                                  + "\(removes ? "removed" : "split") at \(cut) shifted \(shift): missing \(wanted.filter { !after.contains($0) }), "
                                  + "extra \(after.filter { !wanted.contains($0) })")
        }
    }
}
