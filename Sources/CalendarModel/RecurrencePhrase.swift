/// A recurrence said in words, `every …`, as RFC 5545 RRULE text, for
/// `--repeat` and `chime rrule` beside the command line's single words
/// (`workdays`, `weekly`). Text, not a rule: what it makes is read by
/// `RecurrenceRule(rfc5545:)` like any other rule, so a phrase can never
/// make a rule the parser would refuse unnoticed (the rrule fuzz target
/// checks that it never makes one at all).
///
/// | phrase | rule |
/// |---|---|
/// | `every day`, `every 2 days`, `every other day` | `FREQ=DAILY`, `;INTERVAL=2` |
/// | `every week`, `every month`, `every year`, `every 3 months` | the same for weeks, months, years |
/// | `every hour`, `every 30 minutes` | `FREQ=HOURLY`, `FREQ=MINUTELY;INTERVAL=30` |
/// | `every monday`, `every mon, wed and fri`, `every tuesdays` | `FREQ=WEEKLY;BYDAY=MO,WE,FR` |
/// | `every other friday`, `every 2 weeks on mon and thu` | `FREQ=WEEKLY;INTERVAL=2;BYDAY=…` |
/// | `every weekday`, `every weekend` | `FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR` (holidays or not), `…;BYDAY=SA,SU` |
/// | `every workday` | `FREQ=DAILY;X-WORKDAY=SKIP`, Chime's workday calendar |
/// | `every first monday`, `every last friday`, `every 2nd tue` | `FREQ=MONTHLY;BYDAY=1MO`, `-1FR`, `2TU` |
/// | `every month on the 15th`, `… on the 1st and 15th`, `… on the last day` | `FREQ=MONTHLY;BYMONTHDAY=15`, `1,15`, `-1` |
/// | `every month on the last friday` | `FREQ=MONTHLY;BYDAY=-1FR` |
/// | `every dec 24`, `every year on 24th december` | `FREQ=YEARLY;BYMONTHDAY=24;BYMONTH=12` |
/// | `every 4th thursday of november`, `every year on the last monday of may` | `FREQ=YEARLY;BYDAY=4TH;BYMONTH=11`, `-1MO`, `5` |
/// | `every lunar year`, `every lunar month` | `RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD`, `…MONTHLY…`: on the start's Chinese date |
/// | `every lunar year on 8/15`, `… on leap 4/8`, `… on the last day` | `RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15`, `BYMONTH=4L;…`, `BYMONTH=12;BYMONTHDAY=-1` |
/// | `every lunar month on the 1st and 15th` | `RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=1,15` |
/// | any of them and `10 times`, `for 10 times` | `;COUNT=10` |
/// | any of them and `until dec 31`, `until 2027-06-30 17:00` | `;UNTIL=…`, read by the caller (`Reading.until`) |
///
/// A lunar rule whose day may be missing from a month or year (the start's
/// own date, a 30th, a leap month) has SKIP=BACKWARD: a birthday on 三十 is
/// kept on 廿九 in a short month, one in 闰四月 in 四月 in a year without it,
/// as people keep them.
///
/// Words may be in any case; commas and `and` between days are the same.
/// Chinese phrases (`每个工作日`, `每周一三五`, `每月最后一个周五`) are read as
/// the English one that says the same (`english(_:)`).
/// The phrase's time of day, and its first occurrence, come from the
/// item's start or due time (`chime rrule --start`), as with any rule.
public enum RecurrencePhrase {
    /// What was wrong with a phrase, as the command line says it after the text.
    public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// What a phrase says: RRULE text without its end date, and the words
    /// of an `until WHEN` ending, which only the caller can read (the
    /// UNTIL's form follows the series' start, and WHEN is read on a wall
    /// clock at a time: see `RecurrenceRule.Until`).
    public struct Reading: Hashable, Sendable {
        public var rule: String
        public var until: String?

        public init(rule: String, until: String? = nil) {
            self.rule = rule
            self.until = until
        }
    }

    /// RRULE text for a phrase that starts with `every` and has no `until`
    /// ending; nil for any other text.
    public static func rule(_ text: String) throws(Refusal) -> String? {
        guard let reading = try read(text) else { return nil }
        if reading.until != nil { throw Refusal("'until' needs the series' start to be read against") }
        return reading.rule
    }

