import CalendarModel
import Testing

@Suite("The UID of an item without a key of its own")
struct ItemUIDTests {
    static let identifier = ItemIdentifier("0123456789abcdef0123456789abcdef")!

    @Test("is its identifier with @chime, and reads back as that identifier; any other UID names none")
    func roundTrip() {
        #expect(Self.identifier.uid == "0123456789abcdef0123456789abcdef@chime")
        #expect(ItemIdentifier(uid: Self.identifier.uid) == Self.identifier)
        #expect(ItemIdentifier(uid: "bins@phone") == nil)
        #expect(ItemIdentifier(uid: "not-an-identifier@chime") == nil)
        #expect(ItemIdentifier(uid: "@chime") == nil)
    }

    @Test("an item's UID is its key when it has one")
    func key() {
        var reminder = Reminder(calendarIdentifier: Self.identifier, title: "Bins")
        #expect(reminder.uid == reminder.identifier.uid)
        reminder.externalKey = "bins@phone"
        #expect(reminder.uid == "bins@phone")
    }
}
