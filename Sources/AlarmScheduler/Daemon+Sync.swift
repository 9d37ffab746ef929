import Dispatch

/// CalDAV sync (`Options.sync`): at start, on `Options.syncInterval`, and
/// `Options.syncDelay` after a change to the store that the last sync did
/// not make (a Done in a notification, `chime add`), so that the change
/// reaches the other devices soon and a burst of changes goes up as one.
/// One timer, on the daemon's clock: a wall clock that a suspend does not
/// hold back, so a sync due while the machine slept runs as it wakes.
///
/// The sync writes through its own connection, off the daemon's queue; the
/// store watch then re-plans, as for any other writer. What the sync wrote
/// is told from a later local change by the store's change counter, read
/// by the sync's connection as it ends. A change while a sync runs cannot
/// be told from the sync's own writes: when the counter moved during a
/// sync, one more follows after `syncDelay` (a quiet one is one request).
extension Daemon {
    /// Asks for a sync `delay` seconds from now, or sooner if one is armed sooner.
    func requestSync(after delay: Double) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard options.sync != nil, !syncing else { return }
        armSync(at: clock.now + delay)
    }

    /// The clock was set: a timer armed on the old reading is armed again on the new.
    func syncAfterClockSet() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard options.sync != nil, !syncing else { return }
        syncTimer?.source.cancel()
        syncTimer = nil
        armSync(at: clock.now + options.syncDelay)
    }

    /// Arms the sync timer for `at`, unless it is armed sooner already.
    private func armSync(at: Double) {
        if let armed = syncTimer, armed.at <= at { return }
        syncTimer?.source.cancel()
        syncTimer = oneShot(at: at) { $0.runSync() }
    }

    /// A write to the store: a sync soon, unless the last sync made it.
    func syncAfterStoreWrite() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard options.sync != nil, !syncing, let store else { return }
        guard let counter = try? store.changeCounter(), counter != syncedAtCounter else { return }
        requestSync(after: options.syncDelay)
    }

    /// `chime` changed the store (its `changed` notice). Without accounts
    /// that asks for a sync whatever the counter says: `chime account add`
    /// writes only the sync's own tables, which the counter does not count,
    /// and a store write alone cannot ask (opening the sync's tables writes).
    func syncAfterCommand() {
        dispatchPrecondition(condition: .onQueue(queue))
        if syncHasAccounts { syncAfterStoreWrite() } else { requestSync(after: options.syncDelay) }
    }

    /// Runs the sync on the sync queue, then arms the next by the interval.
    func runSync() {
        dispatchPrecondition(condition: .onQueue(queue))
        syncTimer?.source.cancel()
        syncTimer = nil
        // No store (it was removed): the syncer would find nothing to sync.
        // The store coming back asks again.
        guard let syncer = options.sync, !syncing, store != nil else { return }
        syncing = true
        syncCount += 1
        let before = try? store?.changeCounter()
        let path = options.storePath, log = self.log
        syncQueue.async { [weak self] in
            let result = syncer.syncAccounts(storePath: path, log: log)
            guard let self else { return }
            self.queue.async {
                self.syncing = false
                self.syncedAtCounter = result.changeCounter
                self.syncHasAccounts = result.hasAccounts
                self.notice(result)
                // Without accounts, the next local change asks again (`chime account add` is one).
                guard result.hasAccounts else { return }
                self.armSync(at: self.clock.now + self.options.syncInterval)
                // The store changed while it ran: by what it brought down, or
                // by a local change it may have missed. One more sync tells;
                // it brings nothing, so it asks for no other.
                if result.changeCounter != before { self.armSync(at: self.clock.now + self.options.syncDelay) }
            }
        }
    }

    /// What a sync did that the person must hear of, since chimed's log is
    /// read by nobody: a conflict kept aside, a calendar kept whole that the
    /// server lists as empty. On the desktop and in the log.
    func notice(_ result: CalendarSyncResult) {
        dispatchPrecondition(condition: .onQueue(queue))
        var notices: [DaemonNotice] = []
        if result.conflicts > 0 { notices.append(.syncConflicts(count: result.conflicts)) }
        let kept = result.keptEmpty.filter { !keptEmptyNoticed.contains($0) }
        keptEmptyNoticed.formUnion(kept)
        notices += kept.map { .calendarKeptWhole(calendar: $0) }
        for notice in notices {
            log("chimed: notice: \(notice.title) — \(notice.body)")
            do { try notifier.showNotice(notice) } catch { log("chimed: notice not shown: \(error)") }
        }
    }
}

extension Daemon {
    /// `action` at `at` on the daemon's queue, through its clock, with the
    /// timer that will run it; one due now (or long ago) is queued at once,
    /// not left to the clock's next tick, and has no timer (nil).
    func oneShot(at: Double, _ action: @escaping @Sendable (Daemon) -> Void) -> (source: any ClockTimer, at: Double)? {
        guard at > clock.now else {
            queue.async { [weak self] in if let self { action(self) } }
            return nil
        }
        return (clock.schedule(at: at, on: queue) { [weak self] in if let self { action(self) } }, at)
    }
}
