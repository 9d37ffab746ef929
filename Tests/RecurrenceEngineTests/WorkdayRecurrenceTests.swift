import CalendarModel
import Foundation
import RecurrenceEngine
import TestSupport
import Testing

// Weekdays used below (checked with Python's datetime): 2021-09-17 Fri,
// 2024-02-01 Thu, 2024-03-02 Sat, 2024-03-10 Sun, 2024-04-10 Wed,
// 2024-10-26 Sat, 2029-12-31 Mon, 2031-02-05 Wed. The Chinese schedule is
// `TableSchedule.china`.
@Suite("Workday rules in the recurrence engine")
struct WorkdayRecurrenceTests {

    // MARK: Helpers

    static func local(_ text: String) throws -> LocalDateTime { try #require(LocalDateTime(parsing: text)) }

    static func recurrence(_ rule: String, from start: String, in zone: String = "Asia/Shanghai",
                           exceptions: [String] = [], extras: [String] = [],
                           workdays: (any WorkdaySchedule)? = TableSchedule.china) throws -> Recurrence {
        Recurrence(rule: try RecurrenceRule(rfc5545: rule), start: try local(start), timeZone: try TimeZoneRules.named(zone),
                   exceptionDates: try exceptions.map(local), extraDates: try extras.map(local), workdays: workdays)
    }

    static func allDay(_ rule: String, from start: String, in zone: String = "Asia/Shanghai",
                       exceptions: [String] = [], workdays: (any WorkdaySchedule)? = TableSchedule.china) throws -> Recurrence {
        func date(_ text: String) throws -> CivilDate { try #require(CivilDate(parsing: text)) }
        return try Recurrence(rule: try RecurrenceRule(rfc5545: rule), startDate: try date(start),
                              timeZone: try TimeZoneRules.named(zone), exceptionDates: try exceptions.map(date),
                              workdays: workdays)
    }

    /// Checks the printed form and the instant of each occurrence.
    static func expectTimes(_ occurrences: some Sequence<Occurrence>, _ expected: [String],
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = Array(occurrences)
        #expect(actual.map(\.rfc3339) == expected, sourceLocation: sourceLocation)
        if !expected.isEmpty && !expected[0].contains("T") { return }
        #expect(actual.map(\.instant) == (try expected.map(foundationUnixTime)), sourceLocation: sourceLocation)
    }

    static func scheduled(_ occurrences: some Sequence<Occurrence>) -> [String] {
        occurrences.map(\.scheduledTime.description)
    }

    // MARK: SKIP

    @Test("FREQ=DAILY;X-WORKDAY=SKIP is every workday: around the 2024 Spring Festival, makeup Sundays in, days off out")
    func everyWorkdayAroundSpringFestival() throws {
        let r = try Self.recurrence("FREQ=DAILY;X-WORKDAY=SKIP", from: "2024-02-01T08:50:00")
        try Self.expectTimes(r.occurrences().prefix(11), [
            "2024-02-01T08:50:00+08:00",  // Thu
            "2024-02-02T08:50:00+08:00",  // Fri
            "2024-02-04T08:50:00+08:00",  // Sun, makeup workday
            "2024-02-05T08:50:00+08:00",
            "2024-02-06T08:50:00+08:00",
            "2024-02-07T08:50:00+08:00",
            "2024-02-08T08:50:00+08:00",
            "2024-02-09T08:50:00+08:00",  // Fri; 02-10…02-17 off
            "2024-02-18T08:50:00+08:00",  // Sun, makeup workday
            "2024-02-19T08:50:00+08:00",
            "2024-02-20T08:50:00+08:00",
        ])
    }

    @Test("a start on a day off is not an occurrence of a SKIP rule")
    func startOnDayOffIsSkipped() throws {
        let sunday = try Self.recurrence("FREQ=DAILY;X-WORKDAY=SKIP", from: "2024-02-11T08:50:00")
        try Self.expectTimes(sunday.occurrences().prefix(2), ["2024-02-18T08:50:00+08:00", "2024-02-19T08:50:00+08:00"])
        let saturday = try Self.recurrence("FREQ=DAILY;X-WORKDAY=SKIP", from: "2024-03-02T08:50:00")
        try Self.expectTimes(saturday.occurrences().prefix(1), ["2024-03-04T08:50:00+08:00"])
    }

    @Test("without a schedule, a workday rule uses the ordinary Monday-to-Friday week")
    func defaultScheduleIsTheOrdinaryWeek() throws {
        let r = try Self.recurrence("FREQ=DAILY;X-WORKDAY=SKIP", from: "2024-02-08T08:50:00", workdays: nil)
        #expect(r.workdays == nil)
        // 2024-02-12 is a Monday: a day off in China, a workday in the ordinary week.
        try Self.expectTimes(r.occurrences().prefix(3), [
            "2024-02-08T08:50:00+08:00", "2024-02-09T08:50:00+08:00", "2024-02-12T08:50:00+08:00",
        ])
    }

    @Test("a rule without a workday part ignores the schedule")
    func plainRuleIgnoresSchedule() throws {
        let r = try Self.recurrence("FREQ=DAILY", from: "2024-02-09T08:50:00")
        try Self.expectTimes(r.occurrences().prefix(2), ["2024-02-09T08:50:00+08:00", "2024-02-10T08:50:00+08:00"])
    }

    // MARK: FORWARD and BACKWARD

    @Test("FORWARD moves an occurrence on a day off to the next workday at the same wall time, keeping its scheduled time")
    func forwardAroundSpringFestival() throws {
        let r = try Self.recurrence("FREQ=WEEKLY;BYDAY=TH;X-WORKDAY=FORWARD", from: "2024-02-01T08:50:00")
        let occurrences = Array(r.occurrences().prefix(4))
        try Self.expectTimes(occurrences, [
            "2024-02-01T08:50:00+08:00",
            "2024-02-08T08:50:00+08:00",
            "2024-02-18T08:50:00+08:00",  // Thu 02-15 is off; Sun 02-18 is the next workday
            "2024-02-22T08:50:00+08:00",
        ])
        #expect(Self.scheduled(occurrences) == [
            "2024-02-01T08:50:00", "2024-02-08T08:50:00", "2024-02-15T08:50:00", "2024-02-22T08:50:00",
        ])
        #expect(occurrences.map(\.daysMoved) == [0, 0, 3, 0])
        #expect(occurrences[2].localTime.description == "2024-02-18T08:50:00")
    }

