import Foundation

/// A reminder: EventKit's `EKReminder` as a value.
///
/// Completing a recurring reminder completes one occurrence: the store keeps
/// a completed, non-recurring copy with that occurrence's due time, and the
/// series moves its due time (and start) to the next occurrence, which
/// becomes the one that is due. This is how Apple's Reminders behaves.
///
/// Unlike Apple's, a recurring reminder's alarms ring for every occurrence
/// from its due time on, completed or not: a clock-in reminder must ring
/// every workday with nobody clicking anything. An occurrence not completed
/// when the next one comes due is passed over; completing the reminder
/// completes the latest occurrence that has come due.
///
/// As in EventKit, a reminder rings only through its alarms; the command
/// line gives one with a due time unless told otherwise.
public struct Reminder: Hashable, Sendable {
    public var identifier: ItemIdentifier
    public var calendarIdentifier: ItemIdentifier
    public var title: String
    public var notes: String
    /// Where, as text (EKCalendarItem's `location`; a VTODO's LOCATION).
    public var location: String
    /// A link (EKCalendarItem's `URL`; a VTODO's URL).
    public var url: String?
    /// 0 none, 1 highest … 9 lowest, as in EventKit (1–4 high, 5 medium, 6–9 low).
    public var priority: Int
    public var start: ItemTime?
    public var due: ItemTime?
    public var isCompleted: Bool
    public var completionDate: Date?
    public var recurrenceRule: RecurrenceRule?
    public var alarms: [Alarm]
    public var externalKey: String?
    /// Set when the reminder came from an iCalendar file or server.
    public var origin: ICalendarOrigin?

    public init(identifier: ItemIdentifier = .random(), calendarIdentifier: ItemIdentifier, title: String,
                notes: String = "", location: String = "", url: String? = nil, priority: Int = 0, start: ItemTime? = nil, due: ItemTime? = nil,
                isCompleted: Bool = false, completionDate: Date? = nil, recurrenceRule: RecurrenceRule? = nil,
                alarms: [Alarm] = [], externalKey: String? = nil, origin: ICalendarOrigin? = nil) {
        self.identifier = identifier
        self.calendarIdentifier = calendarIdentifier
        self.title = title
        self.notes = notes
        self.location = location
        self.url = url
        self.priority = priority
        self.start = start
        self.due = due
        self.isCompleted = isCompleted
        self.completionDate = completionDate
        self.recurrenceRule = recurrenceRule
        self.alarms = alarms
        self.externalKey = externalKey
        self.origin = origin
    }

    public func validate() throws(ValidationError) {
        guard (0...9).contains(priority) else {
            throw ValidationError(field: "priority", value: String(priority), reason: "must be 0 (none) to 9")
        }
        try start?.validateZone()
        try due?.validateZone()
        if let rule = recurrenceRule {
            guard let due else {
                throw ValidationError(field: "recurrence rule", value: rule.rfc5545, reason: "needs a due date to repeat from")
            }
            if due.isDateOnly, let part = rule.timeOfDayPart {
                throw ValidationError(field: "recurrence rule", value: rule.rfc5545, reason: "needs a time of day (\(part)), but the reminder is due on a date")
            }
        }
        if let start, let due, start.isSameKind(as: due), due.wallClock < start.wallClock {
            throw ValidationError(field: "due", value: due.description, reason: "is before the start \(start)")
        }
        if let externalKey, externalKey.isEmpty {
            throw ValidationError(field: "external key", value: externalKey, reason: "must not be empty")
        }
        for alarm in alarms { try alarm.validate() }
    }
}
