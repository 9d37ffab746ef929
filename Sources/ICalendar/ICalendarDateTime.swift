import CalendarModel

/// A DATE or DATE-TIME value (RFC 5545 §3.3.4, §3.3.5) in the three forms
/// the RFC gives a time, with the zone left as the file names it: mapping a
/// TZID to a zone Chime can read is `ICalendarZones`' work, not this type's.
public enum ICalendarDateTime: Hashable, Sendable, CustomStringConvertible {
    /// `20261201` (VALUE=DATE).
    case date(CivilDate)
    /// `20261201T085000`: floating, read in whatever zone applies.
    case floating(LocalDateTime)
    /// `20261201T005000Z`.
    case utc(LocalDateTime)
    /// `TZID=Asia/Shanghai:20261201T085000`.
    case zoned(LocalDateTime, tzid: String)

    /// Reads one value. The shape decides between a date and a date-time
    /// (files that say VALUE=DATE-TIME over a date exist); a TZID applies
    /// to a local time only (RFC 5545 forbids it beside `Z` and on a date,
    /// and readers ignore it there). A leap second (`:60`) reads as :59.
    public init(value: some StringProtocol, tzid: String? = nil) throws(ICalendarValueError) {
        self = try value.withUTF8Bytes { bytes throws(ICalendarValueError) in try Self.read(bytes, value: value, tzid: tzid) }
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>, value: some StringProtocol, tzid: String?) throws(ICalendarValueError) -> ICalendarDateTime {
        func fail(_ reason: String) -> ICalendarValueError {
            ICalendarValueError(value: String(value), reason: reason)
        }
        func number(_ range: Range<Int>) throws(ICalendarValueError) -> Int {
            var result = 0
            for index in range {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { throw fail("is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, Z for UTC)") }
                result = result * 10 + Int(digit)
            }
            return result
        }
        guard bytes.count == 8 || bytes.count == 15 || (bytes.count == 16 && (bytes[15] | 0x20) == UInt8(ascii: "z")) else {
            throw fail("is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, Z for UTC)")
        }
        let (year, month, day) = (try number(0..<4), try number(4..<6), try number(6..<8))
        guard let date = CivilDate(year: year, month: month, day: day) else {
            throw fail("is not a day of the calendar")
        }
        if bytes.count == 8 { return .date(date) }
        guard (bytes[8] | 0x20) == UInt8(ascii: "t") else {
            throw fail("is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, Z for UTC)")
        }
        let (hour, minute, second) = (try number(9..<11), try number(11..<13), try number(13..<15))
        guard let time = LocalDateTime(date: date, hour: hour, minute: minute, second: second == 60 ? 59 : second) else {
            throw fail("is not a time of day")
        }
        if bytes.count == 16 { return .utc(time) }
        if let tzid, !tzid.isEmpty { return .zoned(time, tzid: tzid) }
        return .floating(time)
    }

    /// Reads a property's single value, with its TZID parameter.
    public init(_ property: ICalendarProperty) throws(ICalendarValueError) {
        do {
            try self.init(value: property.value, tzid: property[parameter: "TZID"])
        } catch {
            throw error.at(property)
        }
    }

    /// Reads a property whose value is a comma-separated list (EXDATE, RDATE
    /// without VALUE=PERIOD), each with the property's TZID.
    public static func list(_ property: ICalendarProperty) throws(ICalendarValueError) -> [ICalendarDateTime] {
        var values: [ICalendarDateTime] = []
        for part in property.value.split(separator: ",", omittingEmptySubsequences: true) {
            do {
                values.append(try ICalendarDateTime(value: part, tzid: property[parameter: "TZID"]))
            } catch {
                throw error.at(property)
            }
        }
        return values
    }

    /// The wall-clock reading (a date reads as its midnight).
    public var wallClock: LocalDateTime {
        switch self {
        case .date(let date): LocalDateTime(date: date)!
        case .floating(let time), .utc(let time), .zoned(let time, _): time
        }
    }

    /// The value text: `20261201`, `20261201T085000`, `20261201T005000Z`.
    public var value: String {
        switch self {
        case .date(let date): date.basicFormat
        case .floating(let time), .zoned(let time, _): time.basicFormat
        case .utc(let time): time.basicFormat + "Z"
        }
    }

    /// The parameters that go with `value`: VALUE=DATE for a date, TZID for a zoned time.
    public var parameters: [ICalendarParameter] {
        switch self {
        case .date: [ICalendarParameter("VALUE", "DATE")]
        case .zoned(_, let tzid): [ICalendarParameter("TZID", tzid)]
        case .floating, .utc: []
        }
    }

    /// A property of that name holding this value.
    public func property(_ name: String) -> ICalendarProperty {
        ICalendarProperty(name: name, parameters: parameters, value: value)
    }

    public var description: String {
        if case .zoned(_, let tzid) = self { return "TZID=\(tzid):\(value)" }
        return value
    }
}
