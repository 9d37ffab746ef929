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

    /// The keys events and reminders both write.
    struct ItemCommon: Encodable {
        var type: String
        var identifier: String
        var shortIdentifier: String
        @Nullable var calendar: String?
        var calendarIdentifier: String
        var title: String
        var notes: String
        var location: String
        @Nullable var url: String?
        @Nullable var recurrenceRule: String?
        var alarms: [AlarmObject]
        @Nullable var externalKey: String?
        /// `chime add event|reminder --key`: whether it updated the item holding the key.
        var updatedExisting: Bool?
    }

    /// An event or a reminder: `ItemCommon`'s keys, and beside them in the
    /// same object the keys of its kind (`EventFields`, `ReminderFields`).
    @dynamicMemberLookup
    struct ItemObject<Fields: Encodable>: Encodable {
        var common: ItemCommon
        var fields: Fields

        subscript<Value>(dynamicMember path: WritableKeyPath<ItemCommon, Value>) -> Value {
            get { common[keyPath: path] }
            set { common[keyPath: path] = newValue }
        }

        func encode(to encoder: any Encoder) throws {
            // Both write into the one object the encoder holds.
            try common.encode(to: encoder)
            try fields.encode(to: encoder)
        }
    }

    typealias EventObject = ItemObject<EventFields>
    typealias ReminderObject = ItemObject<ReminderFields>

    struct EventFields: Encodable {
        var allDay: Bool
        var floating: Bool
        @Nullable var timeZone: String?
        @Nullable var start: String?
        @Nullable var end: String?
        var exceptionDates: [String?]
        @Nullable var seriesIdentifier: String?
        @Nullable var originalStart: String?
    }

    struct ReminderFields: Encodable {
        var priority: Int
        @Nullable var start: String?
        @Nullable var due: String?
        @Nullable var storedDue: String?
        @Nullable var timeZone: String?
        var completed: Bool
        @Nullable var completionDate: String?
        var overdue: Bool
    }

    private func common(type: String, identifier: ItemIdentifier, calendar: ItemIdentifier, title: String, notes: String,
                        location: String, url: String?, rule: RecurrenceRule?, alarms: [Alarm], externalKey: String?) -> ItemCommon {
        .init(type: type, identifier: identifier.rawValue, shortIdentifier: identifier.short,
              calendar: calendars[calendar]?.title, calendarIdentifier: calendar.rawValue,
              title: title, notes: notes, location: location, url: url, recurrenceRule: rule?.rfc5545,
              alarms: alarms.map(Self.alarm), externalKey: externalKey)
    }

    func event(_ event: Event) -> EventObject {
        EventObject(
            common: common(type: "event", identifier: event.identifier, calendar: event.calendarIdentifier,
                           title: event.title, notes: event.notes, location: event.location, url: event.url,
                           rule: event.recurrenceRule, alarms: event.alarms, externalKey: event.externalKey),
            fields: EventFields(
                allDay: event.isAllDay,
                floating: { if case .floating = event.start { return true }; return false }(),
                timeZone: event.start.zoneName,
                start: time(event.start),
                end: time(event.end),
                exceptionDates: event.exceptionDates.map { seriesTime($0, start: event.start) },
                seriesIdentifier: event.seriesIdentifier?.rawValue,
                originalStart: event.originalStart.flatMap { seriesTime($0, start: event.start) }))
    }

    /// `reminder` as shown (a repeating one at its current occurrence);
    /// `storedDue`: the due time in the store, from which its occurrences count.
    func reminder(_ reminder: Reminder, storedDue: ItemTime?, now: Int64) -> ReminderObject {
        let text = ItemText(zone: machine, now: now)
        return ReminderObject(
            common: common(type: "reminder", identifier: reminder.identifier, calendar: reminder.calendarIdentifier,
                           title: reminder.title, notes: reminder.notes, location: reminder.location, url: reminder.url,
                           rule: reminder.recurrenceRule,
                           alarms: reminder.alarms, externalKey: reminder.externalKey),
            fields: ReminderFields(
                priority: reminder.priority,
                start: time(reminder.start),
                due: time(reminder.due),
                storedDue: time(storedDue),
                timeZone: reminder.due?.zoneName ?? reminder.start?.zoneName,
                completed: reminder.isCompleted,
                completionDate: reminder.completionDate.map(Self.utc),
                overdue: text.isOverdue(reminder)))
    }
}
