/// A point in time as a person types it for `chime add`, `edit` and `list`,
/// read against an explicit current time and zone (never the process's own
/// clock or `TZ`), so that the same text always means the same thing in a
/// test.
///
/// What the text means is kept, not only when it is, because the caller
/// makes an event or reminder time of it (see `Meaning`):
///
/// | text | meaning |
/// |---|---|
/// | `2026-12-01`, `today`, `tomorrow`, `yesterday` | a date alone |
/// | `monday` … `sunday`, `mon` … `sun`, `next friday` | the next such day, never today (a date alone) |
/// | `this friday` | the next such day, today if it is one |
/// | `dec 24`, `december 24`, `24 dec`, `24th december 2026`, `dec 24, 2026` | that date; with no year, the next from today on |
/// | `2026-12-01T08:50`, `2026-12-01T08:50:30`, `2026-12-01 08:50` | a wall-clock time |
/// | `today 08:50`, `tomorrow 5pm`, `friday at 9:00`, `dec 24 noon`, `9am tomorrow` | a wall-clock time on that day |
/// | `08:50`, `8:50`, `08:50:30`, `9am`, `9:30 pm`, `noon`, `midnight`, `at 5pm` | the next time the wall clock reads that: today if still ahead, else tomorrow |
/// | `2026-12-01T08:50:00+08:00`, `…Z`, `2026-12-01 08:50+08:00` | an instant (RFC 3339; seconds may be left out, fractions are dropped) |
/// | `now`, `+10m`, `+2h`, `+1d`, `+1h30m`, `-15m` | an instant relative to now |
/// | `in 10 minutes`, `in an hour`, `in 1h30m`, `2 days ago` | the same in words |
/// | `明天9点`, `下周一 8:50`, `12月24日`, `10分钟后` | Chinese words for the same (`ChineseTimeWords`) |
///
/// A day and a time may come in either order, with `at` before the time.
/// On the 12-hour clock `12am` is midnight and `12pm` noon; `midnight` is
/// 00:00, the start of its day (`tomorrow midnight` is tomorrow's 00:00).
/// Relative times take the units of `DurationExpression` (s, m, h, d, w or
/// their names, largest first, at most 366 days). Weeks and days count *calendar* days on
/// the wall clock, hours, minutes and seconds count elapsed time: `+1d` is
/// the same wall-clock time tomorrow, which across a daylight-saving change
/// is 23 or 25 hours away, while `+24h` is always 86,400 s later. In
/// `+1d2h` the day is taken first, then the two hours. A day step that lands
/// in a gap moves forward by the gap's length, like any wall-clock time.
///
/// Words and the `T`/`Z` letters may be in any case (`Tomorrow`, `NOW`,
/// `9AM`); whitespace around the text is ignored, and words may be
/// separated by any run of spaces. Dates in numbers are ISO 8601 extended
/// (`2026-12-01`), years 0000–9999.
public struct TimeExpression: Hashable, Sendable {
    /// What the person meant.
    public enum Meaning: Hashable, Sendable {
        /// A day with no time: an all-day item, a reminder due that day.
        case date(CivilDate)
        /// A time on the wall clock of the zone the text was read in.
        case wallClock(LocalDateTime)
        /// A moment independent of any wall clock, in Unix seconds.
        case instant(Int64)

        /// The instant this names on `zone`'s wall clock: a date at its
        /// local midnight; a wall-clock time inside a daylight-saving gap
        /// moves forward by the gap's length, one inside a fold takes the
        /// first of its two instants (`TimeZoneRules.resolve`).
        public func instant(in zone: TimeZoneRules) -> Int64 {
            switch self {
            case .date(let date): zone.resolve(LocalDateTime(date: date)!).instant
            case .wallClock(let time): zone.resolve(time).instant
            case .instant(let instant): instant
            }
        }

