import Foundation

/// An event: EventKit's `EKEvent` as a value.
///
/// A recurring event is one item (the series) whose occurrences are computed.
/// An occurrence returned by a query carries the series' identifier and its
/// original start; one changed on its own ("this occurrence") is stored as a
/// detached event that names the series and the original start it replaces.
public struct Event: Hashable, Sendable {
    public var identifier: ItemIdentifier
    public var calendarIdentifier: ItemIdentifier
    public var title: String
    public var location: String
    public var notes: String
    public var url: String?
    public var start: ItemTime
    public var end: ItemTime
    public var recurrenceRule: RecurrenceRule?
    /// EXDATE: original starts, as wall-clock readings in the event's zone
    /// (midnights for all-day events), of occurrences that do not happen.
    public var exceptionDates: [LocalDateTime]
    /// RDATE: extra starts, likewise.
    public var extraDates: [LocalDateTime]
    public var alarms: [Alarm]
    /// A key of the caller's choosing, unique within the calendar, to save
    /// idempotently and find an item again.
    public var externalKey: String?
    /// For an occurrence or a detached occurrence: the series it belongs to.
    public var seriesIdentifier: ItemIdentifier?
    /// For an occurrence or a detached occurrence: the start the series
    /// gave it (RFC 5545's RECURRENCE-ID).
    public var originalStart: LocalDateTime?

    public init(identifier: ItemIdentifier = .random(), calendarIdentifier: ItemIdentifier, title: String,
                location: String = "", notes: String = "", url: String? = nil, start: ItemTime, end: ItemTime,
                recurrenceRule: RecurrenceRule? = nil, exceptionDates: [LocalDateTime] = [], extraDates: [LocalDateTime] = [],
                alarms: [Alarm] = [], externalKey: String? = nil,
                seriesIdentifier: ItemIdentifier? = nil, originalStart: LocalDateTime? = nil) {
        self.identifier = identifier
        self.calendarIdentifier = calendarIdentifier
        self.title = title
        self.location = location
        self.notes = notes
        self.url = url
        self.start = start
        self.end = end
        self.recurrenceRule = recurrenceRule
        self.exceptionDates = exceptionDates
        self.extraDates = extraDates
        self.alarms = alarms
        self.externalKey = externalKey
        self.seriesIdentifier = seriesIdentifier
        self.originalStart = originalStart
    }

    public var isAllDay: Bool { start.isDateOnly }

    /// Refuses what an event cannot be: an end before its start, a start and
    /// end of different kinds, an unknown zone, a rule that needs a time of
    /// day on an all-day event, an external key that is empty.
    public func validate() throws(ValidationError) {
        guard start.isSameKind(as: end) else {
            throw ValidationError(field: "end", value: end.description, reason: "must be of the same kind as the start \(start) (both dates, or both times)")
        }
        try start.validateZone()
        try end.validateZone()
        if case .zoned(let begin, let zone) = start, case .zoned(let finish, let endZone) = end {
            // Zones may differ (a flight); compare instants.
            let rules = (try? TimeZoneRules.named(zone)) ?? .utc
            let endRules = (try? TimeZoneRules.named(endZone)) ?? .utc
            if endRules.resolve(finish).instant < rules.resolve(begin).instant {
                throw ValidationError(field: "end", value: end.description, reason: "is before the start \(start)")
            }
        } else if end.wallClock < start.wallClock {
            throw ValidationError(field: "end", value: end.description, reason: "is before the start \(start)")
        }
        if let rule = recurrenceRule, isAllDay, let part = rule.timeOfDayPart {
            throw ValidationError(field: "recurrence rule", value: rule.rfc5545, reason: "needs a time of day (\(part)), but the event is all-day")
        }
        if let externalKey, externalKey.isEmpty {
            throw ValidationError(field: "external key", value: externalKey, reason: "must not be empty")
        }
        for alarm in alarms { try alarm.validate() }
    }
}

extension Alarm {
    func validate() throws(ValidationError) {
        if case .relative(let seconds) = trigger, abs(seconds) > 366 * 86_400 {
            throw ValidationError(field: "alarm offset", value: "\(seconds)s", reason: "must be within a year of the item's time")
        }
    }
}
