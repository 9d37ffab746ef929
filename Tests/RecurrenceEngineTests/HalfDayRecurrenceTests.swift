import CalendarModel
import Foundation
import RecurrenceEngine
import TestSupport
import Testing

// Around the 2024 Spring Festival (`TableSchedule.china`): Sun 2024-02-04
// and Sun 02-18 are makeup workdays, Sat 02-10 … Sat 02-17 are off. Weekdays
// (checked with Python's datetime): 2024-01-29 Mon, 01-30 Tue, 02-05 Mon,
// 02-06 Tue, 02-09 Fri, 02-12 Mon, 02-13 Tue, 02-19 Mon, 02-20 Tue,
// 04-07 Sun (a makeup workday).
@Suite("Workday rules on days worked in one half (half a day of leave or of work)")
struct HalfDayRecurrenceTests {
    static func recurrence(_ rule: String, from start: String, halves: [String: DayHalf],
                           morningEnd: Int = DayHalf.defaultMorningEnd) throws -> Recurrence {
        try WorkdayRecurrenceTests.recurrence(rule, from: start, workdays: TableSchedule.china.working(halves).endingMornings(at: morningEnd))
    }

    static func times(_ occurrences: some Sequence<Occurrence>) -> [String] { occurrences.map(\.rfc3339) }

    static func instant(_ text: String) throws -> Date { Date(timeIntervalSince1970: TimeInterval(try foundationUnixTime(text))) }

