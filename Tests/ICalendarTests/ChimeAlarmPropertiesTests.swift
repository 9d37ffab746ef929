import CalendarModel
import Foundation
import ICalendar
import TestSupport
import Testing

@Suite("Chime's alarm fields as X-CHIME- properties on the VALARM")
struct ChimeAlarmPropertiesTests {
    static let calendar = ItemIdentifier("0123456789abcdef0123456789abcdef")!
    static let stamp = Date(timeIntervalSince1970: 1_796_169_600) // 2026-12-02T00:00:00Z

    static func reminder() throws -> Reminder {
        let office = try StructuredLocation(title: "Office", latitude: 31.2304, longitude: 121.4737, radius: 150)
        return Reminder(identifier: ItemIdentifier("00000000000000000000000000000001")!, calendarIdentifier: calendar, title: "Arrive",
                        alarms: [Alarm(trigger: .proximity(office, .enter), dwell: 300, firesOnFirstFix: true),
                                 Alarm(trigger: .absolute(Date(timeIntervalSince1970: 1_796_212_800)), missedWindow: 7_200), // 2026-12-02T12:00:00Z
                                 Alarm(trigger: .absolute(Date(timeIntervalSince1970: 1_796_216_400)), missedWindow: 0)]) // 2026-12-02T13:00:00Z
    }

    @Test("missed window, dwell and first-fix are written as durations and TRUE, and read back into the fields, not into unmodelled")
    func roundTrip() throws {
        let exported = ICalendarItems.components(events: [], reminders: [try Self.reminder()], stamp: Self.stamp)
        let valarms = try #require(exported.components.first).components(named: "VALARM")
        #expect(valarms.count == 3)
        #expect(valarms.first?["X-CHIME-DWELL"]?.value == "PT5M")
        #expect(valarms.first?["X-CHIME-FIRST-FIX"]?.value == "TRUE")
        #expect(valarms.first?["X-CHIME-MISSED-WINDOW"] == nil)
        #expect(valarms.dropFirst().first?["X-CHIME-MISSED-WINDOW"]?.value == "PT2H")
        #expect(valarms.dropFirst().first?["X-CHIME-DWELL"] == nil)
        #expect(valarms.last?["X-CHIME-MISSED-WINDOW"]?.value == "PT0S")
        let back = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
        let alarms = try #require(back.reminders.first).alarms
        #expect(alarms.map(\.missedWindow) == [nil, 7_200, 0])
        #expect(alarms.map(\.dwell) == [300, 0, 0])
        #expect(alarms.map(\.firesOnFirstFix) == [true, false, false])
        #expect(alarms.allSatisfy { !$0.unmodelled.contains("X-CHIME") }, "\(alarms.map(\.unmodelled))")
        #expect(back.warnings.isEmpty, "\(back.warnings)")
    }

    @Test("a malformed X-CHIME- value is a warning naming its line, and that field keeps its default")
    func malformed() throws {
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime//test//EN", "BEGIN:VEVENT", "UID:bad@chime.test",
                     "DTSTAMP:20261202T000000Z", "DTSTART:20261203T090000Z", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M",
                     "X-CHIME-MISSED-WINDOW:soon", "X-CHIME-DWELL:-PT5M", "X-CHIME-FIRST-FIX:maybe", "END:VALARM", "END:VEVENT", "END:VCALENDAR"]
        let reading = try ICalendarReader().read(Array((lines.joined(separator: "\r\n") + "\r\n").utf8))
        let calendar = try #require(reading.components.first)
        let result = ICalendarItems.read(calendar: calendar, into: Self.calendar, zones: IANAZoneResolver())
        let alarm = try #require(result.events.first?.alarms.first)
        #expect(alarm.missedWindow == nil)
        #expect(alarm.dwell == 0)
        #expect(alarm.firesOnFirstFix == false)
        #expect(result.warnings.map(\.line) == [11, 12, 13])
        #expect(result.warnings.first?.description == "line 11: VALARM: X-CHIME-MISSED-WINDOW 'soon' is not a duration of zero or more (such as PT2H); the alarm keeps the default")
        #expect(result.warnings.last?.reason.contains("'maybe' is not TRUE or FALSE") == true, "\(result.warnings)")
    }

    @Test("Python's icalendar reads an export with the X-CHIME- properties strictly")
    func oracleReadsExport() throws {
        let folder = TemporaryFolder("chime-alarm-properties")
        let path = folder.appending("alarms.ics")
        let exported = ICalendarItems.components(events: [], reminders: [try Self.reminder()], stamp: Self.stamp)
        try Data(try ICalendarWriter.write(exported)).write(to: URL(fileURLWithPath: path))
        let verdict = try Oracles.icalendarCheck(path, strict: true)
        #expect(verdict.passed, "\(verdict.problems)")
    }
}
