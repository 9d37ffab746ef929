/// Chinese words for a time, as people type them, without spaces or with:
/// `明天9点`, `明天上午9点半`, `下周一 8:50`, `后天下午3点`, `12月24日`,
/// `2027年1月4日 9点`, `周五晚上8点`, `中午`, `10分钟后`, `半小时后`, `3天前`.
/// Each is turned into the words `TimeExpression` reads (`tomorrow 09:30`,
/// `2026-12-14 08:50`, `in 10 minutes`), so that the one grammar decides
/// what a day and a time mean together.
///
/// | words | meaning |
/// |---|---|
/// | `今天` `明天` `后天` `大后天` `昨天` `前天` | today, and 1, 2, 3 days on or 1, 2 back |
/// | `周五`, `星期五`, `礼拜五` (`日`, `天` for Sunday) | the next such day, never today |
/// | `这周五`, `本周五` / `下周五`, `下下周五` / `上周五` | that day of this, the next, the one after, the last calendar week (Monday first) |
/// | `12月24日`, `12月24号`, `2027年12月24日`, `今年`/`明年`/`后年`/`去年1月4日` | that date; with no year, the next from today on |
/// | `9点`, `9时`, `9点半`, `9点15分`, `9点15`, `9点一刻`, `9点三刻`, `8:50` | a time of day (24-hour) |
/// | `凌晨` `早上` `早晨` `上午` before a time | before noon (`凌晨12点` is 00:00) |
/// | `中午` `下午` `傍晚` `晚上` `夜里` before a time | after noon (`中午12点` is 12:00); `中午` alone is 12:00 |
/// | `10分钟后`, `2小时后`, `半小时后`, `3天后`, `1周后` / `…前` | a time from now, or before it |
///
/// Numbers may be written in digits or in Chinese (`九点`, `十二月二十四日`,
/// `两小时后`); traditional characters (`後天兩點`) and full-width digits
/// (`８：５０`) read as the simplified words and ASCII.
enum ChineseTimeWords {
    typealias Refusal = TimeExpressionRefusal

    /// Whether `text` holds a Chinese character, so that it is read here first.
    static func applies(to text: String) -> Bool {
        text.unicodeScalars.contains { (0x3000...0x9FFF).contains($0.value) || (0xFF01...0xFF5E).contains($0.value) }
    }

    /// `text` in the words `TimeExpression` reads, read on the day `today`.
    static func translated(_ text: String, today: CivilDate) throws(Refusal) -> String {
        var scanner = Scanner(Array(normalized(text)), today: today)
        return try scanner.translate()
    }

