import CalendarModel
import Foundation
import RecurrenceEngine
import Testing

// Weekday anchors used in the comments below (checked with Python's datetime):
// 2024-01-01 Mon, 2025-01-01 Wed, 2026-01-01 Thu, 2027-01-01 Fri, 2028-01-01 Sat
// (leap), 2031-01-01 Wed, 2032-01-01 Thu (leap).
@Suite("Recurrence edge cases")
struct RecurrenceEdgeCaseTests {

    // MARK: Helpers

    /// Unix time of an RFC 3339 text, parsed by Foundation rather than by the
    /// code under test.
    static func unixTime(_ text: String) throws -> Int64 {
        Int64(try Date.ISO8601FormatStyle().parse(text).timeIntervalSince1970)
    }

    static func local(_ text: String) throws -> LocalDateTime {
        try #require(LocalDateTime(parsing: text))
    }

    static func recurrence(_ rule: String, from start: String, in zone: String = "UTC",
                           exceptions: [String] = [], extras: [String] = []) throws -> Recurrence {
        Recurrence(rule: try RecurrenceRule(rfc5545: rule), start: try local(start),
                   timeZone: try TimeZoneRules.named(zone),
                   exceptionDates: try exceptions.map(local), extraDates: try extras.map(local))
    }

    static func allDay(_ rule: String, from start: String, in zone: String = "America/New_York",
                       exceptions: [String] = [], extras: [String] = []) throws -> Recurrence {
        func date(_ text: String) throws -> CivilDate { try #require(CivilDate(parsing: text)) }
        return try Recurrence(rule: try RecurrenceRule(rfc5545: rule), startDate: try date(start),
                              timeZone: try TimeZoneRules.named(zone),
                              exceptionDates: try exceptions.map(date), extraDates: try extras.map(date))
    }

    /// Checks the printed form and the instant of each occurrence.
    static func expectTimes(_ occurrences: some Sequence<Occurrence>, _ expected: [String],
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = Array(occurrences)
        #expect(actual.map(\.rfc3339) == expected, sourceLocation: sourceLocation)
        #expect(actual.map(\.instant) == (try expected.map(unixTime)), sourceLocation: sourceLocation)
    }

    static func after(_ text: String) throws -> Int64 { try unixTime(text) }

    // MARK: BYSETPOS

    @Test("BYSETPOS=-1 over Monday to Friday picks the last weekday of each month")
    func lastWeekdayOfMonth() throws {
        let r = try Self.recurrence("FREQ=MONTHLY;COUNT=6;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", from: "2026-01-30T09:00:00")
        // Jan 31 and Feb 28 are Saturdays, May 31 a Sunday: the Fridays before them win.
        try Self.expectTimes(r.occurrences(), [
            "2026-01-30T09:00:00+00:00",
            "2026-02-27T09:00:00+00:00",
            "2026-03-31T09:00:00+00:00",
            "2026-04-30T09:00:00+00:00",
            "2026-05-29T09:00:00+00:00",
            "2026-06-30T09:00:00+00:00",
        ])
    }

    @Test("BYSETPOS=3 over Tuesday to Thursday picks the third such day of each month")
    func thirdOfTuesdayToThursday() throws {
        let r = try Self.recurrence("FREQ=MONTHLY;COUNT=4;BYDAY=TU,WE,TH;BYSETPOS=3", from: "2026-01-07T09:00:00")
        // Jan: Th 1, Tu 6, We 7. Feb and Mar: Tu 3, We 4, Th 5. Apr: We 1, Th 2, Tu 7.
        try Self.expectTimes(r.occurrences(), [
            "2026-01-07T09:00:00+00:00",
            "2026-02-05T09:00:00+00:00",
            "2026-03-05T09:00:00+00:00",
            "2026-04-07T09:00:00+00:00",
        ])
    }

    @Test("BYSETPOS=1,-1 gives the first and the last weekday of each month, in order")
    func firstAndLastWeekday() throws {
        let r = try Self.recurrence("FREQ=MONTHLY;COUNT=6;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,-1", from: "2026-01-01T09:00:00")
        // Feb 1 and Mar 1 are Sundays, so the first weekday is the 2nd.
        try Self.expectTimes(r.occurrences(), [
            "2026-01-01T09:00:00+00:00",
            "2026-01-30T09:00:00+00:00",
            "2026-02-02T09:00:00+00:00",
            "2026-02-27T09:00:00+00:00",
            "2026-03-02T09:00:00+00:00",
            "2026-03-31T09:00:00+00:00",
        ])
    }

    @Test("BYSETPOS=-2 counts back from the end of the month's weekend days")
    func secondToLastWeekendDay() throws {
        let r = try Self.recurrence("FREQ=MONTHLY;COUNT=3;BYDAY=SA,SU;BYSETPOS=-2", from: "2026-01-25T10:00:00")
        // Jan ends Sat 31 (so Sun 25), Feb ends Sat 28 (so Sun 22), Mar ends Sun 29 (so Sat 28).
        try Self.expectTimes(r.occurrences(), [
            "2026-01-25T10:00:00+00:00",
            "2026-02-22T10:00:00+00:00",
            "2026-03-28T10:00:00+00:00",
        ])
    }

    @Test("A weekly BYSETPOS follows WKST: the first weekend day is Saturday for MO, Sunday for SU")
    func weeklySetPositionFollowsWeekStart() throws {
        let monday = try Self.recurrence("FREQ=WEEKLY;BYDAY=SU,SA;BYSETPOS=1", from: "2026-01-03T10:00:00")
        try Self.expectTimes(monday.occurrences().prefix(3), [
            "2026-01-03T10:00:00+00:00",
            "2026-01-10T10:00:00+00:00",
            "2026-01-17T10:00:00+00:00",
        ])
        // Weeks run Sunday to Saturday: the week of the start picks Sun Dec 28 (before
        // the start), the next ones Sun Jan 4 and Sun Jan 11.
        let sunday = try Self.recurrence("FREQ=WEEKLY;BYDAY=SU,SA;BYSETPOS=1;WKST=SU", from: "2026-01-03T10:00:00")
        try Self.expectTimes(sunday.occurrences().prefix(3), [
            "2026-01-03T10:00:00+00:00",
            "2026-01-04T10:00:00+00:00",
            "2026-01-11T10:00:00+00:00",
        ])
    }

    @Test("A weekly BYSETPOS selects among the times of the week, BYHOUR included")
    func weeklySetPositionWithHours() throws {
        let r = try Self.recurrence("FREQ=WEEKLY;COUNT=5;BYHOUR=9,17;BYDAY=MO,WE,FR;BYSETPOS=2,-1",
                                    from: "2026-01-05T09:00:00")
        // Each week: Mo 9, Mo 17, We 9, We 17, Fr 9, Fr 17 -> 2nd is Mo 17, last Fr 17.
        // The start (Mo 9) is not selected but is still the first of the five.
        try Self.expectTimes(r.occurrences(), [
            "2026-01-05T09:00:00+00:00",
            "2026-01-05T17:00:00+00:00",
            "2026-01-09T17:00:00+00:00",
            "2026-01-12T17:00:00+00:00",
            "2026-01-16T17:00:00+00:00",
        ])
    }

    @Test("A daily BYSETPOS selects among the day's BYHOUR and BYMINUTE times")
    func dailySetPositionWithHours() throws {
        let r = try Self.recurrence("FREQ=DAILY;BYMINUTE=0,30;BYHOUR=8,12,18;BYSETPOS=1,-1", from: "2026-01-01T08:00:00")
        try Self.expectTimes(r.occurrences().prefix(5), [
            "2026-01-01T08:00:00+00:00",
            "2026-01-01T18:30:00+00:00",
            "2026-01-02T08:00:00+00:00",
            "2026-01-02T18:30:00+00:00",
            "2026-01-03T08:00:00+00:00",
        ])
    }

    @Test("A yearly BYSETPOS=-1 over weekdays picks the last weekday of the year")
    func lastWeekdayOfYear() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", from: "2026-12-31T17:00:00")
        // 2028-12-31 is a Sunday (leap year starting on Saturday), so Friday the 29th.
        try Self.expectTimes(r.occurrences().prefix(4), [
            "2026-12-31T17:00:00+00:00",
            "2027-12-31T17:00:00+00:00",
            "2028-12-29T17:00:00+00:00",
            "2029-12-31T17:00:00+00:00",
        ])
    }