    @Test("SKIP drops the times in the half not worked and keeps the others: 09:00 and 14:00 around a morning and an afternoon of leave")
    func skipByHalf() throws {
        // Tue 02-06: the morning off (afternoon worked); Wed 02-07: the afternoon off.
        let r = try Self.recurrence("FREQ=DAILY;BYHOUR=9,14;X-WORKDAY=SKIP", from: "2024-02-05T09:00:00",
                                    halves: ["2024-02-06": .afternoon, "2024-02-07": .morning])
        #expect(Self.times(r.occurrences().prefix(10)) == [
            "2024-02-05T09:00:00+08:00", "2024-02-05T14:00:00+08:00",
            "2024-02-06T14:00:00+08:00",
            "2024-02-07T09:00:00+08:00",
            "2024-02-08T09:00:00+08:00", "2024-02-08T14:00:00+08:00",
            "2024-02-09T09:00:00+08:00", "2024-02-09T14:00:00+08:00",
            "2024-02-18T09:00:00+08:00", "2024-02-18T14:00:00+08:00",
        ])
        // Seeking lands in the right half too.
        #expect(r.nextOccurrence(after: try Self.instant("2024-02-06T08:00:00+08:00"))?.rfc3339 == "2024-02-06T14:00:00+08:00")
        #expect(r.nextOccurrence(after: try Self.instant("2024-02-07T10:00:00+08:00"))?.rfc3339 == "2024-02-08T09:00:00+08:00")
    }

    @Test("the morning ends at 12:00, that minute included: a clock-out at noon is the morning's, 12:01 the afternoon's")
    func noonEndsTheMorning() throws {
        // Tue 02-06: the morning off.
        let r = try Self.recurrence("FREQ=DAILY;BYHOUR=11,12;BYMINUTE=0,1;X-WORKDAY=SKIP", from: "2024-02-06T11:00:00",
                                    halves: ["2024-02-06": .afternoon])
        #expect(Self.times(r.occurrences().prefix(3)) == [
            "2024-02-06T12:01:00+08:00", "2024-02-07T11:00:00+08:00", "2024-02-07T11:01:00+08:00",
        ])
    }

    @Test("a morning the person says ends at 12:30 keeps its 12:30 clock-out on an afternoon of leave, and the 12:31 goes with the afternoon")
    func morningEndingAtHalfPastTwelve() throws {
        // Tue 02-06: the afternoon off (the morning worked).
        let rule = "FREQ=DAILY;BYHOUR=12;BYMINUTE=30,31;X-WORKDAY=SKIP"
        let r = try Self.recurrence(rule, from: "2024-02-06T12:30:00", halves: ["2024-02-06": .morning], morningEnd: 12 * 60 + 30)
        #expect(Self.times(r.occurrences().prefix(3)) == [
            "2024-02-06T12:30:00+08:00", "2024-02-07T12:30:00+08:00", "2024-02-07T12:31:00+08:00",
        ])
        // At noon's end both are the afternoon's, and that afternoon is off.
        let noon = try Self.recurrence(rule, from: "2024-02-06T12:30:00", halves: ["2024-02-06": .morning])
        #expect(Self.times(noon.occurrences().prefix(2)) == ["2024-02-07T12:30:00+08:00", "2024-02-07T12:31:00+08:00"])
        // Seeking agrees with the expansion.
        #expect(r.nextOccurrence(after: try Self.instant("2024-02-06T12:00:00+08:00"))?.rfc3339 == "2024-02-06T12:30:00+08:00")
        #expect(r.nextOccurrence(after: try Self.instant("2024-02-06T12:30:00+08:00"))?.rfc3339 == "2024-02-07T12:30:00+08:00")
    }

    @Test("a sub-daily SKIP rule keeps the hours of the half worked: the day is expanded, not passed over")
    func hourlyOnAHalfDay() throws {
        let r = try Self.recurrence("FREQ=HOURLY;BYHOUR=10,11,12,13;X-WORKDAY=SKIP", from: "2024-02-06T10:00:00",
                                    halves: ["2024-02-06": .afternoon])
        #expect(Self.times(r.occurrences().prefix(4)) == [
            // 12:00 is the morning's, which is off.
            "2024-02-06T13:00:00+08:00", "2024-02-07T10:00:00+08:00", "2024-02-07T11:00:00+08:00", "2024-02-07T12:00:00+08:00",
        ])
    }

    @Test("FORWARD moves a time in the half not worked to the next day worked in that half; the other half's time stays")
    func forwardByHalf() throws {
        let r = try Self.recurrence("FREQ=WEEKLY;BYDAY=TU;BYHOUR=9,14;X-WORKDAY=FORWARD", from: "2024-01-30T09:00:00",
                                    halves: ["2024-02-06": .afternoon])
        let occurrences = Array(r.occurrences().prefix(8))
        #expect(Self.times(occurrences) == [
            "2024-01-30T09:00:00+08:00", "2024-01-30T14:00:00+08:00",
            "2024-02-06T14:00:00+08:00",
            "2024-02-07T09:00:00+08:00",  // from Tue 02-06 09:00, the morning off
            "2024-02-18T09:00:00+08:00", "2024-02-18T14:00:00+08:00",  // from Tue 02-13, a holiday
            "2024-02-20T09:00:00+08:00", "2024-02-20T14:00:00+08:00",
        ])
        #expect(occurrences.map(\.daysMoved) == [0, 0, 0, 1, 5, 5, 0, 0])
        // A seek from inside the morning off finds the afternoon, then the move.
        #expect(Self.times(r.occurrences(after: try Self.instant("2024-02-06T10:00:00+08:00")).prefix(2))
                == ["2024-02-06T14:00:00+08:00", "2024-02-07T09:00:00+08:00"])
    }

    @Test("BACKWARD moves a time in the half not worked to the last day before worked in that half")
    func backwardByHalf() throws {
        // Mon 02-05: the afternoon off; its 17:00 goes back to Sun 02-04, a makeup workday.
        let r = try Self.recurrence("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9,17;X-WORKDAY=BACKWARD", from: "2024-01-29T09:00:00",
                                    halves: ["2024-02-05": .morning])
        let occurrences = Array(r.occurrences().prefix(8))
        #expect(Self.times(occurrences) == [
            "2024-01-29T09:00:00+08:00", "2024-01-29T17:00:00+08:00",
            "2024-02-04T17:00:00+08:00",
            "2024-02-05T09:00:00+08:00",
            "2024-02-09T09:00:00+08:00", "2024-02-09T17:00:00+08:00",  // from Mon 02-12, a holiday
            "2024-02-19T09:00:00+08:00", "2024-02-19T17:00:00+08:00",
        ])
        #expect(occurrences.map(\.daysMoved) == [0, 0, -1, 0, -3, -3, 0, 0])
        #expect(Self.times(r.occurrences(after: try Self.instant("2024-02-01T00:00:00+08:00")).prefix(2))
                == ["2024-02-04T17:00:00+08:00", "2024-02-05T09:00:00+08:00"])
    }

    @Test("RETURN: the first time worked after the break, in each half: the makeup Sunday's afternoon, the Monday's morning")
    func returnByHalf() throws {
        // Sun 02-18, the makeup workday after the festival: the morning off.
        let r = try Self.recurrence("FREQ=DAILY;BYHOUR=9,14;X-WORKDAY=RETURN;X-BREAK=3", from: "2024-02-01T09:00:00",
                                    halves: ["2024-02-18": .afternoon])
        let range = try Self.instant("2024-02-01T00:00:00+08:00")..<Self.instant("2024-03-01T00:00:00+08:00")
        #expect(Self.times(r.occurrences(in: range)) == ["2024-02-18T14:00:00+08:00", "2024-02-19T09:00:00+08:00"])
        let whole = try WorkdayRecurrenceTests.recurrence("FREQ=DAILY;BYHOUR=9,14;X-WORKDAY=RETURN;X-BREAK=3", from: "2024-02-01T09:00:00")
        #expect(Self.times(whole.occurrences(in: range)) == ["2024-02-18T09:00:00+08:00", "2024-02-18T14:00:00+08:00"])
    }

    @Test("MAKEUP keeps a makeup workday's half worked only")
    func makeupByHalf() throws {
        let r = try Self.recurrence("FREQ=DAILY;BYHOUR=9,14;X-WORKDAY=MAKEUP", from: "2024-02-01T09:00:00",
                                    halves: ["2024-02-18": .afternoon])
        #expect(Self.times(r.occurrences().prefix(5)) == [
            "2024-02-04T09:00:00+08:00", "2024-02-04T14:00:00+08:00",
            "2024-02-18T14:00:00+08:00",
            "2024-04-07T09:00:00+08:00", "2024-04-07T14:00:00+08:00",
        ])
    }

    @Test("half a day worked on a day off: a Saturday morning rings at 09:00, not at 14:00")
    func halfWorkedOnADayOff() throws {
        let r = try Self.recurrence("FREQ=DAILY;BYHOUR=9,14;X-WORKDAY=SKIP", from: "2024-03-01T09:00:00",
                                    halves: ["2024-03-02": .morning])
        #expect(Self.times(r.occurrences().prefix(4)) == [
            "2024-03-01T09:00:00+08:00", "2024-03-01T14:00:00+08:00", "2024-03-02T09:00:00+08:00", "2024-03-04T09:00:00+08:00",
        ])
    }

    @Test("an all-day workday rule judges the whole day: a day worked in one half is kept")
    func allDayKeepsAHalfDay() throws {
        let r = try WorkdayRecurrenceTests.allDay("FREQ=DAILY;X-WORKDAY=SKIP", from: "2024-02-05",
                                                  workdays: TableSchedule.china.working(["2024-02-06": .afternoon, "2024-03-02": .morning]))
        let days = r.occurrences().prefix(while: { $0.scheduledTime.date < CivilDate(year: 2024, month: 3, day: 5)! }).map(\.rfc3339)
        #expect(days.contains("2024-02-06") && days.contains("2024-03-02"))
        #expect(!days.contains("2024-03-03"))
    }
}
