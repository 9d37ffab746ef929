import CalendarModel

/// A DURATION value (RFC 5545 §3.3.6): `P1W`, `-PT15M`, `P1DT12H`.
///
/// Days are kept apart from seconds because they are nominal: a DTSTART
/// plus `P1D` is the same wall time the next day, 23 or 25 hours later
/// across a DST change, while `PT24H` is exactly 86,400 s (§3.3.6).
public struct ICalendarDuration: Hashable, Sendable, CustomStringConvertible {
    /// Signed days, weeks counted as seven.
    public var days: Int
    /// Signed seconds of the time part; the same sign as `days`.
    public var seconds: Int

    public init(days: Int = 0, seconds: Int = 0) {
        self.days = days
        self.seconds = seconds
    }

    /// The length with a day taken as 86,400 s: what an alarm offset means.
    public var totalSeconds: Int { days * 86_400 + seconds }

    /// Reads the value. Lenient where real files are: lower case, a `+`
    /// sign, a time part with no units after `T` read as nothing (`PT`).
    /// At most ten digits a number, so no sum can overflow.
    public init(value: some StringProtocol) throws(ICalendarValueError) {
        let text = String(value)
        func fail(_ reason: String = "is not a duration (such as P1D, PT15M, -PT1H30M, P2W)") -> ICalendarValueError {
            ICalendarValueError(value: text, reason: reason)
        }
        var bytes = Array(text.utf8.map { $0 | (($0 >= 65 && $0 <= 90) ? 0x20 : 0) })[...]
        var sign = 1
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            sign = first == UInt8(ascii: "-") ? -1 : 1
            bytes = bytes.dropFirst()
        }
        guard bytes.first == UInt8(ascii: "p"), bytes.count > 1 else { throw fail() }
        bytes = bytes.dropFirst()
        var days = 0, seconds = 0, inTime = false, number: Int?, digits = 0
        var seen: Set<UInt8> = []
        for byte in bytes {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
                guard digits <= 10 else { throw fail("has a number too long for a duration") }
                number = (number ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
                continue
            }
            if byte == UInt8(ascii: "t") {
                guard !inTime, number == nil else { throw fail() }
                inTime = true
                continue
            }
            guard let value = number else { throw fail() }
            let unit = inTime ? byte &+ 0x80 : byte
            guard !seen.contains(unit) else { throw fail() }
            seen.insert(unit)
            switch (inTime, byte) {
            case (false, UInt8(ascii: "w")): days += value * 7
            case (false, UInt8(ascii: "d")): days += value
            case (true, UInt8(ascii: "h")): seconds += value * 3600
            case (true, UInt8(ascii: "m")): seconds += value * 60
            case (true, UInt8(ascii: "s")): seconds += value
            default: throw fail()
            }
            number = nil
            digits = 0
        }
        guard number == nil, !seen.isEmpty || inTime else { throw fail() }
        self.init(days: sign * days, seconds: sign * seconds)
    }

    public init(_ property: ICalendarProperty) throws(ICalendarValueError) {
        do { try self.init(value: property.value) } catch { throw error.at(property) }
    }

    /// The value text, in the RFC's shortest form: `P1W` for whole weeks,
    /// `-PT15M`, `P1DT2H`, `PT0S` for zero.
    public var value: String {
        let negative = days < 0 || seconds < 0
        let days = abs(days), seconds = abs(seconds)
        var text = negative ? "-P" : "P"
        if days > 0 && seconds == 0 && days % 7 == 0 { return text + "\(days / 7)W" }
        if days > 0 { text += "\(days)D" }
        if seconds > 0 || days == 0 {
            text += "T"
            let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
            if h > 0 { text += "\(h)H" }
            if m > 0 { text += "\(m)M" }
            if s > 0 || (h == 0 && m == 0) { text += "\(s)S" }
        }
        return text
    }

    public var description: String { value }
}

/// A UTC-OFFSET value (RFC 5545 §3.3.14): `+0800`, `-0500`, `+053000`.
public enum ICalendarUTCOffset {
    /// Seconds east of UTC. `-0000` is refused, as the RFC says; so is an
    /// offset of a day or more.
    public static func seconds(_ value: some StringProtocol) throws(ICalendarValueError) -> Int32 {
        let bytes = Array(value.utf8)
        func fail() -> ICalendarValueError {
            ICalendarValueError(value: String(value), reason: "is not a UTC offset (such as +0800, -0500, +053000)")
        }
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-") else { throw fail() }
        var parts: [Int] = []
        for start in stride(from: 1, to: bytes.count, by: 2) {
            let (a, b) = (bytes[start] &- 48, bytes[start + 1] &- 48)
            guard a < 10, b < 10 else { throw fail() }
            parts.append(Int(a) * 10 + Int(b))
        }
        guard parts[0] < 24, parts[1] < 60, parts.count < 3 || parts[2] < 60 else { throw fail() }
        let magnitude = parts[0] * 3600 + parts[1] * 60 + (parts.count == 3 ? parts[2] : 0)
        if bytes[0] == UInt8(ascii: "-") && magnitude == 0 { throw fail() }
        return Int32(bytes[0] == UInt8(ascii: "-") ? -magnitude : magnitude)
    }

    /// `+0800`; seconds only when there are any (`+053000` is written `+0530`).
    public static func value(_ seconds: Int32) -> String {
        let magnitude = abs(Int(seconds))
        let (h, m, s) = (magnitude / 3600, magnitude / 60 % 60, magnitude % 60)
        let sign = seconds < 0 ? "-" : "+"
        return sign + CivilDate.twoDigits(h) + CivilDate.twoDigits(m) + (s > 0 ? CivilDate.twoDigits(s) : "")
    }
}
