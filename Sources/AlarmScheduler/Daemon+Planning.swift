import CalendarModel
import CalendarStore
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The standing plan: what the daemon does on each wake.
///
/// The plan holds, per item, when its next firing is due (`StandingPlan`).
/// A wake brings it up to date with the store's change log, then reads
/// again the items due by now, settles their firings, and puts them back
/// with their next firing. A change to one item costs that item; a firing
/// costs its own item.
extension Daemon {
    /// Brings the plan up to date, settles everything due up to now, and
    /// arms the timer for what comes next.
    func wake() {
        dispatchPrecondition(condition: .onQueue(queue))
        // A store replaced or removed under the daemon is noticed here too, not only by the folder watch.
        checkStore()
        guard store != nil else { return }
        do {
            let now = clock.second
            let changes = try plan.update(from: store, after: settled).merged(with: changesOwed)
            changesOwed = .none
            // A workday rule that arrives through a change is noticed then, not at the next day's look.
            if changes.workdayRules { lastNoticeCheck = nil }
            do { try lookAtHolidayData(now: now) } catch { log("chimed: holiday data: \(error)") }
            do { try withdrawStale(items: changes.items) } catch { log("chimed: cannot close notifications: \(error)") }
            try refreshGeofences()
            try settle(now: now)
            try arm()
        } catch {
            log("chimed: \(error)")
        }
        reportItemsBeyondBound()
    }

    /// Names, once each, the series that planning met past the expansion
    /// bound: their alarms stop at the bound, and whoever reads the log
    /// should know why.
    func reportItemsBeyondBound() {
        for item in store.takeItemsBeyondBound() { log("chimed: \(item)") }
    }

    /// Every item planned again, after `settled`.
    func rebuildPlan() throws {
        dispatchPrecondition(condition: .onQueue(queue))
        let begin = Date()
        // A larger page cache for the scan saves a fifth of its time but
        // leaves the heap ~7 MB larger for good (measured): kept small, and
        // the file mapped for the scan instead (no copying through pread).
        plan = try store.withMappedFile { try StandingPlan.make(from: store, after: settled) }
        // The new plan took in changes no wake has looked at yet (a reminder
        // completed elsewhere, a workday rule added, while the clock was
        // being set): the next wake closes notifications and gives notices
        // as though every item had changed.
        changesOwed = .everything
        store.releaseMemory()
        reportItemsBeyondBound()
        log(String(format: "chimed: planned %d item(s) in %.0f ms", plan.count, Date().timeIntervalSince(begin) * 1000))
    }

    /// Shows or records what came due in (`settled`, `now`]: the items the
    /// plan has due, and snoozed firings.
    private func settle(now: Int64) throws {
        guard now > settled else {
            // The clock went back, or a store write woke us within the
            // second: nothing new is due.
            try deliverUnlessWaiting(now: now)
            return
        }
        let sorted = try CatchUp.settle(&plan, store: store, ledger: ledger, settled: settled, now: now, window: options.lateness,
                                        interrupted: interrupted)
        settled = now
        try ledger.record(sorted.missed.map { AlarmLedger.Delivery($0, outcome: .missed, at: clock.second) })
        undelivered += sorted.late
        if !interrupted.isEmpty {
            // Those not shown again (past their window, the alarm's earlier
            // ones, or no longer in the store) are listed as interrupted.
            try ledger.setOutcome(.interrupted, keys: Array(interrupted.subtracting(sorted.late.map(\.firingKey))))
            interrupted = []
        }
        if !sorted.late.isEmpty {
            // Something new came due: a moment worth trying the notifier.
            return try deliver(now: now)
        }
        try deliverUnlessWaiting(now: now)
    }

    /// Delivers what is waiting, unless the notifier failed and a retry is
    /// armed: only the retry tries again. Delivering writes to the store,
    /// and the write wakes the daemon; without this, a failing notifier
    /// would be tried in a tight loop.
    private func deliverUnlessWaiting(now: Int64) throws {
        guard !undelivered.isEmpty, retryTimer == nil else { return }
        try deliver(now: now)
    }

    /// Shows the firings waiting, oldest first. Each is in the log as
    /// being shown while it is; when the notifier fails, the rest leave the
    /// log again and wait, the store's settled mark is held back before
    /// them (a crash leaves them to the catch-up), and a retry is armed,
    /// backing off from 5 s to 5 min. One that waited past its lateness
    /// window is recorded as missed.
    func deliver(now: Int64) throws {
        let isStale = { (firing: Firing) in now - firing.instant > firing.alarm.missedWindow.map(Int64.init) ?? self.options.lateness }
        let stale = undelivered.filter(isStale)
        if !stale.isEmpty {
            try ledger.record(stale.map { AlarmLedger.Delivery($0, outcome: .missed, at: clock.second) })
            undelivered.removeAll(where: isStale)
        }
        try ledger.record(undelivered.map { AlarmLedger.Delivery($0, outcome: .showing, at: clock.second) })
        var onTime: [FiringKey] = [], late: [FiringKey] = []
        var shown = 0
        for firing in undelivered {
            // Shown as due only if this process was watching when it came due,
            // and woke for it promptly (not after a suspend or a wait for a server).
            // A location firing is shown when its fix arrives, which is its time.
            let isDue = firing.crossing != nil || Double(firing.instant) >= watchedSince && now - firing.instant <= options.onTimeGrace
            let notification: ShownNotificationID?
            do {
                notification = try present(firing, late: !isDue, replacing: nil)
            } catch {
                if retryDelay == 0 { log("chimed: could not show '\(firing.title)': \(error); trying again") }
                break
            }
            shown += 1
            remember(firing, late: !isDue, shown: notification)
            if isDue { onTime.append(firing.firingKey) } else { late.append(firing.firingKey) }
        }
        try ledger.setOutcome(.delivered, keys: onTime)
        try ledger.setOutcome(.late, keys: late)
        undelivered.removeFirst(shown)
        try ledger.forgetDeliveries(keys: undelivered.map(\.firingKey))
        let mark = undelivered.first.map { min(settled, $0.instant - 1) } ?? settled
        if mark != settledInStore {
            try ledger.setSettledThrough(mark)
            settledInStore = mark
        }
        if undelivered.isEmpty {
            if retryDelay > 0 { log("chimed: notifications are shown again") }
            retryTimer?.cancel()
            retryTimer = nil
            retryDelay = 0
        } else {
            retryDelay = min(max(retryDelay * 2, 5), 300)
            retryTimer?.cancel()
            retryTimer = clock.schedule(in: retryDelay, on: queue) { [weak self] in
                guard let self else { return }
                do { try self.deliver(now: self.clock.second) } catch { self.log("chimed: \(error)") }
            }
        }
    }

    /// One timer for the earliest firing or snooze; none when nothing is due.
    private func arm() throws {
        let snooze = try ledger.snoozes(after: settled).first?.fireAt
        let next = [plan.earliest(), snooze].compactMap { $0 }.min()
        guard let next else {
            timer?.cancel()
            timer = nil
            armedFor = nil
            return
        }
        if armedFor == next, timer != nil { return }
        timer?.cancel()
        timer = clock.schedule(at: Double(next), on: queue) { [weak self] in self?.wake() }
        armedFor = next
    }
}
