import CalendarModel

/// Expands one period of a plan into its candidate wall-clock times, reusing
/// its buffers from period to period so that the common rules allocate
/// nothing per occurrence.
struct PeriodExpander {
    let plan: ExpansionPlan
    /// The series' first period (DTSTART's): the grid sub-daily skips align to.
    let base: Int
    private var days: [Int] = []
    /// Candidates of the last expanded period: wall-clock seconds, sorted, unique.
    private(set) var candidates: [Int64] = []
    private var selected: [Int64] = []

    init(plan: ExpansionPlan, base: Int) {
        self.plan = plan
        self.base = base
    }

    /// Fills `candidates` for the period `unit` and returns the unit of the
    /// next period worth expanding: `unit + interval`, or further for
    /// sub-daily rules whose day or hour is filtered out.
    mutating func expand(_ unit: Int) -> Int {
        candidates.removeAll(keepingCapacity: true)
        let next = unit.addingReportingOverflow(plan.interval)
        var following = next.overflow ? Int.max : next.partialValue
        if let scale = plan.scale {
            expandScaled(unit, scale)
        } else {
            switch plan.frequency {
            case .yearly: expandYear(unit)
            case .monthly: expandMonth(unit)
            case .weekly: expandWeek(unit)
            case .daily: expandDay(unit)
            case .hourly, .minutely, .secondly: following = expandWithinDay(unit, following: following)
            }
        }
        if !plan.setPositions.isEmpty && !candidates.isEmpty { applySetPositions() }
        return following
    }

    // MARK: Days

    /// A YEARLY or MONTHLY period of an RFC 7529 rule (see `MonthScale`).
    private mutating func expandScaled(_ unit: Int, _ scale: MonthScale) {
        days.removeAll(keepingCapacity: true)
        func appendDays(of month: MonthScale.Month) {
            // Never empty: without BYMONTHDAY, DTSTART's day is the rule's (BYDAY and BYYEARDAY are refused).
            for value in plan.monthDays {
                if let day = scale.day(value, of: month) { days.append(day) }
            }
        }
        if plan.frequency == .yearly {
            let months = scale.months(ofYear: unit)
            if plan.months.isEmpty && plan.leapMonths.isEmpty {
                months.forEach(appendDays)
            } else {
                for (numbers, leap) in [(plan.months, false), (plan.leapMonths, true)] {
                    for number in numbers {
                        if let month = scale.month(number, leap: leap, in: months, year: unit) { appendDays(of: month) }
                    }
                }
            }
        } else if let month = scale.month(ofUnit: unit) {
            let limited = !plan.months.isEmpty || !plan.leapMonths.isEmpty
            if !limited || (month.isLeap ? plan.leapMonths : plan.months).contains(month.number) { appendDays(of: month) }
        }
        sortAndMergeDays()
        appendTimes()
    }

    private mutating func expandYear(_ year: Int) {
        days.removeAll(keepingCapacity: true)
        let january1 = CivilDate.dayNumber(year: year, month: 1, day: 1)
        let daysInYear = CivilDate.daysInYear(year)
        if !plan.weekNumbers.isEmpty {
            let first = plan.weekYearStart(year)
            let weeks = (plan.weekYearStart(year + 1) - first) / 7
            for number in plan.weekNumbers {
                let week = ordinalPosition(number, among: weeks)
                guard week >= 1 && week <= weeks else { continue }
                for day in (first + (week - 1) * 7)..<(first + week * 7) where passesDayLimits(day, yearDays: true) {
                    days.append(day)
                }
            }
        } else if !plan.yearDays.isEmpty {
            for value in plan.yearDays {
                let ordinal = ordinalPosition(value, among: daysInYear)
                guard ordinal >= 1 && ordinal <= daysInYear else { continue }
                let day = january1 + ordinal - 1
                if passesDayLimits(day, yearDays: false) { days.append(day) }
            }
        } else if !plan.monthDays.isEmpty {
            for month in plan.months.isEmpty ? Array(1...12) : plan.months {
                appendMonthDays(year: year, month: month, weekdaySpan: plan.months.isEmpty ? yearSpan(year) : nil)
            }
        } else if plan.months.isEmpty {
            appendWeekdays(in: january1, january1 + daysInYear - 1)
        } else {
            for month in plan.months {
                appendWeekdays(year: year, month: month)
            }
        }
        sortAndMergeDays()
        appendTimes()
    }

