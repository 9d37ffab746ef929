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
/// | `monday` … `sunday` | the next such day, never today (a date alone) |
/// | `2026-12-01T08:50`, `2026-12-01T08:50:30`, `2026-12-01 08:50` | a wall-clock time |
/// | `today 08:50`, `tomorrow 17:00`, `friday 9:00` | a wall-clock time on that day |
/// | `08:50`, `8:50`, `08:50:30` | the next time the wall clock reads that: today if still ahead, else tomorrow |
/// | `2026-12-01T08:50:00+08:00`, `…Z`, `2026-12-01 08:50+08:00` | an instant (RFC 3339; seconds may be left out, fractions are dropped) |
/// | `now`, `+10m`, `+2h`, `+1d`, `+1h30m`, `-15m` | an instant relative to now |
///
/// Relative times take the units of `DurationExpression` (s, m, h, d, w,
/// largest first, at most 366 days). Weeks and days count *calendar* days on
/// the wall clock, hours, minutes and seconds count elapsed time: `+1d` is
/// the same wall-clock time tomorrow, which across a daylight-saving change
/// is 23 or 25 hours away, while `+24h` is always 86,400 s later. In
/// `+1d2h` the day is taken first, then the two hours. A day step that lands
/// in a gap moves forward by the gap's length, like any wall-clock time.
///
/// Words and the `T`/`Z` letters may be in any case (`Tomorrow`, `NOW`);
/// whitespace around the text is ignored, and a date and a time may be
/// separated by any run of spaces. Dates are ISO 8601 extended
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

    static let weekdays: [String: Weekday] = [
        "sunday": .sunday, "monday": .monday, "tuesday": .tuesday, "wednesday": .wednesday,
        "thursday": .thursday, "friday": .friday, "saturday": .saturday,
    ]

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]

    func read(_ text: String) throws(Refusal) -> Meaning {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace)
        switch words.count {
        case 0: throw Refusal("it is empty")
        case 1: return try word(words[0])
        case 2: return try day(words[0], at: words[1])
        default: throw Refusal("expected a day and a time at most, as in 'tomorrow 08:50'")
        }
    }

    /// One word: a day, a time, an instant, or a relative time.
    private func word(_ word: Substring) throws(Refusal) -> Meaning {
        if word == "now" { return .instant(now) }
        if let date = try day(word) { return .date(date) }
        if word.first == "+" || word.first == "-" { return .instant(try relative(word)) }
        if word.count > 11, Self.isDateShaped(word.prefix(10)), word.dropFirst(10).first == "t" {
            return try dateTime(word.prefix(10), word.dropFirst(11))
        }
        if let clock = try clock(word) { return .wallClock(next(clock)) }
        if word.allSatisfy({ $0.isASCII && $0.isWholeNumber }) {
            throw Refusal("a bare number is ambiguous; write \(word):00 for a time of day, or +\(word)m or +\(word)h for a time from now")
        }
        if (try? DurationExpression.amount(word)) != nil {
            throw Refusal("write +\(word) for \(word) from now")
        }
        throw Refusal()
    }

    /// A day and a time in two words: `2026-12-01 08:50`, `tomorrow 17:00`.
    private func day(_ dayWord: Substring, at timeWord: Substring) throws(Refusal) -> Meaning {
        if Self.isDateShaped(dayWord) { return try dateTime(dayWord, timeWord) }
        guard let date = try day(dayWord), let clock = try clock(timeWord) else { throw Refusal() }
        return .wallClock(LocalDateTime(date: date, hour: clock.hour, minute: clock.minute, second: clock.second)!)
    }

    /// A date alone, nil when the word names no day.
    private func day(_ word: Substring) throws(Refusal) -> CivilDate? {
        let today = wallNow.date
        switch word {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        default: break
        }
        if let weekday = Self.weekdays[String(word)] {
            // 1…7 days ahead: the same weekday as today is a week away.
            return today.adding(days: (weekday.rawValue - today.weekday.rawValue + 6) % 7 + 1)
        }
        return try date(word)
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
                : "\(Self.monthNames[month - 1]) \(year) has only \(CivilDate.daysInMonth(year: year, month: month)) days")
        }
        return date
    }

    /// `08:50`, `8:50` or `08:50:30`; nil when the word is not of that shape,
    /// a refusal when it is but a field is out of range.
    private func clock(_ word: Substring) throws(Refusal) -> (hour: Int, minute: Int, second: Int)? {
        let fields = word.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count),
              fields.allSatisfy({ field in field.allSatisfy { $0.isASCII && $0.isWholeNumber } }),
              (1...2).contains(fields[0].count), fields.dropFirst().allSatisfy({ $0.count == 2 })
        else { return nil }
        let values = fields.map { Int($0)! }
        let second = values.count == 3 ? values[2] : 0
        guard values[0] <= 23 else {
            throw Refusal(values[0] == 24 ? "hour 24 is past 23 (write 00:00 of the next day)" : "hour \(values[0]) is past 23")
        }
        guard values[1] <= 59 else { throw Refusal("minute \(values[1]) is past 59") }
        guard second <= 59 else { throw Refusal("second \(second) is past 59") }
        return (values[0], values[1], second)
    }

    /// The next time the wall clock reads `clock`: today if that is still
    /// ahead of now, else tomorrow.
    private func next(_ clock: (hour: Int, minute: Int, second: Int)) -> LocalDateTime {
        let today = LocalDateTime(date: wallNow.date, hour: clock.hour, minute: clock.minute, second: clock.second)!
        if zone.resolve(today).instant > now { return today }
        return LocalDateTime(date: wallNow.date.adding(days: 1), hour: clock.hour, minute: clock.minute, second: clock.second)!
    }

    /// A date and a time of day, with or without a UTC offset (`Z`, `+08:00`).
    private func dateTime(_ dateWord: Substring, _ timeWord: Substring) throws(Refusal) -> Meaning {
        guard let date = try date(dateWord) else { throw Refusal() }
        guard let (clockWord, offset) = try Self.offset(timeWord) else {
            guard let clock = try clock(timeWord) else { throw Refusal() }
            return .wallClock(LocalDateTime(date: date, hour: clock.hour, minute: clock.minute, second: clock.second)!)
        }
        // RFC 3339 proper (seconds, perhaps a fraction), read by CalendarModel.
        if let (local, offset, _) = RFC3339.parse("\(dateWord)T\(timeWord)") {
            // The fraction is dropped: it is in [0, 1), so this rounds down.
            return .instant(local.localSeconds - Int64(offset))
        }
        // The same without seconds, 2026-12-01T08:50+08:00.
        guard let clock = try clock(clockWord) else { throw Refusal() }
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

    /// `+10m`, `-15m`, `+1d`: days step on the wall clock, the rest in
    /// elapsed seconds.
    private func relative(_ word: Substring) throws(Refusal) -> Int64 {
        let sign = word.first == "-" ? -1 : 1
        let body = word.dropFirst()
        guard !body.isEmpty else {
            throw Refusal("a sign needs an amount after it, as in \(sign < 0 ? "-15m" : "+10m")")
        }
        let amount = try DurationExpression.amount(body)
        var base = now
        if amount.days != 0 {
            let shifted = LocalDateTime(date: wallNow.date.adding(days: sign * amount.days),
                                        hour: wallNow.hour, minute: wallNow.minute, second: wallNow.second)!
            base = zone.resolve(shifted).instant
        }
        return base + Int64(sign * amount.seconds)
    }
}
