/// A date on the proleptic Gregorian calendar with no time and no zone: the
/// date of an all-day item, or the date part of a wall-clock time.
///
/// Dates convert to and from a *day number*, the count of days since
/// 1970-01-01, which makes day arithmetic and weekdays plain integer math.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int { Int(storedYear) }
    public var month: Int { Int(storedMonth) }
    public var day: Int { Int(storedDay) }
    // Narrow storage: a date is inside every time that the engine and the
    // store copy around, and an event holds several.
    private let storedYear: Int32
    private let storedMonth: UInt8
    private let storedDay: UInt8

    /// A date, or nil when the day does not exist (February 30, April 31).
    /// Recurrence expansion relies on this refusing rather than clamping.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month),
              let storedYear = Int32(exactly: year) else {
            return nil
        }
        self.storedYear = storedYear
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// The date `dayNumber` days after 1970-01-01.
    public init(dayNumber: Int) {
        // Shift the epoch to 0000-03-01 so that a leap day ends each 4-, 100-
        // and 400-year cycle, then split into eras of 146,097 days.
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        storedDay = UInt8(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        storedMonth = UInt8(month)
        // Beyond ±2 billion years only nonsense input reaches here; clamp rather than trap.
        storedYear = Int32(clamping: yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    }

    /// Days since 1970-01-01 (negative before it).
    public var dayNumber: Int { CivilDate.dayNumber(year: year, month: month, day: day) }

    /// Days since 1970-01-01 of a year, month and day that are known to be valid.
    @inline(__always)
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    @inline(__always)
    public static func weekday(ofDayNumber n: Int) -> Weekday {
        Weekday(rawValue: ((n % 7) + 11) % 7)!
    }

    public var weekday: Weekday { CivilDate.weekday(ofDayNumber: dayNumber) }

    /// 1 for January 1.
    public var dayOfYear: Int { dayNumber - CivilDate.dayNumber(year: year, month: 1, day: 1) + 1 }

    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    public static func daysInYear(_ year: Int) -> Int { isLeapYear(year) ? 366 : 365 }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// ISO 8601 extended form, `2026-12-01`.
    public var description: String {
        "\(CivilDate.pad(year, 4))-\(CivilDate.pad(month, 2))-\(CivilDate.pad(day, 2))"
    }

    /// RFC 5545 DATE form, `20261201`.
    public var basicFormat: String {
        guard (0...9999).contains(year) else { return "\(CivilDate.pad(year, 4))\(CivilDate.pad(month, 2))\(CivilDate.pad(day, 2))" }
        return String(unsafeUninitializedCapacity: 8) { buffer in
            Self.writeBasic(self, into: buffer)
            return 8
        }
    }

    /// `basicFormat`'s eight digits at the start of `buffer`, for a year of 0...9999.
    static func writeBasic(_ date: CivilDate, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        writeDigits(date.year, 4, into: buffer, at: 0)
        writeDigits(date.month, 2, into: buffer, at: 4)
        writeDigits(date.day, 2, into: buffer, at: 6)
    }

    /// The last `width` decimal digits of `value` (not negative) at `at`.
    static func writeDigits(_ value: Int, _ width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at: Int) {
        var rest = value
        for index in stride(from: at + width - 1, through: at, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// `07`, `12`: the two-digit fields of dates, times and offsets.
    public static func twoDigits(_ value: Int) -> String { (0..<10).contains(value) ? "0\(value)" : String(value) }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        return value < 0 ? "-" + padded : padded
    }
}

extension CivilDate {
    /// Parses `2026-12-01` (ISO 8601 extended) or `20261201` (RFC 5545 DATE).
    public init?(parsing text: some StringProtocol) {
        guard let date = text.withUTF8Bytes(CivilDate.init(utf8:)) else { return nil }
        self = date
    }

    /// `init(parsing:)` on the text's bytes, which it reads in place: a
    /// store holds dates as text, and reads thousands at a time.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        let fields: (year: Int?, month: Int?, day: Int?)
        switch bytes.count {
        case 10 where bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-"):
            fields = (Self.decimal(bytes, from: 0, width: 4), Self.decimal(bytes, from: 5, width: 2), Self.decimal(bytes, from: 8, width: 2))
        case 8:
            fields = (Self.decimal(bytes, from: 0, width: 4), Self.decimal(bytes, from: 4, width: 2), Self.decimal(bytes, from: 6, width: 2))
        default:
            return nil
        }
        guard let year = fields.year, let month = fields.month, let day = fields.day else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The number the `width` ASCII digits at `start` write, or nil when one is not a digit.
    @inline(__always)
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, width: Int) -> Int? {
        var value = 0
        for index in start..<start + width {
            // Wrapping: a byte below '0' wraps past 9.
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }
}