    @Test("BACKWARD moves an occurrence on a day off to the previous workday")
    func backwardAroundSpringFestival() throws {
        let r = try Self.recurrence("FREQ=WEEKLY;BYDAY=TH;X-WORKDAY=BACKWARD", from: "2024-02-01T08:50:00")
        let occurrences = Array(r.occurrences().prefix(4))
        try Self.expectTimes(occurrences, [
            "2024-02-01T08:50:00+08:00",
            "2024-02-08T08:50:00+08:00",
            "2024-02-09T08:50:00+08:00",  // from Thu 02-15
            "2024-02-22T08:50:00+08:00",
        ])
        #expect(occurrences.map(\.daysMoved) == [0, 0, -6, 0])
        #expect(occurrences[2].scheduledTime.description == "2024-02-15T08:50:00")
    }

    @Test("pay day on the 10th: forward to the makeup Sunday, or back to the Friday before", arguments: [
        ("FORWARD", ["2024-01-10T09:00:00+08:00", "2024-02-18T09:00:00+08:00", "2024-03-11T09:00:00+08:00", "2024-04-10T09:00:00+08:00"]),
        ("BACKWARD", ["2024-01-10T09:00:00+08:00", "2024-02-09T09:00:00+08:00", "2024-03-08T09:00:00+08:00", "2024-04-10T09:00:00+08:00"]),
    ])
    func monthlyMoves(direction: String, expected: [String]) throws {
        // 2024-02-10 is in the Spring Festival break, 2024-03-10 a Sunday.
        let r = try Self.recurrence("FREQ=MONTHLY;BYMONTHDAY=10;X-WORKDAY=\(direction)", from: "2024-01-10T09:00:00")
        try Self.expectTimes(r.occurrences().prefix(4), expected)
    }

