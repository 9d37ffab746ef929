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

    /// `2026-12-01T00:50:00Z`.
    static func utc(_ date: Date) -> String {
        RFC3339.utc(Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// A date alone for a date, else RFC 3339 in the time's zone.
    func time(_ time: ItemTime?) -> String? {
        guard let time else { return nil }
        if case .date(let date) = time { return date.description }
        let zone = (try? time.timeZone(machine: machine)) ?? machine
        return RFC3339.text(time.resolution(in: zone).instant, in: zone)
    }

    /// An original start or exception date of a series that starts at `start`.
    func seriesTime(_ local: LocalDateTime, start: ItemTime) -> String? {
        switch start {
        case .date: return local.date.description
        case .floating: return time(.floating(local))
        case .zoned(_, let name, _): return time(.zoned(local, zone: name))
        }
    }

    struct CalendarObject: Encodable {
        var identifier: String
        var title: String
        var color: String
        var kind: String
        @Nullable var subscriptionURL: String?
        var allowsContentModifications: Bool
        var defaultForEvents: Bool
        var defaultForReminders: Bool
    }

    func calendar(_ calendar: ItemCalendar, defaultEvents: ItemIdentifier? = nil, defaultReminders: ItemIdentifier? = nil) -> CalendarObject {
        var subscription: String?
        if case .subscribed(let url) = calendar.kind { subscription = url }
        return CalendarObject(identifier: calendar.identifier.rawValue, title: calendar.title, color: calendar.color,
                              kind: subscription == nil ? "local" : "subscribed", subscriptionURL: subscription,
                              allowsContentModifications: calendar.allowsContentModifications,
                              defaultForEvents: calendar.identifier == defaultEvents, defaultForReminders: calendar.identifier == defaultReminders)
    }

    struct AlarmObject: Encodable {
        var identifier: String
        var type: String
        @Nullable var offsetSeconds: Int? = nil
        @Nullable var at: String? = nil
        @Nullable var proximity: String? = nil
        @Nullable var latitude: Double? = nil
        @Nullable var longitude: Double? = nil
        @Nullable var radius: Double? = nil
        @Nullable var locationTitle: String? = nil
        @Nullable var missedWindowSeconds: Int? = nil
        @Nullable var dwellSeconds: Int? = nil
        @Nullable var firstPositionRings: Bool? = nil
    }

    /// An alarm as every JSON output writes it (items, `chime location --status`).
    static func alarm(_ alarm: Alarm) -> AlarmObject {
        var object = AlarmObject(identifier: alarm.identifier.rawValue, type: "", missedWindowSeconds: alarm.missedWindow)
        switch alarm.trigger {
        case .relative(let seconds):
            object.type = "relative"
            object.offsetSeconds = seconds
        case .absolute(let date):
            object.type = "absolute"
            object.at = Self.utc(date)
        case .proximity(let location, let proximity):
            object.type = "proximity"
            object.proximity = proximity.rawValue
            object.latitude = location.latitude
            object.longitude = location.longitude
            object.radius = location.radius
            object.locationTitle = location.title
            object.dwellSeconds = alarm.dwell
            object.firstPositionRings = alarm.firesOnFirstFix
        }
        return object
    }

    struct EventObject: Encodable {
        var type = "event"
        var identifier: String
        var shortIdentifier: String
        @Nullable var calendar: String?
        var calendarIdentifier: String
        var title: String
        var location: String
        var notes: String
        @Nullable var url: String?
        var allDay: Bool
        var floating: Bool
        @Nullable var timeZone: String?
        @Nullable var start: String?
        @Nullable var end: String?
        @Nullable var recurrenceRule: String?
        var exceptionDates: [String?]
        var alarms: [AlarmObject]
        @Nullable var externalKey: String?
        @Nullable var seriesIdentifier: String?
        @Nullable var originalStart: String?
        /// `chime add event --key`: whether it updated the item holding the key.
        var updatedExisting: Bool?
    }

    func event(_ event: Event) -> EventObject {
        EventObject(
            identifier: event.identifier.rawValue,
            shortIdentifier: event.identifier.short,
            calendar: calendars[event.calendarIdentifier]?.title,
            calendarIdentifier: event.calendarIdentifier.rawValue,
            title: event.title,
            location: event.location,
            notes: event.notes,
            url: event.url,
            allDay: event.isAllDay,
            floating: { if case .floating = event.start { return true }; return false }(),
            timeZone: event.start.zoneName,
            start: time(event.start),
            end: time(event.end),
            recurrenceRule: event.recurrenceRule?.rfc5545,
            exceptionDates: event.exceptionDates.map { seriesTime($0, start: event.start) },
            alarms: event.alarms.map(Self.alarm),
            externalKey: event.externalKey,
            seriesIdentifier: event.seriesIdentifier?.rawValue,
            originalStart: event.originalStart.flatMap { seriesTime($0, start: event.start) })
    }

    struct ReminderObject: Encodable {
        var type = "reminder"
        var identifier: String
        var shortIdentifier: String
        @Nullable var calendar: String?
        var calendarIdentifier: String
        var title: String
        var notes: String
        var priority: Int
        @Nullable var start: String?
        @Nullable var due: String?
        @Nullable var storedDue: String?
        @Nullable var timeZone: String?
        var completed: Bool
        @Nullable var completionDate: String?
        var overdue: Bool
        @Nullable var recurrenceRule: String?
        var alarms: [AlarmObject]
        @Nullable var externalKey: String?
        /// `chime add reminder --key`: whether it updated the item holding the key.
        var updatedExisting: Bool?
    }

    /// `reminder` as shown (a repeating one at its current occurrence);
    /// `storedDue`: the due time in the store, from which its occurrences count.
    func reminder(_ reminder: Reminder, storedDue: ItemTime?, now: Int64) -> ReminderObject {
        let text = ItemText(zone: machine, now: now)
        return ReminderObject(
            identifier: reminder.identifier.rawValue,
            shortIdentifier: reminder.identifier.short,
            calendar: calendars[reminder.calendarIdentifier]?.title,
            calendarIdentifier: reminder.calendarIdentifier.rawValue,
            title: reminder.title,
            notes: reminder.notes,
            priority: reminder.priority,
            start: time(reminder.start),
            due: time(reminder.due),
            storedDue: time(storedDue),
            timeZone: reminder.due?.zoneName ?? reminder.start?.zoneName,
            completed: reminder.isCompleted,
            completionDate: reminder.completionDate.map(Self.utc),
            overdue: text.isOverdue(reminder),
            recurrenceRule: reminder.recurrenceRule?.rfc5545,
            alarms: reminder.alarms.map(Self.alarm),
            externalKey: reminder.externalKey)
    }
}
