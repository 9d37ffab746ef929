import Foundation

/// An event: EventKit's `EKEvent` as a value.
///
/// A recurring event is one item (the series) whose occurrences are computed.
/// An occurrence returned by a query carries the series' identifier and its
/// original start; one changed on its own ("this occurrence") is stored as a
/// detached event that names the series and the original start it replaces.
public struct Event: Hashable, Sendable {
    /// The fields every occurrence of a series shares, behind one reference
    /// (`CopyOnWrite`): a query returns thousands of occurrences of a few
    /// series, and each copy then costs one retain instead of a dozen.
    private struct Shared: Hashable, Sendable {
        var identifier: ItemIdentifier
        var calendarIdentifier: ItemIdentifier
        var title: String
        var location: String
        var structuredLocation: StructuredLocation?
        var notes: String
        var url: String?
        var recurrenceRule: RecurrenceRule?
        var exceptionDates: [LocalDateTime]
        var extraDates: [LocalDateTime]
        var alarms: [Alarm]
        var externalKey: String?
        var origin: ICalendarOrigin?
    }

    public var identifier: ItemIdentifier {
        get { shared.value.identifier }
        set { shared.value.identifier = newValue }
    }
    public var calendarIdentifier: ItemIdentifier {
        get { shared.value.calendarIdentifier }
        set { shared.value.calendarIdentifier = newValue }
    }
    public var title: String {
        get { shared.value.title }
        set { shared.value.title = newValue }
    }
    public var location: String {
        get { shared.value.location }
        set { shared.value.location = newValue }
    }
    /// Where the event is as coordinates (EKEvent's `structuredLocation`):
    /// from a GEO or X-APPLE-STRUCTURED-LOCATION property, say.
    public var structuredLocation: StructuredLocation? {
        get { shared.value.structuredLocation }
        set { shared.value.structuredLocation = newValue }
    }
    public var notes: String {
        get { shared.value.notes }
        set { shared.value.notes = newValue }
    }
    public var url: String? {
        get { shared.value.url }
        set { shared.value.url = newValue }
    }
    public var recurrenceRule: RecurrenceRule? {
        get { shared.value.recurrenceRule }
        set { shared.value.recurrenceRule = newValue }
    }
    /// EXDATE: original starts, as wall-clock readings in the event's zone
    /// (midnights for all-day events), of occurrences that do not happen.
    public var exceptionDates: [LocalDateTime] {
        get { shared.value.exceptionDates }
        set { shared.value.exceptionDates = newValue }
    }
    /// RDATE: extra starts, likewise.
    public var extraDates: [LocalDateTime] {
        get { shared.value.extraDates }
        set { shared.value.extraDates = newValue }
    }
    public var alarms: [Alarm] {
        get { shared.value.alarms }
        set { shared.value.alarms = newValue }
    }
    /// A key of the caller's choosing, unique within the calendar, to save
    /// idempotently and find an item again.
    public var externalKey: String? {
        get { shared.value.externalKey }
        set { shared.value.externalKey = newValue }
    }
    /// Set when the event came from an iCalendar file or server.
    public var origin: ICalendarOrigin? {
        get { shared.value.origin }
        set { shared.value.origin = newValue }
    }
    public var start: ItemTime
    public var end: ItemTime
    /// For an occurrence or a detached occurrence: the series it belongs to.
    public var seriesIdentifier: ItemIdentifier?
    /// For an occurrence or a detached occurrence: the start the series
    /// gave it (RFC 5545's RECURRENCE-ID).
    public var originalStart: LocalDateTime?
    // After the fields of this occurrence alone: the synthesized == compares
    // in this order, the cheap ones first.
    private var shared: CopyOnWrite<Shared>

    public init(identifier: ItemIdentifier = .random(), calendarIdentifier: ItemIdentifier, title: String,
                location: String = "", structuredLocation: StructuredLocation? = nil, notes: String = "", url: String? = nil, start: ItemTime, end: ItemTime,
                recurrenceRule: RecurrenceRule? = nil, exceptionDates: [LocalDateTime] = [], extraDates: [LocalDateTime] = [],
                alarms: [Alarm] = [], externalKey: String? = nil, origin: ICalendarOrigin? = nil,
                seriesIdentifier: ItemIdentifier? = nil, originalStart: LocalDateTime? = nil) {
        shared = CopyOnWrite(Shared(identifier: identifier, calendarIdentifier: calendarIdentifier, title: title, location: location, structuredLocation: structuredLocation, notes: notes, url: url, recurrenceRule: recurrenceRule, exceptionDates: exceptionDates, extraDates: extraDates, alarms: alarms, externalKey: externalKey, origin: origin))
        self.start = start
        self.end = end
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
        // Each zone looked up once: validation runs for every item an import writes.
        let rules = try start.validatedZoneRules()
        let endRules = end.zoneName == start.zoneName ? rules : try end.validatedZoneRules()
        if let rules, let endRules {
            // Zones may differ (a flight); compare instants.
            if end.resolution(in: endRules).instant < start.resolution(in: rules).instant {
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
