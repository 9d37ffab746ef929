import CalendarModel

/// A region's workdays: the ordinary week, minus the days off, plus the
/// makeup workdays of every notice year it knows.
///
/// Built once from a list of `HolidayYear`s into a flat table with one byte
/// per day over the span they cover, so that `isWorkday` and
/// `isMakeupWorkday` cost a subtraction and a load (the recurrence engine
/// asks for every day it looks at). Outside the span, and in years without
/// data inside it, the ordinary week answers; `answer(on:)` says when that
/// happened and which year is missing.
///
/// Years are applied in notice-year order, date by date, so a notice that
/// moves a day of the previous December (2008 made 2007-12-31 a day off)
/// overrides what the earlier year said of that date. When a year is given
/// twice, the later one in the list replaces the earlier whole: list
/// imported years after bundled ones.
///
/// The ordinary week is Monday to Friday unless told otherwise (Monday to
/// Saturday and Sunday to Thursday work too). Days off are off whatever the
/// week; a makeup workday is a workday, and counts as a *makeup* workday only
/// when the ordinary week would not have worked it.
///
/// The person's own days (`PersonalDay`) come last: a day of leave is off
/// whatever the notices say, makeup workdays included (the person is
/// away); a day worked is a workday whatever they say, and a makeup workday
/// when the ordinary week would not have worked it, as a notice's would be.
/// Half a day of leave on a workday leaves the other half worked; half a
/// day worked on a day off leaves the other half off. Such a day is a
/// workday (worked at all), and `isWorkday(_:in:)` tells the halves apart.
public struct WorkdayCalendar: WorkdaySchedule, Sendable {
    public let region: String
    public let ordinaryWeek: OrdinaryWeek
    /// The years in use, in year order (one per notice year).
    public let years: [HolidayYear]
    /// The person's days of leave and days worked, in date order.
    public let personalDays: [PersonalDay]

    private let byYear: [Int: HolidayYear]
    /// Day number of `flags[0]`.
    private let firstDay: Int
    /// Per day: `workdayBit`, `makeupBit`, `entryBit`, `offEntryBit`,
    /// `personalBit`, and for a day worked in one half only `halfBit` (with
    /// `morningBit` when that half is the morning).
    private let flags: [UInt8]
    /// Per day with an entry: its index in `names`.
    private let nameIndexes: [UInt32]
    private let names: [String]
    /// Bit `weekday.rawValue` is set for each working day of the ordinary week.
    private let weekMask: UInt8

    private static let workdayBit: UInt8 = 1, makeupBit: UInt8 = 2, entryBit: UInt8 = 4, offEntryBit: UInt8 = 8, personalBit: UInt8 = 16,
                       halfBit: UInt8 = 32, morningBit: UInt8 = 64
    public let hasHalfDays: Bool
    /// The morning's last minute (see `DayHalf`): the person's setting.
    public let morningEnd: Int
    /// Each personal day, by its slot in `flags`.
    private let personalBySlot: [Int: PersonalDay]

