/// The POSIX TZ string at the end of a TZif file (`EST5EDT,M3.2.0,M11.1.0`,
/// `<+1030>-10:30<+11>-11,M10.1.0,M4.1.0`): the zone's rule for every year
/// after its transition table ends. RFC 8536 §3.3 extends POSIX to allow
/// transition times from -167 to 167 hours.
struct POSIXTimeZoneRule: Hashable, Sendable {
    enum Day: Hashable, Sendable {
        /// `Jn`: day n of the year (1…365), February 29 never counted.
        case julian(Int)
        /// `n`: zero-based day of the year (0…365), February 29 counted.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday d (0 = Sunday) of week w (5 = last) of month m.
        case monthWeekDay(month: Int, week: Int, weekday: Int)

        func dayNumber(in year: Int) -> Int {
            switch self {
            case .julian(let n):
                let leapShift = CivilDate.isLeapYear(year) && n >= 60 ? 1 : 0
                return CivilDate.dayNumber(year: year, month: 1, day: 1) + n - 1 + leapShift
            case .zeroBased(let n):
                return CivilDate.dayNumber(year: year, month: 1, day: 1) + n
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilDate.dayNumber(year: year, month: month, day: 1)
                let firstMatch = first + (weekday - CivilDate.weekday(ofDayNumber: first).rawValue + 7) % 7
                var day = firstMatch + (week - 1) * 7
                let monthEnd = first + CivilDate.daysInMonth(year: year, month: month)
                while day >= monthEnd { day -= 7 }
                return day
            }
        }
    }

    struct Change: Hashable, Sendable {
        var day: Day
        var time: Int64
    }

    /// Seconds east of UTC (POSIX writes them west-positive; stored flipped).
    var standardOffset: Int32
    var daylightOffset: Int32?
    var start: Change?
    var end: Change?

    /// The offset a Unix time reads in, for instants after `last`.
    func offset(at instant: Int64, after last: TimeZoneRules.Transition) -> Int32 {
        let local = instant + Int64(standardOffset)
        let year = CivilDate(dayNumber: Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)).year
        var offset = last.after
        for transition in transitions(years: (year - 1)...(year + 1), after: last) where transition.instant <= instant {
            offset = transition.after
        }
        return offset
    }

    /// The rule's transitions in the years around a wall-clock time.
    func transitions(aroundLocal local: Int64, after last: TimeZoneRules.Transition) -> [TimeZoneRules.Transition] {
        let year = CivilDate(dayNumber: Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)).year
        return transitions(years: (year - 1)...(year + 1), after: last)
    }

    func transitions(years: ClosedRange<Int>, after last: TimeZoneRules.Transition) -> [TimeZoneRules.Transition] {
        guard let daylightOffset, let start, let end, daylightOffset != standardOffset else { return [] }
        var list: [TimeZoneRules.Transition] = []
        for year in years {
            let begins = Int64(start.day.dayNumber(in: year)) * 86_400 + start.time - Int64(standardOffset)
            let ends = Int64(end.day.dayNumber(in: year)) * 86_400 + end.time - Int64(daylightOffset)
            list.append(.init(instant: begins, before: standardOffset, after: daylightOffset))
            list.append(.init(instant: ends, before: daylightOffset, after: standardOffset))
        }
        list.sort { $0.instant < $1.instant }
        // Keep the sequence consistent with the table it continues.
        var result: [TimeZoneRules.Transition] = []
        var current = last.after
        for transition in list where transition.instant > last.instant && transition.before == current {
            result.append(transition)
            current = transition.after
        }
        return result
    }
}

extension POSIXTimeZoneRule {
    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard scanner.name(), let standard = scanner.offset() else { return nil }
        standardOffset = Int32(-standard)
        if scanner.atEnd {
            daylightOffset = nil
            return
        }
        guard scanner.name() else { return nil }
        if let explicit = scanner.offset() {
            daylightOffset = Int32(-explicit)
        } else {
            daylightOffset = standardOffset + 3600
        }
        if scanner.atEnd {
            // POSIX leaves the default rule to the implementation; the US rule is customary.
            start = Change(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
            end = Change(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
            return
        }
        guard scanner.take(","), let start = scanner.change(), scanner.take(","), let end = scanner.change(), scanner.atEnd else {
            return nil
        }
        self.start = start
        self.end = end
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }

        /// A zone abbreviation: `<+1030>` or three or more letters.
        mutating func name() -> Bool {
            if take("<") {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { return false }
                index = close + 1
                return true
            }
            let begin = index
            while index < bytes.count, (bytes[index] | 0x20) >= UInt8(ascii: "a"), (bytes[index] | 0x20) <= UInt8(ascii: "z") {
                index += 1
            }
            return index - begin >= 3
        }

        mutating func number() -> Int? {
            let begin = index
            var value = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), index - begin < 4 {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return index > begin ? value : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        mutating func offset() -> Int? {
            let negative = take("-")
            if !negative { _ = take("+") }
            guard let hours = number() else { return nil }
            var seconds = hours * 3600
            if take(":") {
                guard let minutes = number() else { return nil }
                seconds += minutes * 60
                if take(":") {
                    guard let secs = number() else { return nil }
                    seconds += secs
                }
            }
            return negative ? -seconds : seconds
        }

        mutating func change() -> Change? {
            let day: Day
            if take("M") {
                guard let month = number(), take("."), let week = number(), take("."), let weekday = number(),
                      (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday) else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else if take("J") {
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else {
                guard let n = number(), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time: Int64 = 7200
            if take("/") {
                guard let value = offset() else { return nil }
                time = Int64(value)
            }
            return Change(day: day, time: time)
        }
    }
}
