import CalendarModel
import Foundation
import ICalendar
import Testing

/// Inputs the `icalendar` fuzz target (contrib/fuzz) found wrong, each kept
/// in Fuzz/corpus/icalendar too.
@Suite("iCalendar items: what fuzzing found")
struct ICalendarItemsFuzzFindingsTests {
    static let calendar = ItemIdentifier("fedcba9876543210fedcba9876543210")!
    static let stamp = Date(timeIntervalSince1970: 1_796_169_600) // 2026-12-02T00:00:00Z

    static func items(_ text: String) throws -> ICalendarItems.Result {
        let reading = try ICalendarReader().read(text)
        let vcalendar = try #require(reading.components.first { $0.name == "VCALENDAR" })
        return ICalendarItems.read(calendar: vcalendar, into: calendar, zones: IANAZoneResolver())
    }

    @Test("a VTODO nested in a VTODO stays inside it on export, so importing the export adds no reminder")
    func nestedTodoIsNotHoisted() throws {
        let first = try Self.items("BEGIN:VCALENDAR\nBEGIN:VTODO\nBEGIN:VTODO\r\nEND:VTODO\r\nEND:VTODO")
        #expect(first.reminders.count == 1)
        let exported = ICalendarItems.components(events: [], reminders: first.reminders, stamp: Self.stamp)
        #expect(exported.components.map(\.name) == ["VTODO"])
        #expect(exported.components.first?.components.map(\.name) == ["VTODO"])
        let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
        #expect(again.problems.isEmpty)
        #expect(again.reminders.map(\.identifier) == first.reminders.map(\.identifier))
    }
}
