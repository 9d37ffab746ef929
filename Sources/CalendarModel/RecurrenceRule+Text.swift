/// RFC 5545 RECUR text, both ways.
///
/// Printing uses one fixed order (FREQ, then the end, INTERVAL, the BYxxx
/// parts from the smallest unit up, BYSETPOS and WKST, then Chime's
/// extension parts X-WORKDAY, X-BREAK and X-REGION), leaves out defaults
/// (INTERVAL=1, WKST=MO), and keeps each list as given, so that parsing what
/// was printed gives back an equal rule.
///
/// RFC 7529's RSCALE comes first when the rule has one (any rule with a
/// SKIP other than OMIT needs one: RSCALE=GREGORIAN is then written), its
/// SKIP after WKST, and BYMONTH lists the ordinary months before the leap
/// ones (`BYMONTH=4,4L`). RSCALE=GREGORIAN with no SKIP reads as no RSCALE.
///
/// The extension parts: `X-WORKDAY=SKIP|FORWARD|BACKWARD|MAKEUP|RETURN`;
/// `X-BREAK=N` (1…366), required with `RETURN` and allowed nowhere else;
/// `X-REGION=CN`, the workday calendar's region, only beside X-WORKDAY,
/// printed upper-case. Other X- names are refused like any unknown part.
extension RecurrenceRule: CustomStringConvertible, LosslessStringConvertible {
    public var description: String { rfc5545 }

    public init?(_ description: String) {
        guard let rule = try? RecurrenceRule(rfc5545: description) else { return nil }
        self = rule
    }

    public var rfc5545: String {
        // Appended to one text rather than parts joined: an import writes every series' rule.
        var text = ""
        text.reserveCapacity(64)
        if scale != .gregorian || skip != .omit {
            text += "RSCALE="
            text += scale.rawValue
            text += ";"
        }
        text += "FREQ="
        text += frequency.rawValue
        func part(_ name: String, _ value: String) {
            text += ";"
            text += name
            text += "="
            text += value
        }
        switch end {
        case .count(let n): part("COUNT", String(n))
        case .until(let until): part("UNTIL", until.description)
        case nil: break
        }
        if interval != 1 { part("INTERVAL", String(interval)) }
        func list(_ name: String, _ values: [some CustomStringConvertible]) {
            guard !values.isEmpty else { return }
            text += ";"
            text += name
            for (index, value) in values.enumerated() {
                text += index == 0 ? "=" : ","
                text += value.description
            }
        }
        list("BYSECOND", seconds)
        list("BYMINUTE", minutes)
        list("BYHOUR", hours)
        list("BYDAY", daysOfTheWeek)
        list("BYMONTHDAY", daysOfTheMonth)
        list("BYYEARDAY", daysOfTheYear)
        list("BYWEEKNO", weeksOfTheYear)
        list("BYMONTH", monthsOfTheYear.map(String.init) + leapMonthsOfTheYear.map { "\($0)L" })
        list("BYSETPOS", setPositions)
        if firstDayOfTheWeek != .monday { part("WKST", firstDayOfTheWeek.code) }
        if skip != .omit { part("SKIP", skip.rawValue) }
        if let workdayRule {
            text += ";"
            text += workdayRule.description
        }
        if let workdayRegion { part("X-REGION", workdayRegion.uppercased()) }
        return text
    }

    /// The workday parts in words, or nil for a plain rule: "every workday"
    /// for `FREQ=DAILY;X-WORKDAY=SKIP`, and for other rules their RFC 5545
    /// text with a qualifier ("FREQ=MONTHLY;BYMONTHDAY=10, moved to the next
    /// workday when it falls on a day off"). The region follows in brackets.
    public var workdaySummary: String? {
        guard let workdayRule else { return nil }
        let plain = (try? withWorkdayRule(nil)) ?? self
        var text: String
        if frequency == .daily && interval == 1 && !hasByPart && setPositions.isEmpty {
            text = workdayRule.everyDayPhrase
            switch end {
            case .count(let n): text += ", \(n) time\(n == 1 ? "" : "s")"
            case .until(let until): text += ", until \(until)"
            case nil: break
            }
        } else {
            text = plain.rfc5545 + ", " + workdayRule.qualifier
        }
        if let workdayRegion { text += " (\(workdayRegion.uppercased()) workday calendar)" }
        return text
    }