    /// Every year must belong to `region`; a year given twice is taken from
    /// the later position in `years`. A date given twice in `personalDays`
    /// keeps the later one. `morningEnd` is taken into 0...`DayHalf.latestMorningEnd`.
    public init(region: String, years: [HolidayYear], ordinaryWeek: OrdinaryWeek = OrdinaryWeek(), personalDays: [PersonalDay] = [],
                morningEnd: Int = DayHalf.defaultMorningEnd) {
        precondition(years.allSatisfy { $0.region == region },
                     "WorkdayCalendar(\(region)) given years of \(Set(years.map(\.region)).sorted())")
        self.region = region
        self.morningEnd = min(max(morningEnd, 0), DayHalf.latestMorningEnd)
        self.ordinaryWeek = ordinaryWeek
        var byYear: [Int: HolidayYear] = [:]
        for year in years { byYear[year.year] = year }
        self.byYear = byYear
        self.years = byYear.values.sorted { $0.year < $1.year }
        weekMask = ordinaryWeek.workingDays.reduce(0) { $0 | UInt8(1) << UInt8($1.rawValue) }
        var personalByDay: [Int: PersonalDay] = [:]
        for day in personalDays { personalByDay[day.date.dayNumber] = day }
        self.personalDays = personalByDay.keys.sorted().map { personalByDay[$0]! }

        // The table spans the years with data and the personal days.
        var bounds = Array(personalByDay.keys)
        if let firstYear = self.years.first, let lastYear = self.years.last {
            bounds += self.years.compactMap { $0.entries.first?.date.dayNumber }
            bounds += [CivilDate.dayNumber(year: firstYear.year, month: 1, day: 1), CivilDate.dayNumber(year: lastYear.year, month: 12, day: 31)]
        }
        guard let first = bounds.min(), let last = bounds.max() else {
            firstDay = 0
            flags = []
            nameIndexes = []
            names = []
            personalBySlot = [:]
            hasHalfDays = false
            return
        }
        let mask = weekMask
        var flags = (first...last).map { day -> UInt8 in
            mask & (1 << UInt8(Self.weekdayRaw(day))) != 0 ? Self.workdayBit : 0
        }
        var nameIndexes = [UInt32](repeating: 0, count: flags.count)
        var names: [String] = []
        var nameIndex: [String: UInt32] = [:]
        for year in self.years {
            for entry in year.entries {
                let day = entry.date.dayNumber
                let slot = day - first
                let index: UInt32
                if let known = nameIndex[entry.name] {
                    index = known
                } else {
                    index = UInt32(names.count)
                    nameIndex[entry.name] = index
                    names.append(entry.name)
                }
                nameIndexes[slot] = index
                if entry.isOffDay {
                    flags[slot] = Self.entryBit | Self.offEntryBit
                } else {
                    let ordinary = mask & (1 << UInt8(Self.weekdayRaw(day))) != 0
                    flags[slot] = Self.entryBit | Self.workdayBit | (ordinary ? 0 : Self.makeupBit)
                }
            }
        }
        var personalBySlot: [Int: PersonalDay] = [:]
        var hasHalfDays = false
        for (day, personal) in personalByDay {
            let slot = day - first
            let worked = flags[slot] & Self.workdayBit != 0
            // The half the person works when it differs from the other, else nil.
            var workedHalf: DayHalf?
            switch (personal.kind, personal.half) {
            case (.leave, nil):
                flags[slot] = flags[slot] & ~(Self.workdayBit | Self.makeupBit)
            case (.leave, let half?):
                if worked { workedHalf = half.other }
            case (.work, let half):
                let ordinary = mask & (1 << UInt8(Self.weekdayRaw(day))) != 0
                if !worked {
                    flags[slot] = flags[slot] | Self.workdayBit | (ordinary ? 0 : Self.makeupBit)
                    workedHalf = half
                }
            }
            flags[slot] |= Self.personalBit
            if let workedHalf {
                flags[slot] |= Self.halfBit | (workedHalf == .morning ? Self.morningBit : 0)
                hasHalfDays = true
            }
            personalBySlot[slot] = personal
        }
        self.hasHalfDays = hasHalfDays
        firstDay = first
        self.flags = flags
        self.nameIndexes = nameIndexes
        self.names = names
        self.personalBySlot = personalBySlot
    }

    @inline(__always)
    private static func weekdayRaw(_ dayNumber: Int) -> Int { ((dayNumber % 7) + 11) % 7 }

    public func isWorkday(_ date: CivilDate) -> Bool {
        let day = date.dayNumber
        let slot = day &- firstDay
        if slot >= 0, slot < flags.count { return flags[slot] & Self.workdayBit != 0 }
        return weekMask & (1 << UInt8(Self.weekdayRaw(day))) != 0
    }

    public func isMakeupWorkday(_ date: CivilDate) -> Bool {
        let slot = date.dayNumber &- firstDay
        return slot >= 0 && slot < flags.count && flags[slot] & Self.makeupBit != 0
    }

    public func isWorkday(_ date: CivilDate, in half: DayHalf) -> Bool {
        let slot = date.dayNumber &- firstDay
        if slot >= 0, slot < flags.count, flags[slot] & Self.halfBit != 0 {
            return (flags[slot] & Self.morningBit != 0) == (half == .morning)
        }
        return isWorkday(date)
    }

    /// Whether `date` is a workday, and why; with the missing year when the
    /// date's year has no data and the ordinary week answered.
    public func answer(on date: CivilDate) -> WorkdayAnswer {
        let slot = date.dayNumber - firstDay
        if slot >= 0, slot < flags.count, flags[slot] & Self.personalBit != 0, let personal = personalBySlot[slot] {
            let missingYear = hasData(forYear: date.year) ? nil : date.year
            let worked = flags[slot] & Self.workdayBit != 0
            return WorkdayAnswer(date: date, isWorkday: worked,
                                 reason: personal.kind == .leave ? .leave(personal.name, half: personal.half) : .work(personal.name, half: personal.half),
                                 missingYear: missingYear, isMakeupWorkday: flags[slot] & Self.makeupBit != 0)
        }
        if slot >= 0, slot < flags.count, flags[slot] & Self.entryBit != 0 {
            let name = names[Int(nameIndexes[slot])]
            let bits = flags[slot]
            if bits & Self.offEntryBit != 0 {
                return WorkdayAnswer(date: date, isWorkday: false, reason: .holiday(name), missingYear: nil)
            }
            return WorkdayAnswer(date: date, isWorkday: true,
                                 reason: bits & Self.makeupBit != 0 ? .makeupWorkday(for: name) : .ordinaryWorkday,
                                 missingYear: nil)
        }
        let worked = ordinaryWeek.workingDays.contains(date.weekday)
        return WorkdayAnswer(date: date, isWorkday: worked, reason: worked ? .ordinaryWorkday : .weekend,
                             missingYear: hasData(forYear: date.year) ? nil : date.year)
    }

