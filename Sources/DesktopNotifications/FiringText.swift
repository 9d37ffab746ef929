import AlarmScheduler
import CalendarModel
import RecurrenceEngine

/// The words a notification shows for a firing: pure functions of the
/// firing, the zone it is read in, the moment it is shown and the language
/// of its own words, so that every line is tested without a notification
/// server.
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
    public static func summary(for firing: Firing, language: NotificationLanguage = .english) -> String {
        let title = firing.title.replacingNUL()
        return title.trimmingSpaces().isEmpty ? language.untitled : title
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
    ///   - language: the language of the body's own words.
    public static func body(for firing: Firing, late: Bool, zone: TimeZoneRules, now: Int64,
                            language: NotificationLanguage = .english) -> String {
        var lines: [String] = []
        let when = { (omitToday: Bool) in Self.when(firing, zone: zone, now: now, omitToday: omitToday, language: language) }
        if let crossing = firing.crossing, let place = firing.crossingPlace {
            // A location alarm rings where, not when: "left Office at 17:32".
            lines.append(language.crossing(leaving: crossing.hasPrefix("leave@"), place: escapeMarkup(place.replacingNUL()), at: when(true)))
        } else if firing.crossing != nil, let crossing = firing.explanation {
            // Shown by a version that kept the crossing as English text only.
            lines.append(escapeMarkup(crossing.replacingNUL()) + " at " + when(true))
        } else if late {
            lines.append(language.missed(due: when(true)) + lunar(firing, language))
        } else {
            lines.append(when(false) + lunar(firing, language))
        }
        if firing.interrupted { lines.append(language.interrupted) }
        for piece in [firing.location, firing.notes] {
            let trimmed = piece.trimmingSpaces()
            if !trimmed.isEmpty { lines.append(escapeMarkup(trimmed)) }
        }
        return lines.joined(separator: "\n")
    }

    /// The occurrence's day in the Chinese calendar, after a space, for an
    /// item that repeats by it (`(lunar 3/8)`, `（农历三月初八）`); else nothing.
    static func lunar(_ firing: Firing, _ language: NotificationLanguage) -> String {
        guard firing.countsInChineseCalendar, let occurrence = firing.occurrence,
              let date = ChineseCalendar.date(of: occurrence.scheduledTime.date) else { return "" }
        return (language == .english ? " " : "") + language.lunarDate(date)
    }

    /// When the occurrence is: its start (events) or due time (reminders),
    /// read in `zone`, as `Tue 1 Dec 08:50`; the day alone for an all-day
    /// one; the alarm's own instant for an alarm with no occurrence. The year
    /// is added when it is not the year of `now`; `omitToday` drops the day
    /// when it is `now`'s day.
    public static func when(_ firing: Firing, zone: TimeZoneRules, now: Int64, omitToday: Bool,
                            language: NotificationLanguage = .english) -> String {
        let today = zone.localTime(at: now).date
        if let occurrence = firing.occurrence, occurrence.isAllDay {
            return language.day(occurrence.day, today: today)
        }
        let local = zone.localTime(at: firing.occurrence?.instant ?? firing.crossingInstant ?? firing.instant)
        let time = CivilDate.twoDigits(local.hour) + ":" + CivilDate.twoDigits(local.minute)
        if omitToday && local.date == today { return time }
        return language.day(local.date, today: today) + " " + time
    }

    /// The Snooze button's label: `Snooze 10 min`, `Snooze 1 h`, `Snooze 90 s`; `10分钟后提醒`.
    public static func snoozeLabel(seconds: Int64, language: NotificationLanguage = .english) -> String {
        language.snooze(seconds: seconds)
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