    /// Parses `FREQ=MONTHLY;BYDAY=-1FR` (an `RRULE:` prefix is allowed).
    /// Names and weekday codes are case-insensitive; anything else that RFC
    /// 5545 does not allow is refused, naming the part.
    public init(rfc5545 text: String) throws(RecurrenceRuleError) {
        var body = Substring(text.trimmingSpaces)
        if body.utf8.count >= 6, body.prefix(6).asciiUppercased == "RRULE:" { body = body.dropFirst(6) }
        guard !body.isEmpty else { throw RecurrenceRuleError(part: "rule", reason: "is empty") }

        var seen = Set<String>()
        var frequency: Frequency?
        var interval = 1
        var end: End?
        var byDay: [DayOfWeek] = [], byMonthDay: [Int] = [], byYearDay: [Int] = [], byWeekNo: [Int] = []
        var byMonth: [Int] = [], byLeapMonth: [Int] = [], byHour: [Int] = [], byMinute: [Int] = [], bySecond: [Int] = [], bySetPos: [Int] = []
        var weekStart = Weekday.monday
        var workday: String?
        var breakDays: Int?
        var region: String?
        var scale: Scale?
        var skip: Skip?

        for piece in body.splitOnASCII(";") {
            let pair = piece.splitOnASCII("=", maxSplits: 1)
            let name = pair[0].asciiUppercased
            guard pair.count == 2, !name.isEmpty else {
                throw RecurrenceRuleError(part: piece.isEmpty ? "rule" : name.isEmpty ? String(piece) : name, reason: piece.isEmpty ? "has an empty part between ';'" : "is not NAME=VALUE")
            }
            let value = pair[1]
            guard seen.insert(name).inserted else { throw RecurrenceRuleError(part: name, reason: "appears twice") }
            guard !value.isEmpty else { throw RecurrenceRuleError(part: name, reason: "has no value") }

            func integers(_ signed: Bool) throws(RecurrenceRuleError) -> [Int] {
                var result: [Int] = []
                for item in value.splitOnASCII(",") {
                    guard let number = Self.integer(item, signed: signed) else {
                        throw RecurrenceRuleError(part: name, reason: "has '\(item)', which is not \(signed ? "a non-zero integer" : "a number")")
                    }
                    result.append(number)
                }
                return result
            }

            switch name {
            case "FREQ":
                guard let parsed = Frequency(rawValue: value.asciiUppercased) else {
                    throw RecurrenceRuleError(part: "FREQ", reason: "'\(value)' is not one of " + Frequency.allCases.map(\.rawValue).joined(separator: ", "))
                }
                frequency = parsed
            case "INTERVAL":
                guard let n = Self.integer(value, signed: false), n >= 1 else {
                    throw RecurrenceRuleError(part: "INTERVAL", reason: "'\(value)' is not a positive integer")
                }
                interval = n
            case "COUNT", "UNTIL":
                if end != nil { throw RecurrenceRuleError(part: name, reason: "cannot be combined with \(name == "COUNT" ? "UNTIL" : "COUNT")") }
                if name == "COUNT" {
                    guard let n = Self.integer(value, signed: false), n >= 1 else {
                        throw RecurrenceRuleError(part: "COUNT", reason: "'\(value)' is not a positive integer")
                    }
                    end = .count(n)
                } else {
                    guard let until = Self.until(value) else {
                        throw RecurrenceRuleError(part: "UNTIL", reason: "'\(value)' is not a DATE (20261231) or DATE-TIME (20261231T235959 or 20261231T155959Z)")
                    }
                    end = .until(until)
                }
            case "BYSECOND": bySecond = try integers(false)
            case "BYMINUTE": byMinute = try integers(false)
            case "BYHOUR": byHour = try integers(false)
            case "BYMONTHDAY": byMonthDay = try integers(true)
            case "BYYEARDAY": byYearDay = try integers(true)
            case "BYWEEKNO": byWeekNo = try integers(true)
            case "BYMONTH":
                for item in value.splitOnASCII(",") {
                    let leap = item.hasSuffix("L") || item.hasSuffix("l")
                    guard let number = Self.integer(leap ? item.dropLast() : item, signed: false) else {
                        throw RecurrenceRuleError(part: name, reason: "has '\(item)', which is not a month number (4) or leap month (4L)")
                    }
                    if leap { byLeapMonth.append(number) } else { byMonth.append(number) }
                }
            case "RSCALE":
                guard let parsed = Scale(rawValue: value.asciiUppercased) else {
                    throw RecurrenceRuleError(part: "RSCALE", reason: "'\(value)' is not a calendar Chime counts in (GREGORIAN, CHINESE)")
                }
                scale = parsed
            case "SKIP":
                guard let parsed = Skip(rawValue: value.asciiUppercased) else {
                    throw RecurrenceRuleError(part: "SKIP", reason: "'\(value)' is not one of OMIT, BACKWARD, FORWARD")
                }
                skip = parsed
            case "BYSETPOS": bySetPos = try integers(true)
            case "BYDAY":
                for item in value.splitOnASCII(",") {
                    guard item.count >= 2, let weekday = Weekday(code: item.suffix(2)) else {
                        throw RecurrenceRuleError(part: "BYDAY", reason: "has '\(item)', which is not a weekday such as MO, 2TU or -1FR")
                    }
                    let ordinal = item.dropLast(2)
                    var position = 0
                    if !ordinal.isEmpty {
                        guard let n = Self.integer(ordinal, signed: true) else {
                            throw RecurrenceRuleError(part: "BYDAY", reason: "has '\(item)', whose number is not a non-zero integer")
                        }
                        position = n
                    }
                    byDay.append(DayOfWeek(weekday, position: position))
                }
            case "WKST":
                guard let day = Weekday(code: value) else {
                    throw RecurrenceRuleError(part: "WKST", reason: "'\(value)' is not a weekday code (SU, MO, TU, WE, TH, FR, SA)")
                }
                weekStart = day
            case "X-WORKDAY":
                let upper = value.asciiUppercased
                guard WorkdayRule.partValues.contains(upper) else {
                    throw RecurrenceRuleError(part: "X-WORKDAY", reason: "'\(value)' is not one of " + WorkdayRule.partValues.joined(separator: ", "))
                }
                workday = upper
            case "X-BREAK":
                guard let n = Self.integer(value, signed: false) else {
                    throw RecurrenceRuleError(part: "X-BREAK", reason: "'\(value)' is not a number of days off (1…\(WorkdayRule.longestReach))")
                }
                breakDays = n
            case "X-REGION":
                guard Self.isRegionCode(value) else {
                    throw RecurrenceRuleError(part: "X-REGION", reason: "'\(value)' is not a region code such as CN (1 to 16 letters, digits or '-')")
                }
                region = String(value)
            default:
                if name.hasPrefix("X-") {
                    throw RecurrenceRuleError(part: name, reason: "is not a rule part of RFC 5545 nor one of Chime's (X-WORKDAY, X-BREAK, X-REGION)")
                }
                throw RecurrenceRuleError(part: name, reason: "is not a rule part of RFC 5545 or 7529")
            }
        }
        guard let frequency else { throw RecurrenceRuleError(part: "FREQ", reason: "is missing") }
        if skip != nil && scale == nil { throw RecurrenceRuleError(part: "SKIP", reason: "is only allowed with RSCALE (RFC 7529)") }
        let workdayRule = try Self.workdayRule(workday, breakDays: breakDays)
        if region != nil && workdayRule == nil {
            throw RecurrenceRuleError(part: "X-REGION", reason: "is only allowed with X-WORKDAY")
        }
        try self.init(frequency: frequency, interval: interval, end: end, daysOfTheWeek: byDay,
                      daysOfTheMonth: byMonthDay, daysOfTheYear: byYearDay, weeksOfTheYear: byWeekNo,
                      monthsOfTheYear: byMonth, hours: byHour, minutes: byMinute, seconds: bySecond,
                      setPositions: bySetPos, firstDayOfTheWeek: weekStart, workdayRule: workdayRule,
                      workdayRegion: region, scale: scale ?? .gregorian, skip: skip ?? .omit, leapMonthsOfTheYear: byLeapMonth)
    }

