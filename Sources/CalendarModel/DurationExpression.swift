/// A length of time as a person types it: `30s`, `10m`, `2h`, `1d`, `1w`, a
/// run of them from the largest unit to the smallest, `1h30m`, `1d12h`, or
/// the same in words, `10 minutes`, `1 hour 30 minutes`, `an hour`.
///
/// - Units: `s` seconds, `m` minutes, `h` hours, `d` days of 86,400 s, `w`
///   weeks of 7 days, or their names (`sec`, `secs`, `second`, `seconds`;
///   `min`, `mins`, `minute`, `minutes`; `hr`, `hrs`, `hour`, `hours`;
///   `day`, `days`; `wk`, `wks`, `week`, `weeks`); upper case reads the same
///   (`10M` is ten minutes). `m` is minutes: months and years have no fixed
///   length and are refused.
/// - Each unit at most once, largest first; whole numbers only (`90m`, not
///   `1.5h`). Spaces may stand between amounts and units (`1h 30m`,
///   `1 hour and 30 minutes`); `a` or `an` is one (`an hour`).
/// - A bare number (`10`) is refused: minutes or hours would both be guesses.
///   Zero is the exception: `0` is zero in any unit (an alarm at the time itself).
/// - A leading `+` is allowed; a leading `-` only when the caller allows it
///   (an alarm `-10m` before the start).
/// - At most `maximumSeconds` (366 days) either way, so no sum can overflow.
///
/// A duration is elapsed time: `1d` is always 86,400 s. A *relative time*
/// (`+1d` in `TimeExpression`) is different: there a day is a calendar day.
public struct DurationExpression: Hashable, Sendable {
    /// 366 days, in seconds: the longest duration accepted either way.
    public static let maximumSeconds = 366 * 86_400

    /// The text as the user gave it, untrimmed.
    public let text: String
    /// The length in seconds; negative only when the caller allowed it.
    public let seconds: Int

    /// Reads a duration. Leading and trailing whitespace is ignored.
    public init(_ text: String, allowingNegative: Bool = false) throws(TimeExpressionError) {
        self.text = text
        let expected: TimeExpressionError.Expected = allowingNegative ? .signedDuration : .duration
        do throws(TimeExpressionRefusal) {
            seconds = try Self.read(text, allowingNegative: allowingNegative)
        } catch {
            throw TimeExpressionError(text: text, expected: expected, reason: error.reason)
        }
    }

    private static func read(_ text: String, allowingNegative: Bool) throws(TimeExpressionRefusal) -> Int {
        var body = Substring(text.lowercased()).trimmingWhitespace()
        guard !body.isEmpty else { throw TimeExpressionRefusal("it is empty") }
        var sign = 1
        if body.first == "+" || body.first == "-" {
            sign = body.first == "-" ? -1 : 1
            body = body.dropFirst()
            guard !body.isEmpty else { throw TimeExpressionRefusal("a sign needs an amount after it, as in \(sign < 0 ? "-" : "+")10m") }
        }
        if body.allSatisfy({ $0 == "0" }) { return 0 }
        let amount = try amount(words: body.split(whereSeparator: \.isWhitespace))
        if sign < 0 && !allowingNegative {
            throw TimeExpressionRefusal("a negative duration is not allowed here")
        }
        return sign * (amount.days * 86_400 + amount.seconds)
    }

    /// The units, largest first, with their length (days for `w` and `d`,
    /// seconds for the rest) and the names each may be written as.
    private static let units: [(days: Int, seconds: Int, names: Set<String>)] = [
        (7, 0, ["w", "wk", "wks", "week", "weeks"]), (1, 0, ["d", "day", "days"]),
        (0, 3600, ["h", "hr", "hrs", "hour", "hours"]), (0, 60, ["m", "min", "mins", "minute", "minutes"]),
        (0, 1, ["s", "sec", "secs", "second", "seconds"]),
    ]

