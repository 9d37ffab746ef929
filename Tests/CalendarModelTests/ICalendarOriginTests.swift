import CalendarModel
import Testing

@Suite("An item's kept iCalendar lines")
struct ICalendarOriginTests {
    static let kept = "ORGANIZER:mailto:a@example.org\r\nATTENDEE;CN=\"Mei, L\":mailto:mei@example.com\r\nX-ATTENDEE-NOTE:RECURRENCE-ID\r\n"
        + "ATTENDEES:not one\r\nBEGIN:VTODO\r\nUID:call-1\r\nRECURRENCE-ID:20261130T093000Z\r\nEND:VTODO\r\n"

    @Test("a property is the item's own when it comes before the kept components and its name is exactly the one asked", arguments: [
        ("ATTENDEE", true), ("ORGANIZER", true), ("X-ATTENDEE-NOTE", true), ("ATTENDEES", true),
        ("RECURRENCE-ID", false), ("UID", false), ("X-ATTENDEE", false), ("ORGANIZE", false), ("BEGIN", false),
    ])
    func keepsOwnProperty(name: String, kept: Bool) {
        #expect(ICalendarOrigin(unmodelled: Self.kept).keepsProperty(named: name) == kept)
    }

    @Test("the first line and the last count, and nothing is kept in an empty text")
    func edges() {
        #expect(ICalendarOrigin(unmodelled: "RECURRENCE-ID;TZID=Europe/Berlin:20261201T100000\r\n").keepsProperty(named: "RECURRENCE-ID"))
        #expect(ICalendarOrigin(unmodelled: "X-A:1\r\nATTENDEE:mailto:b@example.org").keepsProperty(named: "ATTENDEE"))
        #expect(!ICalendarOrigin(unmodelled: "").keepsProperty(named: "ATTENDEE"))
        #expect(!ICalendarOrigin(unmodelled: "ATTENDEE").keepsProperty(named: "ATTENDEE"))
    }
}
