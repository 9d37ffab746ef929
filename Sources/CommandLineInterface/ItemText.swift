import CalendarModel
import CalendarStore
import Foundation

/// How items read on a terminal: one short line each in listings
/// (`Tue 12-01 08:50–09:00  Stand-up  [3fa2c1d0]`), every field in `show`.
/// Times are shown on the machine's wall clock.
struct ItemText {
    /// The zone times are shown in (the machine's).
    let zone: TimeZoneRules
    /// The current time, in Unix seconds, for "overdue".
    let now: Int64

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// `Tue 12-01`.
    static func day(_ date: CivilDate) -> String {
        "\(weekdays[date.weekday.rawValue]) \(CivilDate.twoDigits(date.month))-\(CivilDate.twoDigits(date.day))"
    }

    /// `08:50`.
    static func clock(_ time: LocalDateTime) -> String { "\(CivilDate.twoDigits(time.hour)):\(CivilDate.twoDigits(time.minute))" }

    /// `Tue 2026-12-01 08:50` (with the zone's name when it is not the display zone).
    func full(_ time: ItemTime) -> String {
        switch time {
        case .date(let date): return "\(Self.weekdays[date.weekday.rawValue]) \(date)"
        case .floating(let local): return "\(Self.weekdays[local.date.weekday.rawValue]) \(local.date) \(Self.clock(local)) (floating)"
        case .zoned(let local, let name, let fold):
            // The second of a fold's two readings says so: both read 01:30.
            let text = "\(Self.weekdays[local.date.weekday.rawValue]) \(local.date) \(Self.clock(local))"
                + (fold == .later ? " (the second \(Self.clock(local)))" : "")
            return name == zone.identifier ? text : "\(text) \(name)"
        }
    }

    /// A listing line: day, an 11-wide time column, title, short identifier.
    static func line(day: String, time: String, title: String, identifier: ItemIdentifier, note: String? = nil) -> String {
        let column = time.count < 11 ? time + String(repeating: " ", count: 11 - time.count) : time
        return "\(day) \(column)  \(title)\(note.map { " (\($0))" } ?? "")  [\(identifier.short)]"
    }

    /// The instant an item time names, dates and floating times read on the display zone.
    func instant(_ time: ItemTime) -> Int64 { (try? time.instant(machine: zone)) ?? 0 }

    func line(_ event: Event) -> String {
        if case .date(let first) = event.start {
            var time = "all day"
            if case .date(let last) = event.end, last > first { time = "to \(Self.day(last))" }
            return Self.line(day: Self.day(first), time: time, title: event.title, identifier: event.identifier)
        }
        let start = zone.localTime(at: instant(event.start))
        let end = zone.localTime(at: instant(event.end))
        var time = "\(Self.clock(start))–\(Self.clock(end))"
        if end.date != start.date { time += " +\(end.date.dayNumber - start.date.dayNumber)d" }
        return Self.line(day: Self.day(start.date), time: time, title: event.title, identifier: event.identifier)
    }

    func line(_ reminder: Reminder) -> String {
        let note = note(reminder)
        guard let due = reminder.due else {
            return Self.line(day: "anytime  ", time: "", title: reminder.title, identifier: reminder.identifier, note: note)
        }
        if case .date(let date) = due {
            return Self.line(day: Self.day(date), time: "", title: reminder.title, identifier: reminder.identifier, note: note)
        }
        let local = zone.localTime(at: instant(due))
        return Self.line(day: Self.day(local.date), time: Self.clock(local), title: reminder.title, identifier: reminder.identifier, note: note)
    }

    /// What a listing says of a reminder after its title: done (when), overdue, or nothing.
    func note(_ reminder: Reminder) -> String? {
        if reminder.isCompleted {
            return reminder.completionDate.map { "done \(Self.day(zone.localTime(at: Int64($0.timeIntervalSince1970)).date))" } ?? "done"
        }
        return isOverdue(reminder) ? "overdue" : nil
    }

    // MARK: Found

    /// A `chime find` line: the kind, the day with its year (items of any
    /// time are found) and the time on the machine's wall clock, the title,
    /// the short identifier.
    ///
    ///     event     Mon 2026-12-07 09:00  Stand-up (repeats)  [3fa2c1d0]
    func found(_ event: Event) -> String {
        Self.found(kind: "event", when: stamp(event.start), title: event.title, identifier: event.identifier,
                   note: event.recurrenceRule == nil ? nil : "repeats")
    }

    func found(_ reminder: Reminder) -> String {
        Self.found(kind: "reminder", when: reminder.due.map(stamp) ?? "anytime", title: reminder.title,
                   identifier: reminder.identifier, note: note(reminder))
    }

    /// `Mon 2026-12-07 09:00`, or `Mon 2026-12-07` for a date.
    func stamp(_ time: ItemTime) -> String {
        if case .date(let date) = time { return "\(Self.weekdays[date.weekday.rawValue]) \(date)" }
        let local = zone.localTime(at: instant(time))
        return "\(Self.weekdays[local.date.weekday.rawValue]) \(local.date) \(Self.clock(local))"
    }

