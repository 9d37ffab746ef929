import Foundation

/// An event: EventKit's `EKEvent` as a value.
///
/// A recurring event is one item (the series) whose occurrences are computed.
/// An occurrence returned by a query carries the series' identifier and its
/// original start; one changed on its own ("this occurrence") is stored as a
/// detached event that names the series and the original start it replaces.
public struct Event: Hashable, Sendable {
    /// The fields every occurrence of a series shares, behind one reference:
    /// a query returns thousands of occurrences of a few series, and each
    /// copy then costs one retain instead of a dozen. Copied on write.
    private final class Shared: @unchecked Sendable {
        var identifier: ItemIdentifier
        var calendarIdentifier: ItemIdentifier
        var title: String
        var location: String
        var notes: String
        var url: String?
        var recurrenceRule: RecurrenceRule?
        var exceptionDates: [LocalDateTime]
        var extraDates: [LocalDateTime]
        var alarms: [Alarm]
        var externalKey: String?
        var origin: ICalendarOrigin?
        var structuredLocation: StructuredLocation?

        init(identifier: ItemIdentifier, calendarIdentifier: ItemIdentifier, title: String, location: String, structuredLocation: StructuredLocation?, notes: String, url: String?, recurrenceRule: RecurrenceRule?, exceptionDates: [LocalDateTime], extraDates: [LocalDateTime], alarms: [Alarm], externalKey: String?, origin: ICalendarOrigin?) {
            self.identifier = identifier
            self.calendarIdentifier = calendarIdentifier
            self.title = title
            self.location = location
            self.structuredLocation = structuredLocation
            self.notes = notes
            self.url = url
            self.recurrenceRule = recurrenceRule
            self.exceptionDates = exceptionDates
            self.extraDates = extraDates
            self.alarms = alarms
            self.externalKey = externalKey
            self.origin = origin
        }

        func copy() -> Shared {
            Shared(identifier: identifier, calendarIdentifier: calendarIdentifier, title: title, location: location, structuredLocation: structuredLocation, notes: notes, url: url, recurrenceRule: recurrenceRule, exceptionDates: exceptionDates, extraDates: extraDates, alarms: alarms, externalKey: externalKey, origin: origin)
        }
    }

    private var shared: Shared

    public var identifier: ItemIdentifier {
        get { shared.identifier }
        set { unique().identifier = newValue }
    }
    public var calendarIdentifier: ItemIdentifier {
        get { shared.calendarIdentifier }
        set { unique().calendarIdentifier = newValue }
    }
    public var title: String {
        get { shared.title }
        set { unique().title = newValue }
    }
    public var location: String {
        get { shared.location }
        set { unique().location = newValue }
    }
    /// Where the event is as coordinates (EKEvent's `structuredLocation`):
    /// from a GEO or X-APPLE-STRUCTURED-LOCATION property, say.
    public var structuredLocation: StructuredLocation? {
        get { shared.structuredLocation }
        set { unique().structuredLocation = newValue }
    }
    public var notes: String {
        get { shared.notes }
        set { unique().notes = newValue }
    }
    public var url: String? {
        get { shared.url }
        set { unique().url = newValue }
    }
    public var recurrenceRule: RecurrenceRule? {
        get { shared.recurrenceRule }
        set { unique().recurrenceRule = newValue }
    }
    /// EXDATE: original starts, as wall-clock readings in the event's zone
    /// (midnights for all-day events), of occurrences that do not happen.
    public var exceptionDates: [LocalDateTime] {
        get { shared.exceptionDates }
        set { unique().exceptionDates = newValue }
    }
    /// RDATE: extra starts, likewise.
    public var extraDates: [LocalDateTime] {
        get { shared.extraDates }
        set { unique().extraDates = newValue }
    }
    public var alarms: [Alarm] {
        get { shared.alarms }
        set { unique().alarms = newValue }
    }
    /// A key of the caller's choosing, unique within the calendar, to save
    /// idempotently and find an item again.
    public var externalKey: String? {
        get { shared.externalKey }
        set { unique().externalKey = newValue }
    }
    /// Set when the event came from an iCalendar file or server.
    public var origin: ICalendarOrigin? {
        get { shared.origin }
        set { unique().origin = newValue }
    }
    public var start: ItemTime
    public var end: ItemTime
    /// For an occurrence or a detached occurrence: the series it belongs to.
    public var seriesIdentifier: ItemIdentifier?
    /// For an occurrence or a detached occurrence: the start the series
    /// gave it (RFC 5545's RECURRENCE-ID).
    public var originalStart: LocalDateTime?

    public init(identifier: ItemIdentifier = .random(), calendarIdentifier: ItemIdentifier, title: String,
                location: String = "", structuredLocation: StructuredLocation? = nil, notes: String = "", url: String? = nil, start: ItemTime, end: ItemTime,
                recurrenceRule: RecurrenceRule? = nil, exceptionDates: [LocalDateTime] = [], extraDates: [LocalDateTime] = [],
                alarms: [Alarm] = [], externalKey: String? = nil, origin: ICalendarOrigin? = nil,
                seriesIdentifier: ItemIdentifier? = nil, originalStart: LocalDateTime? = nil) {
        shared = Shared(identifier: identifier, calendarIdentifier: calendarIdentifier, title: title, location: location, structuredLocation: structuredLocation, notes: notes, url: url, recurrenceRule: recurrenceRule, exceptionDates: exceptionDates, extraDates: extraDates, alarms: alarms, externalKey: externalKey, origin: origin)
        self.start = start
        self.end = end
        self.seriesIdentifier = seriesIdentifier
        self.originalStart = originalStart
    }

    private mutating func unique() -> Shared {
        if !isKnownUniquelyReferenced(&shared) { shared = shared.copy() }
        return shared
    }

    public static func == (lhs: Event, rhs: Event) -> Bool {
        guard lhs.start == rhs.start, lhs.end == rhs.end, lhs.seriesIdentifier == rhs.seriesIdentifier,
              lhs.originalStart == rhs.originalStart else { return false }
        if lhs.shared === rhs.shared { return true }
        return lhs.identifier == rhs.identifier
            && lhs.calendarIdentifier == rhs.calendarIdentifier
            && lhs.title == rhs.title
            && lhs.location == rhs.location
            && lhs.structuredLocation == rhs.structuredLocation
            && lhs.notes == rhs.notes
            && lhs.url == rhs.url
            && lhs.recurrenceRule == rhs.recurrenceRule
            && lhs.exceptionDates == rhs.exceptionDates
            && lhs.extraDates == rhs.extraDates
            && lhs.alarms == rhs.alarms
            && lhs.externalKey == rhs.externalKey
            && lhs.origin == rhs.origin
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(calendarIdentifier)
        hasher.combine(title)
        hasher.combine(location)
        hasher.combine(structuredLocation)
        hasher.combine(notes)
        hasher.combine(url)
        hasher.combine(recurrenceRule)
        hasher.combine(exceptionDates)
        hasher.combine(extraDates)
        hasher.combine(alarms)
        hasher.combine(externalKey)
        hasher.combine(origin)
        hasher.combine(start)
        hasher.combine(end)
        hasher.combine(seriesIdentifier)
        hasher.combine(originalStart)
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
