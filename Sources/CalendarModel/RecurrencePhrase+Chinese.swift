extension RecurrencePhrase {
    /// A recurrence said in Chinese, as the `every …` phrase that says the
    /// same; nil for text that does not start with `每` and is not `工作日`.
    /// Spaces, `、` and `，` between words are ignored.
    ///
    /// | phrase | said as |
    /// |---|---|
    /// | `每天`, `每2天`, `每周`, `每两周`, `每月`, `每个月`, `每年`, `每小时`, `每30分钟` | `every day`, `every 2 days`, … |
    /// | `每个工作日`, `工作日` / `每个周末` | `every workday` (Chime's workday calendar) / `every weekend` |
    /// | `每周一`, `每周一三五`, `每周一、三、五`, `每星期五`, `每周一到周五`, `每两周的周五` | `every monday`, `every mon, wed and fri`, …, `every weekday`, `every 2 weeks on fri` |
    /// | `每月15号`, `每月1号和15号`, `每月最后一天` | `every month on the 15th`, `… on the 1st and 15th`, `… on the last day` |
    /// | `每月第一个周一`, `每月最后一个周五` | `every first monday`, `every last friday` |
    /// | any of them and `共10次` or `10次` / `直到12月31日` | `10 times` / `until 12月31日` (read as any WHEN) |
    static func english(_ chinese: String) throws(Refusal) -> String? {
        var text = Substring(ChineseTimeWords.normalized(chinese).filter { !$0.isWhitespace && $0 != "、" && $0 != "，" && $0 != "," })
        if text.hasSuffix("。") { text = text.dropLast() }
        guard text.hasPrefix("每") || text.hasPrefix("工作日") else { return nil }
        if text.hasPrefix("每个") { text = text.dropFirst(2) } else if text.hasPrefix("每") { text = text.dropFirst() }
        var ending = ""
        if let until = text.range(of: "直到") ?? text.range(of: "到") , !text[until.upperBound...].isEmpty,
           text[until.upperBound...].first.map({ !weekdays.keys.contains($0) && $0 != "周" && $0 != "星" }) ?? false {
            var when = text[until.upperBound...]
            if when.hasSuffix("为止") { when = when.dropLast(2) }
            ending = " until " + when
            text = text[..<until.lowerBound]
        } else if text.hasSuffix("次") {
            var body = text.dropLast()
            var digits = ""
            if let total = body.range(of: "共", options: .backwards) {
                digits = String(body[total.upperBound...])
                body = body[..<total.upperBound]
            } else {
                // Digits, or else Chinese numerals: `每周一4次` is Mondays four times.
                let inDigits = body.last?.isASCII == true
                let isDigit = { (c: Character) in inDigits ? c.isASCII && c.isWholeNumber : chineseNumerals.contains(c) }
                while let last = body.last, isDigit(last) {
                    digits = String(last) + digits
                    body = body.dropLast()
                }
            }
            var count = Substring(digits)
            guard let times = ChineseTimeWords.takeNumber(&count), count.isEmpty else {
                throw Refusal("'次' needs a count before it, as in '每天共10次'")
            }
            if body.hasSuffix("共") { body = body.dropLast() }
            ending = " \(times) times"
            text = body
        }
        return "every " + (try body(text)) + ending
    }

    private static let chineseNumerals: Set<Character> = ["零", "〇", "一", "二", "两", "三", "四", "五", "六", "七", "八", "九", "十"]

    private static let weekdays: [Character: String] = ["一": "mon", "二": "tue", "三": "wed", "四": "thu", "五": "fri", "六": "sat",
                                                        "日": "sun", "天": "sun"]

    /// Units after `每` (and a number), longest spelling first.
    private static let units: [(String, String)] = [("个小时", "hour"), ("小时", "hour"), ("分钟", "minute"), ("个星期", "week"),
                                                    ("星期", "week"), ("礼拜", "week"), ("周", "week"), ("个月", "month"),
                                                    ("月", "month"), ("年", "year"), ("天", "day"), ("日", "day")]

    /// What follows `每`, in English words.
    private static func body(_ text: Substring) throws(Refusal) -> String {
        switch text {
        case "工作日", "个工作日": return "workday"
        case "周末", "个周末": return "weekend"
        case "": throw Refusal("say what repeats after '每', as in '每天' or '每周一'")
        default: break
        }
        var rest = text
        let interval = ChineseTimeWords.takeNumber(&rest)
        if rest.hasPrefix("个") { rest = rest.dropFirst() }
        // `每周一…`: weekly on those days, with no number between.
        for prefix in ["星期", "礼拜", "周"] where interval == nil && rest.hasPrefix(prefix) {
            if let days = try days(rest.dropFirst(prefix.count)) { return days }
        }
        guard let (word, unit) = units.first(where: { rest.hasPrefix($0.0) }) else {
            throw Refusal("'\(text)' is not a unit (天, 周, 月, 年, 小时, 分钟), a weekday (周一) or 工作日")
        }
        rest = rest.dropFirst(word.count)
        let every = interval.map { $0 == 1 ? unit : "\($0) \(unit)s" } ?? unit
        if rest.hasPrefix("的") { rest = rest.dropFirst() }
        guard !rest.isEmpty else { return every }
        switch unit {
        case "week":
            for prefix in ["星期", "礼拜", "周"] where rest.hasPrefix(prefix) {
                if let days = try days(rest.dropFirst(prefix.count)) {
                    return days.hasPrefix("mon, tue, wed, thu and fri") && interval == nil ? "weekday" : "\(every) on \(days)"
                }
            }
            if let days = try days(rest) { return "\(every) on \(days)" }
            throw Refusal("'\(rest)' is not a weekday (一 … 日)")
        case "month":
            if interval == nil, let positioned = try positionedWeekday(rest) { return positioned }
            return "\(every) on the " + (try monthDays(rest))
        default: break
        }
        throw Refusal("'\(rest)' after '\(word)' is not understood")
    }

    /// `一三五`, `一到五`, `一至周五` after `周`: `mon, wed and fri`; nil when no weekday starts `text`.
    private static func days(_ text: Substring) throws(Refusal) -> String? {
        guard let first = text.first, weekdays[first] != nil else { return nil }
        var names: [String] = []
        var rest = text
        while let character = rest.first {
            if let name = weekdays[character] {
                names.append(name)
                rest = rest.dropFirst()
            } else if character == "到" || character == "至", let from = names.last {
                rest = rest.dropFirst()
                for prefix in ["星期", "礼拜", "周"] where rest.hasPrefix(prefix) { rest = rest.dropFirst(prefix.count) }
                guard let last = rest.first, let to = weekdays[last] else { throw Refusal("'\(character)' needs a weekday after it, as in '周一到周五'") }
                rest = rest.dropFirst()
                let order = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
                let start = order.firstIndex(of: from)!, end = order.firstIndex(of: to)!
                guard start < end else { throw Refusal("'\(from)' to '\(to)' runs backwards; write 周一到周五") }
                names += order[(start + 1)...end]
            } else if character == "和" || character == "及" {
                rest = rest.dropFirst()
            } else if ["星期", "礼拜", "周"].contains(where: { rest.hasPrefix($0) }) {
                rest = rest.drop { $0 == "星" || $0 == "期" || $0 == "礼" || $0 == "拜" || $0 == "周" }
            } else {
                throw Refusal("'\(rest)' is not a weekday (一 … 日)")
            }
        }
        if names == ["mon", "tue", "wed", "thu", "fri"] { return "mon, tue, wed, thu and fri" }
        return names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// `第一个周一`, `最后一个周五`, `第2个星期二` after `每月`: `every first monday`; nil when it is not one.
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
        for prefix in ["星期", "礼拜", "周"] where rest.hasPrefix(prefix) { rest = rest.dropFirst(prefix.count) }
        guard rest.count == 1, let day = rest.first.flatMap({ weekdays[$0] }) else {
            throw Refusal("'\(text)' needs one weekday after the position, as in '第一个周一'")
        }
        let ordinal = position == -1 ? "last" : ["1st", "2nd", "3rd", "4th", "5th"][position - 1]
        return "\(ordinal) \(day)"
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