    /// Names of units a duration cannot have, to say why rather than only "unknown".
    private static let unfixedUnits: Set<String> = ["mo", "mon", "month", "months", "y", "yr", "yrs", "year", "years"]

    /// Reads an amount typed as several words, `1 hour 30 minutes`,
    /// `1h 30m`, `an hour`: `and` and commas between them are left out and
    /// `a` or `an` before a unit is one; then as `amount(_:)`.
    package static func amount(words: [Substring]) throws(TimeExpressionRefusal) -> (days: Int, seconds: Int) {
        var text: [Substring] = []
        for (index, word) in words.enumerated() {
            let word = word.last == "," ? word.dropLast() : word
            guard word != "and" else { continue }
            // Before a unit only: a lone `a` is no number.
            text.append((word == "a" || word == "an") && index + 1 < words.count ? "1" : word)
        }
        return try amount(Substring(text.joined(separator: " ")))
    }

    /// Reads an unsigned run of amounts such as `1d2h30m` or `1 d 2 h`
    /// (already lower case; spaces may stand between amounts and units), keeping calendar units (weeks, days) apart from clock units
    /// (hours, minutes, seconds): a relative time steps days on the wall
    /// clock. Refuses a total beyond `maximumSeconds`, counting a day as
    /// 86,400 s.
    package static func amount(_ text: Substring) throws(TimeExpressionRefusal) -> (days: Int, seconds: Int) {
        let bytes = Array(text.utf8)
        // Any number at or past this is already beyond the bound; capping
        // the digits read keeps every product and sum far from overflow.
        let cap = 1_000_000_000
        var index = 0
        var nextUnit = 0
        var days = 0
        var seconds = 0
        let space = UInt8(ascii: " ")
        while index < bytes.count {
            if bytes[index] == space {
                index += 1
                continue
            }
            var value = 0
            let numberStart = index
            while index < bytes.count, let digit = Self.digit(bytes[index]) {
                value = min(value * 10 + digit, cap)
                index += 1
            }
            let atDecimalPoint = index < bytes.count && (bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ","))
            if atDecimalPoint {
                throw TimeExpressionRefusal("use whole numbers, as in 90m or 1h30m")
            }
            guard index > numberStart else { throw TimeExpressionRefusal() }
            let numberEnd = index
            while index < bytes.count, bytes[index] == space { index += 1 }
            let unitStart = index
            while index < bytes.count, Self.isLetter(bytes[index]) { index += 1 }
            guard index > unitStart else {
                if index < bytes.count { throw TimeExpressionRefusal() }
                let number = String(decoding: bytes[numberStart..<numberEnd], as: UTF8.self)
                throw TimeExpressionRefusal(numberStart == 0
                    ? "a bare number is ambiguous; give a unit, as in \(number)m or \(number)h"
                    : "'\(number)' has no unit (s, m, h, d or w)")
            }
            let name = String(decoding: bytes[unitStart..<index], as: UTF8.self).lowercased()
            guard let position = units.firstIndex(where: { $0.names.contains(name) }) else {
                if unfixedUnits.contains(name) {
                    throw TimeExpressionRefusal("'\(name)': months and years have no fixed length (the units are s, m, h, d and w)")
                }
                throw TimeExpressionRefusal("unknown unit '\(name)' (the units are s, m, h, d and w)")
            }
            guard position >= nextUnit else {
                throw TimeExpressionRefusal("give each unit once, largest first, as in 1h30m")
            }
            nextUnit = position + 1
            days += value * units[position].days
            seconds += value * units[position].seconds
        }
        guard days * 86_400 + seconds <= maximumSeconds else {
            throw TimeExpressionRefusal("the most Chime accepts is 366 days")
        }
        return (days, seconds)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}

extension Substring {
    /// Without leading and trailing whitespace (spaces, tabs, newlines).
    package func trimmingWhitespace() -> Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
