import CalendarModel
import Foundation
import RecurrenceEngine

/// One moment an alarm rings: which alarm, for which occurrence of which
/// item, when, and why then.
///
/// A firing is identified by its alarm and its occurrence's scheduled time
/// (`firingKey`): the same pair never rings twice, whatever the clock does.
public struct Firing: Hashable, Sendable, Comparable {
    /// When it rings, in Unix seconds.
    public var instant: Int64
    public var alarm: Alarm
    public var kind: ItemKind
    public var itemIdentifier: ItemIdentifier
    public var title: String
    /// The occurrence the alarm belongs to: its start (events) or due time
    /// (reminders); nil for an absolute alarm, which rings once per item.
    public var occurrence: Occurrence?
    /// Why it rings on that day, for items on a workday rule: the day's
    /// reason, and the days off the rule passed over since the last firing.
    public var explanation: String?
    /// For a snoozed firing ringing again: the key of the firing that was snoozed.
    public var snoozedFrom: FiringKey?
    /// The item's location text and notes, for the notification's body.
    public var location: String = ""
    public var notes: String = ""
    /// For a location alarm: the crossing that fired it, `leave@<Unix
    /// seconds of the fix>` or `enter@…`; nil for an alarm at a time.
    public var crossing: String?
    /// For a location alarm: the place crossed, as a notification names it
    /// in any language (`Office`, or its coordinates and radius).
    public var crossingPlace: String?
    /// The item repeats by the Chinese calendar (RSCALE=CHINESE): its
    /// notification gives the occurrence's Chinese date too.
    public var countsInChineseCalendar = false
    /// Shown again after a restart: the run that was showing it stopped
    /// before it was marked shown, so it may never have reached the screen.
    public var interrupted = false
    /// The item's calendar takes no changes (a subscription, a read-only
    /// collection): a reminder's notification offers no Done, which the
    /// store would refuse. The daemon sets it as it shows the firing.
    public var isReadOnly = false

    /// When the crossing happened (the fix's time), which a snoozed
    /// location firing rings after.
    public var crossingInstant: Int64? { firingKey.crossingInstant }

    /// The alarm and the occurrence's scheduled (unmoved) wall-clock time;
    /// for a snoozed firing, that key and the time it rings again.
    public var firingKey: FiringKey {
        if let snoozedFrom { return snoozedFrom.snoozed(until: instant) }
        // The crossing's text is the key's tail: `leave@<second>`.
        if let crossing, let key = FiringKey(alarm.identifier.rawValue + "@" + crossing) { return key }
        return FiringKey(alarm: alarm.identifier, occurrence: occurrence.map { .scheduled($0.scheduledTime.localSeconds) } ?? .once)
    }

    /// The key's text, as the delivery log and the control socket hold it.
    public var key: String { firingKey.description }

    /// The key of the firing this one continues: a snoozed firing coming
    /// back replaces the first one's notification rather than stacking.
    public var rootKey: String { firingKey.root.description }

    public static func < (lhs: Firing, rhs: Firing) -> Bool {
        lhs.instant != rhs.instant ? lhs.instant < rhs.instant : lhs.key < rhs.key
    }
}
