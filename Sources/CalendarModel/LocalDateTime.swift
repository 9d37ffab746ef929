/// A wall-clock date and time with no zone attached: what a clock on the wall
/// reads. Recurrence runs on these; a time zone turns one into an instant.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let date: CivilDate
    public var hour: Int { Int(storedHour) }
    public var minute: Int { Int(storedMinute) }
    public var second: Int { Int(storedSecond) }
    // Narrow storage, as in CivilDate.
    private let storedHour: UInt8
    private let storedMinute: UInt8
    private let storedSecond: UInt8

    /// Nil when a field is out of range. Second 60 is refused: leap seconds
    /// never appear in wall-clock recurrence.
    public init?(date: CivilDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.date = date
        storedHour = UInt8(hour)
        storedMinute = UInt8(minute)
        storedSecond = UInt8(second)
    }

    /// The wall-clock time `localSeconds` seconds after 1970-01-01T00:00:00
    /// read on the same wall clock.
    public init(localSeconds: Int64) {
        let days = localSeconds >= 0 ? localSeconds / 86_400 : (localSeconds - 86_399) / 86_400
        let secondOfDay = Int(localSeconds - days * 86_400)
        date = CivilDate(dayNumber: Int(days))
        storedHour = UInt8(secondOfDay / 3600)
        storedMinute = UInt8(secondOfDay / 60 % 60)
        storedSecond = UInt8(secondOfDay % 60)
    }

    /// Seconds since 1970-01-01T00:00:00 on the same wall clock. Subtracting
    /// the zone's UTC offset gives the Unix time.
    public var localSeconds: Int64 {
        Int64(date.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool { lhs.localSeconds < rhs.localSeconds }

    /// ISO 8601 extended form, `2026-12-01T08:50:00`.
    public var description: String {
        "\(date)T\(CivilDate.pad(hour, 2)):\(CivilDate.pad(minute, 2)):\(CivilDate.pad(second, 2))"
    }

    /// RFC 5545 DATE-TIME form without a zone, `20261201T085000`.
    public var basicFormat: String {
        let date = date
        // Digits written straight into the String's storage: an export writes several a line.
        guard (0...9999).contains(date.year) else {
            return "\(date.basicFormat)T\(CivilDate.pad(hour, 2))\(CivilDate.pad(minute, 2))\(CivilDate.pad(second, 2))"
        }
        let (hour, minute, second) = (hour, minute, second)
        return String(unsafeUninitializedCapacity: 15) { buffer in
            CivilDate.writeBasic(date, into: buffer)
            buffer[8] = UInt8(ascii: "T")
            CivilDate.writeDigits(hour, 2, into: buffer, at: 9)
            CivilDate.writeDigits(minute, 2, into: buffer, at: 11)
            CivilDate.writeDigits(second, 2, into: buffer, at: 13)
            return 15
        }
    }
}

extension LocalDateTime {
    /// Parses `2026-12-01T08:50:00`, `2026-12-01T08:50` or the RFC 5545 form
    /// `20261201T085000`. A trailing zone designator is not accepted here.
    public init?(parsing text: some StringProtocol) {
        guard let time = text.withUTF8Bytes(LocalDateTime.init(utf8:)) else { return nil }
        self = time
    }

    /// `init(parsing:)` on the text's bytes, which it reads in place: a
    /// store holds exception and extra dates as text, and reads thousands
    /// at a time.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let separator = bytes.firstIndex(of: UInt8(ascii: "T")),
              let date = CivilDate(utf8: UnsafeBufferPointer(rebasing: bytes[..<separator])) else { return nil }
        let time = UnsafeBufferPointer(rebasing: bytes[(separator + 1)...])
        let fields: (hour: Int?, minute: Int?, second: Int?)
        let colon = UInt8(ascii: ":")
        switch (separator, time.count) {
        // One form throughout, as ISO 8601 requires: 2026-12-01T08:50:00 or 20261201T085000.
        case (10, 8) where time[2] == colon && time[5] == colon:
            fields = (CivilDate.decimal(time, from: 0, width: 2), CivilDate.decimal(time, from: 3, width: 2), CivilDate.decimal(time, from: 6, width: 2))
        case (10, 5) where time[2] == colon:
            fields = (CivilDate.decimal(time, from: 0, width: 2), CivilDate.decimal(time, from: 3, width: 2), 0)
        case (8, 6):
            fields = (CivilDate.decimal(time, from: 0, width: 2), CivilDate.decimal(time, from: 2, width: 2), CivilDate.decimal(time, from: 4, width: 2))
        default:
            return nil
        }
        guard let hour = fields.hour, let minute = fields.minute, let second = fields.second else { return nil }
        self.init(date: date, hour: hour, minute: minute, second: second)
    }
}
