import CalendarModel
import Foundation
import RecurrenceEngine
import TestSupport
import Testing

/// The expansion bound: a COUNT rule is walked at most
/// `Recurrence.expansionBound` occurrences to find where COUNT ends, so a
/// seek into it costs that at worst, never a walk to year 9999.
@Suite("Expansion bound")
struct ExpansionBoundTests {
    static func recurrence(_ rule: String, from start: String = "2026-12-01T08:00:00") throws -> Recurrence {
        Recurrence(rule: try RecurrenceRule(rfc5545: rule), start: try #require(LocalDateTime(parsing: start)), timeZone: .utc)
    }

    static func next(_ recurrence: Recurrence, after text: String) throws -> String? {
        recurrence.occurrences(after: try foundationUnixTime(text)).first(where: { _ in true })?.rfc3339
    }

    @Test("the bound is 100,000 occurrences")
    func boundValue() {
        #expect(Recurrence.expansionBound == 100_000)
    }

    @Test("SECONDLY with COUNT=999999999999 seeks at once, expands its first 100,000 occurrences and says it is beyond the bound",
          .timeLimit(.minutes(1)))
    func secondlyHugeCount() throws {
        let recurrence = try Self.recurrence("FREQ=SECONDLY;COUNT=999999999999")
        let problem = try #require(recurrence.boundError)
        #expect(problem.description.contains("FREQ=SECONDLY;COUNT=999999999999"))
        #expect(problem.description.contains("100000"))
        // The last one expanded: the start plus 99,999 s.
        #expect(problem.description.contains("2026-12-02T11:46:39Z"))
        #expect(try Self.next(recurrence, after: "2026-12-01T08:00:50Z") == "2026-12-01T08:00:51+00:00")
        #expect(try Self.next(recurrence, after: "2026-12-02T11:46:38Z") == "2026-12-02T11:46:39+00:00")
        #expect(try Self.next(recurrence, after: "2026-12-02T11:46:39Z") == nil)
        // Walking from the start stops at the same place.
        var count = 0
        var last: Occurrence?
        for occurrence in recurrence.occurrences() {
            count += 1
            last = occurrence
        }
        #expect(count == 100_000)
        #expect(last?.rfc3339 == "2026-12-02T11:46:39+00:00")
    }

    @Test("MINUTELY and HOURLY with COUNT=999999999999 answer a seek at once", .timeLimit(.minutes(1)))
    func minutelyAndHourly() throws {
        let minutely = try Self.recurrence("FREQ=MINUTELY;COUNT=999999999999")
        #expect(minutely.boundError != nil)
        #expect(try Self.next(minutely, after: "2026-12-05T00:00:30Z") == "2026-12-05T00:01:00+00:00")
        // 99,999 minutes after the start: 2027-02-08T18:39:00Z.
        #expect(try Self.next(minutely, after: "2027-02-08T18:38:59Z") == "2027-02-08T18:39:00+00:00")
        #expect(try Self.next(minutely, after: "2027-02-08T18:39:00Z") == nil)
        let hourly = try Self.recurrence("FREQ=HOURLY;COUNT=999999999999")
        #expect(hourly.boundError != nil)
        #expect(try Self.next(hourly, after: "2027-06-01T00:30:00Z") == "2027-06-01T01:00:00+00:00")
    }

    @Test("COUNT at the bound is exact and within it; one more is beyond it")
    func atTheBound() throws {
        let exact = try Self.recurrence("FREQ=SECONDLY;COUNT=100000")
        #expect(exact.boundError == nil)
        #expect(try Self.next(exact, after: "2026-12-02T11:46:38Z") == "2026-12-02T11:46:39+00:00")
        #expect(try Self.next(exact, after: "2026-12-02T11:46:39Z") == nil)
        let over = try Self.recurrence("FREQ=SECONDLY;COUNT=100001")
        #expect(over.boundError != nil)
        #expect(try Self.next(over, after: "2026-12-02T11:46:39Z") == nil)
    }

    @Test("a huge COUNT that the rule cannot reach before year 10000 is within the bound and exact: YEARLY to 9999-12-01")
    func yearlyHugeCount() throws {
        let recurrence = try Self.recurrence("FREQ=YEARLY;COUNT=999999999999")
        #expect(recurrence.boundError == nil)
        #expect(try Self.next(recurrence, after: "9998-12-01T08:00:00Z") == "9999-12-01T08:00:00+00:00")
        // 2026 through 9999.
        #expect(Array(recurrence.occurrences()).count == 7974)
    }

    @Test("rules without COUNT are never beyond the bound")
    func noCount() throws {
        #expect(try Self.recurrence("FREQ=SECONDLY").boundError == nil)
        #expect(try Self.recurrence("FREQ=SECONDLY;UNTIL=20271201T000000Z").boundError == nil)
        #expect(Recurrence(rule: nil, start: try #require(LocalDateTime(parsing: "2026-12-01T08:00:00")), timeZone: .utc).boundError == nil)
    }
}