        /// The time of an event or reminder this names: a date stays a date;
        /// a wall-clock time is kept as written (even inside a gap, so that
        /// a rule repeating it keeps its hour), in `zone` or, when
        /// `floating`, following whatever zone the machine is in; an instant
        /// becomes its wall-clock reading in `zone`, naming the later of a
        /// fold's two instants when it is that one.
        public func itemTime(in zone: TimeZoneRules, floating: Bool = false) -> ItemTime {
            let time: LocalDateTime
            switch self {
            case .date(let date): return .date(date)
            case .wallClock(let wallClock): time = wallClock
            case .instant(let instant):
                // An instant in a fold's second pass keeps that instant.
                if !floating { return .zoned(at: instant, in: zone) }
                time = zone.localTime(at: instant)
            }
            return floating ? .floating(time) : .zoned(time, zone: zone.identifier)
        }
    }

    /// The text as the user gave it, untrimmed.
    public let text: String
    public let meaning: Meaning

    /// Reads `text` at the Unix time `now`, with wall-clock words (`today`,
    /// `08:50`, `+1d`) read on `zone`'s wall clock.
    public init(_ text: String, now: Int64, zone: TimeZoneRules) throws(TimeExpressionError) {
        self.text = text
        do throws(TimeExpressionRefusal) {
            meaning = try Reader(now: now, zone: zone).read(text)
        } catch {
            throw TimeExpressionError(text: text, expected: .time, reason: error.reason)
        }
    }

    /// `meaning.instant(in:)`.
    public func instant(in zone: TimeZoneRules) -> Int64 { meaning.instant(in: zone) }

    /// `meaning.itemTime(in:floating:)`.
    public func itemTime(in zone: TimeZoneRules, floating: Bool = false) -> ItemTime {
        meaning.itemTime(in: zone, floating: floating)
    }
}

/// The grammar, on lower-cased text.
private struct Reader {
    let now: Int64
    let zone: TimeZoneRules
    /// `now` on the zone's wall clock.
    let wallNow: LocalDateTime

    init(now: Int64, zone: TimeZoneRules) {
        self.now = now
        self.zone = zone
        wallNow = zone.localTime(at: now)
    }

    typealias Meaning = TimeExpression.Meaning
    typealias Refusal = TimeExpressionRefusal
    typealias Clock = (hour: Int, minute: Int, second: Int)

    /// The words a 12-hour clock ends with, and whether each is after noon.
    static let meridiems: [String: Bool] = ["am": false, "a.m.": false, "pm": true, "p.m.": true]

    /// Words that stand for a time of day by themselves.
    static let namedClocks: [String: Clock] = ["noon": (12, 0, 0), "midnight": (0, 0, 0)]

    func read(_ text: String) throws(Refusal) -> Meaning {
        if ChineseTimeWords.applies(to: text) { return try read(ChineseTimeWords.translated(text, today: wallNow.date)) }
        let words = Self.joiningMeridiems(text.lowercased().split(whereSeparator: \.isWhitespace))
        guard let first = words.first else { throw Refusal("it is empty") }
        if first == "in" {
            return .instant(try relative(sign: 1, words.dropFirst(), missing: "'in' needs an amount after it, as in 'in 10 minutes'"))
        }
        if words.count > 1, words.last == "ago" {
            return .instant(try relative(sign: -1, words.dropLast(), missing: "'ago' needs an amount before it, as in '10 minutes ago'"))
        }
        if first.first == "+" || first.first == "-" {
            let sign = first.first == "-" ? -1 : 1
            return .instant(try relative(sign: sign, [first.dropFirst()] + words.dropFirst(),
                                         missing: "a sign needs an amount after it, as in \(sign < 0 ? "-15m" : "+10m")"))
        }
        if words.count == 1 { return try word(first) }
        // A date and a time with an offset, 2026-12-01 08:50+08:00.
        if words.count == 2, Self.isDateShaped(first), try Self.offset(words[1]) != nil { return try dateTime(first, words[1]) }
        return try phrase(words)
    }