    // MARK: BYWEEKNO

    @Test("BYWEEKNO=1 with WKST=MO: week 1 can begin in the previous December")
    func weekOneMondayStart() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYDAY=MO,TH;BYWEEKNO=1", from: "2024-01-01T09:00:00")
        // Week 1 is the Monday week holding Jan 4:
        //   2024: Mon Jan 1 - Sun Jan 7          -> Jan 1, Jan 4
        //   2025: Mon Dec 30 2024 - Sun Jan 5    -> Dec 30 2024, Jan 2 2025
        //   2026: Mon Dec 29 2025 - Sun Jan 4    -> Dec 29 2025, Jan 1 2026
        //   2027: Mon Jan 4 - Sun Jan 10         -> Jan 4, Jan 7
        try Self.expectTimes(r.occurrences().prefix(8), [
            "2024-01-01T09:00:00+00:00",
            "2024-01-04T09:00:00+00:00",
            "2024-12-30T09:00:00+00:00",
            "2025-01-02T09:00:00+00:00",
            "2025-12-29T09:00:00+00:00",
            "2026-01-01T09:00:00+00:00",
            "2027-01-04T09:00:00+00:00",
            "2027-01-07T09:00:00+00:00",
        ])
    }

    @Test("BYWEEKNO=1 with WKST=SU: weeks run Sunday to Saturday, which moves 2026's week 1")
    func weekOneSundayStart() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYDAY=MO,TH;BYWEEKNO=1;WKST=SU", from: "2024-01-01T09:00:00")
        // Week 1 is the Sunday week holding Jan 4:
        //   2024: Sun Dec 31 2023 - Sat Jan 6    -> Jan 1, Jan 4
        //   2025: Sun Dec 29 2024 - Sat Jan 4    -> Dec 30 2024, Jan 2 2025
        //   2026: Jan 4 is a Sunday, Sun Jan 4 - Sat Jan 10 -> Jan 5, Jan 8
        //         (Sun Dec 28 - Sat Jan 3 holds only 3 days of 2026)
        //   2027: Sun Jan 3 - Sat Jan 9          -> Jan 4, Jan 7
        try Self.expectTimes(r.occurrences().prefix(8), [
            "2024-01-01T09:00:00+00:00",
            "2024-01-04T09:00:00+00:00",
            "2024-12-30T09:00:00+00:00",
            "2025-01-02T09:00:00+00:00",
            "2026-01-05T09:00:00+00:00",
            "2026-01-08T09:00:00+00:00",
            "2027-01-04T09:00:00+00:00",
            "2027-01-07T09:00:00+00:00",
        ])
    }

    @Test("A start in the December that opens next year's week 1 is not repeated")
    func weekOneStartingInDecember() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYDAY=MO;BYWEEKNO=1", from: "2025-12-29T09:00:00")
        // Mon Dec 29 2025 is week 1 of 2026; 2027's week 1 starts Mon Jan 4, 2028's Mon Jan 3.
        try Self.expectTimes(r.occurrences().prefix(3), [
            "2025-12-29T09:00:00+00:00",
            "2027-01-04T09:00:00+00:00",
            "2028-01-03T09:00:00+00:00",
        ])
    }

    @Test("BYWEEKNO=53 produces only in the years that have a week 53")
    func weekFiftyThreeMonday() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYDAY=MO;BYWEEKNO=53", from: "2020-12-28T09:00:00")
        // ISO years with 53 weeks start on a Thursday, or are leap years starting on a
        // Wednesday: 2020 (leap, Wed), 2026 (Thu), 2032 (leap, Thu). Week 53 begins
        // 364 days after week 1: Dec 28 2020, Dec 28 2026, Dec 27 2032.
        try Self.expectTimes(r.occurrences().prefix(3), [
            "2020-12-28T09:00:00+00:00",
            "2026-12-28T09:00:00+00:00",
            "2032-12-27T09:00:00+00:00",
        ])
    }

    @Test("BYWEEKNO=53 includes week 53's days that fall in the next calendar year")
    func weekFiftyThreeFriday() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYDAY=FR;BYWEEKNO=53", from: "2021-01-01T09:00:00")
        // Week 53 of 2020 is Dec 28 2020 - Jan 3 2021, of 2026 Dec 28 - Jan 3 2027:
        // their Fridays are New Year's Day. Week 53 of 2032 (Dec 27 - Jan 2) has Dec 31.
        try Self.expectTimes(r.occurrences().prefix(3), [
            "2021-01-01T09:00:00+00:00",
            "2027-01-01T09:00:00+00:00",
            "2032-12-31T09:00:00+00:00",
        ])
    }

    @Test("BYWEEKNO=53 with WKST=SU exists in other years than the ISO ones")
    func weekFiftyThreeSundayStart() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYDAY=SA;BYWEEKNO=53;WKST=SU", from: "2021-01-02T10:00:00")
        // With Sunday weeks, 2020, 2025 and 2031 have 53 weeks (from week 1 to next
        // year's week 1 is 371 days): 2020's runs Dec 27 - Jan 2 2021, 2025's
        // Dec 28 - Jan 3 2026, 2031's Dec 28 - Jan 3 2032. 2026 has only 52.
        try Self.expectTimes(r.occurrences().prefix(3), [
            "2021-01-02T10:00:00+00:00",
            "2026-01-03T10:00:00+00:00",
            "2032-01-03T10:00:00+00:00",
        ])
    }

    @Test("BYWEEKNO=-1 is the last week of the week-numbering year, 52nd or 53rd")
    func lastWeekMondayStart() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYDAY=SU;BYWEEKNO=-1", from: "2024-12-29T10:00:00")
        // 2024: week 52 is Dec 23-29. 2025: week 52 is Dec 22-28. 2026: week 53 is
        // Dec 28 - Jan 3 2027. 2027: week 52 is Dec 27 - Jan 2 2028 (2028's week 1
        // begins Mon Jan 3).
        try Self.expectTimes(r.occurrences().prefix(4), [
            "2024-12-29T10:00:00+00:00",
            "2025-12-28T10:00:00+00:00",
            "2027-01-03T10:00:00+00:00",
            "2028-01-02T10:00:00+00:00",
        ])
    }

    @Test("BYWEEKNO=-1 with WKST=SU: the last Sunday-started week of each year")
    func lastWeekSundayStart() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYDAY=SA;BYWEEKNO=-1;WKST=SU", from: "2024-12-28T10:00:00")
        // 2024 (52 weeks from Sun Dec 31 2023): last week Dec 22-28. 2025 (53 weeks from
        // Sun Dec 29 2024): Dec 28 - Jan 3 2026. 2026 (52 weeks from Sun Jan 4): Dec 27
        // - Jan 2 2027.
        try Self.expectTimes(r.occurrences().prefix(3), [
            "2024-12-28T10:00:00+00:00",
            "2026-01-03T10:00:00+00:00",
            "2027-01-02T10:00:00+00:00",
        ])
    }

    @Test("WKST decides which days share an INTERVAL=2 week (RFC 5545's example)")
    func weekStartWithInterval() throws {
        let monday = try Self.recurrence("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU", from: "1997-08-05T09:00:00", in: "America/New_York")
        try Self.expectTimes(monday.occurrences(), [
            "1997-08-05T09:00:00-04:00",
            "1997-08-10T09:00:00-04:00",
            "1997-08-19T09:00:00-04:00",
            "1997-08-24T09:00:00-04:00",
        ])
        let sunday = try Self.recurrence("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", from: "1997-08-05T09:00:00", in: "America/New_York")
        try Self.expectTimes(sunday.occurrences(), [
            "1997-08-05T09:00:00-04:00",
            "1997-08-17T09:00:00-04:00",
            "1997-08-19T09:00:00-04:00",
            "1997-08-31T09:00:00-04:00",
        ])
    }

    @Test("Seeking a week-numbered rule finds days across the calendar-year boundary")
    func seekingWeekNumbers() throws {
        let weekOne = try Self.recurrence("FREQ=YEARLY;BYDAY=MO,TH;BYWEEKNO=1", from: "2024-01-01T09:00:00")
        try Self.expectTimes(weekOne.occurrences(after: try Self.after("2025-12-01T00:00:00Z")).prefix(3), [
            "2025-12-29T09:00:00+00:00",
            "2026-01-01T09:00:00+00:00",
            "2027-01-04T09:00:00+00:00",
        ])
        let fiftyThree = try Self.recurrence("FREQ=YEARLY;BYDAY=SA;BYWEEKNO=53;WKST=SU", from: "2021-01-02T10:00:00")
        try Self.expectTimes(fiftyThree.occurrences(after: try Self.after("2021-01-02T10:00:00Z")).prefix(2), [
            "2026-01-03T10:00:00+00:00",
            "2032-01-03T10:00:00+00:00",
        ])
        try Self.expectTimes(fiftyThree.occurrences(after: try Self.after("2031-06-01T00:00:00Z")).prefix(1), [
            "2032-01-03T10:00:00+00:00",
        ])
        // New Year's Day 2027 belongs to 2026's week 53.
        let friday = try Self.recurrence("FREQ=YEARLY;BYDAY=FR;BYWEEKNO=53", from: "2021-01-01T09:00:00")
        try Self.expectTimes(friday.occurrences(after: try Self.after("2027-01-01T00:00:00Z")).prefix(2), [
            "2027-01-01T09:00:00+00:00",
            "2032-12-31T09:00:00+00:00",
        ])
    }

    // MARK: Numbered weekdays that exist only sometimes

    @Test("BYDAY=5FR occurs only in months with five Fridays")
    func fifthFriday() throws {
        let r = try Self.recurrence("FREQ=MONTHLY;BYDAY=5FR", from: "2026-01-30T09:00:00")
        try Self.expectTimes(r.occurrences().prefix(5), [
            "2026-01-30T09:00:00+00:00",
            "2026-05-29T09:00:00+00:00",
            "2026-07-31T09:00:00+00:00",
            "2026-10-30T09:00:00+00:00",
            "2027-01-29T09:00:00+00:00",
        ])
    }

    @Test("Yearly BYDAY=53FR and -53FR exist only in years with 53 Fridays")
    func fiftyThirdFriday() throws {
        // 53 Fridays: common years starting on Friday (2027, 2038) and leap years
        // starting on Thursday or Friday (2032 starts on Thursday).
        let last = try Self.recurrence("FREQ=YEARLY;BYDAY=53FR", from: "2027-12-31T09:00:00")
        try Self.expectTimes(last.occurrences().prefix(3), [
            "2027-12-31T09:00:00+00:00",
            "2032-12-31T09:00:00+00:00",
            "2038-12-31T09:00:00+00:00",
        ])
        let first = try Self.recurrence("FREQ=YEARLY;BYDAY=-53FR", from: "2027-01-01T09:00:00")
        try Self.expectTimes(first.occurrences().prefix(3), [
            "2027-01-01T09:00:00+00:00",
            "2032-01-02T09:00:00+00:00",
            "2038-01-01T09:00:00+00:00",
        ])
    }

    @Test("A numbered BYDAY limits BYYEARDAY's days, counted within the year")
    func numberedWeekdayWithYearDays() throws {
        // Among the year's last seven days exactly one is a Friday, and it is the last Friday.
        let lastFriday = try Self.recurrence("FREQ=YEARLY;BYDAY=-1FR;BYYEARDAY=-7,-6,-5,-4,-3,-2,-1", from: "2026-12-25T09:00:00")
        try Self.expectTimes(lastFriday.occurrences().prefix(3), [
            "2026-12-25T09:00:00+00:00",
            "2027-12-31T09:00:00+00:00",
            "2028-12-29T09:00:00+00:00",
        ])
        let firstMonday = try Self.recurrence("FREQ=YEARLY;BYDAY=1MO;BYYEARDAY=1,2,3,4,5,6,7", from: "2026-01-05T09:00:00")
        try Self.expectTimes(firstMonday.occurrences().prefix(3), [
            "2026-01-05T09:00:00+00:00",
            "2027-01-04T09:00:00+00:00",
            "2028-01-03T09:00:00+00:00",
        ])
    }

    @Test("BYMONTH limits BYWEEKNO's days by their calendar month")
    func weekNumberWithMonth() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYDAY=MO;BYWEEKNO=1;BYMONTH=12", from: "2024-01-01T09:00:00")
        // Week-1 Mondays that fall in December: those of 2025 (Dec 30 2024), 2026 (Dec 29
        // 2025), 2030 (Dec 31 2029), 2031 (Dec 30 2030). 2027-2029 begin week 1 in January.
        try Self.expectTimes(r.occurrences().prefix(5), [
            "2024-01-01T09:00:00+00:00",
            "2024-12-30T09:00:00+00:00",
            "2025-12-29T09:00:00+00:00",
            "2029-12-31T09:00:00+00:00",
            "2030-12-30T09:00:00+00:00",
        ])
    }

    // MARK: Negative BYYEARDAY and BYMONTHDAY

    @Test("BYYEARDAY=-1 is December 31 in common and leap years alike")
    func lastDayOfYear() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYYEARDAY=-1", from: "2026-12-31T12:00:00")
        try Self.expectTimes(r.occurrences().prefix(3), [
            "2026-12-31T12:00:00+00:00",
            "2027-12-31T12:00:00+00:00",
            "2028-12-31T12:00:00+00:00",
        ])
    }

    @Test("BYYEARDAY=-366 and 366 exist only in leap years")
    func dayThreeHundredSixtySix() throws {
        let first = try Self.recurrence("FREQ=YEARLY;BYYEARDAY=-366", from: "2024-01-01T12:00:00")
        try Self.expectTimes(first.occurrences().prefix(3), [
            "2024-01-01T12:00:00+00:00",
            "2028-01-01T12:00:00+00:00",
            "2032-01-01T12:00:00+00:00",
        ])
        let last = try Self.recurrence("FREQ=YEARLY;BYYEARDAY=366", from: "2024-12-31T12:00:00")
        try Self.expectTimes(last.occurrences().prefix(2), [
            "2024-12-31T12:00:00+00:00",
            "2028-12-31T12:00:00+00:00",
        ])
    }

    @Test("BYYEARDAY=60 is March 1 or February 29, -306 always March 1, and a shared day comes once")
    func positiveAndNegativeYearDays() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYYEARDAY=60,-306", from: "2027-03-01T12:00:00")
        // Common year: day 60 = Mar 1 = day 365-306+1. Leap year: day 60 = Feb 29, 366-306+1 = 61 = Mar 1.
        try Self.expectTimes(r.occurrences().prefix(4), [
            "2027-03-01T12:00:00+00:00",
            "2028-02-29T12:00:00+00:00",
            "2028-03-01T12:00:00+00:00",
            "2029-03-01T12:00:00+00:00",
        ])
    }

    @Test("BYMONTHDAY=-1 is the last day of each month, February 29 in a leap year")
    func lastDayOfMonth() throws {
        let leap = try Self.recurrence("FREQ=MONTHLY;BYMONTHDAY=-1", from: "2028-01-31T12:00:00")
        try Self.expectTimes(leap.occurrences().prefix(4), [
            "2028-01-31T12:00:00+00:00",
            "2028-02-29T12:00:00+00:00",
            "2028-03-31T12:00:00+00:00",
            "2028-04-30T12:00:00+00:00",
        ])
        let common = try Self.recurrence("FREQ=MONTHLY;BYMONTHDAY=-1", from: "2027-01-31T12:00:00")
        try Self.expectTimes(common.occurrences().prefix(3), [
            "2027-01-31T12:00:00+00:00",
            "2027-02-28T12:00:00+00:00",
            "2027-03-31T12:00:00+00:00",
        ])
    }

    @Test("BYMONTHDAY=-3 counts from each month's own length")
    func thirdToLastDayOfMonth() throws {
        let r = try Self.recurrence("FREQ=MONTHLY;BYMONTHDAY=-3", from: "2027-01-29T12:00:00")
        try Self.expectTimes(r.occurrences().prefix(4), [
            "2027-01-29T12:00:00+00:00",
            "2027-02-26T12:00:00+00:00",
            "2027-03-29T12:00:00+00:00",
            "2027-04-28T12:00:00+00:00",
        ])
        let february = try Self.recurrence("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1,-3", from: "2027-02-26T12:00:00")
        try Self.expectTimes(february.occurrences().prefix(6), [
            "2027-02-26T12:00:00+00:00",
            "2027-02-28T12:00:00+00:00",
            "2028-02-27T12:00:00+00:00",
            "2028-02-29T12:00:00+00:00",
            "2029-02-26T12:00:00+00:00",
            "2029-02-28T12:00:00+00:00",
        ])
    }

    @Test("BYMONTHDAY=-29 in February exists only in leap years")
    func februaryMinusTwentyNine() throws {
        let r = try Self.recurrence("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-29", from: "2028-02-01T12:00:00")
        try Self.expectTimes(r.occurrences().prefix(2), [
            "2028-02-01T12:00:00+00:00",
            "2032-02-01T12:00:00+00:00",
        ])
    }

    // MARK: Invalid dates are skipped

    @Test("A yearly rule on February 29 occurs only in leap years, and 2100 is not one")
    func yearlyOnLeapDay() throws {
        let r = try Self.recurrence("FREQ=YEARLY", from: "2024-02-29T12:00:00")
        try Self.expectTimes(r.occurrences().prefix(20), [
            "2024-02-29T12:00:00+00:00", "2028-02-29T12:00:00+00:00", "2032-02-29T12:00:00+00:00",
            "2036-02-29T12:00:00+00:00", "2040-02-29T12:00:00+00:00", "2044-02-29T12:00:00+00:00",
            "2048-02-29T12:00:00+00:00", "2052-02-29T12:00:00+00:00", "2056-02-29T12:00:00+00:00",
            "2060-02-29T12:00:00+00:00", "2064-02-29T12:00:00+00:00", "2068-02-29T12:00:00+00:00",
            "2072-02-29T12:00:00+00:00", "2076-02-29T12:00:00+00:00", "2080-02-29T12:00:00+00:00",
            "2084-02-29T12:00:00+00:00", "2088-02-29T12:00:00+00:00", "2092-02-29T12:00:00+00:00",
            "2096-02-29T12:00:00+00:00", "2104-02-29T12:00:00+00:00",
        ])
        try Self.expectTimes(r.occurrences(after: try Self.after("2096-03-01T00:00:00Z")).prefix(1),
                             ["2104-02-29T12:00:00+00:00"])
    }

    @Test("A monthly rule on the 31st skips the shorter months instead of clamping")
    func monthlyOnThirtyFirst() throws {
        let r = try Self.recurrence("FREQ=MONTHLY", from: "2026-01-31T09:00:00")
        try Self.expectTimes(r.occurrences().prefix(7), [
            "2026-01-31T09:00:00+00:00",
            "2026-03-31T09:00:00+00:00",
            "2026-05-31T09:00:00+00:00",
            "2026-07-31T09:00:00+00:00",
            "2026-08-31T09:00:00+00:00",
            "2026-10-31T09:00:00+00:00",
            "2026-12-31T09:00:00+00:00",
        ])
        // COUNT counts only the months that have the day.
        let counted = try Self.recurrence("FREQ=MONTHLY;COUNT=4", from: "2026-01-31T09:00:00")
        try Self.expectTimes(counted.occurrences(), [
            "2026-01-31T09:00:00+00:00",
            "2026-03-31T09:00:00+00:00",
            "2026-05-31T09:00:00+00:00",
            "2026-07-31T09:00:00+00:00",
        ])
    }

    // MARK: UNTIL and COUNT

    @Test("A UTC UNTIL is inclusive: an occurrence exactly at it is kept, a second later it is not")
    func untilUTC() throws {
        // 09:00 EST is 14:00 UTC.
        let inclusive = try Self.recurrence("FREQ=DAILY;UNTIL=20260305T140000Z", from: "2026-03-01T09:00:00", in: "America/New_York")
        try Self.expectTimes(inclusive.occurrences(), [
            "2026-03-01T09:00:00-05:00",
            "2026-03-02T09:00:00-05:00",
            "2026-03-03T09:00:00-05:00",
            "2026-03-04T09:00:00-05:00",
            "2026-03-05T09:00:00-05:00",
        ])
        let shorter = try Self.recurrence("FREQ=DAILY;UNTIL=20260305T135959Z", from: "2026-03-01T09:00:00", in: "America/New_York")
        #expect(Array(shorter.occurrences()).count == 4)
    }

    @Test("A UTC UNTIL compares instants, so the offset change moves where it cuts")
    func untilUTCAcrossChange() throws {
        // 09:00 EDT on Mar 9 is 13:00 UTC, an hour earlier than 09:00 EST would be.
        let r = try Self.recurrence("FREQ=DAILY;UNTIL=20260309T130000Z", from: "2026-03-07T09:00:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences(), [
            "2026-03-07T09:00:00-05:00",
            "2026-03-08T09:00:00-04:00",
            "2026-03-09T09:00:00-04:00",
        ])
        let cut = try Self.recurrence("FREQ=DAILY;UNTIL=20260309T125959Z", from: "2026-03-07T09:00:00", in: "America/New_York")
        #expect(Array(cut.occurrences()).map(\.rfc3339) == ["2026-03-07T09:00:00-05:00", "2026-03-08T09:00:00-04:00"])
    }

    @Test("A date UNTIL on an all-day start includes that date")
    func untilDateAllDay() throws {
        let daily = try Self.allDay("FREQ=DAILY;UNTIL=20261205", from: "2026-12-01")
        #expect(Array(daily.occurrences()).map(\.rfc3339) == ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05"])
        let weekly = try Self.allDay("FREQ=WEEKLY;UNTIL=20261215", from: "2026-12-01")
        #expect(Array(weekly.occurrences()).map(\.rfc3339) == ["2026-12-01", "2026-12-08", "2026-12-15"])
    }

    @Test("A date UNTIL on a timed start runs through the end of that day")
    func untilDateTimed() throws {
        let r = try Self.recurrence("FREQ=DAILY;UNTIL=20260305", from: "2026-03-01T23:30:00", in: "America/New_York")
        let times = Array(r.occurrences())
        #expect(times.count == 5)
        #expect(times.last?.rfc3339 == "2026-03-05T23:30:00-05:00")
    }

    @Test("A local UNTIL is read on the recurrence's wall clock, inclusively")
    func untilLocal() throws {
        let r = try Self.recurrence("FREQ=WEEKLY;UNTIL=20260322T090000", from: "2026-03-01T09:00:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences(), [
            "2026-03-01T09:00:00-05:00",
            "2026-03-08T09:00:00-04:00",
            "2026-03-15T09:00:00-04:00",
            "2026-03-22T09:00:00-04:00",
        ])
        let cut = try Self.recurrence("FREQ=WEEKLY;UNTIL=20260322T085959", from: "2026-03-01T09:00:00", in: "America/New_York")
        #expect(Array(cut.occurrences()).count == 3)
    }

    @Test("COUNT gives exactly that many occurrences, the start included")
    func countIsExact() throws {
        let r = try Self.recurrence("FREQ=WEEKLY;COUNT=3", from: "2026-01-05T09:00:00")
        try Self.expectTimes(r.occurrences(), [
            "2026-01-05T09:00:00+00:00",
            "2026-01-12T09:00:00+00:00",
            "2026-01-19T09:00:00+00:00",
        ])
    }

    // MARK: EXDATE and RDATE

    @Test("EXDATE removes occurrences without extending COUNT")
    func exceptionsDoNotExtendCount() throws {
        let r = try Self.recurrence("FREQ=DAILY;COUNT=5", from: "2026-01-01T09:00:00",
                                    exceptions: ["2026-01-02T09:00:00", "2026-01-04T09:00:00"])
        try Self.expectTimes(r.occurrences(), [
            "2026-01-01T09:00:00+00:00",
            "2026-01-03T09:00:00+00:00",
            "2026-01-05T09:00:00+00:00",
        ])
    }

    @Test("EXDATE can remove the start itself, and one that matches nothing changes nothing")
    func exceptionOfStartAndOfNothing() throws {
        let withoutStart = try Self.recurrence("FREQ=DAILY;COUNT=3", from: "2026-01-01T09:00:00",
                                               exceptions: ["2026-01-01T09:00:00"])
        try Self.expectTimes(withoutStart.occurrences(), ["2026-01-02T09:00:00+00:00", "2026-01-03T09:00:00+00:00"])
        let unmatched = try Self.recurrence("FREQ=DAILY;COUNT=3", from: "2026-01-01T09:00:00",
                                            exceptions: ["2026-01-02T10:00:00"])
        #expect(Array(unmatched.occurrences()).count == 3)
    }

    @Test("An EXDATE written as the gap's wall time removes the occurrence moved out of the gap")
    func exceptionInGap() throws {
        // 02:30 on 2026-03-08 does not exist in New York; both the rule's time and the
        // EXDATE read as 03:30 EDT.
        let r = try Self.recurrence("FREQ=DAILY;COUNT=4", from: "2026-03-06T02:30:00", in: "America/New_York",
                                    exceptions: ["2026-03-08T02:30:00"])
        try Self.expectTimes(r.occurrences(), [
            "2026-03-06T02:30:00-05:00",
            "2026-03-07T02:30:00-05:00",
            "2026-03-09T02:30:00-04:00",
        ])
    }

    @Test("RDATEs join in instant order, are not counted by COUNT, and a repeated instant comes once")
    func extraDates() throws {
        let r = try Self.recurrence("FREQ=WEEKLY;COUNT=3", from: "2026-01-05T09:00:00",
                                    extras: ["2026-02-01T09:00:00", "2026-01-07T12:00:00",
                                             "2025-12-31T08:00:00", "2026-01-12T09:00:00"])
        // The recurrence set is DTSTART, the rule's 3 and the RDATEs, as a set:
        // the RDATE before the start belongs to it too.
        try Self.expectTimes(r.occurrences(), [
            "2025-12-31T08:00:00+00:00",
            "2026-01-05T09:00:00+00:00",
            "2026-01-07T12:00:00+00:00",
            "2026-01-12T09:00:00+00:00",
            "2026-01-19T09:00:00+00:00",
            "2026-02-01T09:00:00+00:00",
        ])
        try Self.expectTimes(r.occurrences(after: try Self.after("2026-01-19T09:00:00Z")), ["2026-02-01T09:00:00+00:00"])
    }

    @Test("RDATEs are not limited by UNTIL, and EXDATE removes an RDATE too")
    func extraDatesWithUntilAndExceptions() throws {
        let r = try Self.recurrence("FREQ=DAILY;UNTIL=20260103T090000Z", from: "2026-01-01T09:00:00",
                                    exceptions: ["2026-01-07T12:00:00"],
                                    extras: ["2026-01-10T09:00:00", "2026-01-07T12:00:00"])
        try Self.expectTimes(r.occurrences(), [
            "2026-01-01T09:00:00+00:00",
            "2026-01-02T09:00:00+00:00",
            "2026-01-03T09:00:00+00:00",
            "2026-01-10T09:00:00+00:00",
        ])
    }

    // MARK: The start

    @Test("An UNTIL before the start leaves the start as the only occurrence, from the start and from a seek")
    func untilBeforeStart() throws {
        let r = try Self.recurrence("FREQ=DAILY;UNTIL=20251231T000000Z", from: "2026-01-05T09:00:00")
        try Self.expectTimes(r.occurrences(), ["2026-01-05T09:00:00+00:00"])
        try Self.expectTimes(r.occurrences(after: try Self.after("2026-01-05T08:59:59Z")), ["2026-01-05T09:00:00+00:00"])
        try Self.expectTimes(r.occurrences(after: try Self.after("2026-01-05T09:00:00Z")), [])
    }

    @Test("A start that does not match the rule is still the first occurrence, and counts")
    func startNotMatching() throws {
        // 2026-01-05 is a Monday; the last Fridays are Jan 30 and Feb 27.
        let r = try Self.recurrence("FREQ=MONTHLY;COUNT=3;BYDAY=-1FR", from: "2026-01-05T09:00:00")
        try Self.expectTimes(r.occurrences(), [
            "2026-01-05T09:00:00+00:00",
            "2026-01-30T09:00:00+00:00",
            "2026-02-27T09:00:00+00:00",
        ])
        let weekly = try Self.recurrence("FREQ=WEEKLY;BYDAY=TU", from: "2026-01-01T09:00:00")
        try Self.expectTimes(weekly.occurrences().prefix(3), [
            "2026-01-01T09:00:00+00:00",
            "2026-01-06T09:00:00+00:00",
            "2026-01-13T09:00:00+00:00",
        ])
        try Self.expectTimes(weekly.occurrences(after: try Self.after("2026-01-01T08:59:59Z")).prefix(2), [
            "2026-01-01T09:00:00+00:00",
            "2026-01-06T09:00:00+00:00",
        ])
    }

    /// Runs every kind of query on a rule that can never produce and checks
    /// that each gives just the start (or nothing after it), all within a
    /// generous second.
    static func expectOnlyStart(_ rule: String, from start: String,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try recurrence(rule, from: start)
        let startInstant = try unixTime(start + "Z")
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

    // MARK: Seeking with COUNT

    @Test("Seeking a COUNT rule near its end gives only the remaining occurrences")
    func seekingHonoursCount() throws {
        let r = try Self.recurrence("FREQ=DAILY;COUNT=10", from: "2026-01-01T09:00:00")
        // Seek before any walk from the start, so the count is established by the seek itself.
        try Self.expectTimes(r.occurrences(after: try Self.after("2026-01-08T09:00:00Z")), [
            "2026-01-09T09:00:00+00:00",
            "2026-01-10T09:00:00+00:00",
        ])
        try Self.expectTimes(r.occurrences(after: try Self.after("2026-01-08T08:59:59Z")), [
            "2026-01-08T09:00:00+00:00",
            "2026-01-09T09:00:00+00:00",
            "2026-01-10T09:00:00+00:00",
        ])
        #expect(Array(r.occurrences(after: try Self.after("2026-01-10T09:00:00Z"))).isEmpty)
        #expect(Array(r.occurrences(after: try Self.after("2030-01-01T00:00:00Z"))).isEmpty)
        #expect(r.nextOccurrence(after: Date(timeIntervalSince1970: TimeInterval(try Self.after("2026-01-10T09:00:00Z")))) == nil)
    }

    @Test("Seeking a COUNT rule with a non-matching start and an EXDATE still stops at the count")
    func seekingHonoursCountWithStartAndExceptions() throws {
        // Rule occurrences: Mon Jan 5 (the start), Jan 30, Feb 27, Mar 27, Apr 24 (the last
        // Fridays); the EXDATE'd Feb 27 still counts, so May 29 is not reached.
        let r = try Self.recurrence("FREQ=MONTHLY;COUNT=5;BYDAY=-1FR", from: "2026-01-05T09:00:00",
                                    exceptions: ["2026-02-27T09:00:00"])
        try Self.expectTimes(r.occurrences(after: try Self.after("2026-02-01T00:00:00Z")), [
            "2026-03-27T09:00:00+00:00",
            "2026-04-24T09:00:00+00:00",
        ])
        #expect(r.nextOccurrence(after: Date(timeIntervalSince1970: TimeInterval(try Self.after("2026-04-24T09:00:00Z")))) == nil)
        let april = try Date.ISO8601FormatStyle().parse("2026-04-01T00:00:00Z")
        let july = try Date.ISO8601FormatStyle().parse("2026-07-01T00:00:00Z")
        let inRange = r.occurrences(in: april..<july)
        #expect(inRange.map(\.rfc3339) == ["2026-04-24T09:00:00+00:00"])
        // The whole expansion agrees.
        #expect(Array(r.occurrences()).map(\.rfc3339) == [
            "2026-01-05T09:00:00+00:00",
            "2026-01-30T09:00:00+00:00",
            "2026-03-27T09:00:00+00:00",
            "2026-04-24T09:00:00+00:00",
        ])
    }

    @Test("Seeking a COUNT rule past its end still yields a later RDATE")
    func seekingCountWithExtraDate() throws {
        let r = try Self.recurrence("FREQ=DAILY;COUNT=3", from: "2026-01-01T09:00:00", extras: ["2026-02-01T09:00:00"])
        try Self.expectTimes(r.occurrences(after: try Self.after("2026-01-02T09:00:00Z")), [
            "2026-01-03T09:00:00+00:00",
            "2026-02-01T09:00:00+00:00",
        ])
    }

    // MARK: All-day

    @Test("All-day occurrences print as dates, EXDATE and RDATE given as dates")
    func allDayPrintsDates() throws {
        let r = try Self.allDay("FREQ=MONTHLY;BYMONTHDAY=-1", from: "2026-01-31",
                                exceptions: ["2026-02-28"], extras: ["2026-02-14"])
        let days = Array(r.occurrences().prefix(4))
        #expect(days.map(\.rfc3339) == ["2026-01-31", "2026-02-14", "2026-03-31", "2026-04-30"])
        #expect(days.allSatisfy { $0.isAllDay })
        #expect(days.map(\.day) == ["2026-01-31", "2026-02-14", "2026-03-31", "2026-04-30"].map { CivilDate(parsing: $0)! })
        let leap = try Self.allDay("FREQ=YEARLY", from: "2024-02-29")
        #expect(leap.occurrences().prefix(3).map(\.rfc3339) == ["2024-02-29", "2028-02-29", "2032-02-29"])
    }

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