    @Test("occurrences that FORWARD moves onto the same time appear once, named by the one that was not moved")
    func forwardCollisionsAppearOnce() throws {
        // 02-10…02-17 all move to Sun 02-18, which has its own occurrence.
        let daily = try Self.recurrence("FREQ=DAILY;X-WORKDAY=FORWARD", from: "2024-02-08T08:50:00")
        let occurrences = Array(daily.occurrences().prefix(4))
        try Self.expectTimes(occurrences, [
            "2024-02-08T08:50:00+08:00", "2024-02-09T08:50:00+08:00", "2024-02-18T08:50:00+08:00", "2024-02-19T08:50:00+08:00",
        ])
        #expect(Self.scheduled(occurrences) == [
            "2024-02-08T08:50:00", "2024-02-09T08:50:00", "2024-02-18T08:50:00", "2024-02-19T08:50:00",
        ])
        #expect(occurrences.map(\.daysMoved) == [0, 0, 0, 0])

        // Weekends: Sat 02-03 joins the makeup Sunday 02-04; the break's
        // weekend days join Sun 02-18; Sat 02-24 and Sun 02-25 both move to
        // Mon 02-26, named by the earlier.
        let weekends = try Self.recurrence("FREQ=WEEKLY;BYDAY=SA,SU;X-WORKDAY=FORWARD", from: "2024-02-03T10:00:00")
        let moved = Array(weekends.occurrences().prefix(4))
        try Self.expectTimes(moved, [
            "2024-02-04T10:00:00+08:00", "2024-02-18T10:00:00+08:00", "2024-02-26T10:00:00+08:00", "2024-03-04T10:00:00+08:00",
        ])
        #expect(Self.scheduled(moved) == [
            "2024-02-04T10:00:00", "2024-02-18T10:00:00", "2024-02-24T10:00:00", "2024-03-02T10:00:00",
        ])
        #expect(moved.map(\.daysMoved) == [0, 0, 2, 2])
    }

    @Test("BACKWARD output stays in instant order when a later occurrence lands before an earlier one")
    func backwardOrder() throws {
        // Each week: Fri 18:00 and Sat 09:00 (the 2nd and 3rd of Fri 9, Fri 18,
        // Sat 9, Sat 18). Sat 09:00 moves back to Fri 09:00, before Fri 18:00.
        // In the Spring Festival week Fri 02-16 and Sat 02-17 are off too, and
        // land on Fri 02-09 where the week before already is.
        let r = try Self.recurrence("FREQ=WEEKLY;BYDAY=FR,SA;BYHOUR=9,18;BYSETPOS=2,3;X-WORKDAY=BACKWARD",
                                    from: "2024-02-05T18:00:00")
        let occurrences = Array(r.occurrences().prefix(5))
        try Self.expectTimes(occurrences, [
            "2024-02-05T18:00:00+08:00",
            "2024-02-09T09:00:00+08:00",
            "2024-02-09T18:00:00+08:00",
            "2024-02-23T09:00:00+08:00",
            "2024-02-23T18:00:00+08:00",
        ])
        #expect(Self.scheduled(occurrences) == [
            "2024-02-05T18:00:00", "2024-02-10T09:00:00", "2024-02-09T18:00:00", "2024-02-24T09:00:00", "2024-02-23T18:00:00",
        ])
        // A seek lands in the middle of it.
        let after = try foundationUnixTime("2024-02-09T12:00:00+08:00")
        try Self.expectTimes(r.occurrences(after: after).prefix(2), ["2024-02-09T18:00:00+08:00", "2024-02-23T09:00:00+08:00"])
        let morning = try foundationUnixTime("2024-02-09T08:00:00+08:00")
        #expect(r.nextOccurrence(after: Date(timeIntervalSince1970: TimeInterval(morning))) == occurrences[1])
    }

    @Test("FORWARD and BACKWARD look 366 days away at most; past that the occurrence is dropped")
    func moveReach() throws {
        // 400 days off, Tue 2030-01-01 to Tue 2031-02-04.
        let schedule = TableSchedule(daysOff: ["2030-01-01...2031-02-04"], makeupWorkdays: [])
        // Forward: 2030-02-04 is the first day within 366 days of Wed 2031-02-05.
        let forward = try Self.recurrence("FREQ=DAILY;X-WORKDAY=FORWARD", from: "2029-12-31T08:00:00", in: "UTC", workdays: schedule)
        try Self.expectTimes(forward.occurrences().prefix(3), [
            "2029-12-31T08:00:00+00:00", "2031-02-05T08:00:00+00:00", "2031-02-06T08:00:00+00:00",
        ])
        let lateForward = try Self.recurrence("FREQ=DAILY;UNTIL=20300204T235959;X-WORKDAY=FORWARD", from: "2029-12-31T08:00:00",
                                              in: "UTC", workdays: schedule)
        let last = try #require(Array(lateForward.occurrences()).last)
        #expect(last.scheduledTime.description == "2030-02-04T08:00:00")
        #expect(last.daysMoved == 366)
        let earlyForward = try Self.recurrence("FREQ=DAILY;UNTIL=20300203T235959;X-WORKDAY=FORWARD", from: "2029-12-31T08:00:00",
                                               in: "UTC", workdays: schedule)
        try Self.expectTimes(earlyForward.occurrences(), ["2029-12-31T08:00:00+00:00"])

        // Backward: up to 2031-01-01, 366 days after Mon 2029-12-31.
        let backward = try Self.recurrence("FREQ=DAILY;X-WORKDAY=BACKWARD", from: "2030-01-01T08:00:00", in: "UTC", workdays: schedule)
        let occurrences = Array(backward.occurrences().prefix(2))
        try Self.expectTimes(occurrences, ["2029-12-31T08:00:00+00:00", "2031-02-05T08:00:00+00:00"])
        #expect(Self.scheduled(occurrences) == ["2030-01-01T08:00:00", "2031-02-05T08:00:00"])

        // Seeks inside the break find the same.
        let june = Date(timeIntervalSince1970: TimeInterval(try foundationUnixTime("2030-06-01T00:00:00Z")))
        #expect(forward.nextOccurrence(after: june)?.rfc3339 == "2031-02-05T08:00:00+00:00")
        #expect(forward.nextOccurrence(after: june)?.scheduledTime.description == "2031-02-05T08:00:00")
        #expect(backward.nextOccurrence(after: june)?.rfc3339 == "2031-02-05T08:00:00+00:00")
    }

    // MARK: MAKEUP and RETURN

    @Test("FREQ=DAILY;X-WORKDAY=MAKEUP is every makeup workday")
    func everyMakeupWorkday() throws {
        let r = try Self.recurrence("FREQ=DAILY;X-WORKDAY=MAKEUP", from: "2021-09-01T20:00:00")
        try Self.expectTimes(r.occurrences().prefix(4), [
            "2021-09-18T20:00:00+08:00",  // Sat, for Mid-Autumn
            "2021-09-26T20:00:00+08:00",  // Sun, for National Day
            "2021-10-09T20:00:00+08:00",  // Sat, for National Day
            "2024-02-04T20:00:00+08:00",  // the next one the table knows
        ])
        let weekendsOnly = try Self.recurrence("FREQ=WEEKLY;BYDAY=SA;X-WORKDAY=MAKEUP", from: "2021-09-04T20:00:00")
        try Self.expectTimes(weekendsOnly.occurrences().prefix(2), ["2021-09-18T20:00:00+08:00", "2021-10-09T20:00:00+08:00"])
    }

    @Test("the evening before a makeup workday: an all-day MAKEUP rule with an alarm three hours before its midnight")
    func eveningBeforeMakeupWorkday() throws {
        let r = try Self.allDay("FREQ=DAILY;X-WORKDAY=MAKEUP", from: "2021-09-01")
        let occurrences = Array(r.occurrences().prefix(3))
        try Self.expectTimes(occurrences, ["2021-09-18", "2021-09-26", "2021-10-09"])
        let zone = try TimeZoneRules.named("Asia/Shanghai")
        let alarms = occurrences.map { zone.localTime(at: $0.instant - 3 * 3600).description }
        #expect(alarms == ["2021-09-17T21:00:00", "2021-09-25T21:00:00", "2021-10-08T21:00:00"])
    }

    @Test("RETURN with X-BREAK=3: the first workday after Mid-Autumn and after National Day 2021")
    func backToWorkAfterAHoliday() throws {
        let r = try Self.recurrence("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=3", from: "2021-09-01T08:00:00")
        let range = Date(timeIntervalSince1970: TimeInterval(try foundationUnixTime("2021-09-01T00:00:00+08:00")))
            ..< Date(timeIntervalSince1970: TimeInterval(try foundationUnixTime("2022-01-01T00:00:00+08:00")))
        // Wed 09-22 after 09-19…21; Fri 10-08 after 10-01…07. The makeup
        // days 09-26 and 10-09 break the weekends next to them.
        try Self.expectTimes(r.occurrences(in: range), ["2021-09-22T08:00:00+08:00", "2021-10-08T08:00:00+08:00"])
        let seven = try Self.recurrence("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=7", from: "2021-09-01T08:00:00")
        try Self.expectTimes(seven.occurrences(in: range), ["2021-10-08T08:00:00+08:00"])
        let eight = try Self.recurrence("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=8", from: "2021-09-01T08:00:00")
        try Self.expectTimes(eight.occurrences(in: range), [])
        // Seeking from inside the break.
        let during = Date(timeIntervalSince1970: TimeInterval(try foundationUnixTime("2021-10-07T12:00:00+08:00")))
        #expect(r.nextOccurrence(after: during)?.rfc3339 == "2021-10-08T08:00:00+08:00")
    }

    @Test("RETURN with X-BREAK=2 also finds the Mondays after ordinary weekends")
    func backToWorkAfterWeekends() throws {
        let r = try Self.recurrence("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=2", from: "2021-09-01T08:00:00")
        // Not Mon 09-27 (after the makeup Sunday) nor Mon 10-11 (after the makeup Saturday).
        try Self.expectTimes(r.occurrences().prefix(6), [
            "2021-09-06T08:00:00+08:00", "2021-09-13T08:00:00+08:00", "2021-09-22T08:00:00+08:00",
            "2021-10-08T08:00:00+08:00", "2021-10-18T08:00:00+08:00", "2021-10-25T08:00:00+08:00",
        ])
    }

    // MARK: COUNT, UNTIL, EXDATE, RDATE

    @Test("COUNT counts the occurrences that survive: COUNT=10 with SKIP is ten workdays")
    func countCountsWorkdays() throws {
        let r = try Self.recurrence("FREQ=DAILY;COUNT=10;X-WORKDAY=SKIP", from: "2024-02-05T08:50:00")
        let days = [5, 6, 7, 8, 9, 18, 19, 20, 21, 22].map { "2024-02-\($0 < 10 ? "0" : "")\($0)T08:50:00+08:00" }
        try Self.expectTimes(r.occurrences(), days)
        // Seeking honours the same end.
        try Self.expectTimes(r.occurrences(after: try foundationUnixTime("2024-02-20T00:00:00+08:00")), Array(days.suffix(3)))
        try Self.expectTimes(r.occurrences(after: try foundationUnixTime("2024-02-22T08:50:00+08:00")), [])
        // A start on a day off is dropped and not counted.
        let fromSaturday = try Self.recurrence("FREQ=DAILY;COUNT=3;X-WORKDAY=SKIP", from: "2024-02-17T08:50:00")
        try Self.expectTimes(fromSaturday.occurrences(), [
            "2024-02-18T08:50:00+08:00", "2024-02-19T08:50:00+08:00", "2024-02-20T08:50:00+08:00",
        ])
        // Occurrences merged by FORWARD count once.
        let forward = try Self.recurrence("FREQ=DAILY;COUNT=4;X-WORKDAY=FORWARD", from: "2024-02-08T08:50:00")
        try Self.expectTimes(forward.occurrences(), [
            "2024-02-08T08:50:00+08:00", "2024-02-09T08:50:00+08:00", "2024-02-18T08:50:00+08:00", "2024-02-19T08:50:00+08:00",
        ])
    }

    @Test("UNTIL bounds scheduled times: a moved occurrence scheduled before it stays, one scheduled after it goes")
    func untilBoundsScheduledTimes() throws {
        let forward = try Self.recurrence("FREQ=WEEKLY;BYDAY=TH;UNTIL=20240215T235959;X-WORKDAY=FORWARD", from: "2024-02-01T08:50:00")
        try Self.expectTimes(forward.occurrences(), [
            "2024-02-01T08:50:00+08:00", "2024-02-08T08:50:00+08:00", "2024-02-18T08:50:00+08:00",
        ])
        // Mon 02-12 is off and moves back to Fri 02-09: only when UNTIL takes in 02-12.
        let through12 = try Self.recurrence("FREQ=WEEKLY;BYDAY=MO;UNTIL=20240212;X-WORKDAY=BACKWARD", from: "2024-02-05T08:50:00")
        try Self.expectTimes(through12.occurrences(), ["2024-02-05T08:50:00+08:00", "2024-02-09T08:50:00+08:00"])
        let through11 = try Self.recurrence("FREQ=WEEKLY;BYDAY=MO;UNTIL=20240211;X-WORKDAY=BACKWARD", from: "2024-02-05T08:50:00")
        try Self.expectTimes(through11.occurrences(), ["2024-02-05T08:50:00+08:00"])
    }

    @Test("EXDATE matches the scheduled time, not where the occurrence moved")
    func exceptionDatesMatchScheduledTimes() throws {
        let rule = "FREQ=WEEKLY;BYDAY=TH;X-WORKDAY=FORWARD"
        let scheduled = try Self.recurrence(rule, from: "2024-02-01T08:50:00", exceptions: ["2024-02-15T08:50:00"])
        try Self.expectTimes(scheduled.occurrences().prefix(3), [
            "2024-02-01T08:50:00+08:00", "2024-02-08T08:50:00+08:00", "2024-02-22T08:50:00+08:00",
        ])
        let landing = try Self.recurrence(rule, from: "2024-02-01T08:50:00", exceptions: ["2024-02-18T08:50:00"])
        try Self.expectTimes(landing.occurrences().prefix(3), [
            "2024-02-01T08:50:00+08:00", "2024-02-08T08:50:00+08:00", "2024-02-18T08:50:00+08:00",
        ])
        // An occurrence that stands for several goes when any of them is excluded.
        let merged = try Self.recurrence("FREQ=DAILY;X-WORKDAY=FORWARD", from: "2024-02-08T08:50:00",
                                         exceptions: ["2024-02-12T08:50:00"])
        try Self.expectTimes(merged.occurrences().prefix(3), [
            "2024-02-08T08:50:00+08:00", "2024-02-09T08:50:00+08:00", "2024-02-19T08:50:00+08:00",
        ])
        // An excluded occurrence still counts towards COUNT.
        let counted = try Self.recurrence("FREQ=DAILY;COUNT=3;X-WORKDAY=SKIP", from: "2024-02-08T08:50:00",
                                          exceptions: ["2024-02-09T08:50:00"])
        try Self.expectTimes(counted.occurrences(), ["2024-02-08T08:50:00+08:00", "2024-02-18T08:50:00+08:00"])
    }

    @Test("RDATEs are not adjusted, and one on a moved occurrence's time makes one occurrence")
    func extraDatesAreNotAdjusted() throws {
        let r = try Self.recurrence("FREQ=DAILY;X-WORKDAY=SKIP", from: "2024-02-08T08:50:00", extras: ["2024-02-11T12:00:00"])
        try Self.expectTimes(r.occurrences().prefix(4), [
            "2024-02-08T08:50:00+08:00", "2024-02-09T08:50:00+08:00", "2024-02-11T12:00:00+08:00", "2024-02-18T08:50:00+08:00",
        ])
        let onMoved = try Self.recurrence("FREQ=WEEKLY;BYDAY=TH;X-WORKDAY=FORWARD", from: "2024-02-08T08:50:00",
                                          extras: ["2024-02-18T08:50:00"])
        let occurrences = Array(onMoved.occurrences().prefix(3))
        try Self.expectTimes(occurrences, ["2024-02-08T08:50:00+08:00", "2024-02-18T08:50:00+08:00", "2024-02-22T08:50:00+08:00"])
        #expect(occurrences[1].scheduledTime.description == "2024-02-18T08:50:00")
        #expect(occurrences[1].daysMoved == 0)
    }

    // MARK: All-day and daylight saving

    @Test("an all-day FORWARD rule moves dates; its day and printed form are the new date")
    func allDayForward() throws {
        let r = try Self.allDay("FREQ=MONTHLY;BYMONTHDAY=10;X-WORKDAY=FORWARD", from: "2024-01-10")
        let occurrences = Array(r.occurrences().prefix(4))
        try Self.expectTimes(occurrences, ["2024-01-10", "2024-02-18", "2024-03-11", "2024-04-10"])
        #expect(occurrences.map(\.day.description) == ["2024-01-10", "2024-02-18", "2024-03-11", "2024-04-10"])
        #expect(occurrences.map(\.scheduledTime.date.description) == ["2024-01-10", "2024-02-10", "2024-03-10", "2024-04-10"])
        // Local midnight of the new date: 2024-02-18T00:00+08:00.
        #expect(occurrences[1].instant == (try foundationUnixTime("2024-02-18T00:00:00+08:00")))
        let excluded = try Self.allDay("FREQ=MONTHLY;BYMONTHDAY=10;X-WORKDAY=FORWARD", from: "2024-01-10", exceptions: ["2024-02-10"])
        try Self.expectTimes(excluded.occurrences().prefix(2), ["2024-01-10", "2024-03-11"])
    }

    @Test("an all-day every-workday rule skips the break")
    func allDaySkip() throws {
        let r = try Self.allDay("FREQ=DAILY;X-WORKDAY=SKIP", from: "2024-02-08")
        try Self.expectTimes(r.occurrences().prefix(4), ["2024-02-08", "2024-02-09", "2024-02-18", "2024-02-19"])
    }

    @Test("FORWARD keeps the wall time across New York's clock changes")
    func forwardKeepsWallTimeAcrossDaylightSaving() throws {
        let spring = try Self.recurrence("FREQ=WEEKLY;BYDAY=SA;X-WORKDAY=FORWARD", from: "2024-03-02T08:50:00",
                                         in: "America/New_York", workdays: nil)
        // Clocks go forward on Sun 2024-03-10.
        try Self.expectTimes(spring.occurrences().prefix(3), [
            "2024-03-04T08:50:00-05:00", "2024-03-11T08:50:00-04:00", "2024-03-18T08:50:00-04:00",
        ])
        let fall = try Self.recurrence("FREQ=WEEKLY;BYDAY=SA;X-WORKDAY=FORWARD", from: "2024-10-26T08:50:00",
                                       in: "America/New_York", workdays: nil)
        // Clocks go back on Sun 2024-11-03.
        try Self.expectTimes(fall.occurrences().prefix(2), ["2024-10-28T08:50:00-04:00", "2024-11-04T08:50:00-05:00"])
    }

    @Test("a time moved into a gap moves forward by the gap, and keeps its scheduled time")
    func forwardIntoAGap() throws {
        let sundaysOnly = OrdinaryWeek(workingDays: [.sunday])
        let r = try Self.recurrence("FREQ=WEEKLY;BYDAY=SA;X-WORKDAY=FORWARD", from: "2024-03-02T02:30:00",
                                    in: "America/New_York", workdays: sundaysOnly)
        let occurrences = Array(r.occurrences().prefix(3))
        // 02:30 on Sun 2024-03-10 does not exist in New York.
        try Self.expectTimes(occurrences, [
            "2024-03-03T02:30:00-05:00", "2024-03-10T03:30:00-04:00", "2024-03-17T02:30:00-04:00",
        ])
        #expect(occurrences[1].scheduledTime.description == "2024-03-09T02:30:00")
        #expect(occurrences[1].daysMoved == 1)
    }

    // MARK: Bounds

    @Test("with no workday at all, every form ends promptly, from the start and from a seek", arguments: [
        "FREQ=DAILY;X-WORKDAY=SKIP", "FREQ=DAILY;X-WORKDAY=FORWARD", "FREQ=DAILY;X-WORKDAY=BACKWARD",
        "FREQ=DAILY;X-WORKDAY=MAKEUP", "FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=366",
        "FREQ=DAILY;COUNT=5;X-WORKDAY=SKIP", "FREQ=WEEKLY;BYDAY=MO;X-WORKDAY=FORWARD", "FREQ=YEARLY;X-WORKDAY=BACKWARD",
        "FREQ=HOURLY;X-WORKDAY=FORWARD", "FREQ=MINUTELY;X-WORKDAY=SKIP", "FREQ=SECONDLY;X-WORKDAY=BACKWARD",
        "FREQ=SECONDLY;INTERVAL=7;X-WORKDAY=RETURN;X-BREAK=1",
    ])
    func emptyWorkweekTerminates(_ text: String) throws {
        let r = try Self.recurrence(text, from: "2024-02-01T08:50:00", workdays: OrdinaryWeek(workingDays: []))
        // The deadline only tells a hang from an answer: a debug build on a
        // loaded machine takes seconds; how fast it is belongs to the benchmark.
        let fromStart = SeekPropertyTests.withDeadline(seconds: 60) { r.occurrences().prefix(1).map(\.rfc3339) }
        // 2025-01-01T00:00:00Z
        let fromSeek = SeekPropertyTests.withDeadline(seconds: 60) { r.occurrences(after: Int64(1_735_689_600)).prefix(1).map(\.rfc3339) }
        #expect(fromStart == [], "from the start: \(fromStart.map { "\($0)" } ?? "no answer within 60 s")")
        #expect(fromSeek == [], "after a seek: \(fromSeek.map { "\($0)" } ?? "no answer within 60 s")")
    }
}
