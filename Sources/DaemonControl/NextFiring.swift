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

    public init(at: String, kind: String, item: String, title: String, alarm: String, trigger: String, key: String,
                occurrence: String?, scheduled: String?, why: String?) {
        self.at = at
        self.kind = kind
        self.item = item
        self.title = title
        self.alarm = alarm
        self.trigger = trigger
        self.key = key
        self.occurrence = occurrence
        self.scheduled = scheduled
        self.why = why
    }
}
