import CalendarModel
import Foundation
import RecurrenceEngine
import TestSupport
import Testing

// Weekday anchors used in the comments below (checked with Python's datetime):
// 2024-01-01 Mon, 2025-01-01 Wed, 2026-01-01 Thu, 2027-01-01 Fri, 2028-01-01 Sat
// (leap), 2031-01-01 Wed, 2032-01-01 Thu (leap).
@Suite("Recurrence edge cases")
struct RecurrenceEdgeCaseTests {
    /// What one check asks of a recurrence; instants are RFC 3339 texts.
    enum Query: Sendable, CustomStringConvertible {
        case all
        case first(Int)
        /// `occurrences(after:)`, cut to its first `first` when given.
        case after(String, first: Int?)
        /// `nextOccurrence(after:)`: one occurrence or none.
        case next(after: String)
        /// `occurrences(in:)` over [from, to).
        case during(from: String, to: String)

        var description: String {
            switch self {
            case .all: "all"
            case .first(let count): "the first \(count)"
            case .after(let instant, let first): "after \(instant)" + (first.map { ", the first \($0)" } ?? "")
            case .next(let instant): "next after \(instant)"
            case .during(let from, let to): "in [\(from), \(to))"
            }
        }
    }

    /// A query and the occurrences it must give, in their printed form.
    struct Check: Sendable {
        let query: Query
        let expected: [String]

        static func all(_ expected: [String]) -> Check { Check(query: .all, expected: expected) }
        static func first(_ count: Int, _ expected: [String]) -> Check { Check(query: .first(count), expected: expected) }
        static func after(_ instant: String, first: Int? = nil, _ expected: [String]) -> Check {
            Check(query: .after(instant, first: first), expected: expected)
        }
        static func next(after instant: String, _ expected: [String]) -> Check { Check(query: .next(after: instant), expected: expected) }
        static func during(from: String, to: String, _ expected: [String]) -> Check {
            Check(query: .during(from: from, to: to), expected: expected)
        }
    }

    /// One recurrence set and the checks asked, in order, of one value of
    /// it (so a later check sees what an earlier one left in its caches).
    struct Expansion: Sendable {
        let rule: String
        /// A local date-time, or a date when `allDay`.
        let start: String
        let zone: String
        let allDay: Bool
        let exceptions: [String]
        let extras: [String]
        let checks: [Check]

        static func timed(_ rule: String, from start: String, in zone: String = "UTC", exceptions: [String] = [],
                          extras: [String] = [], _ checks: Check...) -> Expansion {
            Expansion(rule: rule, start: start, zone: zone, allDay: false, exceptions: exceptions, extras: extras, checks: checks)
        }

        static func allDay(_ rule: String, from start: String, in zone: String = "America/New_York", exceptions: [String] = [],
                           extras: [String] = [], _ checks: Check...) -> Expansion {
            Expansion(rule: rule, start: start, zone: zone, allDay: true, exceptions: exceptions, extras: extras, checks: checks)
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let title: String
        let expansions: [Expansion]

        init(_ title: String, _ expansions: Expansion...) {
            self.title = title
            self.expansions = expansions
        }

        var testDescription: String { title }
    }

    // MARK: Helpers

    static func date(_ rfc3339: String) throws -> Date { Date(timeIntervalSince1970: TimeInterval(try foundationUnixTime(rfc3339))) }

    static func recurrence(_ rule: String, from start: String, in zone: String = "UTC") throws -> Recurrence {
        Recurrence(rule: try RecurrenceRule(rfc5545: rule), start: try localTime(start), timeZone: try TimeZoneRules.named(zone))
    }

    static func recurrence(_ expansion: Expansion) throws -> Recurrence {
        let rule = try RecurrenceRule(rfc5545: expansion.rule)
        let zone = try TimeZoneRules.named(expansion.zone)
        if expansion.allDay {
            return try Recurrence(rule: rule, startDate: try civilDate(expansion.start), timeZone: zone,
                                  exceptionDates: try expansion.exceptions.map { try civilDate($0) },
                                  extraDates: try expansion.extras.map { try civilDate($0) })
        }
        return Recurrence(rule: rule, start: try localTime(expansion.start), timeZone: zone,
                          exceptionDates: try expansion.exceptions.map { try localTime($0) },
                          extraDates: try expansion.extras.map { try localTime($0) })
    }

    static func occurrences(_ query: Query, of r: Recurrence) throws -> [Occurrence] {
        switch query {
        case .all: Array(r.occurrences())
        case .first(let count): Array(r.occurrences().prefix(count))
        case .after(let instant, let first): Array(r.occurrences(after: try foundationUnixTime(instant)).prefix(first ?? .max))
        case .next(let instant): r.nextOccurrence(after: try date(instant)).map { [$0] } ?? []
        case .during(let from, let to): r.occurrences(in: try date(from)..<date(to))
        }
    }

    /// Each case's checks: the printed form of each occurrence and, for a
    /// timed one, its instant; for an all-day one, its day.
    @Test("Each edge case yields exactly the occurrences listed", arguments: cases)
    func edgeCase(_ edge: Case) throws {
        for expansion in edge.expansions {
            let r = try Self.recurrence(expansion)
            for check in expansion.checks {
                let actual = try Self.occurrences(check.query, of: r)
                let what = "\(expansion.rule) from \(expansion.start), \(check.query)"
                #expect(actual.map(\.rfc3339) == check.expected, "\(what)")
                if expansion.allDay {
                    #expect(actual.allSatisfy { $0.isAllDay }, "\(what)")
                    #expect(actual.map(\.day) == (try check.expected.map { try civilDate($0) }), "\(what)")
                } else {
                    #expect(actual.map(\.instant) == (try check.expected.map(foundationUnixTime)), "\(what)")
                }
            }
        }
    }

