import CalendarModel

/// A day the person's own plans set apart from what the workday calendar
/// says: a day of leave (年假, 病假), away though it is a workday, or a day
/// worked though it is off (加班, an employer's own makeup day). Personal,
/// not a region's: every region's workday calendar takes it, so that a
/// clock-in reminder on a workday rule rings when its owner works and not
/// while they are away.
public struct PersonalDay: Hashable, Sendable, Comparable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A day off whatever the calendar says.
        case leave
        /// A workday whatever the calendar says.
        case work
    }

    public let date: CivilDate
    public let kind: Kind
    /// What it is, as the person called it (`年假`, `加班`); may be empty.
    public let name: String
    /// The half of the day it is (half a day of leave, 请半天假; a morning
    /// worked); nil: the whole day. The other half is what the calendar says.
    public let half: DayHalf?

    public init(date: CivilDate, kind: Kind, name: String, half: DayHalf? = nil) {
        (self.date, self.kind, self.name, self.half) = (date, kind, name, half)
    }

    public static func < (lhs: PersonalDay, rhs: PersonalDay) -> Bool { lhs.date < rhs.date }
}