    /// What a phrase that starts with `every` says; nil for any other text.
    public static func read(_ text: String) throws(Refusal) -> Reading? {
        // Not an `every …` phrase whose `until` is in Chinese.
        if ChineseTimeWords.applies(to: text), let english = try english(text) { return try read(english) }
        var words = text.lowercased().split { $0.isWhitespace || $0 == "," }.filter { $0 != "and" }
        guard words.first == "every" else { return nil }
        words.removeFirst()
        var until: String?
        if let index = words.firstIndex(of: "until") {
            guard index + 1 < words.count else { throw Refusal("'until' needs a day after it, as in 'every day until dec 31'") }
            until = words[(index + 1)...].joined(separator: " ")
            words.removeSubrange(index...)
        }
        var count: Int?
        // An ending, `10 times` or `for 10 times`, off the back first.
        if words.last == "times" || words.last == "time" {
            guard words.count >= 2, let times = RecurrenceRule.integer(words[words.count - 2], signed: false), times > 0 else {
                throw Refusal("'times' needs a count before it, as in 'every day 10 times'")
            }
            words.removeLast(2)
            if words.last == "for" { words.removeLast() }
            count = times
        }
        if count != nil && until != nil { throw Refusal("give '… times' or 'until …', not both") }
        guard !words.isEmpty else { throw Refusal("say what repeats after 'every', as in 'every day' or 'every monday'") }
        var parts = try body(words[...])
        // In the order RecurrenceRule prints: FREQ, the end, the rest.
        if let count { parts.insert("COUNT=\(count)", at: (parts.firstIndex { $0.hasPrefix("FREQ=") } ?? 0) + 1) }
        return Reading(rule: parts.joined(separator: ";"), until: until)
    }

    /// The first day on or after `date` that a rule a phrase made falls
    /// on: a phrase names its days (`every monday`, `every last friday`,
    /// `every month on the 15th`), and a series made of one starts on such
    /// a day rather than on whatever day it was given, where RFC 5545 would
    /// make that day an occurrence too. `date` itself for a rule whose days
    /// follow its start (`every week`), and when none is found within a
    /// eight years (a phrase's days always come sooner; 29 February, the
    /// rarest, within eight).
    public static func firstDay(of rule: RecurrenceRule, onOrAfter date: CivilDate) -> CivilDate {
        let weekdays = rule.daysOfTheWeek, monthDays = rule.daysOfTheMonth, months = rule.monthsOfTheYear
        guard !weekdays.isEmpty || !monthDays.isEmpty else { return date }
        // A Chinese-calendar rule's days are the engine's to find (`RuleShorthand.firstDay`).
        guard rule.scale == .gregorian else { return date }
        func falls(on day: CivilDate) -> Bool {
            // A position counts within the month: phrases make no yearly one without BYMONTH.
            if !months.isEmpty, !months.contains(day.month) { return false }
            let length = CivilDate.daysInMonth(year: day.year, month: day.month)
            let weekday = weekdays.contains { entry in
                guard entry.weekday == day.weekday else { return false }
                switch entry.position {
                case 0: return true
                case let position where position > 0: return (day.day - 1) / 7 + 1 == position
                case let position: return (length - day.day) / 7 + 1 == -position
                }
            }
            let monthDay = monthDays.contains { $0 > 0 ? $0 == day.day : length + $0 + 1 == day.day }
            return weekday || monthDay
        }
        for offset in 0...(8 * 366) where falls(on: date.adding(days: offset)) { return date.adding(days: offset) }
        return date
    }

    private static let frequencies: [String: String] = [
        "minute": "MINUTELY", "minutes": "MINUTELY", "hour": "HOURLY", "hours": "HOURLY",
        "day": "DAILY", "days": "DAILY", "week": "WEEKLY", "weeks": "WEEKLY",
        "month": "MONTHLY", "months": "MONTHLY", "year": "YEARLY", "years": "YEARLY",
    ]

