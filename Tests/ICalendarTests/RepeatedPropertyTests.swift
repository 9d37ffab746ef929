import CalendarModel
import Foundation
import ICalendar
import Testing

/// RFC 5545 allows SUMMARY, DESCRIPTION, TRIGGER and most of an item's
/// properties once; files that give one twice exist (and the icalendar fuzz
/// target made one). Chime's item holds the first; a later one is no part of
/// it. Kept among the unmodelled lines, a repeat took the first one's place
/// when export wrote the name again: it lent its parameters to the title and
/// was not written, so each import and export lost one line.
@Suite("A property given twice where RFC 5545 allows one")
struct RepeatedPropertyTests {
    static let calendar = ItemIdentifier("0123456789abcdef0123456789abcdef")!
    static let stamp = Date(timeIntervalSince1970: 1_796_169_600) // 2026-12-02T00:00:00Z

    static let lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN",
        "BEGIN:VEVENT", "UID:twice@example.com", "DTSTAMP:20261201T000000Z",
        "DTSTART:20261210T090000Z",
        "SUMMARY:Stand-up",                               // line 8: the title, no parameters
        "SUMMARY;LANGUAGE=de:Besprechung",                // line 9: a repeat with a parameter
        "DESCRIPTION;ALTREP=\"cid:notes\":Agenda",        // line 10: the notes, kept for ALTREP
        "DESCRIPTION:Other notes",                        // line 11: a repeat without one
        "SUMMARY;TZID=Europe/Berlin:20260312T090000",     // line 12: another repeat
        "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Stand-up",
        "TRIGGER:-PT10M",                                 // line 16
        "TRIGGER;RELATED=END:-PT5M",                      // line 17: a repeat
        "END:VALARM", "END:VEVENT", "END:VCALENDAR",
    ]

    static func read(_ calendar: ICalendarComponent) -> ICalendarItems.Result {
        ICalendarItems.read(calendar: calendar, into: Self.calendar, zones: IANAZoneResolver())
    }

    static func export(_ result: ICalendarItems.Result) -> ICalendarComponent {
        ICalendarItems.components(events: result.events, reminders: result.reminders, stamp: stamp)
    }

    @Test("the first is the item's; each repeat is left out with a warning that names its line")
    func firstStands() throws {
        let reading = try ICalendarReader().read(Array((Self.lines.joined(separator: "\r\n") + "\r\n").utf8))
        let result = Self.read(try #require(reading.components.first))
        let event = try #require(result.events.first)
        #expect(event.title == "Stand-up")
        #expect(event.notes == "Agenda")
        #expect(event.alarms.map(\.trigger) == [.relative(seconds: -600)])
        #expect(result.warnings.map(\.line) == [9, 11, 12, 17], "\(result.warnings)")
        #expect(result.warnings.first?.description
            == "line 9: VEVENT twice@example.com: SUMMARY is given more than once (RFC 5545 allows one): the first is used, this one left out")
        #expect(result.warnings.last?.reason.hasPrefix("TRIGGER is given more than once") == true, "\(result.warnings)")
        let kept = try #require(event.origin).unmodelled
        #expect(!kept.contains("Besprechung") && !kept.contains("Other notes") && !kept.contains("20260312T090000"), "\(kept)")
    }

    @Test("export writes each once, with the first one's own parameters, and import and export again change nothing")
    func roundTripIsAFixedPoint() throws {
        let reading = try ICalendarReader().read(Array((Self.lines.joined(separator: "\r\n") + "\r\n").utf8))
        let first = Self.read(try #require(reading.components.first))
        let exported = Self.export(first)
        let event = try #require(exported.components.first { $0.name == "VEVENT" })
        #expect(event.properties(named: "SUMMARY").map(\.contentLine) == ["SUMMARY:Stand-up"])
        #expect(event.properties(named: "DESCRIPTION").map(\.contentLine) == ["DESCRIPTION;ALTREP=\"cid:notes\":Agenda"])
        #expect(event.components(named: "VALARM").first?.properties(named: "TRIGGER").map(\.contentLine) == ["TRIGGER:-PT10M"])
        let again = Self.read(exported)
        #expect(again.problems.isEmpty && again.warnings.isEmpty, "\(again.problems) \(again.warnings)")
        #expect(again.events == first.events)
        #expect(Self.export(again) == exported)
    }
}