    /// X-WORKDAY's value with X-BREAK, which goes with RETURN and nothing else.
    private static func workdayRule(_ value: String?, breakDays: Int?) throws(RecurrenceRuleError) -> WorkdayRule? {
        switch value {
        case nil:
            if breakDays != nil { throw RecurrenceRuleError(part: "X-BREAK", reason: "is only allowed with X-WORKDAY=RETURN") }
            return nil
        case "RETURN":
            guard let breakDays else {
                throw RecurrenceRuleError(part: "X-BREAK", reason: "is missing: X-WORKDAY=RETURN needs the days off before the workday (1…\(WorkdayRule.longestReach))")
            }
            return .firstAfterBreak(days: breakDays)
        default:
            if breakDays != nil { throw RecurrenceRuleError(part: "X-BREAK", reason: "is only allowed with X-WORKDAY=RETURN, not \(value!)") }
            switch value {
            case "SKIP": return .skip
            case "FORWARD": return .forward
            case "BACKWARD": return .backward
            default: return .makeup
            }
        }
    }

    /// `[+-]digits` that fit in an Int; zero is refused where `signed`,
    /// since RFC 5545 has no zeroth day, week or position.
    static func integer(_ text: some StringProtocol, signed: Bool) -> Int? {
        // On the UTF-8 bytes: by Character, the checks cost more than the rest of a rule's reading.
        var bytes = Substring(text).utf8[...]
        var negative = false
        if signed, let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var n = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            n = n * 10 + Int(byte - UInt8(ascii: "0"))
        }
        if signed && n == 0 { return nil }
        return negative ? -n : n
    }

    static func until(_ text: some StringProtocol) -> Until? {
        let length = text.utf8.count
        if length == 8, let date = CivilDate(parsing: text) { return .date(date) }
        if text.hasSuffix("Z") || text.hasSuffix("z") {
            guard length == 16, let time = LocalDateTime(parsing: text.dropLast()) else { return nil }
            return .utc(time)
        }
        guard length == 15, let time = LocalDateTime(parsing: text) else { return nil }
        return .local(time)
    }
}

extension String {
    var trimmingSpaces: Substring {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return slice
    }
}

extension Substring {
    /// Upper-cased in ASCII only: a rule's names and codes are ASCII, and
    /// `uppercased()` (Unicode's mapping) was a tenth of reading a rule.
    /// Other characters stay as they are, so that a name that is not ASCII
    /// is still refused, by name.
    var asciiUppercased: String {
        guard utf8.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return String(self) }
        return String(decoding: utf8.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }, as: UTF8.self)
    }

    /// `split(separator:maxSplits:omittingEmptySubsequences: false)` on
    /// the UTF-8 bytes: a rule's separators are ASCII, and splitting by
    /// Character (grapheme breaking) took ten times the instructions, a
    /// third of reading a rule (callgrind, a whole calendar's export).
    fileprivate func splitOnASCII(_ separator: Unicode.Scalar, maxSplits: Int = .max) -> [Substring] {
        let byte = UInt8(ascii: separator)
        var pieces: [Substring] = []
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == byte, pieces.count < maxSplits {
                pieces.append(Substring(utf8[start..<index]))
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        pieces.append(Substring(utf8[start...]))
        return pieces
    }
}
