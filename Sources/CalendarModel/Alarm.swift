import Foundation

/// An alarm on an event or reminder, as in EventKit's `EKAlarm`: at an
/// absolute instant, at an offset from the item's start (events) or due time
/// (reminders), or when a position enters or leaves a circle.
public struct Alarm: Hashable, Sendable {
    public enum Proximity: String, Hashable, Sendable, CaseIterable {
        case enter, leave
    }

    public enum Trigger: Hashable, Sendable {
        case absolute(Date)
        /// Seconds from the item's start or due time; negative is before.
        case relative(seconds: Int)
        case proximity(StructuredLocation, Proximity)
    }

    public var identifier: ItemIdentifier
    public var trigger: Trigger
    /// How long after its time a missed firing of this alarm is still worth
    /// showing (late), in seconds, when nothing was watching when it came
    /// due (the machine was off or asleep): 0 never shows it, only records
    /// it; nil leaves it to the daemon's window (four hours by default).
    /// A wake-up alarm is useless an hour late; a bill reminder is not.
    public var missedWindow: Int?
    /// Arrive alarms: how long (seconds) the position must stay inside the
    /// circle before the alarm rings; 0 rings at once. Driving past the
    /// office is not arriving at it. Leave alarms do not dwell (their margin
    /// already keeps a jittering position from ringing them).
    public var dwell: Int
    /// Location alarms: whether the first position after the daemon starts
    /// rings the alarm when it finds one already there (inside for arrive,
    /// outside for leave). Off by default: the first position only says
    /// where one already was, and starting the laptop at the office is not
    /// arriving at it.
    public var firesOnFirstFix: Bool
    /// For an alarm read from iCalendar: the VALARM's properties Chime does
    /// not model (UID, ACTION other than DISPLAY, ATTACH, X-…), as unfolded
    /// content lines each ending in CR LF, to be written back; else empty.
    public var unmodelled: String
    /// When a person last answered this alarm (Dismiss, Done) on any device:
    /// RFC 9074's ACKNOWLEDGED, or Thunderbird's X-MOZ-LASTACK. Its firings
    /// due at or before it are answered and do not ring again; nil: none was.
    public var acknowledged: Date?
    /// A snooze made on another device (Thunderbird's X-MOZ-SNOOZE-TIME):
    /// one firing more, unless answered by then (`acknowledged`).
    public var snoozedElsewhere: SnoozedElsewhere?

    /// The firing of the occurrence that starts at `occurrence` (nil: the
    /// item's only one, or an absolute alarm's) rings again at `until`.
    public struct SnoozedElsewhere: Hashable, Sendable {
        public var occurrence: Date?
        public var until: Date

        public init(occurrence: Date? = nil, until: Date) {
            self.occurrence = occurrence
            self.until = until
        }
    }

    public init(identifier: ItemIdentifier = .random(), trigger: Trigger, missedWindow: Int? = nil, dwell: Int = 0,
                firesOnFirstFix: Bool = false, unmodelled: String = "", acknowledged: Date? = nil,
                snoozedElsewhere: SnoozedElsewhere? = nil) {
        self.identifier = identifier
        self.trigger = trigger
        self.missedWindow = missedWindow
        self.dwell = dwell
        self.firesOnFirstFix = firesOnFirstFix
        self.unmodelled = unmodelled
        self.acknowledged = acknowledged
        self.snoozedElsewhere = snoozedElsewhere
    }

    /// The same alarm under a new identifier: for an item copied from another.
    public var copy: Alarm {
        // Copied whole, so that a field added to Alarm is never left behind here.
        var copy = self
        copy.identifier = .random()
        return copy
    }

    public static func absolute(_ date: Date) -> Alarm { Alarm(trigger: .absolute(date)) }
    public static func relative(seconds: Int) -> Alarm { Alarm(trigger: .relative(seconds: seconds)) }
    public static func proximity(_ location: StructuredLocation, _ proximity: Proximity) -> Alarm {
        Alarm(trigger: .proximity(location, proximity))
    }
}
