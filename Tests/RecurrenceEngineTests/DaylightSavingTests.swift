import CalendarModel
import Foundation
import RecurrenceEngine
import Testing

// Every expected offset below was read from `zdump -v` on the zoneinfo files,
// not from the engine:
//   America/New_York     2026-03-08 02:00 -05:00 -> 03:00 -04:00   (gap 02:00-03:00)
//                        2026-11-01 02:00 -04:00 -> 01:00 -05:00   (fold 01:00-02:00)
//   Europe/London        2026-03-29 01:00 +00:00 -> 02:00 +01:00   (gap 01:00-02:00)
//                        2026-10-25 02:00 +01:00 -> 01:00 +00:00   (fold 01:00-02:00)
//   Australia/Lord_Howe  2026-04-05 02:00 +11:00 -> 01:30 +10:30   (fold 01:30-02:00)
//                        2026-10-04 02:00 +10:30 -> 02:30 +11:00   (gap 02:00-02:30)
//   America/Santiago     2026-09-06 00:00 -04:00 -> 01:00 -03:00   (midnight itself missing)
//   Asia/Shanghai        +08:00 all year since 1992; +09:00 in summer 1986-1991,
//                        e.g. 1986-05-04 02:00 -> 03:00 and 1986-09-14 02:00 -> 01:00.
@Suite("Daylight saving transitions")
struct DaylightSavingTests {

    // MARK: Helpers

    /// Unix time of an RFC 3339 text, parsed by Foundation so that the
    /// expected instants do not come from the code under test.
    static func unixTime(_ text: String) throws -> Int64 {
        let date = try Date.ISO8601FormatStyle().parse(text)
        return Int64(date.timeIntervalSince1970)
    }

    static func recurrence(_ rule: String, from start: String, in zone: String) throws -> Recurrence {
        let local = try #require(LocalDateTime(parsing: start))
        return Recurrence(rule: try RecurrenceRule(rfc5545: rule), start: local, timeZone: try TimeZoneRules.named(zone))
    }

    static func allDay(_ rule: String, from start: String, in zone: String) throws -> Recurrence {
        let date = try #require(CivilDate(parsing: start))
        return try Recurrence(rule: try RecurrenceRule(rfc5545: rule), startDate: date,
                              timeZone: try TimeZoneRules.named(zone))
    }

    /// Checks both the printed form and the instant: a wrong instant with a
    /// right-looking text (or the reverse) must fail.
    static func expectTimes(_ occurrences: some Sequence<Occurrence>, _ expected: [String],
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = Array(occurrences)
        #expect(actual.map(\.rfc3339) == expected, sourceLocation: sourceLocation)
        #expect(actual.map(\.instant) == (try expected.map(unixTime)), sourceLocation: sourceLocation)
    }

    // MARK: Wall times in a gap

    @Test("A daily wall time inside New York's spring gap moves forward by the gap's hour")
    func dailyInNewYorkGap() throws {
        let r = try Self.recurrence("FREQ=DAILY", from: "2026-03-06T02:30:00", in: "America/New_York")
        let occurrences = Array(r.occurrences().prefix(4))
        try Self.expectTimes(occurrences, [
            "2026-03-06T02:30:00-05:00",
            "2026-03-07T02:30:00-05:00",
            "2026-03-08T03:30:00-04:00",
            "2026-03-09T02:30:00-04:00",
        ])
        // The rule still asked for 02:30; only the reading moved.
        #expect(occurrences[2].scheduledTime == LocalDateTime(parsing: "2026-03-08T02:30:00"))
        #expect(occurrences[3].scheduledTime == occurrences[3].localTime)
    }

    @Test("A daily wall time inside Lord Howe's half-hour spring gap moves forward by thirty minutes")
    func dailyInLordHoweGap() throws {
        let r = try Self.recurrence("FREQ=DAILY", from: "2026-10-03T02:15:00", in: "Australia/Lord_Howe")
        let occurrences = Array(r.occurrences().prefix(3))
        try Self.expectTimes(occurrences, [
            "2026-10-03T02:15:00+10:30",
            "2026-10-04T02:45:00+11:00",
            "2026-10-05T02:15:00+11:00",
        ])
        #expect(occurrences[1].scheduledTime == LocalDateTime(parsing: "2026-10-04T02:15:00"))
    }