    /// `9 am` as one word, `9am`, so that a 12-hour time is one word however it is spaced.
    private static func joiningMeridiems(_ words: [Substring]) -> [Substring] {
        var joined: [Substring] = []
        for word in words {
            if meridiems[String(word)] != nil, let last = joined.last, last.last?.isWholeNumber == true {
                joined[joined.count - 1] = Substring(last + word)
            } else {
                joined.append(word)
            }
        }
        return joined
    }

    /// One word: `now`, an RFC 3339 instant, or else a day or a time of day.
    private func word(_ word: Substring) throws(Refusal) -> Meaning {
        if word == "now" { return .instant(now) }
        if word.count > 11, Self.isDateShaped(word.prefix(10)), word.dropFirst(10).first == "t" {
            return try dateTime(word.prefix(10), word.dropFirst(11))
        }
        if let refusal = Self.bareNumber(word, alone: true) { throw refusal }
        if (try? DurationExpression.amount(word)) != nil {
            throw Refusal("write +\(word) for \(word) from now")
        }
        return try phrase([word])
    }

    /// Why a bare number such as `9` is refused, with the forms it may have
    /// meant (`alone`: also a time from now); nil when the word is not one.
    private static func bareNumber(_ word: Substring, alone: Bool) -> Refusal? {
        guard !word.isEmpty, word.allSatisfy({ $0.isASCII && $0.isWholeNumber }) else { return nil }
        let hour = word.count <= 2 ? Int(word)! : 24
        var forms = hour <= 12 ? ["\(word):00 or \(hour)am for a time of day"] : hour <= 23 ? ["\(word):00 for a time of day"] : []
        if alone { forms.append("+\(word)m or +\(word)h for a time from now") }
        guard !forms.isEmpty else { return Refusal("'\(word)' is not a day or a time of day") }
        return Refusal("a bare number is ambiguous; write " + forms.joined(separator: ", or "))
    }

    /// A day, a time of day, or both, in either order, with `at` before the
    /// time if one likes: `tomorrow 08:50`, `friday at 5pm`, `dec 24 9am`,
    /// `9am tomorrow`. A day alone is a date; a time alone is the next time
    /// the wall clock reads it.
    private func phrase(_ words: [Substring]) throws(Refusal) -> Meaning {
        var day: CivilDate?
        var clock: Clock?
        var index = 0
        let twice = Refusal("expected one day and one time at most, as in 'tomorrow 08:50'")
        while index < words.count {
            if words[index] == "at" {
                guard index + 1 < words.count else { throw Refusal("'at' needs a time of day after it, as in 'tomorrow at 5pm'") }
                guard clock == nil else { throw twice }
                guard let found = try self.clock(words[index + 1]) else {
                    throw Refusal("'\(words[index + 1])' after 'at' is not a time of day")
                }
                clock = found
                index += 2
            } else if let (found, used) = try self.day(words, at: index) {
                guard day == nil else { throw twice }
                day = found
                index += used
            } else if let found = try self.clock(words[index]) {
                guard clock == nil else { throw twice }
                clock = found
                index += 1
            } else {
                if let refusal = Self.bareNumber(words[index], alone: false) { throw refusal }
                // One unknown word gets the list of forms alone; in a phrase, name it.
                throw words.count == 1 ? Refusal() : Refusal("'\(words[index])' is not a day or a time of day")
            }
        }
        switch (day, clock) {
        case (let day?, let clock?): return .wallClock(LocalDateTime(date: day, hour: clock.hour, minute: clock.minute, second: clock.second)!)
        case (let day?, nil): return .date(day)
        case (nil, let clock?): return .wallClock(next(clock))
        case (nil, nil): throw Refusal()
        }
    }