    /// The traditional characters of these words as their simplified ones
    /// (`後天`, `兩點`, `週五`, `每個`), full-width letters, digits and signs
    /// as ASCII (`８：５０`), and the ideographic space as a space, so that
    /// one set of words serves.
    static func normalized(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0xFF01...0xFF5E).contains(scalar.value), let ascii = Unicode.Scalar(scalar.value - 0xFEE0) {
                scalars.append(ascii)
            } else if scalar.value == 0x3000 {
                scalars.append(" ")
            } else {
                scalars.append(simplified[scalar] ?? scalar)
            }
        }
        return String(scalars)
    }

    private static let simplified: [Unicode.Scalar: Unicode.Scalar] = [
        "後": "后", "兩": "两", "點": "点", "時": "时", "週": "周", "號": "号", "個": "个", "鐘": "钟", "頭": "头",
        "禮": "礼", "裡": "里", "為": "为", "淩": "凌"
    ]

    /// Units after a number, longest spelling first, as the English word
    /// `DurationExpression` and `RecurrencePhrase` read (`hour`; a time from
    /// now takes the plural). Months and years are there for rules; a time
    /// from now refuses them as in English.
    static let units: [(String, String)] = [("个小时", "hour"), ("小时", "hour"), ("个钟头", "hour"), ("钟头", "hour"),
                                            ("分钟", "minute"), ("分", "minute"), ("秒钟", "second"), ("秒", "second"),
                                            ("个星期", "week"), ("星期", "week"), ("礼拜", "week"), ("周", "week"),
                                            ("个月", "month"), ("月", "month"), ("年", "year"), ("天", "day"), ("日", "day")]

    /// The day after `周`, `星期` or `礼拜`.
    static let weekdayNames: [Character: Weekday] = ["一": .monday, "二": .tuesday, "三": .wednesday, "四": .thursday,
                                                     "五": .friday, "六": .saturday, "日": .sunday, "天": .sunday]

    /// Chinese digits; `十` makes tens (see `Scanner.number`).
    static let digits: [Character: Int] = ["零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
                                           "七": 7, "八": 8, "九": 9]

    /// The number at the start of `text` (digits, or Chinese up to 99), taken
    /// off it; nil, with nothing taken, when none starts there.
    static func takeNumber(_ text: inout Substring) -> Int? {
        var scanner = Scanner(Array(text), today: CivilDate(dayNumber: 0))
        guard let number = scanner.number() else { return nil }
        text = text.dropFirst(scanner.index)
        return number
    }

    private struct Scanner {
        let characters: [Character]
        let today: CivilDate
        var index = 0
        var words: [String] = []
        /// Whether a time of day set after noon (true) or before it (false) waits for its clock.
        var partOfDay: (word: String, afterNoon: Bool)?

        init(_ characters: [Character], today: CivilDate) {
            self.characters = characters
            self.today = today
        }

        static let dayWords: [(String, Int)] = [("大后天", 3), ("后天", 2), ("明天", 1), ("明日", 1), ("今天", 0), ("今日", 0),
                                                 ("昨天", -1), ("昨日", -1), ("前天", -2)]
        static let partsOfDay: [(String, Bool)] = [("凌晨", false), ("早上", false), ("早晨", false), ("上午", false),
                                                   ("中午", true), ("下午", true), ("傍晚", true), ("晚上", true), ("夜里", true)]

        mutating func translate() throws(Refusal) -> String {
            if let relative = try relative() { return relative }
            while index < characters.count {
                let character = characters[index]
                if character.isWhitespace {
                    index += 1
                } else if character.isASCII, !startsChineseNumber() {
                    try ascii()
                } else {
                    try chinese()
                }
            }
            if let part = partOfDay {
                guard part.word == "中午" else { throw Refusal("'\(part.word)' needs a time after it, as in '\(part.word)3点'") }
                words.append("12:00")
            }
            return words.joined(separator: " ")
        }

        /// The whole text as a time from now (`10分钟后`, `3天前`), or nil when it is not one.
        func relative() throws(Refusal) -> String? {
            let text = String(characters).filter { !$0.isWhitespace }
            guard let last = text.last, last == "后" || last == "前" else { return nil }
            var body = Substring(text.dropLast())
            for suffix in ["以", "之"] where body.hasSuffix(suffix) { body = body.dropLast() }
            if body == "半小时" || body == "半个小时" || body == "半个钟头" { return (last == "后" ? "in 30 minutes" : "30 minutes ago") }
            for (unit, english) in ChineseTimeWords.units where body.hasSuffix(unit) {
                var amount = body.dropLast(unit.count)
                guard let number = ChineseTimeWords.takeNumber(&amount), amount.isEmpty else {
                    throw Refusal("'\(body.dropLast(unit.count))' is not a number of \(english)s")
                }
                return last == "后" ? "in \(number) \(english)s" : "\(number) \(english)s ago"
            }
            return nil
        }

        /// Whether digits here run into a Chinese word (`12月`, `9点`, `2027年`), which reads them.
        func startsChineseNumber() -> Bool {
            var end = index
            while end < characters.count, characters[end].isASCII, characters[end].isWholeNumber { end += 1 }
            return end > index && end < characters.count && !characters[end].isASCII && !characters[end].isWhitespace
        }

        /// A run of ASCII, as it is; after a part of the day, a clock `3:30` is moved past noon.
        mutating func ascii() throws(Refusal) {
            let start = index
            while index < characters.count, characters[index].isASCII, !characters[index].isWhitespace { index += 1 }
            let word = String(characters[start..<index])
            if let part = partOfDay, let colon = word.firstIndex(of: ":"), let hour = Int(word[..<colon]) {
                partOfDay = nil
                words.append(try Self.clock(hour: hour, rest: String(word[colon...]), part: part))
            } else {
                words.append(word)
            }
        }

        mutating func chinese() throws(Refusal) {
            if partOfDay == nil, let (word, afterNoon) = take(Self.partsOfDay) {
                partOfDay = (word, afterNoon)
                return
            }
            if let (_, days) = take(Self.dayWords) {
                words.append(today.adding(days: days).description)
                return
            }
            if let date = weekday() {
                words.append(date.description)
                return
            }
            if let date = try lunarDate() {
                words.append(date.description)
                return
            }
            if let date = try monthDay() {
                words.append(date.description)
                return
            }
            let start = index
            if let hour = number() {
                if let clock = try clock(hour: hour) {
                    words.append(clock)
                    return
                }
                index = start
            }
            var end = index + 1
            while end < characters.count, !characters[end].isASCII, !characters[end].isWhitespace { end += 1 }
            throw Refusal("'\(String(characters[index..<end]))' is not a day or a time of day")
        }

        /// `周五`, `星期五`, `礼拜五`, after `这`/`本`, `下`, `下下` or `上`.
        mutating func weekday() -> CivilDate? {
            let start = index
            var weeks: Int?
            if let (_, ahead) = take([("下下", 2), ("下", 1), ("上", -1), ("这", 0), ("本", 0)]) { weeks = ahead }
            guard take([("星期", 0), ("礼拜", 0), ("周", 0)]) != nil, index < characters.count,
                  let weekday = ChineseTimeWords.weekdayNames[characters[index]] else {
                index = start
                return nil
            }
            index += 1
            guard let weeks else {
                // 1…7 days ahead: the same weekday as today is a week away.
                return today.adding(days: (weekday.rawValue - today.weekday.rawValue + 6) % 7 + 1)
            }
            // Calendar weeks from Monday, as a Chinese calendar shows them.
            let sinceMonday = { (day: Weekday) in (day.rawValue + 6) % 7 }
            return today.adding(days: 7 * weeks + sinceMonday(weekday) - sinceMonday(today.weekday))
        }

        /// `农历八月十五`, `阴历闰四月初八`, `农历腊月廿九`: the next such day from today on.
        mutating func lunarDate() throws(Refusal) -> CivilDate? {
            guard take([("农历", 0), ("阴历", 0)]) != nil else { return nil }
            var rest = Substring(String(characters[index...]))
            let length = rest.count
            guard let (month, leap, day) = ChineseDate.takeMonthAndDay(&rest) else {
                throw Refusal("'农历' needs a month and a day after it, as in '农历八月十五' or '农历闰四月初八'")
            }
            index += length - rest.count
            let name = "农历" + ChineseDate.monthName(month, leap: leap) + ChineseDate.dayName(day)
            guard day <= 30, let thisYear = ChineseCalendar.date(of: today)?.year else {
                throw Refusal("\(name) is outside the Chinese calendar Chime knows (\(ChineseCalendar.firstYear)–\(ChineseCalendar.lastYear))")
            }
            for year in thisYear...ChineseCalendar.lastYear {
                if let date = ChineseCalendar.civilDate(of: ChineseDate(year: year, month: month, isLeapMonth: leap, day: day)), date >= today {
                    return date
                }
            }
            throw Refusal("\(name) falls on no day from today to \(ChineseCalendar.lastYear)")
        }

        /// `12月24日`, `12月24号`, `2027年12月24日`, `明年1月4日`: with no year, the next such date from today on.
        mutating func monthDay() throws(Refusal) -> CivilDate? {
            let start = index
            var year: Int?
            if let (_, years) = take([("今年", 0), ("明年", 1), ("后年", 2), ("去年", -1)]) {
                year = today.year + years
            } else if let number = number(digitByDigit: true), take([("年", 0)]) != nil {
                year = number
            } else {
                index = start
            }
            let monthStart = index
            guard let month = number(), take([("月", 0)]) != nil else {
                index = start
                if year != nil { throw Refusal("a year needs a month and a day after it, as in '2027年1月4日'") }
                return nil
            }
            guard let day = number(), take([("日", 0), ("号", 0)]) != nil else {
                throw Refusal("'\(String(characters[monthStart..<index]))' needs a day after it, as in '12月24日'")
            }
            guard (1...12).contains(month) else { throw Refusal("there is no month \(month)") }
            if let year {
                guard let date = CivilDate(year: year, month: month, day: day) else { throw Refusal("\(year)年\(month)月 has no day \(day)") }
                return date
            }
            for year in today.year...(today.year + 8) {
                if let date = CivilDate(year: year, month: month, day: day), date >= today { return date }
            }
            throw Refusal("\(month)月 has no day \(day)")
        }

        /// After an hour: `点`/`时` and the minutes (`半`, `一刻`, `三刻`, `15分`, `15`), as `HH:MM`; nil when no `点` follows.
        mutating func clock(hour: Int) throws(Refusal) -> String? {
            guard take([("点", 0), ("时", 0)]) != nil else { return nil }
            var minute = 0
            if let (_, quarter) = take([("半", 30), ("一刻", 15), ("三刻", 45)]) {
                minute = quarter
            } else {
                let start = index
                if let number = number() {
                    minute = number
                    _ = take([("分", 0)])
                    guard (0...59).contains(minute) else { throw Refusal("minute \(minute) is past 59") }
                } else {
                    index = start
                }
            }
            let part = partOfDay
            partOfDay = nil
            return try Self.clock(hour: hour, rest: ":" + (minute < 10 ? "0" : "") + String(minute), part: part)
        }

        /// `hour` and its `:MM…` on the 24-hour clock, moved past noon after `下午` and the like.
        static func clock(hour: Int, rest: String, part: (word: String, afterNoon: Bool)?) throws(Refusal) -> String {
            var hour = hour
            if let part {
                guard (0...12).contains(hour) else { throw Refusal("'\(part.word)\(hour)点': hour \(hour) is past 12") }
                if part.afterNoon, hour < 12 {
                    hour += 12
                } else if part.afterNoon, part.word != "中午" {
                    throw Refusal("'\(part.word)12点' is ambiguous; write 0点 of the next day, or 中午12点")
                } else if !part.afterNoon, hour == 12, part.word == "凌晨" {
                    hour = 0
                }
            }
            guard (0...23).contains(hour) else { throw Refusal("hour \(hour) is past 23") }
            return (hour < 10 ? "0" : "") + String(hour) + rest
        }

        /// The longest of `choices` that starts here, taken.
        mutating func take<Value>(_ choices: [(String, Value)]) -> (String, Value)? {
            for (word, value) in choices {
                let word = Array(word)
                if index + word.count <= characters.count, Array(characters[index..<(index + word.count)]) == word {
                    index += word.count
                    return (String(word), value)
                }
            }
            return nil
        }


        /// A number of ASCII digits, or Chinese up to 99 (`九`, `十二`, `二十四`), or
        /// `digitByDigit` a year such as `二〇二七`; nil (nothing taken) when none starts here.
        mutating func number(digitByDigit: Bool = false) -> Int? {
            let start = index
            var value = 0
            while index < characters.count, let digit = characters[index].wholeNumberValue, characters[index].isASCII,
                  index - start < 4 {
                value = value * 10 + digit
                index += 1
            }
            if index > start { return value }
            if digitByDigit {
                while index < characters.count, let digit = ChineseTimeWords.digits[characters[index]], index - start < 4 {
                    value = value * 10 + digit
                    index += 1
                }
                if index - start == 4 { return value }
                index = start
                value = 0
            }
            var tens: Int?
            if index < characters.count, let digit = ChineseTimeWords.digits[characters[index]] {
                value = digit
                index += 1
            }
            if index < characters.count, characters[index] == "十" {
                tens = index > start ? value : 1
                index += 1
                value = 0
                if index < characters.count, let digit = ChineseTimeWords.digits[characters[index]], digit > 0 {
                    value = digit
                    index += 1
                }
            }
            guard index > start else { return nil }
            return (tens ?? 0) * 10 + value
        }
    }
}
