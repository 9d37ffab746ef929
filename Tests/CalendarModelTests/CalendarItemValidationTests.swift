import CalendarModel
import Dispatch
import Foundation
import SeededRandom
import Synchronization
import Testing

@Suite("Calendar item values refuse what they cannot hold")
struct CalendarItemValidationTests {
    let calendar = ItemIdentifier.random()

    func time(_ text: String) throws -> LocalDateTime { try #require(LocalDateTime(parsing: text)) }

    @Test("identifiers are 32 lowercase hex digits, random ones differ, and short is the first eight")
    func identifiers() {
        let one = ItemIdentifier.random(), two = ItemIdentifier.random()
        #expect(one != two)
        #expect(ItemIdentifier(one.rawValue) == one)
        #expect(one.short == String(one.rawValue.prefix(8)))
        #expect(ItemIdentifier("0123456789abcdef0123456789abcdef") != nil)
        for bad in ["", "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdeg"] {
            #expect(ItemIdentifier(bad) == nil, "\(bad)")
        }
    }

    @Test("random identifiers drawn on four threads at once, past many refills of the words drawn ahead, are all different, and their bits are not stuck")
    func randomAcrossThreads() {
        let drawn = Mutex<[ItemIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let mine = (0..<2_500).map { _ in ItemIdentifier.random() }
            drawn.withLock { $0 += mine }
        }
        let all = drawn.withLock { $0 }
        #expect(all.count == 10_000)
        #expect(Set(all).count == 10_000)
        // Every one of the 128 bits is both set and clear somewhere: none is stuck by how the words are drawn.
        let ones = all.reduce((high: UInt64(0), low: UInt64(0))) { ($0.high | $1.high, $0.low | $1.low) }
        let zeros = all.reduce((high: UInt64(0), low: UInt64(0))) { ($0.high | ~$1.high, $0.low | ~$1.low) }
        #expect(ones == (UInt64.max, UInt64.max) && zeros == (UInt64.max, UInt64.max))
    }

    @Test("of all 256 bytes, at the first, the seventeenth and the last digit, only the sixteen lowercase hex digits are taken, each for its value")
    func identifierDigits() throws {
        let hex = Array("0123456789abcdef".utf8)
        for position in [0, 15, 16, 31] {
            for byte in 0...255 {
                var digits = Array(repeating: UInt8(ascii: "0"), count: 32)
                digits[position] = UInt8(byte)
                let identifier = digits.withUnsafeBufferPointer { ItemIdentifier(utf8: $0) }
                guard let value = hex.firstIndex(of: UInt8(byte)) else {
                    #expect(identifier == nil, "byte \(byte) at \(position)")
                    continue
                }
                let shift = UInt64(4 * (15 - position % 16))
                let expected = position < 16 ? ItemIdentifier(high: UInt64(value) << shift, low: 0) : ItemIdentifier(high: 0, low: UInt64(value) << shift)
                #expect(identifier == expected, "byte \(byte) at \(position)")
            }
        }
    }

    @Test("an identifier survives its 128-bit form: the first sixteen digits are the high word, the last sixteen the low")
    func identifierWords() throws {
        for _ in 0..<100 {
            let identifier = ItemIdentifier.random()
            #expect(ItemIdentifier(identifier.rawValue) == identifier)
            #expect(ItemIdentifier(high: identifier.high, low: identifier.low) == identifier)
        }
        let zero = try #require(ItemIdentifier(String(repeating: "0", count: 32)))
        let top = try #require(ItemIdentifier(String(repeating: "f", count: 32)))
        #expect(zero.high == 0 && zero.low == 0 && zero.rawValue == String(repeating: "0", count: 32))
        #expect(top.high == .max && top.low == .max && top.rawValue == String(repeating: "f", count: 32))
        let mixed = try #require(ItemIdentifier("0123456789abcdeffedcba9876543210"))
        #expect(mixed.high == 0x0123_4567_89ab_cdef && mixed.low == 0xfedc_ba98_7654_3210)
        #expect(mixed.short == "01234567")
        #expect(mixed.rawValue == "0123456789abcdeffedcba9876543210")
    }

    @Test("identifiers sort as their text does")
    func identifiersSortAsText() {
        var random = SplitMix64(seed: 18)
        // Digits that differ only in the low word, or at a letter against a digit, as well as random ones.
        let texts = ["0000000000000000000000000000000a", "00000000000000000000000000000009", "a0000000000000000000000000000000",
                     "90000000000000000000000000000000", "0000000000000000f000000000000000", "000000000000000f0000000000000000"]
            + (0..<200).map { _ in ItemIdentifier(high: random.next(), low: random.next()).rawValue }
        let identifiers = texts.map { ItemIdentifier($0)! }
        #expect(identifiers.sorted().map(\.rawValue) == texts.sorted())
    }

    @Test("a structured location takes latitudes within ±90, longitudes within ±180 and a positive radius",
          arguments: [(90.0, 180.0, 1.0), (-90.0, -180.0, 0.5), (31.2304, 121.4737, 150.0)])
    func locationsInRange(latitude: Double, longitude: Double, radius: Double) throws {
        let location = try StructuredLocation(title: "Office", latitude: latitude, longitude: longitude, radius: radius)
        #expect(location.latitude == latitude && location.longitude == longitude && location.radius == radius)
    }

    @Test("a structured location refuses values out of range, naming the field", arguments: [
        (90.0001, 0.0, 10.0, "latitude"), (-91.0, 0.0, 10.0, "latitude"), (Double.nan, 0.0, 10.0, "latitude"),
        (0.0, 180.5, 10.0, "longitude"), (0.0, -Double.infinity, 10.0, "longitude"),
        (0.0, 0.0, 0.0, "radius"), (0.0, 0.0, -5.0, "radius"), (0.0, 0.0, Double.nan, "radius"),
    ])
    func locationsOutOfRange(latitude: Double, longitude: Double, radius: Double, field: String) {
        let error = #expect(throws: ValidationError.self) {
            try StructuredLocation(latitude: latitude, longitude: longitude, radius: radius)
        }
        #expect(error?.field == field)
    }

