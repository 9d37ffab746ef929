import CalendarModel
import CalendarStore
import Foundation

/// What to do with firings that came due while nothing was watching: the
/// daemon was down, the machine off or asleep, the clock jumped forward.
///
/// The policy, per alarm: the latest firing missed within the lateness
/// window is shown once, marked late with its due time; every other one is
/// recorded as missed without a popup. A week away gives one notification
/// per alarm, not one per day, and a month away none for the daily ones
/// past the window. Firings the delivery log already holds are left alone,
/// so a restart or a clock set back never shows anything twice.
public struct CatchUp: Sendable {
    /// To show now, marked late.
    public var late: [Firing] = []
    /// To record as missed, without a popup.
    public var missed: [Firing] = []
    /// The first firing after now: what to arm the timer for.
    public var next: Firing?

    /// The default lateness window: a few hours, long enough for a laptop
    /// lid closed over lunch, short enough that yesterday stays yesterday.
    public static let defaultWindow: Int64 = 4 * 3600

    /// The most missed firings one catch-up looks at.
    public static let limit = 10_000
}

extension FiringPlanner {
    /// The firings due in (`settled`, `now`] that the delivery log does not
    /// hold, sorted into late and missed by `window` (seconds before now).
    public func catchUp(settled: Int64, now: Int64, window: Int64 = CatchUp.defaultWindow) throws(StoreError) -> CatchUp {
        // One plan serves both: what came due, and what comes next.
        let planned = try firings(after: min(settled, now), count: CatchUp.limit, through: now)
        var result = CatchUp()
        result.next = planned.first { $0.instant > now }
        if result.next == nil && planned.count == CatchUp.limit { result.next = try firings(after: now, count: 1).first }
        guard now > settled else { return result }
        let due = planned.prefix { $0.instant <= now }
        let known = try store.recordedKeys(among: due.map(\.key))
        var latest: [ItemIdentifier: Firing] = [:]
        for firing in due where !known.contains(firing.key) {
            if let earlier = latest[firing.alarm.identifier] { result.missed.append(earlier) }
            latest[firing.alarm.identifier] = firing
        }
        for firing in latest.values.sorted() {
            if firing.instant >= now - window { result.late.append(firing) } else { result.missed.append(firing) }
        }
        result.missed.sort()
        return result
    }
}

extension CalendarStore.Delivery {
    /// The log's record of a firing.
    public init(_ firing: Firing, outcome: Outcome, at date: Date) {
        self.init(key: firing.key, alarm: firing.alarm.identifier, item: firing.itemIdentifier, title: firing.title,
                  due: firing.instant, outcome: outcome, recordedAt: date)
    }
}
