import CalendarModel

/// Retry-After (RFC 9110 §10.2.3) as a wait: either delay-seconds or an
/// HTTP-date. Pure: the caller gives the moment the answer came, so the
/// policy (how long is too long to honour) stays the caller's.
public enum RetryAfter {
    /// Seconds to wait from `now` (Unix seconds): the delay as sent, or the
    /// date less `now` (0 for a date already past); nil for text that is
    /// neither, so the caller falls back to its own back-off.
    public static func delay(_ text: String, now: Int64) -> Int64? {
        let value = text.trimmingWhitespace()
        if !value.isEmpty, value.allSatisfy(\.isASCIIDigit) {
            // A delay beyond what Int64 holds is "a very long time", not unreadable.
            return Int64(value) ?? Int64.max
        }
        guard let date = httpDate(String(value)) else { return nil }
        return max(0, date - now)
    }

    /// An HTTP-date as Unix seconds: the IMF-fixdate servers must send
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms a
    /// recipient must still read (RFC 850's `Sunday, 06-Nov-94 08:49:37 GMT`
    /// and asctime's `Sun Nov  6 08:49:37 1994`).
    public static func httpDate(_ text: String) -> Int64? {
        let words = text.split(separator: " ")
        let day: Int, month: Int, year: Int, clock: Substring
        switch words.count {
        case 6 where words[0].hasSuffix(",") && words[5] == "GMT":
            // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard words[1].count == 2, words[3].count == 4, let d = Int(words[1]), let m = monthNumber(words[2]), let y = Int(words[3]) else { return nil }
            (day, month, year, clock) = (d, m, y, words[4])
        case 4 where words[0].hasSuffix(",") && words[3] == "GMT":
            // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT; 00-69 read as 20xx and 70-99 as 19xx.
            let parts = words[1].split(separator: "-")
            guard parts.count == 3, parts[0].count == 2, parts[2].count == 2, let d = Int(parts[0]), let m = monthNumber(parts[1]),
                  let yy = Int(parts[2]) else { return nil }
            (day, month, year, clock) = (d, m, yy < 70 ? 2000 + yy : 1900 + yy, words[2])
        case 5:
            // asctime: Sun Nov  6 08:49:37 1994 (split drops the second space before a one-digit day)
            guard let m = monthNumber(words[1]), let d = Int(words[2]), words[2].count <= 2, words[4].count == 4, let y = Int(words[4]) else { return nil }
            (day, month, year, clock) = (d, m, y, words[3])
        default:
            return nil
        }
        let time = clock.split(separator: ":")
        guard time.count == 3, time.allSatisfy({ $0.count == 2 }), let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
              hour < 24, minute < 60, second <= 60, (1...9999).contains(year),
              (1...CivilDate.daysInMonth(year: year, month: month)).contains(day) else { return nil }
        let days = Int64(CivilDate.dayNumber(year: year, month: month, day: day))
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    private static func monthNumber(_ name: Substring) -> Int? {
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return names.firstIndex(of: String(name)).map { $0 + 1 }
    }
}
