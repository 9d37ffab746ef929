import CalendarModel
import CalendarStore
import Foundation

/// Items as JSON objects for `--json`: the same keys every time (a missing
/// value is `null`), times in RFC 3339 with the offset of the item's zone
/// (floating times: the machine's), all-day dates as ISO 8601 dates,
/// instants such as alarm and completion times in UTC (`…Z`).
struct ItemJSON {
    /// The machine's zone: floating times and all-day dates are read on it.
    let machine: TimeZoneRules
    /// Calendar titles by identifier.
    let calendars: [ItemIdentifier: ItemCalendar]

    init(machine: TimeZoneRules, calendars: [ItemCalendar]) {
        self.machine = machine
        self.calendars = Dictionary(calendars.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func null(_ value: Any?) -> Any { value ?? NSNull() }

    /// `2026-12-01T08:50:00+08:00`.
    static func rfc3339(_ instant: Int64, in zone: TimeZoneRules) -> String {
        let offset = Int(zone.offset(at: instant))
        let magnitude = abs(offset)
        var text = zone.localTime(at: instant).description + (offset < 0 ? "-" : "+")
            + ItemText.two(magnitude / 3600) + ":" + ItemText.two(magnitude / 60 % 60)
        if magnitude % 60 != 0 { text += ":" + ItemText.two(magnitude % 60) }
        return text
    }

    /// `2026-12-01T00:50:00Z`.
    static func utc(_ date: Date) -> String {
        LocalDateTime(localSeconds: Int64(date.timeIntervalSince1970.rounded(.down))).description + "Z"
    }

    /// A date alone for a date, else RFC 3339 in the time's zone.
    func time(_ time: ItemTime?) -> Any {
        guard let time else { return NSNull() }
        if case .date(let date) = time { return date.description }
        let zone = (try? time.timeZone(machine: machine)) ?? machine
        return Self.rfc3339(time.resolution(in: zone).instant, in: zone)
    }

    /// An original start or exception date of a series that starts at `start`.
    func seriesTime(_ local: LocalDateTime, start: ItemTime) -> Any {
        switch start {
        case .date: return local.date.description
        case .floating: return time(.floating(local))
        case .zoned(_, let name, _): return time(.zoned(local, zone: name))
        }
    }

    func calendar(_ calendar: ItemCalendar, defaultEvents: ItemIdentifier? = nil, defaultReminders: ItemIdentifier? = nil) -> [String: Any] {
        var subscription: String?
        if case .subscribed(let url) = calendar.kind { subscription = url }
        return [
            "identifier": calendar.identifier.rawValue,
            "title": calendar.title,
            "color": calendar.color,
            "kind": subscription == nil ? "local" : "subscribed",
            "subscriptionURL": Self.null(subscription),
            "allowsContentModifications": calendar.allowsContentModifications,
            "defaultForEvents": calendar.identifier == defaultEvents,
            "defaultForReminders": calendar.identifier == defaultReminders,
        ]
    }

    /// An alarm as every JSON output writes it (items, `chime location --status`).
    static func alarm(_ alarm: Alarm) -> [String: Any] {
        var object: [String: Any] = [
            "identifier": alarm.identifier.rawValue, "offsetSeconds": NSNull(), "at": NSNull(),
            "proximity": NSNull(), "latitude": NSNull(), "longitude": NSNull(), "radius": NSNull(), "locationTitle": NSNull(),
            "missedWindowSeconds": Self.null(alarm.missedWindow), "dwellSeconds": NSNull(), "firstPositionRings": NSNull(),
        ]
        switch alarm.trigger {
        case .relative(let seconds):
            object["type"] = "relative"
            object["offsetSeconds"] = seconds
        case .absolute(let date):
            object["type"] = "absolute"
            object["at"] = Self.utc(date)
        case .proximity(let location, let proximity):
            object["type"] = "proximity"
            object["proximity"] = proximity.rawValue
            object["latitude"] = location.latitude
            object["longitude"] = location.longitude
            object["radius"] = location.radius
            object["locationTitle"] = location.title
            object["dwellSeconds"] = alarm.dwell
            object["firstPositionRings"] = alarm.firesOnFirstFix
        }
        return object
    }

    func event(_ event: Event) -> [String: Any] {
        [
            "type": "event",
            "identifier": event.identifier.rawValue,
            "shortIdentifier": event.identifier.short,
            "calendar": Self.null(calendars[event.calendarIdentifier]?.title),
            "calendarIdentifier": event.calendarIdentifier.rawValue,
            "title": event.title,
            "location": event.location,
            "notes": event.notes,
            "url": Self.null(event.url),
            "allDay": event.isAllDay,
            "floating": { if case .floating = event.start { return true }; return false }(),
            "timeZone": Self.null(event.start.zoneName),
            "start": time(event.start),
            "end": time(event.end),
            "recurrenceRule": Self.null(event.recurrenceRule?.rfc5545),
            "exceptionDates": event.exceptionDates.map { seriesTime($0, start: event.start) },
            "alarms": event.alarms.map(Self.alarm),
            "externalKey": Self.null(event.externalKey),
            "seriesIdentifier": Self.null(event.seriesIdentifier?.rawValue),
            "originalStart": Self.null(event.originalStart.map { seriesTime($0, start: event.start) }),
        ]
    }

    /// `reminder` as shown (a repeating one at its current occurrence);
    /// `storedDue`: the due time in the store, from which its occurrences count.
    func reminder(_ reminder: Reminder, storedDue: ItemTime?, now: Int64) -> [String: Any] {
        let text = ItemText(zone: machine, now: now)
        return [
            "type": "reminder",
            "identifier": reminder.identifier.rawValue,
            "shortIdentifier": reminder.identifier.short,
            "calendar": Self.null(calendars[reminder.calendarIdentifier]?.title),
            "calendarIdentifier": reminder.calendarIdentifier.rawValue,
            "title": reminder.title,
            "notes": reminder.notes,
            "priority": reminder.priority,
            "start": time(reminder.start),
            "due": time(reminder.due),
            "storedDue": time(storedDue),
            "timeZone": Self.null(reminder.due?.zoneName ?? reminder.start?.zoneName),
            "completed": reminder.isCompleted,
            "completionDate": Self.null(reminder.completionDate.map(Self.utc)),
            "overdue": text.isOverdue(reminder),
            "recurrenceRule": Self.null(reminder.recurrenceRule?.rfc5545),
            "alarms": reminder.alarms.map(Self.alarm),
            "externalKey": Self.null(reminder.externalKey),
        ]
    }
}