    private mutating func expandMonth(_ unit: Int) {
        let year = ExpansionPlan.floorDivide(unit, 12)
        let month = unit - year * 12 + 1
        guard plan.monthMask == 0 || plan.monthMask & (1 << month) != 0 else { return }
        days.removeAll(keepingCapacity: true)
        if !plan.monthDays.isEmpty {
            appendMonthDays(year: year, month: month, weekdaySpan: nil)
        } else {
            appendWeekdays(year: year, month: month)
        }
        sortAndMergeDays()
        appendTimes()
    }

    private mutating func expandWeek(_ unit: Int) {
        days.removeAll(keepingCapacity: true)
        let first = unit * 7 + plan.weekOrigin
        for day in first..<(first + 7) where plan.weekdayMask & (1 << weekday(day)) != 0 {
            if plan.monthMask == 0 || plan.monthMask & (1 << CivilDate(dayNumber: day).month) != 0 {
                days.append(day)
            }
        }
        appendTimes()
    }

    private mutating func expandDay(_ day: Int) {
        days.removeAll(keepingCapacity: true)
        if passesDayLimits(day, yearDays: false) { days.append(day) }
        appendTimes()
    }

    /// BYMONTHDAY within one month; `weekdaySpan` is where numbered BYDAY
    /// entries count (the month unless given).
    private mutating func appendMonthDays(year: Int, month: Int, weekdaySpan: ClosedRange<Int>?) {
        let length = CivilDate.daysInMonth(year: year, month: month)
        let first = CivilDate.dayNumber(year: year, month: month, day: 1)
        let span = weekdaySpan ?? first...(first + length - 1)
        for value in plan.monthDays {
            let dayOfMonth = ordinalPosition(value, among: length)
            // Skipped, never clamped: February 30 does not exist.
            guard dayOfMonth >= 1 && dayOfMonth <= length else { continue }
            let day = first + dayOfMonth - 1
            if matchesWeekdays(day, in: span) { days.append(day) }
        }
    }

    /// BYDAY as an expansion over the days of one month.
    private mutating func appendWeekdays(year: Int, month: Int) {
        let first = CivilDate.dayNumber(year: year, month: month, day: 1)
        appendWeekdays(in: first, first + CivilDate.daysInMonth(year: year, month: month) - 1)
    }

    /// BYDAY as an expansion over a span of days (a month or a year).
    private mutating func appendWeekdays(in first: Int, _ last: Int) {
        let firstWeekday = weekday(first)
        if plan.weekdayMask != 0 {
            for wanted in 0..<7 where plan.weekdayMask & (1 << wanted) != 0 {
                var day = first + (wanted - firstWeekday + 7) % 7
                while day <= last {
                    if passesDayLimits(day, yearDays: true) { days.append(day) }
                    day += 7
                }
            }
        }
        for (position, wanted) in plan.numberedWeekdays {
            let day = Self.day(position, wanted, in: first, last)
            if day >= first && day <= last && passesDayLimits(day, yearDays: true) { days.append(day) }
        }
    }

    /// The limits every day of a period must pass, besides the part that
    /// generated it: BYMONTH, BYMONTHDAY, BYYEARDAY (for YEARLY and sub-daily)
    /// and plain BYDAY weekdays. Numbered weekdays are checked by the callers
    /// that know the span they count in.
    private func passesDayLimits(_ day: Int, yearDays checkYearDays: Bool) -> Bool {
        let needsDate = plan.monthMask != 0 || !plan.monthDays.isEmpty || (checkYearDays && !plan.yearDays.isEmpty)
            || (plan.frequency == .yearly && !plan.numberedWeekdays.isEmpty)
        if plan.hasWeekdays && plan.numberedWeekdays.isEmpty && plan.weekdayMask & (1 << weekday(day)) == 0 {
            return false
        }
        guard needsDate else { return true }
        let date = CivilDate(dayNumber: day)
        if plan.monthMask != 0 && plan.monthMask & (1 << date.month) == 0 { return false }
        if !plan.monthDays.isEmpty {
            let length = CivilDate.daysInMonth(year: date.year, month: date.month)
            guard plan.monthDays.contains(where: { ordinalPosition($0, among: length) == date.day }) else { return false }
        }
        if checkYearDays && !plan.yearDays.isEmpty {
            let length = CivilDate.daysInYear(date.year)
            let ordinal = date.dayOfYear
            guard plan.yearDays.contains(where: { ordinalPosition($0, among: length) == ordinal }) else { return false }
        }
        // YEARLY days generated from BYYEARDAY meet numbered weekdays here.
        if plan.frequency == .yearly && !plan.numberedWeekdays.isEmpty && !plan.yearDays.isEmpty {
            let span = plan.months.isEmpty ? yearSpan(date.year) : monthSpan(date)
            return matchesWeekdays(day, in: span)
        }
        return true
    }