    /// This calendar as the notices and the ordinary week have it, the
    /// person's own days aside: what a day of leave is counted against.
    /// Builds its table anew.
    public func withoutPersonalDays() -> WorkdayCalendar {
        WorkdayCalendar(region: region, years: years, ordinaryWeek: ordinaryWeek, morningEnd: morningEnd)
    }

    /// Whether a notice year's data is known.
    public func hasData(forYear year: Int) -> Bool { byYear[year] != nil }

    /// The notice years known, in order.
    public var coveredYears: [Int] { years.map(\.year) }

    /// The years from `range` without data, in order: what `chime holidays
    /// status` and the missing-year warning name.
    public func missingYears(in range: ClosedRange<Int>) -> [Int] { range.filter { byYear[$0] == nil } }

    /// The data in use for a notice year.
    public func holidayYear(_ year: Int) -> HolidayYear? { byYear[year] }

    /// The days off and makeup workdays falling in calendar year `year`, in
    /// date order, as they stand after later notices' overrides: a December
    /// day moved by the next year's notice is listed under December's year.
    public func exceptions(inYear year: Int) -> [HolidayEntry] {
        guard !flags.isEmpty else { return [] }
        let from = max(CivilDate.dayNumber(year: year, month: 1, day: 1) - firstDay, 0)
        let to = min(CivilDate.dayNumber(year: year, month: 12, day: 31) - firstDay, flags.count - 1)
        guard from <= to else { return [] }
        return (from...to).compactMap { slot in
            guard flags[slot] & Self.entryBit != 0 else { return nil }
            return HolidayEntry(date: CivilDate(dayNumber: firstDay + slot), isOffDay: flags[slot] & Self.offEntryBit != 0,
                                name: names[Int(nameIndexes[slot])])
        }
    }
}

/// What a `WorkdayCalendar` says of a date.
public struct WorkdayAnswer: Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// A working day of the ordinary week with nothing announced.
        case ordinaryWorkday
        /// A day off of the ordinary week with nothing announced.
        case weekend
        /// A day off of the named holiday.
        case holiday(String)
        /// A weekend day worked in exchange for the named holiday's days off.
        case makeupWorkday(for: String)
        /// A day of the person's leave, named as they named it (maybe not
        /// at all); `half`: half a day, the other half as the calendar has it.
        case leave(String, half: DayHalf? = nil)
        /// A day the person works though the calendar has it off (or would
        /// have it on all the same), named as they named it; `half`: that
        /// half only.
        case work(String, half: DayHalf? = nil)

        /// `ordinary workday`, `weekend`, `国庆节`, `makeup workday for 国庆节`, `leave: 年假`,
        /// `leave in the morning: 年假`, `extra workday: 加班`, `extra workday in the afternoon`.
        public var description: String {
            switch self {
            case .ordinaryWorkday: "ordinary workday"
            case .weekend: "weekend"
            case .holiday(let name): name
            case .makeupWorkday(let name): "makeup workday for \(name)"
            case .leave(let name, let half): Self.personal("leave", half: half, name: name)
            case .work(let name, let half): Self.personal("extra workday", half: half, name: name)
            }
        }

        private static func personal(_ kind: String, half: DayHalf?, name: String) -> String {
            kind + (half.map { " in the \($0)" } ?? "") + (name.isEmpty ? "" : ": \(name)")
        }
    }

    public let date: CivilDate
    public let isWorkday: Bool
    public let reason: Reason
    /// Set when the date's year has no holiday data: the answer is the
    /// ordinary week's, and may be wrong once that year's notice is out.
    public let missingYear: Int?
    /// A day of the ordinary weekend worked: a notice's makeup workday, or
    /// a day the person works (`Reason.work`) that the week has off.
    public let isMakeupWorkday: Bool

    /// `isMakeupWorkday` nil: whether `reason` is a notice's makeup workday.
    public init(date: CivilDate, isWorkday: Bool, reason: Reason, missingYear: Int?, isMakeupWorkday: Bool? = nil) {
        self.date = date
        self.isWorkday = isWorkday
        self.reason = reason
        self.missingYear = missingYear
        if let isMakeupWorkday {
            self.isMakeupWorkday = isMakeupWorkday
        } else if case .makeupWorkday = reason {
            self.isMakeupWorkday = true
        } else {
            self.isMakeupWorkday = false
        }
    }

    /// `workday (makeup workday for 国庆节)`, `day off (国庆节)`,
    /// `day off (weekend; no holiday data for 2027: the ordinary week applies)`.
    public var description: String {
        let note = missingYear.map { "; no holiday data for \($0): the ordinary week applies" } ?? ""
        return "\(isWorkday ? "workday" : "day off") (\(reason)\(note))"
    }
}
