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
    public init(due: [Firing], known: Set<FiringKey>, now: Int64, window: Int64) {
        var latest: [ItemIdentifier: Firing] = [:]
        for firing in due.sorted() where !known.contains(firing.firingKey) {
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

extension CatchUp {
    /// What a wake settles, as the daemon does it: the items `plan` has due
    /// by `now` are read again from `store`, and their firings due in
    /// (`settled`, `now`], with the snoozes of `ledger` due then (of items
    /// that still have alarms: a completed reminder's do not ring), are
    /// sorted into late and missed, leaving out what the log holds. Keys in
    /// `interrupted` (being shown when the last run stopped) come due again
    /// and are marked so. Each item goes back into `plan` with its next firing.
    static func settle(_ plan: inout StandingPlan, store: CalendarStore, ledger: AlarmLedger, settled: Int64, now: Int64,
                       window: Int64, interrupted: Set<FiringKey> = []) throws(StoreError) -> CatchUp {
        let planner = FiringPlanner(store: store, ledger: ledger)
        var due: [Firing] = []
        let items = plan.takeDue(through: now)
        for start in stride(from: 0, to: items.count, by: 500) {
            for item in try store.alarmedItems(items[start..<min(start + 500, items.count)]) {
                let result = try planner.due(of: item, after: settled, through: now, window: window)
                due += result.due
                plan.set(item.identifier, next: result.next)
            }
        }
        let snoozes = try ledger.snoozes(after: settled).prefix { $0.fireAt <= now }
        if !snoozes.isEmpty {
            var live: [ItemIdentifier: ItemKind] = [:]
            var alarms: [ItemIdentifier: Alarm] = [:]
            for item in try store.alarmedItems(Set(snoozes.map(\.item))) {
                live[item.identifier] = item.kind
                for alarm in item.alarms { alarms[alarm.identifier] = alarm }
            }
            due += snoozes.compactMap { snooze in live[snooze.item].map { Firing(snoozed: snooze, kind: $0, alarm: alarms[snooze.alarm]) } }
        }
        guard !due.isEmpty else { return CatchUp() }
        if !interrupted.isEmpty { due = due.map { var firing = $0; firing.interrupted = interrupted.contains(firing.firingKey); return firing } }
        // The log holds the interrupted ones as being shown: they are not known, they come due again.
        return CatchUp(due: due, known: try ledger.recordedKeys(among: due.map(\.firingKey)).subtracting(interrupted), now: now, window: window)
    }
}

extension FiringPlanner {
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
            while let candidate = source.nextCandidate() {
                if candidate.instant > now {
                    next = min(next ?? .max, candidate.instant)
                    break
                }
                due.append(source.firing(candidate))
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
                    guard let candidate = source.nextCandidate() else { break }
                    if candidate.instant > now {
                        next = min(next ?? .max, candidate.instant)
                        break
                    }
                    let firing = source.firing(candidate)
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
            if let candidate = source.nextCandidate() { first = min(first ?? .max, candidate.instant) }
        }
        return first
    }
}

extension AlarmLedger.Delivery {
    /// The log's record of a firing.
    public init(_ firing: Firing, outcome: Outcome, at instant: Int64) {
        self.init(key: firing.firingKey, alarm: firing.alarm.identifier, item: firing.itemIdentifier, title: firing.title,
                  due: firing.instant, outcome: outcome, recordedAt: instant)
    }
}
