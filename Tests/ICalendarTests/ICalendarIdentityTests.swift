import CalendarModel
@testable import ICalendar
import Testing

/// The identifiers an import gives items and alarms are a 128-bit FNV-1a
/// hash of texts, each followed by a 0xFF byte: stored items keep them, so
/// that they must never change from one version of Chime to the next.
@Suite("Stable identifiers of imported items and alarms")
struct ICalendarIdentityTests {
    /// FNV-1a over 128 bits, written out plainly: the texts' UTF-8, each followed by 0xFF.
    static func fnv(_ texts: [String]) -> ItemIdentifier {
        let prime: UInt128 = (1 << 88) | 0x13B
        var state: UInt128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d
        for text in texts {
            for byte in Array(text.utf8) + [0xFF] {
                state ^= UInt128(byte)
                state = state &* prime
            }
        }
        return ItemIdentifier(high: UInt64(truncatingIfNeeded: state >> 64), low: UInt64(truncatingIfNeeded: state))
    }

    static let calendar = ItemIdentifier("0123456789abcdef0123456789abcdef")!

    @Test("an item's identifier hashes the calendar's 32 digits, the kind, the UID and an occurrence's basic form; these values are pinned")
    func items() throws {
        let uid = "standup@example.org"
        let event = ICalendarItems.identifier(calendar: Self.calendar, uid: uid, kind: "event")
        #expect(event == Self.fnv(["chime-icalendar-item", Self.calendar.rawValue, "event", uid]))
        #expect(event.rawValue == "ba2e35fa357e14df4c39add65860f91e")
        let original = try #require(LocalDateTime(parsing: "2026-12-08T10:00:00"))
        let occurrence = ICalendarItems.identifier(calendar: Self.calendar, uid: uid, kind: "occurrence", occurrence: original)
        #expect(occurrence == Self.fnv(["chime-icalendar-item", Self.calendar.rawValue, "occurrence", uid, "20261208T100000"]))
        #expect(occurrence.rawValue == "a71bcbb127ac14221fbff5372eb00600")
        #expect(ICalendarItems.identifier(calendar: Self.calendar, uid: "日本語-ü@例え.jp", kind: "reminder")
                == Self.fnv(["chime-icalendar-item", Self.calendar.rawValue, "reminder", "日本語-ü@例え.jp"]))
    }

    @Test("an alarm's identifier hashes its item's 32 digits, its index and its repetition in decimal; these values are pinned")
    func alarms() {
        let item = ItemIdentifier(high: 0xfedc_ba98_7654_3210, low: 0x0000_0000_0000_000a)
        for (index, repetition) in [(0, 0), (1, 0), (9, 3), (10, 0), (12, 345), (Int.max, 1)] {
            #expect(ICalendarItems.alarmIdentifier(item: item, index: index, repetition: repetition)
                    == Self.fnv(["chime-icalendar-alarm", item.rawValue, String(index), String(repetition)]), "\(index) \(repetition)")
        }
        #expect(ICalendarItems.alarmIdentifier(item: item, index: 0, repetition: 0).rawValue == "6d07eecfc1eba757621c4b30dc1ad5bc")
        #expect(ICalendarItems.alarmIdentifier(item: item, index: 2, repetition: 1).rawValue == "6d1bbbd9c1eba757621c4b3773f86637")
    }
}
