/// What recurrence needs to know of a workday calendar: which dates are
/// worked. The ordinary week (Monday to Friday, or another) minus statutory
/// days off plus makeup workdays (调休补班) is the workday calendar's own
/// business; `HolidayCalendars` provides the real one, tests their own.
///
/// Both questions are asked once or twice for every day a workday rule
/// looks at, so they must be cheap: a table lookup, not a search.
///
/// A day may be worked in one half only (half a day of leave, 请半天假): a
/// workday rule judges an occurrence by the half of the day its scheduled
/// wall time falls in (`isWorkday(_:in:)`), an all-day one by the whole day;
/// the whole-day questions mean "worked at all". A schedule without such
/// days keeps the defaults.
public protocol WorkdaySchedule: Sendable {
    /// Whether people work on `date`, in either half of it.
    func isWorkday(_ date: CivilDate) -> Bool
    /// Whether `date` is a makeup workday: a day of the ordinary weekend
    /// that is worked in exchange for days off.
    func isMakeupWorkday(_ date: CivilDate) -> Bool
    /// Whether people work in `half` of `date`.
    func isWorkday(_ date: CivilDate, in half: DayHalf) -> Bool
    /// Whether any date is worked in one half only: when false, the halves
    /// answer as the whole day, and the engine asks of days alone.
    var hasHalfDays: Bool { get }
    /// The morning's last minute, in minutes after midnight (720: 12:00):
    /// where this workplace's lunch break divides the day.
    var morningEnd: Int { get }
}

extension WorkdaySchedule {
    public func isWorkday(_ date: CivilDate, in half: DayHalf) -> Bool { isWorkday(date) }
    /// Whether `half` of `date` is worked, and the day is a makeup workday.
    public func isMakeupWorkday(_ date: CivilDate, in half: DayHalf) -> Bool { isMakeupWorkday(date) && isWorkday(date, in: half) }
    public var hasHalfDays: Bool { false }
    public var morningEnd: Int { DayHalf.defaultMorningEnd }

    /// The half of the day `time` is in, as this schedule divides days.
    public func half(of time: LocalDateTime) -> DayHalf { DayHalf(time, morningEnd: morningEnd) }
}

/// A half of a day as workday questions see it: the morning (上午) up to
/// and including its last minute, 12:00 unless the person says otherwise,
/// and the afternoon (下午) after it. A reminder at 12:00 is the morning's:
/// in the usual Chinese office day (08:30–12:00, 13:30–18:00) noon is when
/// the morning's work ends, and its clock-out for lunch belongs to it. A
/// workplace whose morning ends at 12:30 says so (`chime holidays
/// morning 12:30`); any minute of the lunch break divides the day as well.
public enum DayHalf: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case morning
    case afternoon

    /// 12:00, in minutes after midnight.
    public static let defaultMorningEnd = 720
    /// The latest a morning may end (23:58), leaving the afternoon a minute.
    public static let latestMorningEnd = 1438

    /// The first second of the afternoon after a morning whose last minute
    /// is `morningEnd` minutes after midnight.
    @inline(__always)
    public static func afternoonStart(morningEnd: Int) -> Int { (morningEnd + 1) * 60 }

    /// The half holding the wall time `secondOfDay` seconds after midnight,
    /// the morning's last minute being `morningEnd` minutes after midnight.
    public init(secondOfDay: Int, morningEnd: Int) {
        self = secondOfDay < Self.afternoonStart(morningEnd: morningEnd) ? .morning : .afternoon
    }

    /// The half `time` is in.
    public init(_ time: LocalDateTime, morningEnd: Int) {
        self.init(secondOfDay: time.hour * 3600 + time.minute * 60 + time.second, morningEnd: morningEnd)
    }

    /// The other half.
    public var other: DayHalf { self == .morning ? .afternoon : .morning }

    public var description: String { rawValue }
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