    private static let ordinals: [String: Int] = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1,
        "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
    ]

    /// The parts of everything between `every` and the ending.
    private static func body(_ words: ArraySlice<Substring>) throws(Refusal) -> [String] {
        var words = words
        switch words.first {
        case "weekday", "weekdays":
            try expectEnd(words.dropFirst())
            return ["FREQ=WEEKLY", "BYDAY=MO,TU,WE,TH,FR"]
        case "workday", "workdays":
            try expectEnd(words.dropFirst())
            return ["FREQ=DAILY", "X-WORKDAY=SKIP"]
        case "weekend", "weekends":
            try expectEnd(words.dropFirst())
            return ["FREQ=WEEKLY", "BYDAY=SA,SU"]
        default: break
        }
        if words.first == "lunar" { return try lunar(words.dropFirst()) }
        // `every dec 24`, `every 4th thursday of november`, before `24` can be taken for an interval.
        if let date = try yearDay(words) { return ["FREQ=YEARLY"] + date }
        var interval = 1
        if words.first == "other" {
            interval = 2
            words.removeFirst()
        } else if let first = words.first, !first.isEmpty, first.allSatisfy({ $0.isASCII && $0.isWholeNumber }) {
            guard let number = RecurrenceRule.integer(first, signed: false), number > 0 else {
                throw Refusal("the interval must be a whole number from 1 to 18 digits, not \(first)")
            }
            interval = number
            words.removeFirst()
        }
        let intervalPart = interval == 1 ? [] : ["INTERVAL=\(interval)"]
        guard let first = words.first else { throw Refusal("say what repeats every \(interval), as in 'every \(interval) days'") }
        // `every first monday`: a weekday of the month.
        if let position = ordinals[String(first)], interval == 1 {
            return ["FREQ=MONTHLY", "BYDAY=" + (try positionedDay(position, words.dropFirst()))]
        }
        // `every monday and thursday`: weekly on those days.
        if Self.weekday(first) != nil {
            return ["FREQ=WEEKLY"] + intervalPart + ["BYDAY=" + (try days(words))]
        }
        guard let frequency = frequencies[String(first)] else {
            throw Refusal("'\(first)' is not a unit (day, week, month, year, hour, minute) or a weekday"
                + Suggestion.hint(for: String(first), among: ["day", "week", "month", "year", "hour", "minute", "weekday", "workday"]))
        }
        var parts = ["FREQ=\(frequency)"] + intervalPart
        let rest = words.dropFirst()
        guard let on = rest.first else { return parts }
        if on == "at" { throw atRefusal }
        guard on == "on" else { throw Refusal("'\(on)' after '\(first)': expected 'on' or the end, as in 'every week on monday'") }
        var what = rest.dropFirst()
        if what.first == "the" { what = what.dropFirst() }
        switch frequency {
        case "WEEKLY":
            parts.append("BYDAY=" + (try days(what)))
        case "MONTHLY":
            parts.append(try monthly(what))
        case "YEARLY":
            guard let date = try yearDay(what) else {
                throw Refusal("'on' after '\(first)' needs a date or a weekday of a month, as in 'every year on dec 24' "
                    + "or 'every year on the 4th thursday of november'")
            }
            parts += date
        default:
            throw Refusal("'on' goes with weeks (on monday), months (on the 15th) and years (on dec 24), not \(first)")
        }
        return parts
    }

    /// What follows `every lunar`: a year or a month of the Chinese calendar.
    private static func lunar(_ words: ArraySlice<Substring>) throws(Refusal) -> [String] {
        let usage = "'lunar' goes with year or month, as in 'every lunar year', 'every lunar year on 8/15' or 'every lunar month on the 1st and 15th'"
        guard let unit = words.first.map(String.init), let frequency = ["year": "YEARLY", "years": "YEARLY", "month": "MONTHLY", "months": "MONTHLY"][unit] else {
            throw Refusal(usage)
        }
        let scale = ["RSCALE=CHINESE", "FREQ=\(frequency)"]
        var rest = words.dropFirst()
        // The start's own date may be a 30th or in a leap month.
        guard let on = rest.first else { return scale + ["SKIP=BACKWARD"] }
        if on == "at" { throw atRefusal }
        guard on == "on" else { throw Refusal(usage) }
        rest = rest.dropFirst()
        if rest.first == "the" { rest = rest.dropFirst() }
        if frequency == "MONTHLY" {
            let days = try monthly(rest)
            guard days.hasPrefix("BYMONTHDAY=") else { throw Refusal("a lunar month's days are numbered (the 1st, the 15th), not weekdays") }
            return scale + [days] + (days.split(separator: "=")[1].split(separator: ",").contains("30") ? ["SKIP=BACKWARD"] : [])
        }
        // In the order RecurrenceRule prints: BYMONTHDAY, BYMONTH, SKIP.
        if rest.elementsEqual(["last", "day"]) { return scale + ["BYMONTHDAY=-1", "BYMONTH=12"] }
        let leap = rest.first == "leap"
        if leap { rest = rest.dropFirst() }
        let numbers = rest.count == 1 ? rest.first!.split(separator: "/").map { Int($0) } : []
        guard numbers.count == 2, let month = numbers[0], let day = numbers[1], (1...12).contains(month), (1...30).contains(day) else {
            throw Refusal("a lunar date is month/day, as in 'every lunar year on 8/15' or 'on leap 4/8' (months 1–12, days 1–30)")
        }
        return scale + ["BYMONTHDAY=\(day)", "BYMONTH=\(month)\(leap ? "L" : "")"] + (leap || day == 30 ? ["SKIP=BACKWARD"] : [])
    }

    /// `dec 24`, `24th december`, `4th thursday of november`, `last monday
    /// of may`: the BYMONTHDAY or BYDAY and the BYMONTH of a yearly rule;
    /// nil when the words are neither.
    private static func yearDay(_ words: ArraySlice<Substring>) throws(Refusal) -> [String]? {
        let words = Array(words)
        if words.count == 2, let (month, day) = TimeExpression.monthAndDay(words[0], words[1]) {
            let longest = CivilDate.daysInMonth(year: 2000, month: month)
            guard (1...longest).contains(day) else {
                throw Refusal("\(TimeExpression.monthNames[month - 1]) has no day \(day) (it has \(longest))")
            }
            return ["BYMONTHDAY=\(day)", "BYMONTH=\(month)"]
        }
        if words.count == 4, let position = ordinals[String(words[0])], let day = weekday(words[1]), words[2] == "of",
           let month = TimeExpression.months[String(words[3])] {
            return ["BYDAY=\(position)\(day.code)", "BYMONTH=\(month)"]
        }
        return nil
    }

    /// `on the 15th`, `on the 1st and 15th`, `on the last day`, `on the first monday`.
    private static func monthly(_ words: ArraySlice<Substring>) throws(Refusal) -> String {
        guard let first = words.first else { throw Refusal("'on' needs days after it, as in 'every month on the 15th'") }
        if let position = ordinals[String(first)], let next = words.dropFirst().first, next != "day", weekday(next) != nil {
            return "BYDAY=" + (try positionedDay(position, words.dropFirst()))
        }
        var days: [Int] = []
        for word in words {
            if word == "day" || word == "days" { continue }
            if word == "last" {
                days.append(-1)
                continue
            }
            guard let day = TimeExpression.dayNumber(word), (1...31).contains(day) else {
                throw Refusal("'\(word)' is not a day of the month (1st … 31st, or last day)")
            }
            days.append(day)
        }
        guard !days.isEmpty else { throw Refusal("'on' needs days after it, as in 'every month on the 15th'") }
        return "BYMONTHDAY=" + days.map(String.init).joined(separator: ",")
    }

    /// `monday` after an ordinal: `1MO`, `-1FR`.
    private static func positionedDay(_ position: Int, _ words: ArraySlice<Substring>) throws(Refusal) -> String {
        if words.dropFirst().first == "at" { throw atRefusal }
        guard words.count == 1, let day = weekday(words[words.startIndex]) else {
            throw Refusal("expected one weekday after the position, as in 'every first monday' or 'every last friday'")
        }
        return "\(position)\(day.code)"
    }

    /// Weekdays, `mon wed fri` (commas and `and` already gone), in the order given, each once.
    private static func days(_ words: ArraySlice<Substring>) throws(Refusal) -> String {
        var days: [Weekday] = []
        for word in words {
            if word == "at" { throw atRefusal }
            guard let day = weekday(word) else {
                throw Refusal("'\(word)' is not a weekday (monday … sunday, or mon … sun)")
            }
            if !days.contains(day) { days.append(day) }
        }
        guard !days.isEmpty else { throw Refusal("'on' needs weekdays after it, as in 'every week on monday'") }
        return days.map(\.code).joined(separator: ",")
    }

    /// A weekday's name, also in the plural (`mondays`).
    private static func weekday(_ word: Substring) -> Weekday? {
        Weekday(name: word) ?? (word.hasSuffix("s") ? Weekday(name: word.dropLast()) : nil)
    }

    private static func expectEnd(_ words: ArraySlice<Substring>) throws(Refusal) {
        if words.first == "at" { throw atRefusal }
        if let word = words.first { throw Refusal("'\(word)': nothing may follow here but an ending such as '10 times'") }
    }

    /// `every day at 9am`: the rule repeats the start's time of day.
    private static let atRefusal = Refusal("the time of day comes from the start or due time, not the rule: "
        + "--due 'mon 9am' --repeat 'every monday'")
}
