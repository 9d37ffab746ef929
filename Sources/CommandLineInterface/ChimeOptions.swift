import CalendarModel

/// Every option of `chime`, declared once: its names, placeholder, help and
/// the values it takes. Commands list these in their `CommandSyntax` (with
/// `with(help:)` where one command words the help its own way) and read
/// them back by the same declaration, never by a string.
enum ChimeOptions {
    // MARK: The store

    static let db = Option("--db", value: "PATH", help: """
        the store (default: $CHIME_DB, else $XDG_DATA_HOME/chime/chime.db,
        else ~/.local/share/chime/chime.db)
        """)
    static let json = Flag("--json", help: "print one JSON document on standard output instead of text")

    /// What every store command takes, last in its help.
    static let store: [any DeclaredOption] = [db, json]

    // MARK: Time and zone

    static let tz = Option("--tz", value: "ZONE", help: "the IANA zone its times are in (default: the machine's)")
    static let floating = Flag("--floating", help: "times that follow whatever zone the machine is in")
    static let zone: [any DeclaredOption] = [tz, floating]

    // MARK: Item fields

    static let title = Option("--title", value: "TEXT", help: "a new title")
    static let notes = Option("--notes", value: "TEXT", help: "notes")
    static let location = Option("--location", value: "TEXT", help: "where, as text")
    static let url = Option("--url", value: "URL", help: "a link (with a scheme: https://…)")
    static let calendar = Option("--calendar", value: "NAME", help: "the calendar (default: the one for new events)")
    static let key = Option("--key", value: "KEY", help: """
        a key of your own, unique in the calendar: adding again with
        the same key updates that item instead of adding another
        """)
    static let repeatRule = Option("--repeat", value: "RRULE", help: """
        repeat by an RFC 5545 rule, e.g. 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
        \(RuleShorthand.wordsHelp)
        """)
    static let exdate = Option("--exdate", value: "WHEN", help: """
        leave out the occurrence at WHEN (a date: that day's
        occurrence); repeatable, or comma-separated
        """, repeatable: true)
    static let start = Option("--start", value: "WHEN", help: "when it starts; a date alone makes an all-day event")
    static let end = Option("--end", value: "WHEN", help: "when it ends (all-day: the last day, inclusive)")
    static let duration = Option("--duration", value: "DURATION", help: "how long it lasts: 30m, 1h30m, 2d (default 1h; all-day: 1d)")
    static let allDay = Flag("--all-day", help: "an all-day event on the day of --start")
    static let due = Option("--due", value: "WHEN", help: "when it is due: a date alone (due that day) or a time")
    static let priority = Option("--priority", value: "N", help: "0 none, 1 highest … 9 lowest, or none, high (1), medium (5), low (9)")

    // MARK: Alarms

    static let alarm = Option("--alarm", value: "OFFSET", help: """
        an alarm OFFSET from the start (events) or due time (reminders):
        10m or -10m is ten minutes before, +10m ten minutes after,
        0 at the time; also in words, '10 minutes before', '1h after',
        'at the time';
        repeatable
        """, repeatable: true)
    static let alarmAt = Option("--alarm-at", value: "WHEN", help: "an alarm at a moment; repeatable", repeatable: true)
    static let alarmArrive = Option("--alarm-arrive", value: "LAT,LON[,RADIUS]", help: """
        an alarm on arriving within RADIUS metres (default 100, at most
        1000000) of a place, in decimal degrees, e.g. 31.2304,121.4737,200;
        or here[,RADIUS]: the newest position taken (chime location), if
        at most 30 minutes old; or a place's name[,RADIUS] (chime places);
        repeatable
        """, repeatable: true)
    static let alarmLeave = Option("--alarm-leave", value: "LAT,LON[,RADIUS]", help: """
        an alarm on leaving that circle ('--alarm-leave here': when you
        leave where you are); repeatable
        """, repeatable: true)
    static let missedWindow = Option("--missed-window", value: "DURATION|never|default", help: """
        how late the item's alarms are still shown when they came due
        while the machine was off or asleep (the daemon's default: 4h);
        never: only recorded, see 'chime missed'
        """)
    static let dwell = Option("--dwell", value: "DURATION", help: """
        arrive alarms ring only after the position stayed inside that
        long (e.g. 5m; 0: at once, the default)
        """)
    static let firstPosition = Option("--first-position", value: "rings|quiet", help: """
        whether the first position after chimed starts rings a
        location alarm when it finds you already there (inside for
        arrive, outside for leave); quiet (the default) only notes it
        """)
    /// The options that make alarms (not those that qualify them).
    static let alarmMakers = [alarm, alarmAt, alarmArrive, alarmLeave]
    /// The alarm options `add` and `edit` share.
    static let alarms: [any DeclaredOption] = [alarm, alarmAt, alarmArrive, alarmLeave, missedWindow, dwell, firstPosition]
    static let noAlarm = Flag("--no-alarm", help: """
        no alarm: without any alarm option, a reminder with a due
        time rings at it, and one due on a date rings at 09:00 that
        day (CHIME_DAY_ALARM=HH:MM sets another time)
        """)
    static let noAlarms = Flag("--no-alarms", help: "remove every alarm")

    // MARK: Occurrences

    static let occurrence = Option("--occurrence", value: "WHEN", help: """
        of a repeating event, the occurrence the series
        scheduled at WHEN (a date: that day's), with any change
        made to it alone
        """)
    static let span = Option("--span", value: "this|future", help: """
        this: only that occurrence (the default); future: that
        occurrence and every later one
        """)

    // MARK: Listings

    static let from = Option("--from", value: "WHEN", help: "the start of the range (a date: its midnight)")
    static let to = Option("--to", value: "WHEN", help: "the end of the range, excluded (a date: the end of that day)")
    static let calendars = Option("--calendar", value: "NAME", help: "only this calendar; repeatable (default: all)", repeatable: true)
    static let incomplete = Flag("--incomplete", help: "reminders not completed (the default)")
    static let completed = Flag("--completed", help: "completed reminders")
    static let all = Flag("--all", help: "every reminder, completed or not")
    /// `--count N`, a whole number in `range` (refused otherwise, at parse time).
    static func count(in range: ClosedRange<Int>, help: String) -> Option<Int> {
        Option("--count", short: "-n", value: "N", help: help,
               expected: range.upperBound == .max ? "a whole number" : "a whole number from \(range.lowerBound) to \(range.upperBound)",
               convert: { Int($0).flatMap { range.contains($0) ? $0 : nil } })
    }
    static let after = Option("--after", value: "WHEN", help: "from this moment on instead of now")

    // MARK: Other commands

    static let rdate = Option("--rdate", value: "DATE", help: "add an occurrence (RDATE); repeatable, or comma-separated",
                              repeatable: true)
    static let accuracy = Option("--accuracy", value: "METRES", help: "how far off the position may be (default: exact)")
    static let at = Option("--at", value: "WHEN", help: "when the position was taken (default: now)")
    static let stdin = Flag("--stdin", help: "read positions from standard input")
    static let status = Flag("--status", help: "show the last position and each location alarm's state")
    static let dismiss = Flag("--dismiss", help: "drop a pending snooze")
    static let color = Option("--color", value: "#RRGGBB", help: "the calendar's colour (add)")
    static let yes = Flag("--yes", short: "-y", help: "remove the calendar's items with it (remove)")
    static let region = Option("--region", value: "CODE", help: "the workday calendar").defaulting(to: "cn", shown: "cn, the only one so far")
    static let year = Option("--year", value: "YEAR", help: "the year to list")
}