    static let cases: [Case] = [
        // MARK: BYSETPOS

        // Jan 31 and Feb 28 are Saturdays, May 31 a Sunday: the Fridays before them win.
        Case("BYSETPOS=-1 over Monday to Friday picks the last weekday of each month",
             .timed("FREQ=MONTHLY;COUNT=6;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", from: "2026-01-30T09:00:00", .all([
                 "2026-01-30T09:00:00+00:00",
                 "2026-02-27T09:00:00+00:00",
                 "2026-03-31T09:00:00+00:00",
                 "2026-04-30T09:00:00+00:00",
                 "2026-05-29T09:00:00+00:00",
                 "2026-06-30T09:00:00+00:00",
             ]))),
        // Jan: Th 1, Tu 6, We 7. Feb and Mar: Tu 3, We 4, Th 5. Apr: We 1, Th 2, Tu 7.
        Case("BYSETPOS=3 over Tuesday to Thursday picks the third such day of each month",
             .timed("FREQ=MONTHLY;COUNT=4;BYDAY=TU,WE,TH;BYSETPOS=3", from: "2026-01-07T09:00:00", .all([
                 "2026-01-07T09:00:00+00:00",
                 "2026-02-05T09:00:00+00:00",
                 "2026-03-05T09:00:00+00:00",
                 "2026-04-07T09:00:00+00:00",
             ]))),
        // Feb 1 and Mar 1 are Sundays, so the first weekday is the 2nd.
        Case("BYSETPOS=1,-1 gives the first and the last weekday of each month, in order",
             .timed("FREQ=MONTHLY;COUNT=6;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,-1", from: "2026-01-01T09:00:00", .all([
                 "2026-01-01T09:00:00+00:00",
                 "2026-01-30T09:00:00+00:00",
                 "2026-02-02T09:00:00+00:00",
                 "2026-02-27T09:00:00+00:00",
                 "2026-03-02T09:00:00+00:00",
                 "2026-03-31T09:00:00+00:00",
             ]))),
        // Jan ends Sat 31 (so Sun 25), Feb ends Sat 28 (so Sun 22), Mar ends Sun 29 (so Sat 28).
        Case("BYSETPOS=-2 counts back from the end of the month's weekend days",
             .timed("FREQ=MONTHLY;COUNT=3;BYDAY=SA,SU;BYSETPOS=-2", from: "2026-01-25T10:00:00", .all([
                 "2026-01-25T10:00:00+00:00",
                 "2026-02-22T10:00:00+00:00",
                 "2026-03-28T10:00:00+00:00",
             ]))),
        Case("A weekly BYSETPOS follows WKST: the first weekend day is Saturday for MO, Sunday for SU",
             .timed("FREQ=WEEKLY;BYDAY=SU,SA;BYSETPOS=1", from: "2026-01-03T10:00:00", .first(3, [
                 "2026-01-03T10:00:00+00:00",
                 "2026-01-10T10:00:00+00:00",
                 "2026-01-17T10:00:00+00:00",
             ])),
             // Weeks run Sunday to Saturday: the week of the start picks Sun Dec 28 (before
             // the start), the next ones Sun Jan 4 and Sun Jan 11.
             .timed("FREQ=WEEKLY;BYDAY=SU,SA;BYSETPOS=1;WKST=SU", from: "2026-01-03T10:00:00", .first(3, [
                 "2026-01-03T10:00:00+00:00",
                 "2026-01-04T10:00:00+00:00",
                 "2026-01-11T10:00:00+00:00",
             ]))),
        // Each week: Mo 9, Mo 17, We 9, We 17, Fr 9, Fr 17 -> 2nd is Mo 17, last Fr 17.
        // The start (Mo 9) is not selected but is still the first of the five.
        Case("A weekly BYSETPOS selects among the times of the week, BYHOUR included",
             .timed("FREQ=WEEKLY;COUNT=5;BYHOUR=9,17;BYDAY=MO,WE,FR;BYSETPOS=2,-1", from: "2026-01-05T09:00:00", .all([
                 "2026-01-05T09:00:00+00:00",
                 "2026-01-05T17:00:00+00:00",
                 "2026-01-09T17:00:00+00:00",
                 "2026-01-12T17:00:00+00:00",
                 "2026-01-16T17:00:00+00:00",
             ]))),
        Case("A daily BYSETPOS selects among the day's BYHOUR and BYMINUTE times",
             .timed("FREQ=DAILY;BYMINUTE=0,30;BYHOUR=8,12,18;BYSETPOS=1,-1", from: "2026-01-01T08:00:00", .first(5, [
                 "2026-01-01T08:00:00+00:00",
                 "2026-01-01T18:30:00+00:00",
                 "2026-01-02T08:00:00+00:00",
                 "2026-01-02T18:30:00+00:00",
                 "2026-01-03T08:00:00+00:00",
             ]))),
        // 2028-12-31 is a Sunday (leap year starting on Saturday), so Friday the 29th.
        Case("A yearly BYSETPOS=-1 over weekdays picks the last weekday of the year",
             .timed("FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", from: "2026-12-31T17:00:00", .first(4, [
                 "2026-12-31T17:00:00+00:00",
                 "2027-12-31T17:00:00+00:00",
                 "2028-12-29T17:00:00+00:00",
                 "2029-12-31T17:00:00+00:00",
             ]))),

        // MARK: BYWEEKNO

        // Week 1 is the Monday week holding Jan 4:
        //   2024: Mon Jan 1 - Sun Jan 7          -> Jan 1, Jan 4
        //   2025: Mon Dec 30 2024 - Sun Jan 5    -> Dec 30 2024, Jan 2 2025
        //   2026: Mon Dec 29 2025 - Sun Jan 4    -> Dec 29 2025, Jan 1 2026
        //   2027: Mon Jan 4 - Sun Jan 10         -> Jan 4, Jan 7
        Case("BYWEEKNO=1 with WKST=MO: week 1 can begin in the previous December",
             .timed("FREQ=YEARLY;BYDAY=MO,TH;BYWEEKNO=1", from: "2024-01-01T09:00:00", .first(8, [
                 "2024-01-01T09:00:00+00:00",
                 "2024-01-04T09:00:00+00:00",
                 "2024-12-30T09:00:00+00:00",
                 "2025-01-02T09:00:00+00:00",
                 "2025-12-29T09:00:00+00:00",
                 "2026-01-01T09:00:00+00:00",
                 "2027-01-04T09:00:00+00:00",
                 "2027-01-07T09:00:00+00:00",
             ]))),
        // Week 1 is the Sunday week holding Jan 4:
        //   2024: Sun Dec 31 2023 - Sat Jan 6    -> Jan 1, Jan 4
        //   2025: Sun Dec 29 2024 - Sat Jan 4    -> Dec 30 2024, Jan 2 2025
        //   2026: Jan 4 is a Sunday, Sun Jan 4 - Sat Jan 10 -> Jan 5, Jan 8
        //         (Sun Dec 28 - Sat Jan 3 holds only 3 days of 2026)
        //   2027: Sun Jan 3 - Sat Jan 9          -> Jan 4, Jan 7
        Case("BYWEEKNO=1 with WKST=SU: weeks run Sunday to Saturday, which moves 2026's week 1",
             .timed("FREQ=YEARLY;BYDAY=MO,TH;BYWEEKNO=1;WKST=SU", from: "2024-01-01T09:00:00", .first(8, [
                 "2024-01-01T09:00:00+00:00",
                 "2024-01-04T09:00:00+00:00",
                 "2024-12-30T09:00:00+00:00",
                 "2025-01-02T09:00:00+00:00",
                 "2026-01-05T09:00:00+00:00",
                 "2026-01-08T09:00:00+00:00",
                 "2027-01-04T09:00:00+00:00",
                 "2027-01-07T09:00:00+00:00",
             ]))),
        // Mon Dec 29 2025 is week 1 of 2026; 2027's week 1 starts Mon Jan 4, 2028's Mon Jan 3.
        Case("A start in the December that opens next year's week 1 is not repeated",
             .timed("FREQ=YEARLY;BYDAY=MO;BYWEEKNO=1", from: "2025-12-29T09:00:00", .first(3, [
                 "2025-12-29T09:00:00+00:00",
                 "2027-01-04T09:00:00+00:00",
                 "2028-01-03T09:00:00+00:00",
             ]))),
        // ISO years with 53 weeks start on a Thursday, or are leap years starting on a
        // Wednesday: 2020 (leap, Wed), 2026 (Thu), 2032 (leap, Thu). Week 53 begins
        // 364 days after week 1: Dec 28 2020, Dec 28 2026, Dec 27 2032.
        Case("BYWEEKNO=53 produces only in the years that have a week 53",
             .timed("FREQ=YEARLY;BYDAY=MO;BYWEEKNO=53", from: "2020-12-28T09:00:00", .first(3, [
                 "2020-12-28T09:00:00+00:00",
                 "2026-12-28T09:00:00+00:00",
                 "2032-12-27T09:00:00+00:00",
             ]))),
        // Week 53 of 2020 is Dec 28 2020 - Jan 3 2021, of 2026 Dec 28 - Jan 3 2027:
        // their Fridays are New Year's Day. Week 53 of 2032 (Dec 27 - Jan 2) has Dec 31.
        Case("BYWEEKNO=53 includes week 53's days that fall in the next calendar year",
             .timed("FREQ=YEARLY;BYDAY=FR;BYWEEKNO=53", from: "2021-01-01T09:00:00", .first(3, [
                 "2021-01-01T09:00:00+00:00",
                 "2027-01-01T09:00:00+00:00",
                 "2032-12-31T09:00:00+00:00",
             ]))),
        // With Sunday weeks, 2020, 2025 and 2031 have 53 weeks (from week 1 to next
        // year's week 1 is 371 days): 2020's runs Dec 27 - Jan 2 2021, 2025's
        // Dec 28 - Jan 3 2026, 2031's Dec 28 - Jan 3 2032. 2026 has only 52.
        Case("BYWEEKNO=53 with WKST=SU exists in other years than the ISO ones",
             .timed("FREQ=YEARLY;BYDAY=SA;BYWEEKNO=53;WKST=SU", from: "2021-01-02T10:00:00", .first(3, [
                 "2021-01-02T10:00:00+00:00",
                 "2026-01-03T10:00:00+00:00",
                 "2032-01-03T10:00:00+00:00",
             ]))),
        // 2024: week 52 is Dec 23-29. 2025: week 52 is Dec 22-28. 2026: week 53 is
        // Dec 28 - Jan 3 2027. 2027: week 52 is Dec 27 - Jan 2 2028 (2028's week 1
        // begins Mon Jan 3).
        Case("BYWEEKNO=-1 is the last week of the week-numbering year, 52nd or 53rd",
             .timed("FREQ=YEARLY;BYDAY=SU;BYWEEKNO=-1", from: "2024-12-29T10:00:00", .first(4, [
                 "2024-12-29T10:00:00+00:00",
                 "2025-12-28T10:00:00+00:00",
                 "2027-01-03T10:00:00+00:00",
                 "2028-01-02T10:00:00+00:00",
             ]))),
        // 2024 (52 weeks from Sun Dec 31 2023): last week Dec 22-28. 2025 (53 weeks from
        // Sun Dec 29 2024): Dec 28 - Jan 3 2026. 2026 (52 weeks from Sun Jan 4): Dec 27
        // - Jan 2 2027.
        Case("BYWEEKNO=-1 with WKST=SU: the last Sunday-started week of each year",
             .timed("FREQ=YEARLY;BYDAY=SA;BYWEEKNO=-1;WKST=SU", from: "2024-12-28T10:00:00", .first(3, [
                 "2024-12-28T10:00:00+00:00",
                 "2026-01-03T10:00:00+00:00",
                 "2027-01-02T10:00:00+00:00",
             ]))),
        Case("WKST decides which days share an INTERVAL=2 week (RFC 5545's example)",
             .timed("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU", from: "1997-08-05T09:00:00", in: "America/New_York", .all([
                 "1997-08-05T09:00:00-04:00",
                 "1997-08-10T09:00:00-04:00",
                 "1997-08-19T09:00:00-04:00",
                 "1997-08-24T09:00:00-04:00",
             ])),
             .timed("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", from: "1997-08-05T09:00:00", in: "America/New_York", .all([
                 "1997-08-05T09:00:00-04:00",
                 "1997-08-17T09:00:00-04:00",
                 "1997-08-19T09:00:00-04:00",
                 "1997-08-31T09:00:00-04:00",
             ]))),
        Case("Seeking a week-numbered rule finds days across the calendar-year boundary",
             .timed("FREQ=YEARLY;BYDAY=MO,TH;BYWEEKNO=1", from: "2024-01-01T09:00:00",
                    .after("2025-12-01T00:00:00Z", first: 3, [
                        "2025-12-29T09:00:00+00:00",
                        "2026-01-01T09:00:00+00:00",
                        "2027-01-04T09:00:00+00:00",
                    ])),
             .timed("FREQ=YEARLY;BYDAY=SA;BYWEEKNO=53;WKST=SU", from: "2021-01-02T10:00:00",
                    .after("2021-01-02T10:00:00Z", first: 2, [
                        "2026-01-03T10:00:00+00:00",
                        "2032-01-03T10:00:00+00:00",
                    ]),
                    .after("2031-06-01T00:00:00Z", first: 1, [
                        "2032-01-03T10:00:00+00:00",
                    ])),
             // New Year's Day 2027 belongs to 2026's week 53.
             .timed("FREQ=YEARLY;BYDAY=FR;BYWEEKNO=53", from: "2021-01-01T09:00:00",
                    .after("2027-01-01T00:00:00Z", first: 2, [
                        "2027-01-01T09:00:00+00:00",
                        "2032-12-31T09:00:00+00:00",
                    ]))),

        // MARK: Numbered weekdays that exist only sometimes

        Case("BYDAY=5FR occurs only in months with five Fridays",
             .timed("FREQ=MONTHLY;BYDAY=5FR", from: "2026-01-30T09:00:00", .first(5, [
                 "2026-01-30T09:00:00+00:00",
                 "2026-05-29T09:00:00+00:00",
                 "2026-07-31T09:00:00+00:00",
                 "2026-10-30T09:00:00+00:00",
                 "2027-01-29T09:00:00+00:00",
             ]))),
        // 53 Fridays: common years starting on Friday (2027, 2038) and leap years
        // starting on Thursday or Friday (2032 starts on Thursday).
        Case("Yearly BYDAY=53FR and -53FR exist only in years with 53 Fridays",
             .timed("FREQ=YEARLY;BYDAY=53FR", from: "2027-12-31T09:00:00", .first(3, [
                 "2027-12-31T09:00:00+00:00",
                 "2032-12-31T09:00:00+00:00",
                 "2038-12-31T09:00:00+00:00",
             ])),
             .timed("FREQ=YEARLY;BYDAY=-53FR", from: "2027-01-01T09:00:00", .first(3, [
                 "2027-01-01T09:00:00+00:00",
                 "2032-01-02T09:00:00+00:00",
                 "2038-01-01T09:00:00+00:00",
             ]))),
        // Among the year's last seven days exactly one is a Friday, and it is the last Friday.
        Case("A numbered BYDAY limits BYYEARDAY's days, counted within the year",
             .timed("FREQ=YEARLY;BYDAY=-1FR;BYYEARDAY=-7,-6,-5,-4,-3,-2,-1", from: "2026-12-25T09:00:00", .first(3, [
                 "2026-12-25T09:00:00+00:00",
                 "2027-12-31T09:00:00+00:00",
                 "2028-12-29T09:00:00+00:00",
             ])),
             .timed("FREQ=YEARLY;BYDAY=1MO;BYYEARDAY=1,2,3,4,5,6,7", from: "2026-01-05T09:00:00", .first(3, [
                 "2026-01-05T09:00:00+00:00",
                 "2027-01-04T09:00:00+00:00",
                 "2028-01-03T09:00:00+00:00",
             ]))),
        // Week-1 Mondays that fall in December: those of 2025 (Dec 30 2024), 2026 (Dec 29
        // 2025), 2030 (Dec 31 2029), 2031 (Dec 30 2030). 2027-2029 begin week 1 in January.
        Case("BYMONTH limits BYWEEKNO's days by their calendar month",
             .timed("FREQ=YEARLY;BYDAY=MO;BYWEEKNO=1;BYMONTH=12", from: "2024-01-01T09:00:00", .first(5, [
                 "2024-01-01T09:00:00+00:00",
                 "2024-12-30T09:00:00+00:00",
                 "2025-12-29T09:00:00+00:00",
                 "2029-12-31T09:00:00+00:00",
                 "2030-12-30T09:00:00+00:00",
             ]))),

        // MARK: Negative BYYEARDAY and BYMONTHDAY

        Case("BYYEARDAY=-1 is December 31 in common and leap years alike",
             .timed("FREQ=YEARLY;BYYEARDAY=-1", from: "2026-12-31T12:00:00", .first(3, [
                 "2026-12-31T12:00:00+00:00",
                 "2027-12-31T12:00:00+00:00",
                 "2028-12-31T12:00:00+00:00",
             ]))),
        Case("BYYEARDAY=-366 and 366 exist only in leap years",
             .timed("FREQ=YEARLY;BYYEARDAY=-366", from: "2024-01-01T12:00:00", .first(3, [
                 "2024-01-01T12:00:00+00:00",
                 "2028-01-01T12:00:00+00:00",
                 "2032-01-01T12:00:00+00:00",
             ])),
             .timed("FREQ=YEARLY;BYYEARDAY=366", from: "2024-12-31T12:00:00", .first(2, [
                 "2024-12-31T12:00:00+00:00",
                 "2028-12-31T12:00:00+00:00",
             ]))),
        // Common year: day 60 = Mar 1 = day 365-306+1. Leap year: day 60 = Feb 29, 366-306+1 = 61 = Mar 1.
        Case("BYYEARDAY=60 is March 1 or February 29, -306 always March 1, and a shared day comes once",
             .timed("FREQ=YEARLY;BYYEARDAY=60,-306", from: "2027-03-01T12:00:00", .first(4, [
                 "2027-03-01T12:00:00+00:00",
                 "2028-02-29T12:00:00+00:00",
                 "2028-03-01T12:00:00+00:00",
                 "2029-03-01T12:00:00+00:00",
             ]))),
        Case("BYMONTHDAY=-1 is the last day of each month, February 29 in a leap year",
             .timed("FREQ=MONTHLY;BYMONTHDAY=-1", from: "2028-01-31T12:00:00", .first(4, [
                 "2028-01-31T12:00:00+00:00",
                 "2028-02-29T12:00:00+00:00",
                 "2028-03-31T12:00:00+00:00",
                 "2028-04-30T12:00:00+00:00",
             ])),
             .timed("FREQ=MONTHLY;BYMONTHDAY=-1", from: "2027-01-31T12:00:00", .first(3, [
                 "2027-01-31T12:00:00+00:00",
                 "2027-02-28T12:00:00+00:00",
                 "2027-03-31T12:00:00+00:00",
             ]))),
        Case("BYMONTHDAY=-3 counts from each month's own length",
             .timed("FREQ=MONTHLY;BYMONTHDAY=-3", from: "2027-01-29T12:00:00", .first(4, [
                 "2027-01-29T12:00:00+00:00",
                 "2027-02-26T12:00:00+00:00",
                 "2027-03-29T12:00:00+00:00",
                 "2027-04-28T12:00:00+00:00",
             ])),
             .timed("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1,-3", from: "2027-02-26T12:00:00", .first(6, [
                 "2027-02-26T12:00:00+00:00",
                 "2027-02-28T12:00:00+00:00",
                 "2028-02-27T12:00:00+00:00",
                 "2028-02-29T12:00:00+00:00",
                 "2029-02-26T12:00:00+00:00",
                 "2029-02-28T12:00:00+00:00",
             ]))),
        Case("BYMONTHDAY=-29 in February exists only in leap years",
             .timed("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-29", from: "2028-02-01T12:00:00", .first(2, [
                 "2028-02-01T12:00:00+00:00",
                 "2032-02-01T12:00:00+00:00",
             ]))),

        // MARK: Invalid dates are skipped

        Case("A yearly rule on February 29 occurs only in leap years, and 2100 is not one",
             .timed("FREQ=YEARLY", from: "2024-02-29T12:00:00",
                    .first(20, [
                        "2024-02-29T12:00:00+00:00", "2028-02-29T12:00:00+00:00", "2032-02-29T12:00:00+00:00",
                        "2036-02-29T12:00:00+00:00", "2040-02-29T12:00:00+00:00", "2044-02-29T12:00:00+00:00",
                        "2048-02-29T12:00:00+00:00", "2052-02-29T12:00:00+00:00", "2056-02-29T12:00:00+00:00",
                        "2060-02-29T12:00:00+00:00", "2064-02-29T12:00:00+00:00", "2068-02-29T12:00:00+00:00",
                        "2072-02-29T12:00:00+00:00", "2076-02-29T12:00:00+00:00", "2080-02-29T12:00:00+00:00",
                        "2084-02-29T12:00:00+00:00", "2088-02-29T12:00:00+00:00", "2092-02-29T12:00:00+00:00",
                        "2096-02-29T12:00:00+00:00", "2104-02-29T12:00:00+00:00",
                    ]),
                    .after("2096-03-01T00:00:00Z", first: 1, ["2104-02-29T12:00:00+00:00"]))),
        Case("A monthly rule on the 31st skips the shorter months instead of clamping",
             .timed("FREQ=MONTHLY", from: "2026-01-31T09:00:00", .first(7, [
                 "2026-01-31T09:00:00+00:00",
                 "2026-03-31T09:00:00+00:00",
                 "2026-05-31T09:00:00+00:00",
                 "2026-07-31T09:00:00+00:00",
                 "2026-08-31T09:00:00+00:00",
                 "2026-10-31T09:00:00+00:00",
                 "2026-12-31T09:00:00+00:00",
             ])),
             // COUNT counts only the months that have the day.
             .timed("FREQ=MONTHLY;COUNT=4", from: "2026-01-31T09:00:00", .all([
                 "2026-01-31T09:00:00+00:00",
                 "2026-03-31T09:00:00+00:00",
                 "2026-05-31T09:00:00+00:00",
                 "2026-07-31T09:00:00+00:00",
             ]))),

        // MARK: UNTIL and COUNT

        // 09:00 EST is 14:00 UTC.
        Case("A UTC UNTIL is inclusive: an occurrence exactly at it is kept, a second later it is not",
             .timed("FREQ=DAILY;UNTIL=20260305T140000Z", from: "2026-03-01T09:00:00", in: "America/New_York", .all([
                 "2026-03-01T09:00:00-05:00",
                 "2026-03-02T09:00:00-05:00",
                 "2026-03-03T09:00:00-05:00",
                 "2026-03-04T09:00:00-05:00",
                 "2026-03-05T09:00:00-05:00",
             ])),
             .timed("FREQ=DAILY;UNTIL=20260305T135959Z", from: "2026-03-01T09:00:00", in: "America/New_York", .all([
                 "2026-03-01T09:00:00-05:00",
                 "2026-03-02T09:00:00-05:00",
                 "2026-03-03T09:00:00-05:00",
                 "2026-03-04T09:00:00-05:00",
             ]))),
        // 09:00 EDT on Mar 9 is 13:00 UTC, an hour earlier than 09:00 EST would be.
        Case("A UTC UNTIL compares instants, so the offset change moves where it cuts",
             .timed("FREQ=DAILY;UNTIL=20260309T130000Z", from: "2026-03-07T09:00:00", in: "America/New_York", .all([
                 "2026-03-07T09:00:00-05:00",
                 "2026-03-08T09:00:00-04:00",
                 "2026-03-09T09:00:00-04:00",
             ])),
             .timed("FREQ=DAILY;UNTIL=20260309T125959Z", from: "2026-03-07T09:00:00", in: "America/New_York", .all([
                 "2026-03-07T09:00:00-05:00",
                 "2026-03-08T09:00:00-04:00",
             ]))),
        Case("A date UNTIL on an all-day start includes that date",
             .allDay("FREQ=DAILY;UNTIL=20261205", from: "2026-12-01", .all([
                 "2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05",
             ])),
             .allDay("FREQ=WEEKLY;UNTIL=20261215", from: "2026-12-01", .all(["2026-12-01", "2026-12-08", "2026-12-15"]))),
        // New York's clocks go forward on 2026-03-08, after all five: each is EST.
        Case("A date UNTIL on a timed start runs through the end of that day",
             .timed("FREQ=DAILY;UNTIL=20260305", from: "2026-03-01T23:30:00", in: "America/New_York", .all([
                 "2026-03-01T23:30:00-05:00",
                 "2026-03-02T23:30:00-05:00",
                 "2026-03-03T23:30:00-05:00",
                 "2026-03-04T23:30:00-05:00",
                 "2026-03-05T23:30:00-05:00",
             ]))),
        Case("A local UNTIL is read on the recurrence's wall clock, inclusively",
             .timed("FREQ=WEEKLY;UNTIL=20260322T090000", from: "2026-03-01T09:00:00", in: "America/New_York", .all([
                 "2026-03-01T09:00:00-05:00",
                 "2026-03-08T09:00:00-04:00",
                 "2026-03-15T09:00:00-04:00",
                 "2026-03-22T09:00:00-04:00",
             ])),
             .timed("FREQ=WEEKLY;UNTIL=20260322T085959", from: "2026-03-01T09:00:00", in: "America/New_York", .all([
                 "2026-03-01T09:00:00-05:00",
                 "2026-03-08T09:00:00-04:00",
                 "2026-03-15T09:00:00-04:00",
             ]))),
        Case("COUNT gives exactly that many occurrences, the start included",
             .timed("FREQ=WEEKLY;COUNT=3", from: "2026-01-05T09:00:00", .all([
                 "2026-01-05T09:00:00+00:00",
                 "2026-01-12T09:00:00+00:00",
                 "2026-01-19T09:00:00+00:00",
             ]))),

        // MARK: EXDATE and RDATE

        Case("EXDATE removes occurrences without extending COUNT",
             .timed("FREQ=DAILY;COUNT=5", from: "2026-01-01T09:00:00", exceptions: ["2026-01-02T09:00:00", "2026-01-04T09:00:00"], .all([
                 "2026-01-01T09:00:00+00:00",
                 "2026-01-03T09:00:00+00:00",
                 "2026-01-05T09:00:00+00:00",
             ]))),
        Case("EXDATE can remove the start itself, and one that matches nothing changes nothing",
             .timed("FREQ=DAILY;COUNT=3", from: "2026-01-01T09:00:00", exceptions: ["2026-01-01T09:00:00"], .all([
                 "2026-01-02T09:00:00+00:00",
                 "2026-01-03T09:00:00+00:00",
             ])),
             .timed("FREQ=DAILY;COUNT=3", from: "2026-01-01T09:00:00", exceptions: ["2026-01-02T10:00:00"], .all([
                 "2026-01-01T09:00:00+00:00",
                 "2026-01-02T09:00:00+00:00",
                 "2026-01-03T09:00:00+00:00",
             ]))),
        // 02:30 on 2026-03-08 does not exist in New York; both the rule's time and the
        // EXDATE read as 03:30 EDT.
        Case("An EXDATE written as the gap's wall time removes the occurrence moved out of the gap",
             .timed("FREQ=DAILY;COUNT=4", from: "2026-03-06T02:30:00", in: "America/New_York", exceptions: ["2026-03-08T02:30:00"], .all([
                 "2026-03-06T02:30:00-05:00",
                 "2026-03-07T02:30:00-05:00",
                 "2026-03-09T02:30:00-04:00",
             ]))),
        // The recurrence set is DTSTART, the rule's 3 and the RDATEs, as a set:
        // the RDATE before the start belongs to it too.
        Case("RDATEs join in instant order, are not counted by COUNT, and a repeated instant comes once",
             .timed("FREQ=WEEKLY;COUNT=3", from: "2026-01-05T09:00:00",
                    extras: ["2026-02-01T09:00:00", "2026-01-07T12:00:00", "2025-12-31T08:00:00", "2026-01-12T09:00:00"],
                    .all([
                        "2025-12-31T08:00:00+00:00",
                        "2026-01-05T09:00:00+00:00",
                        "2026-01-07T12:00:00+00:00",
                        "2026-01-12T09:00:00+00:00",
                        "2026-01-19T09:00:00+00:00",
                        "2026-02-01T09:00:00+00:00",
                    ]),
                    .after("2026-01-19T09:00:00Z", ["2026-02-01T09:00:00+00:00"]))),
        Case("RDATEs are not limited by UNTIL, and EXDATE removes an RDATE too",
             .timed("FREQ=DAILY;UNTIL=20260103T090000Z", from: "2026-01-01T09:00:00",
                    exceptions: ["2026-01-07T12:00:00"], extras: ["2026-01-10T09:00:00", "2026-01-07T12:00:00"],
                    .all([
                        "2026-01-01T09:00:00+00:00",
                        "2026-01-02T09:00:00+00:00",
                        "2026-01-03T09:00:00+00:00",
                        "2026-01-10T09:00:00+00:00",
                    ]))),

        // MARK: The start

        Case("An UNTIL before the start leaves the start as the only occurrence, from the start and from a seek",
             .timed("FREQ=DAILY;UNTIL=20251231T000000Z", from: "2026-01-05T09:00:00",
                    .all(["2026-01-05T09:00:00+00:00"]),
                    .after("2026-01-05T08:59:59Z", ["2026-01-05T09:00:00+00:00"]),
                    .after("2026-01-05T09:00:00Z", []))),
        // 2026-01-05 is a Monday; the last Fridays are Jan 30 and Feb 27.
        Case("A start that does not match the rule is still the first occurrence, and counts",
             .timed("FREQ=MONTHLY;COUNT=3;BYDAY=-1FR", from: "2026-01-05T09:00:00", .all([
                 "2026-01-05T09:00:00+00:00",
                 "2026-01-30T09:00:00+00:00",
                 "2026-02-27T09:00:00+00:00",
             ])),
             .timed("FREQ=WEEKLY;BYDAY=TU", from: "2026-01-01T09:00:00",
                    .first(3, [
                        "2026-01-01T09:00:00+00:00",
                        "2026-01-06T09:00:00+00:00",
                        "2026-01-13T09:00:00+00:00",
                    ]),
                    .after("2026-01-01T08:59:59Z", first: 2, [
                        "2026-01-01T09:00:00+00:00",
                        "2026-01-06T09:00:00+00:00",
                    ]))),

        // MARK: Seeking with COUNT

        // Seek before any walk from the start, so the count is established by the seek itself.
        Case("Seeking a COUNT rule near its end gives only the remaining occurrences",
             .timed("FREQ=DAILY;COUNT=10", from: "2026-01-01T09:00:00",
                    .after("2026-01-08T09:00:00Z", [
                        "2026-01-09T09:00:00+00:00",
                        "2026-01-10T09:00:00+00:00",
                    ]),
                    .after("2026-01-08T08:59:59Z", [
                        "2026-01-08T09:00:00+00:00",
                        "2026-01-09T09:00:00+00:00",
                        "2026-01-10T09:00:00+00:00",
                    ]),
                    .after("2026-01-10T09:00:00Z", []),
                    .after("2030-01-01T00:00:00Z", []),
                    .next(after: "2026-01-10T09:00:00Z", []))),
        // Rule occurrences: Mon Jan 5 (the start), Jan 30, Feb 27, Mar 27, Apr 24 (the last
        // Fridays); the EXDATE'd Feb 27 still counts, so May 29 is not reached.
        Case("Seeking a COUNT rule with a non-matching start and an EXDATE still stops at the count",
             .timed("FREQ=MONTHLY;COUNT=5;BYDAY=-1FR", from: "2026-01-05T09:00:00", exceptions: ["2026-02-27T09:00:00"],
                    .after("2026-02-01T00:00:00Z", [
                        "2026-03-27T09:00:00+00:00",
                        "2026-04-24T09:00:00+00:00",
                    ]),
                    .next(after: "2026-04-24T09:00:00Z", []),
                    .during(from: "2026-04-01T00:00:00Z", to: "2026-07-01T00:00:00Z", ["2026-04-24T09:00:00+00:00"]),
                    // The whole expansion agrees.
                    .all([
                        "2026-01-05T09:00:00+00:00",
                        "2026-01-30T09:00:00+00:00",
                        "2026-03-27T09:00:00+00:00",
                        "2026-04-24T09:00:00+00:00",
                    ]))),
        Case("Seeking a COUNT rule past its end still yields a later RDATE",
             .timed("FREQ=DAILY;COUNT=3", from: "2026-01-01T09:00:00", extras: ["2026-02-01T09:00:00"],
                    .after("2026-01-02T09:00:00Z", [
                        "2026-01-03T09:00:00+00:00",
                        "2026-02-01T09:00:00+00:00",
                    ]))),

        // MARK: All-day

        Case("All-day occurrences print as dates, EXDATE and RDATE given as dates",
             .allDay("FREQ=MONTHLY;BYMONTHDAY=-1", from: "2026-01-31", exceptions: ["2026-02-28"], extras: ["2026-02-14"],
                     .first(4, ["2026-01-31", "2026-02-14", "2026-03-31", "2026-04-30"])),
             .allDay("FREQ=YEARLY", from: "2024-02-29", .first(3, ["2024-02-29", "2028-02-29", "2032-02-29"]))),
    ]

