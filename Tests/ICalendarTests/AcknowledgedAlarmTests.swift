import CalendarModel
import Foundation
import ICalendar
import Testing

@Suite("RFC 9074 ACKNOWLEDGED and Thunderbird's X-MOZ-LASTACK")
struct AcknowledgedAlarmTests {
    static let calendar = ItemIdentifier("0123456789abcdef0123456789abcdef")!
    static let stamp = Date(timeIntervalSince1970: 1_796_169_600) // 2026-12-02T00:00:00Z

    static func read(_ lines: [String]) throws -> ICalendarItems.Result {
        let reading = try ICalendarReader().read(Array((lines.joined(separator: "\r\n") + "\r\n").utf8))
        return ICalendarItems.read(calendar: try #require(reading.components.first), into: calendar, zones: IANAZoneResolver())
    }

    static func todo(_ inside: [String], valarm: [String]) -> [String] {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//phone//EN", "BEGIN:VTODO", "UID:bins@phone", "DTSTAMP:20261201T080000Z",
         "DUE:20261201T100000Z", "SUMMARY:Bins"] + inside
            + ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Bins", "TRIGGER;RELATED=END:-PT15M"] + valarm
            + ["END:VALARM", "END:VTODO", "END:VCALENDAR"]
    }

    @Test("ACKNOWLEDGED is read into the alarm, not kept as text, and written back as it came")
    func acknowledgedRoundTrip() throws {
        let result = try Self.read(Self.todo([], valarm: ["ACKNOWLEDGED:20261201T095000Z"]))
        let alarm = try #require(result.reminders.first?.alarms.first)
        #expect(alarm.acknowledged == Date(timeIntervalSince1970: 1_796_118_600)) // 2026-12-01T09:50:00Z
        #expect(!alarm.unmodelled.contains("ACKNOWLEDGED"))
        let exported = ICalendarItems.components(events: [], reminders: result.reminders, stamp: Self.stamp)
        let valarm = try #require(exported.components.first?.components(named: "VALARM").first)
        #expect(valarm["ACKNOWLEDGED"]?.value == "20261201T095000Z")
        #expect(valarm["TRIGGER"]?[parameter: "RELATED"] == "END")
        let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
        #expect(again.reminders == result.reminders)
    }

    @Test("X-MOZ-LASTACK on the item answers its alarms, the later of it and ACKNOWLEDGED counts, and stays on the item")
    func mozillaLastAcknowledged() throws {
        let later = try Self.read(Self.todo(["X-MOZ-LASTACK:20261201T095500Z"], valarm: ["ACKNOWLEDGED:20261201T095000Z"]))
        #expect(later.reminders.first?.alarms.first?.acknowledged == Date(timeIntervalSince1970: 1_796_118_900)) // 2026-12-01T09:55:00Z
        #expect(later.reminders.first?.origin?.unmodelled.contains("X-MOZ-LASTACK:20261201T095500Z") == true)
        let only = try Self.read(Self.todo(["X-MOZ-LASTACK:20261201T094000Z"], valarm: []))
        #expect(only.reminders.first?.alarms.first?.acknowledged == Date(timeIntervalSince1970: 1_796_118_000)) // 2026-12-01T09:40:00Z
    }

    @Test("an ACKNOWLEDGED that is no time answers nothing and is kept as it came")
    func malformedKept() throws {
        let result = try Self.read(Self.todo([], valarm: ["ACKNOWLEDGED:yesterday"]))
        let alarm = try #require(result.reminders.first?.alarms.first)
        #expect(alarm.acknowledged == nil)
        #expect(alarm.unmodelled.contains("ACKNOWLEDGED:yesterday"))
    }

    @Test("X-MOZ-SNOOZE-TIME brings back the first time-based alarm, once; it stays on the item and goes back out as it came")
    func mozillaSnooze() throws {
        let result = try Self.read(Self.todo(["X-MOZ-LASTACK:20261201T094500Z", "X-MOZ-SNOOZE-TIME:20261201T101000Z"],
                                             valarm: []))
        let reminder = try #require(result.reminders.first)
        // 2026-12-01T10:10:00Z; a reminder that does not repeat has one occurrence.
        #expect(reminder.alarms.first?.snoozedElsewhere == Alarm.SnoozedElsewhere(until: Date(timeIntervalSince1970: 1_796_119_800)))
        #expect(reminder.origin?.unmodelled.contains("X-MOZ-SNOOZE-TIME:20261201T101000Z") == true)
        let exported = ICalendarItems.components(events: [], reminders: result.reminders, stamp: Self.stamp)
        #expect(exported.components.first?["X-MOZ-SNOOZE-TIME"]?.value == "20261201T101000Z")
        #expect(ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver()).reminders == result.reminders)
    }

    @Test("a series' X-MOZ-SNOOZE-TIME-<microseconds> names its occurrence; a snooze answered since, or no time, is only kept")
    func mozillaSnoozeOccurrence() throws {
        // 1796119200000000 µs: the occurrence of 2026-12-01T10:00:00Z.
        let series = try Self.read(Self.todo(["RRULE:FREQ=DAILY", "X-MOZ-SNOOZE-TIME-1796119200000000:20261201T101000Z"], valarm: []))
        #expect(series.reminders.first?.alarms.first?.snoozedElsewhere
                == Alarm.SnoozedElsewhere(occurrence: Date(timeIntervalSince1970: 1_796_119_200), until: Date(timeIntervalSince1970: 1_796_119_800)))
        let answered = try Self.read(Self.todo(["X-MOZ-LASTACK:20261201T101500Z", "X-MOZ-SNOOZE-TIME:20261201T101000Z"], valarm: []))
        #expect(answered.reminders.first?.alarms.first?.snoozedElsewhere == nil)
        let malformed = try Self.read(Self.todo(["X-MOZ-SNOOZE-TIME:soon", "X-MOZ-SNOOZE-TIME-later:20261201T101000Z"], valarm: []))
        #expect(malformed.reminders.first?.alarms.first?.snoozedElsewhere == nil)
        #expect(malformed.reminders.first?.origin?.unmodelled.contains("X-MOZ-SNOOZE-TIME:soon") == true)
    }
}