    static func found(kind: String, when: String, title: String, identifier: ItemIdentifier, note: String?) -> String {
        let pad = { (text: String, width: Int) in text.count < width ? text + String(repeating: " ", count: width - text.count) : text }
        return "\(pad(kind, 8))  \(pad(when, 20))  \(title)\(note.map { " (\($0))" } ?? "")  [\(identifier.short)]"
    }

    /// Not completed, and due before now (a date: before today).
    func isOverdue(_ reminder: Reminder) -> Bool {
        guard !reminder.isCompleted, let due = reminder.due else { return false }
        if case .date(let date) = due { return date < zone.localTime(at: now).date }
        return instant(due) < now
    }

    // MARK: Every field

    /// A rule's text; a Chinese-calendar one with the Chinese date it
    /// starts from, which its RRULE does not say (`RSCALE=CHINESE;FREQ=YEARLY
    /// (from 农历三月初八)`).
    static func repeats(_ rule: RecurrenceRule, from start: ItemTime?) -> String {
        guard rule.scale == .chinese, let start, let date = ChineseCalendar.date(of: start.wallClock.date) else { return rule.rfc5545 }
        return rule.rfc5545 + " (from " + date.lunarMonthAndDay + ")"
    }

    func details(_ event: Event, calendar: String) -> [String] {
        var rows: [(String, String)] = [("Event", event.title), ("Calendar", calendar)]
        if event.isAllDay {
            rows.append(("Start", full(event.start)))
            rows.append(("End", full(event.end) + " (inclusive)"))
        } else {
            rows.append(("Start", full(event.start)))
            rows.append(("End", full(event.end)))
        }
        if let rule = event.recurrenceRule { rows.append(("Repeats", Self.repeats(rule, from: event.start))) }
        if !event.exceptionDates.isEmpty {
            rows.append(("Except", event.exceptionDates.map { event.isAllDay ? $0.date.description : $0.description }.joined(separator: ", ")))
        }
        if !event.extraDates.isEmpty {
            rows.append(("Also", event.extraDates.map { event.isAllDay ? $0.date.description : $0.description }.joined(separator: ", ")))
        }
        if let series = event.seriesIdentifier {
            rows.append(("Occurrence of", series.rawValue + (event.originalStart.map { " at \($0)" } ?? "")))
        }
        if !event.location.isEmpty { rows.append(("Location", event.location)) }
        if let url = event.url { rows.append(("URL", url)) }
        if !event.notes.isEmpty { rows.append(("Notes", event.notes)) }
        rows += event.alarms.map { ("Alarm", alarm($0, allDay: event.start.isDateOnly)) }
        if let key = event.externalKey { rows.append(("Key", key)) }
        rows.append(("ID", event.identifier.rawValue))
        return Self.table(rows)
    }

    func details(_ reminder: Reminder, calendar: String) -> [String] {
        var rows: [(String, String)] = [("Reminder", reminder.title), ("Calendar", calendar)]
        if let start = reminder.start { rows.append(("Start", full(start))) }
        rows.append(("Due", reminder.due.map(full) ?? "no due date"))
        if let rule = reminder.recurrenceRule { rows.append(("Repeats", Self.repeats(rule, from: reminder.due ?? reminder.start))) }
        if reminder.priority != 0 { rows.append(("Priority", "\(reminder.priority) (\(Self.priorityName(reminder.priority)))")) }
        if !reminder.location.isEmpty { rows.append(("Location", reminder.location)) }
        if let url = reminder.url { rows.append(("URL", url)) }
        if reminder.isCompleted {
            let when = reminder.completionDate.map { full(.zoned(zone.localTime(at: Int64($0.timeIntervalSince1970)), zone: zone.identifier)) }
            rows.append(("Completed", when ?? "yes"))
        } else if isOverdue(reminder) {
            rows.append(("Status", "overdue"))
        }
        if !reminder.notes.isEmpty { rows.append(("Notes", reminder.notes)) }
        rows += reminder.alarms.map { ("Alarm", alarm($0, allDay: reminder.due?.isDateOnly == true)) }
        if let key = reminder.externalKey { rows.append(("Key", key)) }
        rows.append(("ID", reminder.identifier.rawValue))
        return Self.table(rows)
    }

    static func priorityName(_ priority: Int) -> String {
        switch priority {
        case 1...4: "high"
        case 5: "medium"
        case 6...9: "low"
        default: "none"
        }
    }

    /// An alarm as a person says it; `allDay`: of an item on a date, whose
    /// offsets count from its local midnight ("at 09:00 on the day").
    func alarm(_ alarm: Alarm, allDay: Bool = false) -> String { alarm.text(in: zone, allDay: allDay) }

    /// One line a row. The notes' lines (LF) go on lines of their own
    /// under the first, indented: there a line break is the text's. Any
    /// other value is one line whatever it holds (its control characters
    /// escaped when printed), so that a title cannot forge a row.
    static func table(_ rows: [(String, String)]) -> [String] {
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        let indent = String(repeating: " ", count: width)
        return rows.flatMap { row -> [String] in
            let lines = row.0 == "Notes" ? row.1.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [row.1]
            return [(row.0 + ":").padding(toLength: width, withPad: " ", startingAt: 0) + lines[0]] + lines.dropFirst().map { indent + $0 }
        }
    }
}
