import CalendarModel

/// Answers what a workday rule asks of a schedule about a day (dropped,
/// kept, or moved by how many days), looking at most
/// `WorkdayRule.longestReach` days away.
///
/// It remembers the last run of days off it has seen, so that a walk
/// through a long break, or through a schedule with no workday at all, costs
/// O(1) lookups a day rather than a year's worth: the cursor asks about days
/// in increasing order, and a run found for one day serves its neighbours.
///
/// A scanner sees the schedule one way (`View`) for all its life, since its
/// run is only good for that view: a schedule with half days needs one for
/// each half, which occurrences are judged by, and one for whole days worked,
/// which bounds how far an occurrence can move.
struct WorkdayScanner {
    /// Which days count as worked.
    enum View {
        /// Worked at all: the only view of a schedule without half days.
        case day
        /// Worked in this half.
        case half(DayHalf)
        /// Worked in both halves.
        case wholeDay
    }

    let schedule: any WorkdaySchedule
    let view: View

    // Every day in low...high (day numbers) is a day off; empty when low > high.
    private var low = 1
    private var high = 0
    /// Whether low - 1 is known to be a workday (the run cannot grow down).
    private var lowEndsAtWorkday = false
    /// Whether high + 1 is known to be a workday (the run cannot grow up).
    private var highEndsAtWorkday = false

    init(schedule: any WorkdaySchedule, view: View = .day) {
        self.schedule = schedule
        self.view = view
    }

    @inline(__always)
    func isWorkday(_ day: Int) -> Bool { holds(day, makeup: false) }

    func isMakeupWorkday(_ day: Int) -> Bool { holds(day, makeup: true) }

    /// Whether `day` is worked (a makeup workday, with `makeup`) in this view.
    @inline(__always)
    private func holds(_ day: Int, makeup: Bool) -> Bool {
        let date = CivilDate(dayNumber: day)
        switch view {
        case .day: return makeup ? schedule.isMakeupWorkday(date) : schedule.isWorkday(date)
        case .half(let half): return holds(date, in: half, makeup: makeup)
        case .wholeDay: return holds(date, in: .morning, makeup: makeup) && holds(date, in: .afternoon, makeup: makeup)
        }
    }

    private func holds(_ date: CivilDate, in half: DayHalf, makeup: Bool) -> Bool {
        makeup ? schedule.isMakeupWorkday(date, in: half) : schedule.isWorkday(date, in: half)
    }

    /// The days an occurrence scheduled on `day` moves by under `rule` (0
    /// when it stays), or nil when it is dropped.
    mutating func shift(_ day: Int, for rule: WorkdayRule) -> Int? {
        switch rule {
        case .skip:
            return isWorkday(day) ? 0 : nil
        case .makeup:
            return isMakeupWorkday(day) ? 0 : nil
        case .forward:
            return next(onOrAfter: day, reach: WorkdayRule.longestReach).map { $0 - day }
        case .backward:
            return previous(onOrBefore: day, reach: WorkdayRule.longestReach).map { $0 - day }
        case .firstAfterBreak(let days):
            // A workday whose `days` days before are all off.
            guard isWorkday(day) else { return nil }
            return previous(onOrBefore: day - 1, reach: days - 1) == nil ? 0 : nil
        }
    }

    /// The first workday in day...day + reach.
    mutating func next(onOrAfter day: Int, reach: Int) -> Int? {
        if !isKnownOff(day) {
            if isWorkday(day) { return day }
            cover(day)
        }
        while !highEndsAtWorkday && high - day < reach {
            if isWorkday(high + 1) { highEndsAtWorkday = true } else { high += 1 }
        }
        return highEndsAtWorkday && high + 1 - day <= reach ? high + 1 : nil
    }

    /// The last workday in day - reach...day.
    mutating func previous(onOrBefore day: Int, reach: Int) -> Int? {
        if !isKnownOff(day) {
            if isWorkday(day) { return day }
            cover(day)
        }
        while !lowEndsAtWorkday && day - low < reach {
            if isWorkday(low - 1) { lowEndsAtWorkday = true } else { low -= 1 }
        }
        return lowEndsAtWorkday && day - (low - 1) <= reach ? low - 1 : nil
    }

    @inline(__always)
    private func isKnownOff(_ day: Int) -> Bool { low <= day && day <= high }

    /// Makes the run hold `day`, a day off: it grows by one at either end,
    /// or a new run begins.
    private mutating func cover(_ day: Int) {
        if low <= high && day == high + 1 {
            high = day
            highEndsAtWorkday = false
        } else if low <= high && day == low - 1 {
            low = day
            lowEndsAtWorkday = false
        } else {
            low = day
            high = day
            lowEndsAtWorkday = false
            highEndsAtWorkday = false
        }
    }
}
