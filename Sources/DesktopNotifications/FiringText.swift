import AlarmScheduler
import CalendarModel
import RecurrenceEngine

/// The words a notification shows for a firing: pure functions of the
/// firing, the zone it is read in and the moment it is shown, so that every
/// line is tested without a notification server.
public enum FiringText {
    /// Escapes text for the body markup of the notification specification
    /// (a subset of XML). `&`, `<` and `>` are the three that matter: an
    /// unescaped `&` makes some servers drop the whole body, and a `<` starts
    /// a tag. Quotes are left alone: they only need escaping inside
    /// attributes, which user text never lands in, and `&apos;` is not
    /// understood by every server (it is XML, not HTML 4). NUL, which would
    /// cut the C string short, becomes U+FFFD.
    public static func escapeMarkup(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\u{0}": escaped.unicodeScalars.append("\u{FFFD}")
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// The summary: the item's title as plain text. The specification gives
    /// the summary no markup, so it is not escaped (servers that render it
    /// escape it themselves, dunst and GNOME Shell among them); only NUL is
    /// replaced. An empty title becomes "(untitled)": libnotify refuses an
    /// empty summary.
    public static func summary(for firing: Firing) -> String {
        let title = firing.title.replacingNUL()
        return title.trimmingSpaces().isEmpty ? "(untitled)" : title
    }

    /// The body, in markup: when (or "missed, was due …" for a late firing;
    /// the crossing and its time for a location alarm), then the location,
    /// then the notes, each on its own line and escaped.
    /// Empty pieces leave no empty line.
    ///
    /// - Parameters:
    ///   - late: the firing is shown after its time (the machine was off or asleep).
    ///   - zone: the zone the person reads times in (the machine's).
    ///   - now: the moment of showing, Unix seconds: a late firing due today
    ///     shows the time alone, one from another day its day too.
    public static func body(for firing: Firing, late: Bool, zone: TimeZoneRules, now: Int64) -> String {
        var lines: [String] = []
        if firing.crossing != nil, let crossing = firing.explanation {
            // A location alarm rings where, not when: "left Office at 17:32".
            lines.append(escapeMarkup(crossing.replacingNUL()) + " at " + when(firing, zone: zone, now: now, omitToday: true))
        } else if late {
            lines.append("missed, was due " + when(firing, zone: zone, now: now, omitToday: true))
        } else {
            lines.append(when(firing, zone: zone, now: now, omitToday: false))
        }
        if firing.interrupted { lines.append("shown again: the daemon stopped while showing it") }
        for piece in [firing.location, firing.notes] {
            let trimmed = piece.trimmingSpaces()
            if !trimmed.isEmpty { lines.append(escapeMarkup(trimmed)) }
        }
        return lines.joined(separator: "\n")
    }

    /// When the occurrence is: its start (events) or due time (reminders),
    /// read in `zone`, as `Tue 1 Dec 08:50`; the day alone for an all-day
    /// one; the alarm's own instant for an alarm with no occurrence. The year
    /// is added when it is not the year of `now`; `omitToday` drops the day
    /// when it is `now`'s day.
    public static func when(_ firing: Firing, zone: TimeZoneRules, now: Int64, omitToday: Bool) -> String {
        let today = zone.localTime(at: now).date
        if let occurrence = firing.occurrence, occurrence.isAllDay {
            return dayText(occurrence.day, today: today)
        }
        let local = zone.localTime(at: firing.occurrence?.instant ?? firing.crossingInstant ?? firing.instant)
        let time = CivilDate.twoDigits(local.hour) + ":" + CivilDate.twoDigits(local.minute)
        if omitToday && local.date == today { return time }
        return dayText(local.date, today: today) + " " + time
    }

    /// The Snooze button's label: `Snooze 10 min`, `Snooze 1 h`, `Snooze 90 s`.
    public static func snoozeLabel(seconds: Int64) -> String {
        if seconds > 0, seconds % 3600 == 0 { return "Snooze \(seconds / 3600) h" }
        if seconds > 0, seconds % 60 == 0 { return "Snooze \(seconds / 60) min" }
        return "Snooze \(seconds) s"
    }

    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Tue 1 Dec`, or `Tue 1 Dec 2026` outside `today`'s year. English
    /// names: the rest of Chime speaks English, and a locale-dependent
    /// format would make the daemon's output depend on its environment.
    static func dayText(_ date: CivilDate, today: CivilDate) -> String {
        var text = weekdayNames[date.weekday.rawValue] + " \(date.day) " + monthNames[date.month - 1]
        if date.year != today.year { text += " \(date.year)" }
        return text
    }
}

extension String {
    func replacingNUL() -> String {
        guard contains("\u{0}") else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
    }

    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
