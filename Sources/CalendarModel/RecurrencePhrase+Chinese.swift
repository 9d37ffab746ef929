import Foundation

extension RecurrencePhrase {
    /// A recurrence said in Chinese, as the `every …` phrase that says the
    /// same; nil for text that does not start with `每` and is not `工作日`.
    /// Spaces, `、` and `，` between words are ignored.
    ///
    /// | phrase | said as |
    /// |---|---|
    /// | `每天`, `每2天`, `每周`, `每两周`, `每月`, `每个月`, `每年`, `每小时`, `每30分钟` | `every day`, `every 2 days`, … |
    /// | `每隔一天`, `每隔一周`, `每隔一个月` (every other one; `每隔两天` is refused as ambiguous) | `every 2 days`, … |
    /// | `每个工作日`, `工作日` / `每个周末` | `every workday` (Chime's workday calendar) / `every weekend` |
    /// | `每周一`, `每周一三五`, `每周一、三、五`, `每星期五`, `每周一到周五`, `每两周的周五` | `every monday`, `every mon, wed and fri`, …, `every weekday`, `every 2 weeks on fri` |
    /// | `每月15号`, `每月1号和15号`, `每月最后一天` | `every month on the 15th`, `… on the 1st and 15th`, `… on the last day` |
    /// | `每月第一个周一`, `每月最后一个周五` | `every first monday`, `every last friday` |
    /// | `每年12月24日`, `每年11月第四个周四` | `every year on dec 24`, `every year on 4th thu of nov` |
    /// | `每年农历`, `农历每年`, `每月农历` | `every lunar year`, `every lunar month` (on the start's Chinese date) |
    /// | `每年农历八月十五`, `每年农历闰四月初八`, `每年除夕` | `every lunar year on 8/15`, `… on leap 4/8`, `… on the last day` |
    /// | `每月农历初一和十五`, `每逢农历初一十五` | `every lunar month on the 1st and 15th` |
    /// | any of them and `共10次` or `10次` / `直到12月31日` | `10 times` / `until 12月31日` (read as any WHEN) |
    static func english(_ chinese: String) throws(Refusal) -> String? {
        var text = Substring(ChineseTimeWords.normalized(chinese).filter { !$0.isWhitespace && $0 != "、" && $0 != "，" && $0 != "," })
        if text.hasSuffix("。") { text = text.dropLast() }
        // `农历每年` is `每年农历`.
        for calendar in ["农历", "阴历"] where text.hasPrefix(calendar + "每") {
            let unit = text.dropFirst(3).prefix(1)
            text = "每" + unit + "农历" + text.dropFirst(4)
        }
        guard text.hasPrefix("每") || text.hasPrefix("工作日") else { return nil }
        if text.hasPrefix("每个") { text = text.dropFirst(2) } else if text.hasPrefix("每") { text = text.dropFirst() }
        var ending = ""
        if let until = endWord(in: text) {
            var when = text[until.upperBound...]
            if when.hasSuffix("为止") { when = when.dropLast(2) }
            ending = " until " + when
            text = text[..<until.lowerBound]
        } else if text.hasSuffix("次") {
            var body = text.dropLast()
            var digits = ""
            if let total = body.range(of: "共", options: .backwards) {
                digits = String(body[total.upperBound...])
                body = body[..<total.lowerBound]
            } else {
                // Digits, or else Chinese numerals: `每周一4次` is Mondays four times.
                let inDigits = body.last?.isASCII == true
                let isDigit = { (c: Character) in
                    inDigits ? c.isASCII && c.isWholeNumber : ChineseTimeWords.digits[c] != nil || c == "十"
                }
                while let last = body.last, isDigit(last) {
                    digits = String(last) + digits
                    body = body.dropLast()
                }
            }
            var count = Substring(digits)
            guard let times = ChineseTimeWords.takeNumber(&count), count.isEmpty else {
                throw Refusal("'次' needs a count before it, as in '每天共10次'")
            }
            ending = " \(times) times"
            text = body
        }
        return "every " + (try body(text)) + ending
    }

    /// Where the end of the series is said: `直到`, or the first `到` that is
    /// not a run of days (`每周一到周五到12月31日为止` ends at the second).
    private static func endWord(in text: Substring) -> Range<Substring.Index>? {
        if let until = text.range(of: "直到") { return until }
        var from = text.startIndex
        while let word = text[from...].range(of: "到") {
            guard let next = text[word.upperBound...].first else { return nil }
            if ChineseTimeWords.weekdayNames[next] == nil, next != "周", next != "星" { return word }
            from = word.upperBound
        }
        return nil
    }