    // MARK: Rules that never produce

    /// Runs every kind of query on a rule that can never produce and checks
    /// that each gives just the start (or nothing after it), all within a
    /// generous second.
    static func expectOnlyStart(_ rule: String, from start: String,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try recurrence(rule, from: start)
        let startInstant = try foundationUnixTime(start + "Z")
        var all: [Occurrence] = []
        var sought: [Occurrence] = []
        var beforeStart: [Occurrence] = []
        var next: Occurrence?
        var inRange: [Occurrence] = []
        let elapsed = ContinuousClock().measure {
            all = Array(r.occurrences())
            sought = Array(r.occurrences(after: startInstant))
            beforeStart = Array(r.occurrences(after: startInstant - 1))
            next = r.nextOccurrence(after: Date(timeIntervalSince1970: 4_000_000_000))
            inRange = r.occurrences(in: Date(timeIntervalSince1970: 1_800_000_000)..<Date(timeIntervalSince1970: 4_000_000_000))
        }
        #expect(all.map(\.rfc3339) == [start + "+00:00"], sourceLocation: sourceLocation)
        #expect(sought.isEmpty, sourceLocation: sourceLocation)
        #expect(beforeStart.map(\.rfc3339) == [start + "+00:00"], sourceLocation: sourceLocation)
        #expect(next == nil, sourceLocation: sourceLocation)
        #expect(inRange.isEmpty, sourceLocation: sourceLocation)
        #expect(elapsed < .seconds(1), "five queries took \(elapsed)", sourceLocation: sourceLocation)
    }