    @Test("A daily wall time inside London's spring gap moves forward by the gap's hour")
    func dailyInLondonGap() throws {
        let r = try Self.recurrence("FREQ=DAILY", from: "2026-03-28T01:30:00", in: "Europe/London")
        try Self.expectTimes(r.occurrences().prefix(3), [
            "2026-03-28T01:30:00+00:00",
            "2026-03-29T02:30:00+01:00",
            "2026-03-30T01:30:00+01:00",
        ])
    }

    @Test("A start that lies in the gap is itself moved forward")
    func startInGap() throws {
        let r = try Self.recurrence("FREQ=DAILY;COUNT=2", from: "2026-03-08T02:30:00", in: "America/New_York")
        let occurrences = Array(r.occurrences())
        try Self.expectTimes(occurrences, ["2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00"])
        #expect(occurrences.first?.scheduledTime == LocalDateTime(parsing: "2026-03-08T02:30:00"))
    }

    // MARK: Wall times in a fold

    @Test("A daily wall time inside New York's fold takes the first, daylight, instant only")
    func dailyInNewYorkFold() throws {
        let r = try Self.recurrence("FREQ=DAILY", from: "2026-10-30T01:30:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences().prefix(4), [
            "2026-10-30T01:30:00-04:00",
            "2026-10-31T01:30:00-04:00",
            "2026-11-01T01:30:00-04:00",
            "2026-11-02T01:30:00-05:00",
        ])
    }

    @Test("A start that lies in the fold takes its first reading, and the next day its only one")
    func startInFold() throws {
        let r = try Self.recurrence("FREQ=DAILY", from: "2026-11-01T01:30:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences().prefix(2), ["2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"])
    }

    @Test("A daily wall time inside Lord Howe's half-hour fold takes the first instant")
    func dailyInLordHoweFold() throws {
        let r = try Self.recurrence("FREQ=DAILY", from: "2026-04-04T01:45:00", in: "Australia/Lord_Howe")
        try Self.expectTimes(r.occurrences().prefix(3), [
            "2026-04-04T01:45:00+11:00",
            "2026-04-05T01:45:00+11:00",
            "2026-04-06T01:45:00+10:30",
        ])
    }

    @Test("A daily wall time inside London's fold takes the first instant")
    func dailyInLondonFold() throws {
        let r = try Self.recurrence("FREQ=DAILY", from: "2026-10-24T01:30:00", in: "Europe/London")
        try Self.expectTimes(r.occurrences().prefix(3), [
            "2026-10-24T01:30:00+01:00",
            "2026-10-25T01:30:00+01:00",
            "2026-10-26T01:30:00+00:00",
        ])
    }

    @Test("BYSETPOS picks among wall times before a picked time in the gap is moved")
    func setPositionInGap() throws {
        let r = try Self.recurrence("FREQ=DAILY;BYMINUTE=30;BYHOUR=1,2,3;BYSETPOS=2", from: "2026-03-07T02:30:00", in: "America/New_York")
        // On the 8th the second of 01:30, 02:30, 03:30 is 02:30, which reads 03:30 EDT.
        try Self.expectTimes(r.occurrences().prefix(3), [
            "2026-03-07T02:30:00-05:00",
            "2026-03-08T03:30:00-04:00",
            "2026-03-09T02:30:00-04:00",
        ])
    }

    // MARK: EXDATE and UNTIL at a transition

    @Test("An EXDATE at the fold's wall time removes the only occurrence there; the second reading does not come back")
    func exceptionInFold() throws {
        let r = Recurrence(rule: try RecurrenceRule(rfc5545: "FREQ=DAILY;COUNT=4"),
                           start: try #require(LocalDateTime(parsing: "2026-10-30T01:30:00")),
                           timeZone: try TimeZoneRules.named("America/New_York"),
                           exceptionDates: [try #require(LocalDateTime(parsing: "2026-11-01T01:30:00"))])
        try Self.expectTimes(r.occurrences(), [
            "2026-10-30T01:30:00-04:00",
            "2026-10-31T01:30:00-04:00",
            "2026-11-02T01:30:00-05:00",
        ])
    }

    @Test("A local UNTIL inside the gap is read like the occurrence there, and keeps it")
    func untilInGap() throws {
        let r = try Self.recurrence("FREQ=DAILY;UNTIL=20260308T023000", from: "2026-03-06T02:30:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences(), [
            "2026-03-06T02:30:00-05:00",
            "2026-03-07T02:30:00-05:00",
            "2026-03-08T03:30:00-04:00",
        ])
    }

    @Test("A local UNTIL inside the fold means its first reading")
    func untilInFold() throws {
        let r = try Self.recurrence("FREQ=MINUTELY;INTERVAL=30;UNTIL=20261101T013000", from: "2026-11-01T00:30:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences(), [
            "2026-11-01T00:30:00-04:00",
            "2026-11-01T01:00:00-04:00",
            "2026-11-01T01:30:00-04:00",
        ])
    }

    // MARK: Sub-daily stepping

    @Test("HOURLY steps the wall clock through New York's gap, and 02:00 and 03:00 give one instant")
    func hourlyThroughNewYorkGap() throws {
        let r = try Self.recurrence("FREQ=HOURLY", from: "2026-03-08T00:00:00", in: "America/New_York")
        // 02:00 does not exist and reads as 03:00 EDT, the same instant as 03:00 itself.
        try Self.expectTimes(r.occurrences().prefix(5), [
            "2026-03-08T00:00:00-05:00",
            "2026-03-08T01:00:00-05:00",
            "2026-03-08T03:00:00-04:00",
            "2026-03-08T04:00:00-04:00",
            "2026-03-08T05:00:00-04:00",
        ])
    }

    @Test("HOURLY steps the wall clock through New York's fold, so the repeated 01:00 comes once")
    func hourlyThroughNewYorkFold() throws {
        let r = try Self.recurrence("FREQ=HOURLY", from: "2026-11-01T00:00:00", in: "America/New_York")
        // Wall-clock stepping: 01:00 is one wall time (its first instant), then 02:00
        // EST, two real hours later; 01:00 EST is not a step of its own.
        try Self.expectTimes(r.occurrences().prefix(4), [
            "2026-11-01T00:00:00-04:00",
            "2026-11-01T01:00:00-04:00",
            "2026-11-01T02:00:00-05:00",
            "2026-11-01T03:00:00-05:00",
        ])
    }

    @Test("HOURLY through London's gap and fold")
    func hourlyThroughLondon() throws {
        let spring = try Self.recurrence("FREQ=HOURLY", from: "2026-03-29T00:00:00", in: "Europe/London")
        try Self.expectTimes(spring.occurrences().prefix(4), [
            "2026-03-29T00:00:00+00:00",
            "2026-03-29T02:00:00+01:00",
            "2026-03-29T03:00:00+01:00",
            "2026-03-29T04:00:00+01:00",
        ])
        let autumn = try Self.recurrence("FREQ=HOURLY", from: "2026-10-25T00:00:00", in: "Europe/London")
        try Self.expectTimes(autumn.occurrences().prefix(4), [
            "2026-10-25T00:00:00+01:00",
            "2026-10-25T01:00:00+01:00",
            "2026-10-25T02:00:00+00:00",
            "2026-10-25T03:00:00+00:00",
        ])
    }

    @Test("HOURLY through Lord Howe's half-hour gap and fold")
    func hourlyThroughLordHowe() throws {
        let spring = try Self.recurrence("FREQ=HOURLY", from: "2026-10-04T00:00:00", in: "Australia/Lord_Howe")
        // 02:00 lies in the 02:00-02:30 gap and reads 02:30; it is not a duplicate of 03:00.
        let springTimes = Array(spring.occurrences().prefix(4))
        try Self.expectTimes(springTimes, [
            "2026-10-04T00:00:00+10:30",
            "2026-10-04T01:00:00+10:30",
            "2026-10-04T02:30:00+11:00",
            "2026-10-04T03:00:00+11:00",
        ])
        #expect(springTimes[2].scheduledTime == LocalDateTime(parsing: "2026-10-04T02:00:00"))
        let autumn = try Self.recurrence("FREQ=HOURLY", from: "2026-04-05T00:00:00", in: "Australia/Lord_Howe")
        try Self.expectTimes(autumn.occurrences().prefix(4), [
            "2026-04-05T00:00:00+11:00",
            "2026-04-05T01:00:00+11:00",
            "2026-04-05T02:00:00+10:30",
            "2026-04-05T03:00:00+10:30",
        ])
    }

    @Test("MINUTELY through New York's gap: the moved times and the real ones after 03:00 appear once each")
    func minutelyThroughNewYorkGap() throws {
        let r = try Self.recurrence("FREQ=MINUTELY;INTERVAL=15", from: "2026-03-08T01:30:00", in: "America/New_York")
        // 02:00, 02:15, 02:30, 02:45 read 03:00-03:45 EDT; the wall times 03:00 and
        // 03:15 then name the same instants as 02:00 and 02:15.
        try Self.expectTimes(r.occurrences().prefix(8), [
            "2026-03-08T01:30:00-05:00",
            "2026-03-08T01:45:00-05:00",
            "2026-03-08T03:00:00-04:00",
            "2026-03-08T03:15:00-04:00",
            "2026-03-08T03:30:00-04:00",
            "2026-03-08T03:45:00-04:00",
            "2026-03-08T04:00:00-04:00",
            "2026-03-08T04:15:00-04:00",
        ])
    }

    @Test("MINUTELY through New York's fold visits each wall time once, on its first instant")
    func minutelyThroughNewYorkFold() throws {
        let r = try Self.recurrence("FREQ=MINUTELY;INTERVAL=20", from: "2026-11-01T00:40:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences().prefix(6), [
            "2026-11-01T00:40:00-04:00",
            "2026-11-01T01:00:00-04:00",
            "2026-11-01T01:20:00-04:00",
            "2026-11-01T01:40:00-04:00",
            "2026-11-01T02:00:00-05:00",
            "2026-11-01T02:20:00-05:00",
        ])
    }

    @Test("MINUTELY through Lord Howe's half-hour gap and fold")
    func minutelyThroughLordHowe() throws {
        let spring = try Self.recurrence("FREQ=MINUTELY;INTERVAL=15", from: "2026-10-04T01:30:00", in: "Australia/Lord_Howe")
        // 02:00 and 02:15 read 02:30 and 02:45 (+11:00), which the wall times 02:30
        // and 02:45 name again.
        try Self.expectTimes(spring.occurrences().prefix(6), [
            "2026-10-04T01:30:00+10:30",
            "2026-10-04T01:45:00+10:30",
            "2026-10-04T02:30:00+11:00",
            "2026-10-04T02:45:00+11:00",
            "2026-10-04T03:00:00+11:00",
            "2026-10-04T03:15:00+11:00",
        ])
        let autumn = try Self.recurrence("FREQ=MINUTELY;INTERVAL=15", from: "2026-04-05T01:15:00", in: "Australia/Lord_Howe")
        // 01:30 and 01:45 happen twice in real time; the wall clock is stepped once.
        try Self.expectTimes(autumn.occurrences().prefix(5), [
            "2026-04-05T01:15:00+11:00",
            "2026-04-05T01:30:00+11:00",
            "2026-04-05T01:45:00+11:00",
            "2026-04-05T02:00:00+10:30",
            "2026-04-05T02:15:00+10:30",
        ])
    }

    @Test("Sub-daily occurrences across every transition come in strictly increasing instant order")
    func subDailyInstantsStrictlyIncrease() throws {
        let cases = [
            ("FREQ=MINUTELY;INTERVAL=5", "2026-03-08T00:00:00", "America/New_York"),
            ("FREQ=MINUTELY;INTERVAL=5", "2026-11-01T00:00:00", "America/New_York"),
            ("FREQ=MINUTELY;INTERVAL=5", "2026-10-04T00:00:00", "Australia/Lord_Howe"),
            ("FREQ=MINUTELY;INTERVAL=5", "2026-04-05T00:00:00", "Australia/Lord_Howe"),
            ("FREQ=HOURLY;BYMINUTE=0,15,30,45", "2026-03-29T00:00:00", "Europe/London"),
            ("FREQ=HOURLY;BYMINUTE=0,15,30,45", "2026-10-25T00:00:00", "Europe/London"),
        ]
        for (rule, start, zone) in cases {
            let instants = try Self.recurrence(rule, from: start, in: zone).occurrences().prefix(72).map(\.instant)
            #expect(instants.count == 72, "\(rule) in \(zone)")
            #expect(zip(instants, instants.dropFirst()).allSatisfy { $0 < $1 }, "\(rule) in \(zone)")
        }
    }

    // MARK: The same wall time across the change

    @Test("A daily 09:00 stays 09:00 in London while the offset changes under it")
    func sameWallTimeInLondon() throws {
        let spring = try Self.recurrence("FREQ=DAILY", from: "2026-03-27T09:00:00", in: "Europe/London")
        try Self.expectTimes(spring.occurrences().prefix(4), [
            "2026-03-27T09:00:00+00:00",
            "2026-03-28T09:00:00+00:00",
            "2026-03-29T09:00:00+01:00",
            "2026-03-30T09:00:00+01:00",
        ])
        let autumn = try Self.recurrence("FREQ=DAILY", from: "2026-10-24T09:00:00", in: "Europe/London")
        try Self.expectTimes(autumn.occurrences().prefix(3), [
            "2026-10-24T09:00:00+01:00",
            "2026-10-25T09:00:00+00:00",
            "2026-10-26T09:00:00+00:00",
        ])
    }

    @Test("A monthly 09:00 in New York keeps its wall time through a whole year of offsets")
    func monthlyAcrossTheYearInNewYork() throws {
        let r = try Self.recurrence("FREQ=MONTHLY", from: "2026-01-15T09:00:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences().prefix(12), [
            "2026-01-15T09:00:00-05:00",
            "2026-02-15T09:00:00-05:00",
            "2026-03-15T09:00:00-04:00",
            "2026-04-15T09:00:00-04:00",
            "2026-05-15T09:00:00-04:00",
            "2026-06-15T09:00:00-04:00",
            "2026-07-15T09:00:00-04:00",
            "2026-08-15T09:00:00-04:00",
            "2026-09-15T09:00:00-04:00",
            "2026-10-15T09:00:00-04:00",
            "2026-11-15T09:00:00-05:00",
            "2026-12-15T09:00:00-05:00",
        ])
    }

    @Test("A daily 09:00 on Lord Howe keeps its wall time across the half-hour changes")
    func sameWallTimeOnLordHowe() throws {
        let r = try Self.recurrence("FREQ=DAILY;INTERVAL=183", from: "2026-04-04T09:00:00", in: "Australia/Lord_Howe")
        // 183 days after 2026-04-04 is 2026-10-04, the spring-forward day.
        try Self.expectTimes(r.occurrences().prefix(2), [
            "2026-04-04T09:00:00+11:00",
            "2026-10-04T09:00:00+11:00",
        ])
        let week = try Self.recurrence("FREQ=DAILY", from: "2026-04-04T09:00:00", in: "Australia/Lord_Howe")
        try Self.expectTimes(week.occurrences().prefix(3), [
            "2026-04-04T09:00:00+11:00",
            "2026-04-05T09:00:00+10:30",
            "2026-04-06T09:00:00+10:30",
        ])
    }

    // MARK: Weekly

    @Test("A weekend rule at 02:30 in New York moves only the Sunday that falls in the gap")
    func weeklyThroughNewYorkGap() throws {
        let r = try Self.recurrence("FREQ=WEEKLY;BYDAY=SA,SU", from: "2026-03-07T02:30:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences().prefix(4), [
            "2026-03-07T02:30:00-05:00",
            "2026-03-08T03:30:00-04:00",
            "2026-03-14T02:30:00-04:00",
            "2026-03-15T02:30:00-04:00",
        ])
    }

    @Test("A Sunday 01:30 weekly rule in New York takes the first 01:30 of the fall-back Sunday")
    func weeklyThroughNewYorkFold() throws {
        let r = try Self.recurrence("FREQ=WEEKLY;BYDAY=SU", from: "2026-10-25T01:30:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences().prefix(3), [
            "2026-10-25T01:30:00-04:00",
            "2026-11-01T01:30:00-04:00",
            "2026-11-08T01:30:00-05:00",
        ])
    }

    // MARK: All-day

    @Test("All-day days across New York's changes sit at local midnight, 23 and 25 hours apart")
    func allDayAcrossNewYorkChanges() throws {
        let spring = try Self.allDay("FREQ=DAILY", from: "2026-03-07", in: "America/New_York")
        let springDays = Array(spring.occurrences().prefix(3))
        #expect(springDays.map(\.rfc3339) == ["2026-03-07", "2026-03-08", "2026-03-09"])
        #expect(springDays.allSatisfy { $0.isAllDay })
        // The change is at 02:00, so the 8th's midnight is still EST.
        #expect(springDays.map(\.instant) == (try ["2026-03-07T00:00:00-05:00", "2026-03-08T00:00:00-05:00",
                                                   "2026-03-09T00:00:00-04:00"].map(Self.unixTime)))
        #expect(springDays[2].instant - springDays[1].instant == 23 * 3600)

        let autumn = try Self.allDay("FREQ=DAILY", from: "2026-10-31", in: "America/New_York")
        let autumnDays = Array(autumn.occurrences().prefix(3))
        #expect(autumnDays.map(\.rfc3339) == ["2026-10-31", "2026-11-01", "2026-11-02"])
        #expect(autumnDays.map(\.instant) == (try ["2026-10-31T00:00:00-04:00", "2026-11-01T00:00:00-04:00",
                                                   "2026-11-02T00:00:00-05:00"].map(Self.unixTime)))
        #expect(autumnDays[2].instant - autumnDays[1].instant == 25 * 3600)
    }

    @Test("An all-day weekly rule in London keeps its Sundays across both changes")
    func allDayWeeklyInLondon() throws {
        let r = try Self.allDay("FREQ=WEEKLY", from: "2026-03-22", in: "Europe/London")
        let days = Array(r.occurrences().prefix(3))
        #expect(days.map(\.rfc3339) == ["2026-03-22", "2026-03-29", "2026-04-05"])
        #expect(days.map(\.utcOffset) == [0, 0, 3600])
        let autumn = try Self.allDay("FREQ=WEEKLY", from: "2026-10-18", in: "Europe/London")
        let autumnDays = Array(autumn.occurrences().prefix(3))
        #expect(autumnDays.map(\.rfc3339) == ["2026-10-18", "2026-10-25", "2026-11-01"])
        #expect(autumnDays.map(\.utcOffset) == [3600, 3600, 0])
    }

    @Test("An all-day day whose midnight Santiago skips keeps its date and starts at 01:00")
    func allDayWithMissingMidnight() throws {
        let r = try Self.allDay("FREQ=DAILY", from: "2026-09-05", in: "America/Santiago")
        let days = Array(r.occurrences().prefix(3))
        #expect(days.map(\.rfc3339) == ["2026-09-05", "2026-09-06", "2026-09-07"])
        #expect(days.map(\.day) == ["2026-09-05", "2026-09-06", "2026-09-07"].map { CivilDate(parsing: $0)! })
        #expect(days.map(\.instant) == (try ["2026-09-05T00:00:00-04:00", "2026-09-06T01:00:00-03:00",
                                             "2026-09-07T00:00:00-03:00"].map(Self.unixTime)))
    }

    // MARK: Seeking

    @Test("Seeking a daily rule across New York's gap finds the moved occurrence")
    func seekAcrossNewYorkGap() throws {
        let r = try Self.recurrence("FREQ=DAILY", from: "2026-03-01T02:30:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences(after: try Self.unixTime("2026-03-08T01:59:59-05:00")).prefix(2),
                             ["2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00"])
        try Self.expectTimes(r.occurrences(after: try Self.unixTime("2026-03-08T03:29:59-04:00")).prefix(1),
                             ["2026-03-08T03:30:00-04:00"])
        try Self.expectTimes(r.occurrences(after: try Self.unixTime("2026-03-08T03:30:00-04:00")).prefix(1),
                             ["2026-03-09T02:30:00-04:00"])
        let next = r.nextOccurrence(after: Date(timeIntervalSince1970: TimeInterval(try Self.unixTime("2026-03-07T02:30:00-05:00"))))
        #expect(next?.rfc3339 == "2026-03-08T03:30:00-04:00")
    }

    @Test("Seeking a daily rule across New York's fold never yields the second 01:30")
    func seekAcrossNewYorkFold() throws {
        let r = try Self.recurrence("FREQ=DAILY", from: "2026-10-25T01:30:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences(after: try Self.unixTime("2026-11-01T01:29:59-04:00")).prefix(1),
                             ["2026-11-01T01:30:00-04:00"])
        try Self.expectTimes(r.occurrences(after: try Self.unixTime("2026-11-01T01:30:00-04:00")).prefix(1),
                             ["2026-11-02T01:30:00-05:00"])
        // Between the two readings of 01:30: the daylight one is past, the standard one is not an occurrence.
        try Self.expectTimes(r.occurrences(after: try Self.unixTime("2026-11-01T01:15:00-05:00")).prefix(1),
                             ["2026-11-02T01:30:00-05:00"])
    }

    @Test("Seeking HOURLY inside the fold or the gap resumes at the next wall-clock hour")
    func seekHourlyAcrossTransitions() throws {
        let r = try Self.recurrence("FREQ=HOURLY", from: "2026-10-31T00:00:00", in: "America/New_York")
        try Self.expectTimes(r.occurrences(after: try Self.unixTime("2026-11-01T01:00:00-04:00")).prefix(2),
                             ["2026-11-01T02:00:00-05:00", "2026-11-01T03:00:00-05:00"])
        try Self.expectTimes(r.occurrences(after: try Self.unixTime("2026-11-01T01:30:00-05:00")).prefix(1),
                             ["2026-11-01T02:00:00-05:00"])
        let spring = try Self.recurrence("FREQ=HOURLY", from: "2026-03-01T00:00:00", in: "America/New_York")
        try Self.expectTimes(spring.occurrences(after: try Self.unixTime("2026-03-08T01:00:00-05:00")).prefix(2),
                             ["2026-03-08T03:00:00-04:00", "2026-03-08T04:00:00-04:00"])
    }

    @Test("Seeking a half-hour-zone rule across Lord Howe's gap finds the moved occurrence")
    func seekAcrossLordHoweGap() throws {
        let r = try Self.recurrence("FREQ=DAILY", from: "2026-09-01T02:15:00", in: "Australia/Lord_Howe")
        try Self.expectTimes(r.occurrences(after: try Self.unixTime("2026-10-04T01:59:59+10:30")).prefix(2),
                             ["2026-10-04T02:45:00+11:00", "2026-10-05T02:15:00+11:00"])
    }

    @Test("Seeking from any point around a transition gives what the expansion from the start gives",
          arguments: [
              ("FREQ=DAILY", "2026-03-06T02:30:00", "America/New_York", "2026-03-08T00:00:00-05:00"),
              ("FREQ=DAILY", "2026-10-30T01:30:00", "America/New_York", "2026-11-01T00:00:00-04:00"),
              ("FREQ=HOURLY", "2026-03-07T20:00:00", "America/New_York", "2026-03-08T00:00:00-05:00"),
              ("FREQ=HOURLY", "2026-10-31T20:00:00", "America/New_York", "2026-11-01T00:00:00-04:00"),
              ("FREQ=MINUTELY;INTERVAL=15", "2026-03-07T22:00:00", "America/New_York", "2026-03-08T00:00:00-05:00"),
              ("FREQ=MINUTELY;INTERVAL=15", "2026-10-31T22:00:00", "America/New_York", "2026-11-01T00:00:00-04:00"),
              ("FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=1,2,3;BYMINUTE=30", "2026-03-21T01:30:00", "Europe/London", "2026-03-29T00:00:00+00:00"),
              ("FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=1,2,3;BYMINUTE=30", "2026-10-17T01:30:00", "Europe/London", "2026-10-25T00:00:00+01:00"),
              ("FREQ=MINUTELY;INTERVAL=10", "2026-10-03T22:00:00", "Australia/Lord_Howe", "2026-10-04T00:00:00+10:30"),
              ("FREQ=MINUTELY;INTERVAL=10", "2026-04-04T22:00:00", "Australia/Lord_Howe", "2026-04-05T00:00:00+11:00"),
              ("FREQ=DAILY;BYHOUR=1,2;BYMINUTE=0,15,30,45", "2026-10-01T01:00:00", "Australia/Lord_Howe", "2026-10-04T00:00:00+10:30"),
              ("FREQ=DAILY;BYHOUR=1,2;BYMINUTE=0,15,30,45", "2026-04-01T01:00:00", "Australia/Lord_Howe", "2026-04-05T00:00:00+11:00"),
              ("FREQ=HOURLY;INTERVAL=5", "2026-03-06T01:00:00", "America/New_York", "2026-03-08T00:00:00-05:00"),
              ("FREQ=MINUTELY;INTERVAL=7", "2026-10-31T23:00:00", "America/New_York", "2026-11-01T00:00:00-04:00"),
              ("FREQ=DAILY;BYMINUTE=30;BYHOUR=1,2,3;BYSETPOS=2", "2026-03-01T02:30:00", "America/New_York", "2026-03-08T00:00:00-05:00"),
              ("FREQ=MONTHLY;BYDAY=1SU;BYHOUR=1,2;BYMINUTE=0,30", "2026-10-04T01:00:00", "America/New_York", "2026-11-01T00:00:00-04:00"),
          ])
    func seekingMatchesExpansion(rule: String, start: String, zone: String, transitionDay: String) throws {
        let r = try Self.recurrence(rule, from: start, in: zone)
        let dayStart = try Self.unixTime(transitionDay)
        let lastProbe = dayStart + 5 * 3600
        // The expansion from the start, up to five occurrences past the last probe.
        var everything: [Occurrence] = []
        var pastLastProbe = 0
        for occurrence in r.occurrences() {
            everything.append(occurrence)
            if occurrence.instant > lastProbe { pastLastProbe += 1 }
            if pastLastProbe == 5 { break }
        }
        for probe in stride(from: dayStart, through: lastProbe, by: 300) {
            let expected = Array(everything.filter { $0.instant > probe }.prefix(5))
            #expect(expected.count == 5)
            let sought = Array(r.occurrences(after: probe).prefix(5))
            #expect(sought == expected, "after \(probe) (\(transitionDay) + \(probe - dayStart) s)")
        }
    }

    // MARK: Beyond the zone's transition table

    @Test("Gaps far in the future follow the zone's standing rule (2100 in New York and on Lord Howe)")
    func gapsIn2100() throws {
        // zdump: New York springs forward on Sun 2100-03-14, Lord Howe on Sun 2100-10-03.
        let newYork = try Self.recurrence("FREQ=DAILY", from: "2100-03-13T02:30:00", in: "America/New_York")
        try Self.expectTimes(newYork.occurrences().prefix(3), [
            "2100-03-13T02:30:00-05:00",
            "2100-03-14T03:30:00-04:00",
            "2100-03-15T02:30:00-04:00",
        ])
        let lordHowe = try Self.recurrence("FREQ=DAILY", from: "2100-10-02T02:15:00", in: "Australia/Lord_Howe")
        try Self.expectTimes(lordHowe.occurrences().prefix(3), [
            "2100-10-02T02:15:00+10:30",
            "2100-10-03T02:45:00+11:00",
            "2100-10-04T02:15:00+11:00",
        ])
        try Self.expectTimes(newYork.occurrences(after: try Self.unixTime("2100-11-07T01:29:59-04:00")).prefix(2), [
            "2100-11-07T02:30:00-05:00",
            "2100-11-08T02:30:00-05:00",
        ])
    }

    // MARK: A zone without daylight saving now

    @Test("A daily rule in Shanghai keeps +08:00 every day of 2026")
    func shanghaiAllYear() throws {
        let r = try Self.recurrence("FREQ=DAILY", from: "2026-01-01T02:30:00", in: "Asia/Shanghai")
        let year = Array(r.occurrences().prefix(365))
        #expect(year.allSatisfy { $0.utcOffset == 8 * 3600 })
        #expect(year.allSatisfy { $0.localTime.hour == 2 && $0.localTime.minute == 30 })
        #expect(zip(year, year.dropFirst()).allSatisfy { $1.instant - $0.instant == 86_400 })
        try Self.expectTimes([year[0], year[66], year[303], year[364]], [
            "2026-01-01T02:30:00+08:00",
            "2026-03-08T02:30:00+08:00",
            "2026-10-31T02:30:00+08:00",
            "2026-12-31T02:30:00+08:00",
        ])
    }

    @Test("Shanghai's 1986 daylight saving: the gap and the fold act as anywhere else")
    func shanghai1986() throws {
        let spring = try Self.recurrence("FREQ=DAILY", from: "1986-05-03T02:30:00", in: "Asia/Shanghai")
        try Self.expectTimes(spring.occurrences().prefix(3), [
            "1986-05-03T02:30:00+08:00",
            "1986-05-04T03:30:00+09:00",
            "1986-05-05T02:30:00+09:00",
        ])
        let autumn = try Self.recurrence("FREQ=DAILY", from: "1986-09-13T01:30:00", in: "Asia/Shanghai")
        try Self.expectTimes(autumn.occurrences().prefix(3), [
            "1986-09-13T01:30:00+09:00",
            "1986-09-14T01:30:00+09:00",
            "1986-09-15T01:30:00+08:00",
        ])
    }

    @Test("Shanghai's July noon is +09:00 only in the summers of 1986 to 1991")
    func shanghaiSummers() throws {
        let r = try Self.recurrence("FREQ=YEARLY", from: "1985-07-01T12:00:00", in: "Asia/Shanghai")
        try Self.expectTimes(r.occurrences().prefix(8), [
            "1985-07-01T12:00:00+08:00",
            "1986-07-01T12:00:00+09:00",
            "1987-07-01T12:00:00+09:00",
            "1988-07-01T12:00:00+09:00",
            "1989-07-01T12:00:00+09:00",
            "1990-07-01T12:00:00+09:00",
            "1991-07-01T12:00:00+09:00",
            "1992-07-01T12:00:00+08:00",
        ])
    }
}
