/// A time or duration the user typed that Chime cannot read. The message
/// names the text, says why when it can, and lists the forms that work:
///
///     '2026-02-30' is not a date or time: February 2026 has only 28 days (try 2026-12-01, …)
///
/// The command line reports it as a data error (exit status 65).
public struct TimeExpressionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the text was read as.
    public enum Expected: Hashable, Sendable {
        /// A date, a wall-clock time or an instant (`TimeExpression`).
        case time
        /// A length of time that may not be negative (`DurationExpression`).
        case duration
        /// A length of time that may be negative, such as an alarm's offset
        /// before the start.
        case signedDuration
    }

    /// The text as the user gave it, untrimmed.
    public var text: String
    public var expected: Expected
    /// Why the text was refused, when that is more than "not one of the forms".
    public var reason: String?

    public var description: String {
        let what: String, forms: String
        switch expected {
        case .time:
            what = "is not a date or time"
            forms = "try 2026-12-01, 2026-12-01T08:50, 08:50, 9am, tomorrow, 'friday 5pm', 'dec 24', +10m, 'in 10 minutes', or RFC 3339 with an offset"
        case .duration:
            what = "is not a duration"
            forms = "try 30s, 10m, 2h, 1d, 1w, 1h30m or '10 minutes'"
        case .signedDuration:
            what = "is not a duration"
            forms = "try 10m, -10m, +10m, 1h30m, '10 minutes before' or '1 hour after'; the units are s, m, h, d and w"
        }
        return "'\(text)' \(what)\(reason.map { ": " + $0 } ?? "") (\(forms))"
    }
}

/// Why a parser refused some text; the public parsers turn it into a
/// `TimeExpressionError` naming the whole text.
package struct TimeExpressionRefusal: Error {
    package var reason: String?
    package init(_ reason: String? = nil) { self.reason = reason }
}