    /// The English abbreviation `Weekday(name:)` reads back.
    private static func english(_ day: Weekday) -> String {
        ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][day.rawValue]
    }

    /// What follows `每`, in English words.
    private static func body(_ text: Substring) throws(Refusal) -> String {
        switch text {
        case "工作日", "个工作日": return "workday"
        case "周末", "个周末": return "weekend"
        case "": throw Refusal("say what repeats after '每', as in '每天' or '每周一'")
        default: break
        }
        if let lunar = try lunar(text) { return lunar }
        var rest = text
        var interval = ChineseTimeWords.takeNumber(&rest)
        // `每隔一天` is every other day. `每隔两天` is read as every second day
        // by some and every third by others, so it is refused.
        if interval == nil, rest.hasPrefix("隔") {
            rest = rest.dropFirst()
            let skipped = ChineseTimeWords.takeNumber(&rest)
            guard skipped == 1 else {
                throw Refusal("'每\(text)' is read two ways (every second or every third); write the interval, as in 每2天 or 每3天")
            }
            interval = 2
        }
        if rest.hasPrefix("个") { rest = rest.dropFirst() }
        // `每周一…`: weekly on those days, with no number between.
        if interval == nil, let after = afterWeekWord(rest), let days = try days(after) { return days }
        guard let (word, unit) = ChineseTimeWords.units.first(where: { rest.hasPrefix($0.0) }) else {
            throw Refusal("'\(text)' is not a unit (天, 周, 月, 年, 小时, 分钟), a weekday (周一) or 工作日")
        }
        rest = rest.dropFirst(word.count)
        let every = interval.map { $0 == 1 ? unit : "\($0) \(unit)s" } ?? unit
        if rest.hasPrefix("的") { rest = rest.dropFirst() }
        guard !rest.isEmpty else { return every }
        switch unit {
        case "week":
            if let days = try days(afterWeekWord(rest) ?? rest) { return "\(every) on \(days)" }
            throw Refusal("'\(rest)' is not a weekday (一 … 日)")
        case "month":
            if interval == nil, let positioned = try positionedWeekday(rest) { return positioned }
            return "\(every) on the " + (try monthDays(rest))
        case "year":
            return "\(every) on " + (try yearDay(rest))
        default: break
        }
        throw Refusal("'\(rest)' after '\(word)' is not understood")
    }

    /// `年农历八月十五`, `年除夕`, `月农历初一和十五`, `逢农历初一十五` after `每`:
    /// `lunar year on 8/15`, …; nil when `text` names no lunar date.
    private static func lunar(_ text: Substring) throws(Refusal) -> String? {
        if text == "年除夕" { return "lunar year on the last day" }
        var rest = text
        let unit: String
        if rest.hasPrefix("年") {
            unit = "year"
        } else if rest.hasPrefix("月") || rest.hasPrefix("逢") {
            unit = "month"
        } else {
            return nil
        }
        rest = rest.dropFirst()
        guard rest.hasPrefix("农历") || rest.hasPrefix("阴历") else { return nil }
        rest = rest.dropFirst(2)
        if rest.isEmpty { return "lunar \(unit)" }
        if unit == "year" {
            guard let (month, leap, day) = ChineseDate.takeMonthAndDay(&rest), rest.isEmpty else {
                throw Refusal("'\(text.dropFirst(3))' is not a month and day of the Chinese calendar, as in '每年农历八月十五'")
            }
            return "lunar year on \(leap ? "leap " : "")\(month)/\(day)"
        }
        var days: [Int] = []
        while !rest.isEmpty {
            if rest.hasPrefix("和") || rest.hasPrefix("及") {
                rest = rest.dropFirst()
            } else if let day = ChineseDate.takeDay(&rest) {
                days.append(day)
                if rest.hasPrefix("日") || rest.hasPrefix("号") { rest = rest.dropFirst() }
            } else {
                throw Refusal("'\(rest)' is not a day of a Chinese month (初一, 十五, 廿九, 三十)")
            }
        }
        return "lunar month on the " + days.map(String.init).joined(separator: " and ")
    }

    /// `text` after the `周`, `星期` or `礼拜` it starts with; nil when it starts with none.
    private static func afterWeekWord(_ text: Substring) -> Substring? {
        for word in ["星期", "礼拜", "周"] where text.hasPrefix(word) { return text.dropFirst(word.count) }
        return nil
    }

    /// `一三五`, `一到五`, `一至周五` after `周`: `mon, wed and fri`; nil when no weekday starts `text`.
    private static func days(_ text: Substring) throws(Refusal) -> String? {
        guard let first = text.first, ChineseTimeWords.weekdayNames[first] != nil else { return nil }
        // A run of days counts from Monday, as a Chinese week does.
        let sinceMonday = { (day: Weekday) in (day.rawValue + 6) % 7 }
        var days: [Weekday] = []
        var rest = text
        while let character = rest.first {
            if let day = ChineseTimeWords.weekdayNames[character] {
                days.append(day)
                rest = rest.dropFirst()
            } else if character == "到" || character == "至", let from = days.last {
                rest = afterWeekWord(rest.dropFirst()) ?? rest.dropFirst()
                guard let last = rest.first, let to = ChineseTimeWords.weekdayNames[last] else {
                    throw Refusal("'\(character)' needs a weekday after it, as in '周一到周五'")
                }
                rest = rest.dropFirst()
                guard sinceMonday(from) < sinceMonday(to) else {
                    throw Refusal("'\(english(from))' to '\(english(to))' runs backwards; write 周一到周五")
                }
                days += (sinceMonday(from) + 1...sinceMonday(to)).map { Weekday(rawValue: ($0 + 1) % 7)! }
            } else if character == "和" || character == "及" {
                rest = rest.dropFirst()
            } else if let after = afterWeekWord(rest) {
                rest = after
            } else {
                throw Refusal("'\(rest)' is not a weekday (一 … 日)")
            }
        }
        let names = days.map(english)
        return names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// `第一个周一`, `最后一个周五`, `第2个星期二` after `每月` or `每年11月`: `1st mon`; nil when it is not one.
    private static func positionedWeekday(_ text: Substring) throws(Refusal) -> String? {
        var rest = text
        let position: Int
        if rest.hasPrefix("最后一个") {
            position = -1
            rest = rest.dropFirst(4)
        } else if rest.hasPrefix("第") {
            rest = rest.dropFirst()
            guard let number = ChineseTimeWords.takeNumber(&rest), (1...5).contains(number) else {
                throw Refusal("'\(text)': 第 needs 1 to 5 after it, as in '第一个周一'")
            }
            position = number
            if rest.hasPrefix("个") { rest = rest.dropFirst() }
        } else {
            return nil
        }
        rest = afterWeekWord(rest) ?? rest
        guard rest.count == 1, let day = rest.first.flatMap({ ChineseTimeWords.weekdayNames[$0] }) else {
            throw Refusal("'\(text)' needs one weekday after the position, as in '第一个周一'")
        }
        let ordinal = position == -1 ? "last" : ["1st", "2nd", "3rd", "4th", "5th"][position - 1]
        return "\(ordinal) \(english(day))"
    }

    /// `12月24日`, `12月24号`, `11月第四个周四`, `5月最后一个周一` after `每年`: `dec 24`, `4th thu of nov`.
    private static func yearDay(_ text: Substring) throws(Refusal) -> String {
        var rest = text
        guard let month = ChineseTimeWords.takeNumber(&rest), rest.hasPrefix("月"), (1...12).contains(month) else {
            throw Refusal("'\(text)' after '年' is not a month, as in '每年12月24日' or '每年11月第四个周四'")
        }
        rest = rest.dropFirst()
        let name = TimeExpression.monthNames[month - 1].prefix(3).lowercased()
        if let positioned = try positionedWeekday(rest) { return "\(positioned) of \(name)" }
        guard let day = ChineseTimeWords.takeNumber(&rest), rest == "日" || rest == "号" else {
            throw Refusal("'\(text)' needs a day after the month, as in '每年12月24日'")
        }
        return "\(name) \(day)"
    }

    /// `15号`, `1号和15号`, `1日、15日`, `最后一天` after `每月`: `1st and 15th`, `last day`.
    private static func monthDays(_ text: Substring) throws(Refusal) -> String {
        var rest = text
        var days: [String] = []
        while !rest.isEmpty {
            if rest.hasPrefix("最后一天") {
                days.append("last day")
                rest = rest.dropFirst(4)
            } else if let day = ChineseTimeWords.takeNumber(&rest) {
                guard rest.hasPrefix("号") || rest.hasPrefix("日") else { throw Refusal("'\(day)' needs 号 or 日 after it, as in '每月15号'") }
                rest = rest.dropFirst()
                days.append(String(day))
            } else if rest.hasPrefix("和") || rest.hasPrefix("及") {
                rest = rest.dropFirst()
            } else {
                throw Refusal("'\(rest)' is not a day of the month (15号, 最后一天)")
            }
        }
        return days.joined(separator: " and ")
    }
}