    @Test("A rule that can never produce yields only its start, and answers every query at once",
          arguments: [
              ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "2026-01-01T09:00:00"),
              ("FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4,6,9,11", "2026-04-01T09:00:00"),
              ("FREQ=HOURLY;INTERVAL=2;BYHOUR=3", "2026-01-01T00:00:00"),
              ("FREQ=YEARLY;COUNT=5;BYMONTH=2;BYMONTHDAY=30", "2026-01-01T09:00:00"),
              ("FREQ=DAILY;BYMONTHDAY=-30;BYMONTH=2", "2026-01-01T09:00:00"),
              ("FREQ=MINUTELY;INTERVAL=2;BYMINUTE=1", "2026-01-01T00:00:00"),
          ])
    func neverProducing(rule: String, start: String) throws {
        try Self.expectOnlyStart(rule, from: start)
    }

    @Test("A rule impossible only through a combination of its parts also answers at once",
          arguments: [
              ("FREQ=YEARLY;BYYEARDAY=366;BYMONTH=1", "2026-01-01T09:00:00"),
              ("FREQ=YEARLY;BYWEEKNO=1;BYMONTH=6", "2026-01-01T09:00:00"),
              // Day 366 is always a December 31st.
              ("FREQ=HOURLY;BYYEARDAY=366;BYMONTH=1", "2026-01-01T09:00:00"),
              ("FREQ=MINUTELY;BYYEARDAY=366;BYMONTH=1", "2026-01-01T09:00:00"),
          ])
    func neverProducingByCombination(rule: String, start: String) throws {
        try Self.expectOnlyStart(rule, from: start)
    }

    // MARK: All-day rules refused

    @Test("An all-day start refuses rules that need a time of day",
          arguments: ["FREQ=HOURLY", "FREQ=MINUTELY", "FREQ=SECONDLY", "FREQ=DAILY;BYHOUR=9",
                      "FREQ=WEEKLY;BYMINUTE=30", "FREQ=MONTHLY;BYSECOND=0"])
    func allDayRefusesTimeOfDay(rule: String) throws {
        let parsed = try RecurrenceRule(rfc5545: rule)
        let zone = try TimeZoneRules.named("America/New_York")
        let date = try #require(CivilDate(parsing: "2026-12-01"))
        #expect(throws: RecurrenceError.self) {
            _ = try Recurrence(rule: parsed, startDate: date, timeZone: zone)
        }
    }

    @Test("An all-day start accepts a daily rule")
    func allDayAcceptsDaily() throws {
        let zone = try TimeZoneRules.named("America/New_York")
        let date = try #require(CivilDate(parsing: "2026-12-01"))
        #expect(throws: Never.self) {
            _ = try Recurrence(rule: try RecurrenceRule(rfc5545: "FREQ=DAILY"), startDate: date, timeZone: zone)
        }
    }
}