    @Test("an event's end may equal its start but not come before it")
    func eventEndBeforeStart() throws {
        let start = ItemTime.zoned(try time("2026-12-01T09:00:00"), zone: "Asia/Shanghai")
        try Event(calendarIdentifier: calendar, title: "Stand-up", start: start, end: start).validate()
        let early = Event(calendarIdentifier: calendar, title: "Stand-up", start: start,
                          end: .zoned(try time("2026-12-01T08:59:59"), zone: "Asia/Shanghai"))
        #expect(throws: ValidationError.self) { try early.validate() }
    }

    @Test("an event's end in another zone is compared as an instant")
    func eventAcrossZones() throws {
        // Leaves Shanghai 2026-12-01T10:00+08:00 (02:00Z), lands in London 06:00Z: after the start.
        let flight = Event(calendarIdentifier: calendar, title: "Flight",
                           start: .zoned(try time("2026-12-01T10:00:00"), zone: "Asia/Shanghai"),
                           end: .zoned(try time("2026-12-01T06:00:00"), zone: "Europe/London"))
        try flight.validate()
        var impossible = flight
        impossible.end = .zoned(try time("2026-12-01T01:00:00"), zone: "Europe/London")
        #expect(throws: ValidationError.self) { try impossible.validate() }
    }

    @Test("an event's start and end must be of one kind, and zones must exist")
    func eventKindsAndZones() throws {
        let mixed = Event(calendarIdentifier: calendar, title: "Odd", start: .date(CivilDate(year: 2026, month: 12, day: 1)!),
                          end: .floating(try time("2026-12-01T10:00:00")))
        #expect((try? mixed.validate()) == nil)
        let unknown = Event(calendarIdentifier: calendar, title: "Odd",
                            start: .zoned(try time("2026-12-01T10:00:00"), zone: "Mars/Olympus"),
                            end: .zoned(try time("2026-12-01T11:00:00"), zone: "Mars/Olympus"))
        let error = #expect(throws: ValidationError.self) { try unknown.validate() }
        #expect(error?.value == "Mars/Olympus")
    }

    @Test("an all-day event refuses a rule that needs a time of day")
    func allDayEventRule() throws {
        let day = ItemTime.date(CivilDate(year: 2026, month: 12, day: 1)!)
        var event = Event(calendarIdentifier: calendar, title: "Holiday", start: day, end: day,
                          recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=YEARLY"))
        try event.validate()
        event.recurrenceRule = try RecurrenceRule(rfc5545: "FREQ=DAILY;BYHOUR=9")
        #expect(throws: ValidationError.self) { try event.validate() }
    }

    @Test("a reminder's priority is 0 to 9, and a repeating reminder needs a due date", arguments: [-1, 10])
    func reminderPriority(priority: Int) throws {
        #expect(throws: ValidationError.self) {
            try Reminder(calendarIdentifier: calendar, title: "Milk", priority: priority).validate()
        }
        try Reminder(calendarIdentifier: calendar, title: "Milk", priority: 9).validate()
        let repeating = Reminder(calendarIdentifier: calendar, title: "Milk", recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=WEEKLY"))
        let error = #expect(throws: ValidationError.self) { try repeating.validate() }
        #expect(error?.field == "recurrence rule")
    }

    @Test("a calendar needs a title and a #RRGGBB colour", arguments: [("", "#3478F6"), ("Work", "blue"), ("Work", "#12345"), ("Work", "#12345G")])
    func calendarValues(title: String, color: String) {
        #expect(throws: ValidationError.self) { try ItemCalendar(title: title, color: color).validate() }
    }
}