    /// The day that starts at `words[index]` and how many words it takes:
    /// `today`, `tomorrow`, `yesterday`; a weekday (`friday`, `fri`), the
    /// next such day and never today, also after `next`; `this friday`,
    /// today if it is one; an ISO date; a month and a day, `dec 24`, `24th
    /// december`, with a year or else the next such date from today on.
    /// Nil when no day starts there.
    private func day(_ words: [Substring], at index: Int) throws(Refusal) -> (CivilDate, Int)? {
        let today = wallNow.date
        let word = words[index]
        switch word {
        case "today": return (today, 1)
        case "tomorrow": return (today.adding(days: 1), 1)
        case "yesterday": return (today.adding(days: -1), 1)
        default: break
        }
        if let weekday = Weekday(name: word) {
            // 1…7 days ahead: the same weekday as today is a week away.
            return (today.adding(days: (weekday.rawValue - today.weekday.rawValue + 6) % 7 + 1), 1)
        }
        if word == "next" || word == "this", index + 1 < words.count, let weekday = Weekday(name: words[index + 1]) {
            let ahead = (weekday.rawValue - today.weekday.rawValue + 7) % 7
            return (today.adding(days: word == "next" && ahead == 0 ? 7 : ahead), 2)
        }
        if let date = try date(word) { return (date, 1) }
        return try monthDay(words, at: index)
    }

    /// `dec 24`, `december 24, 2026`, `24 dec`, `24th december 2026`.
    private func monthDay(_ words: [Substring], at index: Int) throws(Refusal) -> (CivilDate, Int)? {
        guard index + 1 < words.count else { return nil }
        guard let (month, dayNumber) = TimeExpression.monthAndDay(words[index], words[index + 1]) else { return nil }
        let monthName = TimeExpression.monthNames[month - 1]
        guard (1...31).contains(dayNumber) else { throw Refusal("there is no day \(dayNumber) in \(monthName)") }
        if index + 2 < words.count, let year = Self.year(words[index + 2]) {
            guard let date = CivilDate(year: year, month: month, day: dayNumber) else {
                throw Refusal("\(monthName) \(year) has only \(CivilDate.daysInMonth(year: year, month: month)) days")
            }
            return (date, 3)
        }
        guard dayNumber <= CivilDate.daysInMonth(year: 2000, month: month) else {
            throw Refusal("\(monthName) has only \(CivilDate.daysInMonth(year: 2000, month: month)) days")
        }
        // This year's unless already past; 29 February, the next year that has it (at most eight on).
        let today = wallNow.date
        for year in today.year...(today.year + 8) {
            if let date = CivilDate(year: year, month: month, day: dayNumber), date >= today { return (date, 2) }
        }
        throw Refusal("\(monthName) \(dayNumber) is past the last year Chime reads")
    }

    /// A year of four digits.
    private static func year(_ word: Substring) -> Int? {
        guard word.count == 4, word.allSatisfy({ $0.isASCII && $0.isWholeNumber }) else { return nil }
        return Int(word)
    }

