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

extension CatchUp {
    /// Sorts the firings that came due unwatched, leaving out those the
    /// delivery log already holds (`known`): per alarm, the latest within
    /// its window (the alarm's `missedWindow`, else `window` seconds) of
    /// `now` is shown late, the rest recorded as missed.
    public init(due: [Firing], known: Set<String>, now: Int64, window: Int64) {
        var latest: [ItemIdentifier: Firing] = [:]
        for firing in due.sorted() where !known.contains(firing.key) {
            if let earlier = latest[firing.alarm.identifier] { missed.append(earlier) }
            latest[firing.alarm.identifier] = firing
        }
        for firing in latest.values.sorted() {
            // The alarm's own window, where it has one.
            let window = firing.alarm.missedWindow.map(Int64.init) ?? window
            if window > 0 && firing.instant >= now - window { late.append(firing) } else { missed.append(firing) }
        }
        missed.sort()
    }
}

extension FiringPlanner {
    /// The firings due in (`settled`, `now`] that the delivery log does not
    /// hold, sorted into late and missed by `window` (seconds before now).
    public func catchUp(settled: Int64, now: Int64, window: Int64 = CatchUp.defaultWindow) throws(StoreError) -> CatchUp {
        // One plan serves both: what came due, and what comes next.
        let planned = try firings(after: min(settled, now), count: CatchUp.limit, through: now)
        let next = planned.first { $0.instant > now }
        var result = CatchUp()
        if now > settled {
            let due = Array(planned.prefix { $0.instant <= now })
            result = CatchUp(due: due, known: try store.recordedKeys(among: due.map(\.key)), now: now, window: window)
        }
        result.next = next
        if result.next == nil && planned.count == CatchUp.limit { result.next = try firings(after: now, count: 1).first }
        return result
    }

    /// An item's firings due in (`settled`, `now`] and the instant of its
    /// first firing after `now`: what the daemon needs of an item it wakes
    /// for. An alarm contributes at most `perAlarmLimit` firings from the
    /// start of the span, and always those within `window` of `now`, so the
    /// latest one is among them however long the span.
    func due(of item: CalendarStore.AlarmedItem, after settled: Int64, through now: Int64,
             window: Int64) throws(StoreError) -> (due: [Firing], next: Int64?) {
        var due: [Firing] = [], next: Int64?
        var cut: Set<ItemIdentifier> = []
        for var source in try sources(of: item, after: settled) {
            var taken = 0
            while let firing = source.next() {
                if firing.instant > now {
                    next = min(next ?? .max, firing.instant)
                    break
                }
                due.append(firing)
                taken += 1
                if taken == perAlarmLimit {
                    cut.insert(source.alarm.identifier)
                    break
                }
            }
        }
        guard !cut.isEmpty else { return (due, next) }
        let seen = Set(due.map(\.key))
        for alarm in cut {
            let from = max(settled, now - Int64(item.alarms.first { $0.identifier == alarm }?.missedWindow ?? Int(window)))
            for var source in try sources(of: item, after: from) where source.alarm.identifier == alarm {
                // The window of a minutely alarm holds a few hundred: the bound is generous.
                for _ in 0..<100_000 {
                    guard let firing = source.next() else { break }
                    if firing.instant > now {
                        next = min(next ?? .max, firing.instant)
                        break
                    }
                    if !seen.contains(firing.key) { due.append(firing) }
                }
            }
        }
        return (due, next)
    }

    /// When an item's next firing after `instant` is due.
    func firstInstant(of item: CalendarStore.AlarmedItem, after instant: Int64) throws(StoreError) -> Int64? {
        var first: Int64?
        for var source in try sources(of: item, after: instant) {
            if let firing = source.next() { first = min(first ?? .max, firing.instant) }
        }
        return first
    }
}

extension CalendarStore.Delivery {
    /// The log's record of a firing.
    public init(_ firing: Firing, outcome: Outcome, at date: Date) {
        self.init(key: firing.key, alarm: firing.alarm.identifier, item: firing.itemIdentifier, title: firing.title,
                  due: firing.instant, outcome: outcome, recordedAt: date)
    }
}
