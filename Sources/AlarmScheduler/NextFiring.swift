import CalendarModel

/// A coming firing as `chime next --json` and the daemon's `next` answer
/// both write it: times in RFC 3339 with the machine zone's offset, the
/// alarm as a person reads it, and why it rings then.
public struct NextFiring: Codable, Sendable, Equatable {
    /// When it rings.
    public var at: String
    /// `event` or `reminder`.
    public var kind: String
    /// The item's identifier.
    public var item: String
    public var title: String
    /// The alarm's identifier.
    public var alarm: String
    /// `10m before 09:30`'s first part: `10m before`, `at the time`.
    public var trigger: String
    /// The firing's key, for snooze and dismiss.
    public var key: String
    /// The occurrence it rings for; null for an alarm at an instant.
    @Nullable public var occurrence: String?
    /// The occurrence's wall-clock time as its rule scheduled it.
    @Nullable public var scheduled: String?
    /// Why that day (workday rules); null otherwise.
    @Nullable public var why: String?

    public init(_ firing: Firing, zone: TimeZoneRules) {
        at = RFC3339.text(firing.instant, in: zone)
        kind = firing.kind.rawValue
        item = firing.itemIdentifier.rawValue
        title = firing.title
        alarm = firing.alarm.identifier.rawValue
        trigger = firing.alarm.text(in: zone, allDay: firing.occurrence?.isAllDay == true)
        key = firing.key
        occurrence = firing.occurrence.map { RFC3339.text($0.instant, in: zone) }
        scheduled = firing.occurrence?.scheduledTime.description
        why = firing.explanation
    }
}
