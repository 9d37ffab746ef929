/// A day of the week. Raw values count from Sunday, matching both RFC 5545's
/// ordering of `SU`…`SA` and the weekday arithmetic on day numbers
/// (1970-01-01 was a Thursday, raw value 4).
public enum Weekday: Int, CaseIterable, Hashable, Sendable, Comparable {
    case sunday = 0, monday, tuesday, wednesday, thursday, friday, saturday

    /// The two-letter code RFC 5545 uses in BYDAY and WKST.
    public var code: String {
        switch self {
        case .sunday: "SU"
        case .monday: "MO"
        case .tuesday: "TU"
        case .wednesday: "WE"
        case .thursday: "TH"
        case .friday: "FR"
        case .saturday: "SA"
        }
    }

    public init?(code: some StringProtocol) {
        guard let day = Weekday.allCases.first(where: { $0.code == code.uppercased() }) else { return nil }
        self = day
    }

    /// The day an English name or its abbreviation names, in any case:
    /// `monday`, `mon`; `tue` and `tues`; `thu`, `thur` and `thurs`.
    public init?(name: some StringProtocol) {
        guard let day = Self.names[name.lowercased()] else { return nil }
        self = day
    }

    private static let names: [String: Weekday] = [
        "sunday": .sunday, "monday": .monday, "tuesday": .tuesday, "wednesday": .wednesday,
        "thursday": .thursday, "friday": .friday, "saturday": .saturday,
        "sun": .sunday, "mon": .monday, "tue": .tuesday, "tues": .tuesday, "wed": .wednesday,
        "thu": .thursday, "thur": .thursday, "thurs": .thursday, "fri": .friday, "sat": .saturday,
    ]

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}
