import CalendarModel

/// A calendar's items as one file or feed holds them: what `importItems`
/// takes and `items(of:)` gives. Each event goes with the detached
/// occurrences that override some of its occurrences (RFC 5545's
/// RECURRENCE-ID components), which are written, replaced and exported
/// together with it.
///
/// For an import every event and reminder carries its UID as its
/// `externalKey`, and usually an `origin`; detached occurrences are found
/// through their series and need no key of their own.
public struct CalendarItems: Hashable, Sendable {
    /// An event and its detached occurrences, by original start.
    public struct Series: Hashable, Sendable {
        public var event: Event
        public var detached: [Event]

        public init(event: Event, detached: [Event] = []) {
            self.event = event
            self.detached = detached
        }
    }

    public var events: [Series]
    public var reminders: [Reminder]

    public init(events: [Series] = [], reminders: [Reminder] = []) {
        self.events = events
        self.reminders = reminders
    }

    /// Groups a flat list as an iCalendar reader makes it: an event whose
    /// `seriesIdentifier` is set is a detached occurrence of the event in
    /// `events` with that identifier. Fails on one whose series is not in
    /// the list, or that has no original start, naming it.
    public init(events: [Event], reminders: [Reminder] = []) throws(StoreError) {
        var series: [Series] = []
        var position: [ItemIdentifier: Int] = [:]
        for event in events where event.seriesIdentifier == nil {
            position[event.identifier] = series.count
            series.append(Series(event: event))
        }
        for event in events {
            guard let owner = event.seriesIdentifier else { continue }
            guard let index = position[owner] else {
                throw .invalid(ValidationError(field: "detached occurrence", value: Self.name(of: event),
                                               reason: "names the series \(owner), which is not among the events"))
            }
            guard event.originalStart != nil else {
                throw .invalid(ValidationError(field: "detached occurrence", value: Self.name(of: event),
                                               reason: "has no original start (RECURRENCE-ID)"))
            }
            series[index].detached.append(event)
        }
        self.init(events: series, reminders: reminders)
    }

    /// Every event, each series followed by its detached occurrences.
    public var allEvents: [Event] { events.flatMap { [$0.event] + $0.detached } }

    /// Adds another batch's series and reminders after these (calendars exported together).
    public mutating func append(_ other: CalendarItems) {
        events += other.events
        reminders += other.reminders
    }

    /// How many events and reminders there are, detached occurrences counted with their series.
    public var count: Int { events.count + reminders.count }

    /// How an error names an item: its title, with its original start if any.
    static func name(of event: Event) -> String {
        event.originalStart.map { "\(event.title) at \($0)" } ?? event.title
    }
}
