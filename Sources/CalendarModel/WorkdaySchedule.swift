/// What recurrence needs to know of a workday calendar: which dates are
/// worked. The ordinary week (Monday to Friday, or another) minus statutory
/// days off plus makeup workdays (调休补班) is the workday calendar's own
/// business; `HolidayCalendars` provides the real one, tests their own.
///
/// Both questions are asked once or twice for every day a workday rule
/// looks at, so they must be cheap: a table lookup, not a search.
public protocol WorkdaySchedule: Sendable {
    /// Whether people work on `date`.
    func isWorkday(_ date: CivilDate) -> Bool
    /// Whether `date` is a makeup workday: a day of the ordinary weekend
    /// that is worked in exchange for days off.
    func isMakeupWorkday(_ date: CivilDate) -> Bool
}

/// The ordinary week and nothing else: the schedule used where no holiday
/// data applies.
public struct OrdinaryWeek: WorkdaySchedule, Hashable {
    public let workingDays: Set<Weekday>

    /// Monday to Friday unless told otherwise.
    public init(workingDays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]) {
        self.workingDays = workingDays
    }

    public func isWorkday(_ date: CivilDate) -> Bool { workingDays.contains(date.weekday) }
    public func isMakeupWorkday(_ date: CivilDate) -> Bool { false }
}
