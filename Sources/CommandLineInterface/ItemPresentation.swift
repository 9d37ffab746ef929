import CalendarModel
import CalendarStore
import Foundation

/// How items read on a terminal and in `--json`.
enum ItemPresentation {
    static func json(_ calendar: ItemCalendar) -> [String: Any] {
        var value: [String: Any] = ["id": calendar.identifier.rawValue, "title": calendar.title, "color": calendar.color,
                                    "writable": calendar.allowsContentModifications]
        if case .subscribed(let url) = calendar.kind { value["subscription"] = url }
        return value
    }

    static func json(_ time: ItemTime?, zone: TimeZoneRules) -> Any {
        guard let time else { return NSNull() }
        switch time {
        case .date(let date): return ["date": date.description]
        case .floating(let local): return ["local": local.description, "floating": true]
        case .zoned(let local, let name):
            let rules = (try? TimeZoneRules.named(name)) ?? zone
            let offset = rules.offset(at: rules.resolve(local).instant)
            return ["local": local.description, "zone": name,
                    "instant": local.description + offsetText(offset)]
        }
    }

    static func json(_ alarm: Alarm) -> [String: Any] {
        switch alarm.trigger {
        case .absolute(let date): return ["at": Int64(date.timeIntervalSince1970)]
        case .relative(let seconds): return ["offset": seconds]
        case .proximity(let place, let proximity):
            return [proximity.rawValue: ["title": place.title, "latitude": place.latitude, "longitude": place.longitude, "radius": place.radius]]
        }
    }

    static func json(_ event: Event, zone: TimeZoneRules) -> [String: Any] {
        var value: [String: Any] = [
            "id": event.identifier.rawValue, "type": "event", "calendar": event.calendarIdentifier.rawValue,
            "title": event.title, "location": event.location, "notes": event.notes,
            "start": json(event.start, zone: zone), "end": json(event.end, zone: zone),
            "alarms": event.alarms.map(json), "allDay": event.isAllDay,
        ]
        if let url = event.url { value["url"] = url }
        if let rule = event.recurrenceRule { value["repeat"] = rule.rfc5545 }
        if let key = event.externalKey { value["key"] = key }
        if let series = event.seriesIdentifier { value["series"] = series.rawValue }
        if let original = event.originalStart { value["originalStart"] = original.description }
        return value
    }

    static func json(_ reminder: Reminder, zone: TimeZoneRules) -> [String: Any] {
        var value: [String: Any] = [
            "id": reminder.identifier.rawValue, "type": "reminder", "calendar": reminder.calendarIdentifier.rawValue,
            "title": reminder.title, "notes": reminder.notes, "priority": reminder.priority,
            "start": json(reminder.start, zone: zone), "due": json(reminder.due, zone: zone),
            "completed": reminder.isCompleted, "alarms": reminder.alarms.map(json),
        ]
        if let date = reminder.completionDate { value["completionDate"] = Int64(date.timeIntervalSince1970) }
        if let rule = reminder.recurrenceRule { value["repeat"] = rule.rfc5545 }
        if let key = reminder.externalKey { value["key"] = key }
        return value
    }

    static func offsetText(_ offset: Int32) -> String {
        let magnitude = Int(offset.magnitude)
        return (offset < 0 ? "-" : "+") + String(format: "%02d:%02d", magnitude / 3600, magnitude / 60 % 60)
    }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// `Tue 12-01 08:50–09:15`, read on the machine's wall clock; all-day items show the day only.
    static func line(_ event: Event, zone: TimeZoneRules) -> String {
        let when: String
        if case .date(let first) = event.start, case .date(let last) = event.end {
            when = day(first) + (last == first ? "" : "–" + day(last)) + " all day"
        } else {
            let start = zone.localTime(at: (try? event.start.instant(machine: zone)) ?? 0)
            let end = zone.localTime(at: (try? event.end.instant(machine: zone)) ?? 0)
            when = day(start.date) + " " + clock(start) + "–" + (end.date == start.date ? "" : day(end.date) + " ") + clock(end)
        }
        return "\(when)  \(event.title)  [\(event.identifier.short)]"
    }

    static func line(_ reminder: Reminder, zone: TimeZoneRules) -> String {
        var text = reminder.isCompleted ? "[x] " : "[ ] "
        if let due = reminder.due {
            if case .date(let date) = due {
                text += day(date) + " "
            } else {
                let local = zone.localTime(at: (try? due.instant(machine: zone)) ?? 0)
                text += day(local.date) + " " + clock(local) + " "
            }
        }
        text += reminder.title
        if reminder.priority > 0 { text += " (priority \(reminder.priority))" }
        return text + "  [\(reminder.identifier.short)]"
    }

    static func day(_ date: CivilDate) -> String {
        weekdays[date.weekday.rawValue] + String(format: " %02d-%02d", date.month, date.day)
    }

    static func clock(_ time: LocalDateTime) -> String { String(format: "%02d:%02d", time.hour, time.minute) }
}