    private static func isDateShaped(_ word: Substring) -> Bool {
        let bytes = Array(word.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        return bytes.indices.allSatisfy { [4, 7].contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }
    }

    /// `2026-12-01`; nil when the word is not of that shape, a refusal
    /// when it is but the day does not exist.
    private func date(_ word: Substring) throws(Refusal) -> CivilDate? {
        guard Self.isDateShaped(word) else { return nil }
        let fields = word.split(separator: "-").map { Int($0)! }
        let (year, month, day) = (fields[0], fields[1], fields[2])
        guard (1...12).contains(month) else { throw Refusal("there is no month \(month)") }
        guard let date = CivilDate(year: year, month: month, day: day) else {
            throw Refusal(day == 0 ? "there is no day 0"
                : "\(TimeExpression.monthNames[month - 1]) \(year) has only \(CivilDate.daysInMonth(year: year, month: month)) days")
        }
        return date
    }

    /// A time of day: `08:50`, `8:50`, `08:50:30`, `9am`, `9:30pm`, `noon`,
    /// `midnight`; nil when the word is not of those shapes, a refusal when
    /// it is but a field is out of range.
    private func clock(_ word: Substring) throws(Refusal) -> Clock? {
        if let named = Self.namedClocks[String(word)] { return named }
        guard let (number, afternoon) = Self.meridiem(word) else { return try clock24(word) }
        guard let (hour, minute, second) = try Self.clockFields(number, count: 1...3) else { return nil }
        guard (1...12).contains(hour) else {
            throw Refusal(hour == 0 ? "a 12-hour clock has no hour 0 (write 12am or 00:00)"
                : "hour \(hour) is past 12 on a 12-hour clock (write \(hour):00 or \(hour > 23 ? "a time up to 11pm" : "\(hour - 12)pm"))")
        }
        // 12am is midnight, 12pm noon.
        return (hour % 12 + (afternoon ? 12 : 0), minute, second)
    }

    /// Splits `am`, `pm`, `a.m.` or `p.m.` off the end of a word: the rest
    /// and whether it is after noon; nil when the word has none.
    private static func meridiem(_ word: Substring) -> (Substring, Bool)? {
        for (suffix, afternoon) in meridiems where word.count > suffix.count && word.hasSuffix(suffix) {
            return (word.dropLast(suffix.count), afternoon)
        }
        return nil
    }

    /// `08:50`, `8:50` or `08:50:30`; nil when the word is not of that shape,
    /// a refusal when it is but a field is out of range.
    private func clock24(_ word: Substring) throws(Refusal) -> Clock? {
        guard let clock = try Self.clockFields(word, count: 2...3) else { return nil }
        guard clock.hour <= 23 else {
            throw Refusal(clock.hour == 24 ? "hour 24 is past 23 (write 00:00 of the next day)" : "hour \(clock.hour) is past 23")
        }
        return clock
    }

    /// `H`, `H:MM` or `H:MM:SS` with `count` fields (the hour of one or two
    /// digits), minutes and seconds checked, the hour left to the caller;
    /// nil when the word is not of that shape.
    private static func clockFields(_ word: Substring, count: ClosedRange<Int>) throws(Refusal) -> Clock? {
        let fields = word.split(separator: ":", omittingEmptySubsequences: false)
        guard count.contains(fields.count),
              fields.allSatisfy({ field in field.allSatisfy { $0.isASCII && $0.isWholeNumber } }),
              (1...2).contains(fields[0].count), fields.dropFirst().allSatisfy({ $0.count == 2 })
        else { return nil }
        let values = fields.map { Int($0)! }
        let minute = values.count > 1 ? values[1] : 0
        let second = values.count > 2 ? values[2] : 0
        guard minute <= 59 else { throw Refusal("minute \(minute) is past 59") }
        guard second <= 59 else { throw Refusal("second \(second) is past 59") }
        return (values[0], minute, second)
    }

    /// The next time the wall clock reads `clock`: today if that is still
    /// ahead of now, else tomorrow.
    private func next(_ clock: Clock) -> LocalDateTime {
        let today = LocalDateTime(date: wallNow.date, hour: clock.hour, minute: clock.minute, second: clock.second)!
        if zone.resolve(today).instant > now { return today }
        return LocalDateTime(date: wallNow.date.adding(days: 1), hour: clock.hour, minute: clock.minute, second: clock.second)!
    }

    /// A date and a time of day, with or without a UTC offset (`Z`, `+08:00`).
    private func dateTime(_ dateWord: Substring, _ timeWord: Substring) throws(Refusal) -> Meaning {
        guard let date = try date(dateWord) else { throw Refusal() }
        guard let (clockWord, offset) = try Self.offset(timeWord) else {
            guard let clock = try clock24(timeWord) else { throw Refusal() }
            return .wallClock(LocalDateTime(date: date, hour: clock.hour, minute: clock.minute, second: clock.second)!)
        }
        // RFC 3339 proper (seconds, perhaps a fraction), read by CalendarModel.
        if let (local, offset, _) = RFC3339.parse("\(dateWord)T\(timeWord)") {
            // The fraction is dropped: it is in [0, 1), so this rounds down.
            return .instant(local.localSeconds - Int64(offset))
        }
        // The same without seconds, 2026-12-01T08:50+08:00.
        guard let clock = try clock24(clockWord) else { throw Refusal() }
        let local = LocalDateTime(date: date, hour: clock.hour, minute: clock.minute, second: clock.second)!
        return .instant(local.localSeconds - Int64(offset))
    }

    /// Splits a trailing `z` or `±hh:mm` off a time of day: the rest and the
    /// offset in seconds east of UTC; nil when there is none.
    private static func offset(_ word: Substring) throws(Refusal) -> (Substring, Int)? {
        if word.last == "z" { return (word.dropLast(), 0) }
        let bytes = Array(word.utf8)
        guard bytes.count > 6 else { return nil }
        let tail = Array(bytes.suffix(6))
        guard tail[0] == UInt8(ascii: "+") || tail[0] == UInt8(ascii: "-"), tail[3] == UInt8(ascii: ":"),
              let hours = Int(String(decoding: tail[1..<3], as: UTF8.self)),
              let minutes = Int(String(decoding: tail[4..<6], as: UTF8.self)),
              tail[1..<3].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { return nil }
        guard hours <= 23, minutes <= 59 else {
            throw Refusal("the offset \(String(decoding: tail, as: UTF8.self)) is out of range")
        }
        let magnitude = hours * 3600 + minutes * 60
        return (word.dropLast(6), tail[0] == UInt8(ascii: "-") ? -magnitude : magnitude)
    }

    /// `+10m`, `-15m`, `+1d`, `in 10 minutes`, `2 days ago`: the amount in
    /// `words` (already without its sign or `in`/`ago`) from now, days
    /// stepping on the wall clock, the rest in elapsed seconds.
    private func relative(sign: Int, _ words: ArraySlice<Substring>, missing: String) throws(Refusal) -> Int64 {
        guard words.contains(where: { !$0.isEmpty }) else { throw Refusal(missing) }
        let amount = try DurationExpression.amount(words: Array(words))
        var base = now
        if amount.days != 0 {
            let shifted = LocalDateTime(date: wallNow.date.adding(days: sign * amount.days),
                                        hour: wallNow.hour, minute: wallNow.minute, second: wallNow.second)!
            base = zone.resolve(shifted).instant
        }
        return base + Int64(sign * amount.seconds)
    }
}

extension TimeExpression {
    /// `24`, `24,`, `24th`, `1st`: a day of the month as written, before the
    /// range check (RecurrencePhrase reads `on the 15th` with it too).
    static func dayNumber(_ word: Substring) -> Int? {
        var digits = word.last == "," ? word.dropLast() : word
        if digits.count > 2, ["st", "nd", "rd", "th"].contains(String(digits.suffix(2))) { digits = digits.dropLast(2) }
        guard (1...2).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isWholeNumber }) else { return nil }
        return Int(digits)
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]

    /// Month names and their three-letter (and `sept`) abbreviations, lower case, to 1…12.
    static let months: [String: Int] = {
        var months: [String: Int] = ["sept": 9]
        for (index, name) in monthNames.enumerated() {
            months[name.lowercased()] = index + 1
            months[String(name.lowercased().prefix(3))] = index + 1
        }
        return months
    }()

    /// `dec 24` or `24th december` (lower case) as a month, 1…12, and the day
    /// as written (not checked against the month); nil when the two words
    /// are not a month and a day.
    static func monthAndDay(_ first: Substring, _ second: Substring) -> (month: Int, day: Int)? {
        if let month = months[String(first)], let day = dayNumber(second) { return (month, day) }
        if let day = dayNumber(first), let month = months[String(second)] { return (month, day) }
        return nil
    }
}