    private func yearSpan(_ year: Int) -> ClosedRange<Int> {
        let first = CivilDate.dayNumber(year: year, month: 1, day: 1)
        return first...(first + CivilDate.daysInYear(year) - 1)
    }

    private func monthSpan(_ date: CivilDate) -> ClosedRange<Int> {
        let first = CivilDate.dayNumber(year: date.year, month: date.month, day: 1)
        return first...(first + CivilDate.daysInMonth(year: date.year, month: date.month) - 1)
    }

    /// BYDAY as a limit: a plain weekday matches anywhere, a numbered one only
    /// at its place from the front or back of `span`.
    private func matchesWeekdays(_ day: Int, in span: ClosedRange<Int>) -> Bool {
        guard plan.hasWeekdays else { return true }
        let dayOfWeek = weekday(day)
        if plan.weekdayMask & (1 << dayOfWeek) != 0 { return true }
        for (position, wanted) in plan.numberedWeekdays where wanted == dayOfWeek {
            if position > 0 ? (day - span.lowerBound) / 7 + 1 == position : (span.upperBound - day) / 7 + 1 == -position {
                return true
            }
        }
        return false
    }

    @inline(__always)
    private func weekday(_ day: Int) -> Int { Self.weekday(day) }

    /// The weekday of a day number, Sunday 0 (day 0, 1970-01-01, was a Thursday).
    static func weekday(_ day: Int) -> Int { ((day % 7) + 11) % 7 }

    /// The `position`th `wanted` weekday (from the end when negative) of the
    /// days `first` through `last`; outside them when there is no such day.
    static func day(_ position: Int, _ wanted: Int, in first: Int, _ last: Int) -> Int {
        position > 0 ? first + (wanted - weekday(first) + 7) % 7 + (position - 1) * 7
                     : last - (weekday(last) - wanted + 7) % 7 + (position + 1) * 7
    }

    private mutating func sortAndMergeDays() {
        guard days.count > 1 else { return }
        days.sort()
        var write = 1
        for read in 1..<days.count where days[read] != days[write - 1] {
            days[write] = days[read]
            write += 1
        }
        days.removeLast(days.count - write)
    }

    private mutating func appendTimes() {
        for day in days {
            let midnight = Int64(day) * 86_400
            for time in plan.timesOfDay { candidates.append(midnight + Int64(time)) }
        }
    }

    // MARK: Within a day

    /// HOURLY, MINUTELY and SECONDLY: the day and coarser fields limit, the
    /// finer ones expand. A day or hour that fails a limit is skipped whole.
    private mutating func expandWithinDay(_ unit: Int, following: Int) -> Int {
        let unitsPerDay: Int
        let unitSeconds: Int
        switch plan.frequency {
        case .hourly: (unitsPerDay, unitSeconds) = (24, 3600)
        case .minutely: (unitsPerDay, unitSeconds) = (1440, 60)
        default: (unitsPerDay, unitSeconds) = (86_400, 1)
        }
        let day = ExpansionPlan.floorDivide(unit, unitsPerDay)
        guard passesDayLimits(day, yearDays: true) else {
            return max(following, plan.alignedUnit(atOrAfter: (day + 1) * unitsPerDay, base: base))
        }
        let secondOfDay = (unit - day * unitsPerDay) * unitSeconds
        let hour = secondOfDay / 3600, minute = secondOfDay / 60 % 60, second = secondOfDay % 60
        guard plan.hourMask & (1 << hour) != 0 else {
            return max(following, plan.alignedUnit(atOrAfter: ((day * 24 + hour + 1) * 3600) / unitSeconds, base: base))
        }
        let hourStart = Int64(day) * 86_400 + Int64(hour) * 3600
        switch plan.frequency {
        case .hourly:
            for m in plan.minutes { for s in plan.seconds { candidates.append(hourStart + Int64(m * 60 + s)) } }
        case .minutely:
            if plan.minuteMask & (1 << minute) != 0 {
                for s in plan.seconds { candidates.append(hourStart + Int64(minute * 60 + s)) }
            }
        default:
            if plan.minuteMask & (1 << minute) != 0 && plan.secondMask & (1 << second) != 0 {
                candidates.append(hourStart + Int64(minute * 60 + second))
            }
        }
        return following
    }

    // MARK: BYSETPOS

    private mutating func applySetPositions() {
        selected.removeAll(keepingCapacity: true)
        let count = candidates.count
        for position in plan.setPositions {
            let index = ordinalPosition(position, among: count) - 1
            if index >= 0 && index < count { selected.append(candidates[index]) }
        }
        selected.sort()
        candidates.removeAll(keepingCapacity: true)
        for value in selected where candidates.last != value { candidates.append(value) }
    }
}
