import CalendarModel

/// A day the person does not work though the calendar says it is a
/// workday: annual leave, sick leave (年假, 病假). Personal, not a region's:
/// every region's workday calendar takes it as a day off, so that a
/// clock-in reminder on a workday rule does not ring while its owner is
/// away.
public struct LeaveDay: Hashable, Sendable, Comparable {
    public let date: CivilDate
    /// What it is, as the person called it (`年假`); may be empty.
    public let name: String

    public init(date: CivilDate, name: String) {
        (self.date, self.name) = (date, name)
    }

    public static func < (lhs: LeaveDay, rhs: LeaveDay) -> Bool { lhs.date < rhs.date }
}
