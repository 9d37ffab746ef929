import CalendarModel
import CalendarStore
import Foundation

/// The notifications on screen: each is remembered in the store (which
/// server notification shows which firing), closed once it is answered or
/// its firing is done, removed or gone elsewhere, and taken back by a daemon
/// started again, so that no button on screen answers nobody.
extension Daemon {
    /// Keeps a shown firing for the answer to it (a bounded number), and
    /// remembers its notification in the store for the next process.
    func remember(_ firing: Firing, late: Bool, shown: ShownNotificationID?) {
        // A snoozed firing shows in its root's place: that one is no longer on screen.
        if firing.snoozedFrom != nil { onScreen = onScreen.filter { $0.value.rootKey != firing.rootKey } }
        if onScreen.count >= AlarmLedger.shownNotificationsKept, let oldest = onScreen.values.min() { onScreen[oldest.key] = nil }
        onScreen[firing.key] = firing
        guard let shown else { return }
        do {
            try ledger.recordShown(AlarmLedger.ShownNotification(rootKey: firing.firingKey.root, key: firing.firingKey, serverID: shown.id,
                                                                  server: shown.server, firing: firing.record(late: late), shownAt: clock.second))
        } catch {
            log("chimed: cannot remember the notification of '\(firing.title)': \(error)")
        }
    }

    /// The person answered, or the server closed it: it is off screen (or
    /// about to be) and needs no taking back.
    func forgetShown(_ key: String) {
        onScreen[key] = nil
        // A key that is no firing's was never shown.
        guard let firingKey = FiringKey(key) else { return }
        do { try ledger.forgetShown(keys: [firingKey]) } catch { log("chimed: \(error)") }
    }

    /// Whether `firing` still rings as it was shown: its item is there (a
    /// reminder not completed) and, for a firing at a time, its alarm still
    /// makes a firing of the same key at or after its instant. A snoozed
    /// firing or one of a crossing needs its item only.
    func isCurrent(_ firing: Firing) throws -> Bool {
        guard let item = try store.alarmedItems([firing.itemIdentifier]).first else { return false }
        if firing.snoozedFrom != nil || firing.crossing != nil { return true }
        let sources = try FiringPlanner(store: store).sources(of: item, after: firing.instant - 1)
        guard var source = sources.first(where: { $0.alarm.identifier == firing.alarm.identifier }) else { return false }
        return source.next()?.key == firing.key
    }

    /// Closes the notifications of firings that no longer ring as shown,
    /// among those of `items` (nil: all): completed or removed with `chime`,
    /// or edited so that the firing is gone.
    func withdrawStale(items: Set<ItemIdentifier>?) throws {
        if let items, items.isEmpty { return }
        var gone: [FiringKey] = []
        for firing in onScreen.values where items?.contains(firing.itemIdentifier) ?? true {
            guard try !isCurrent(firing) else { continue }
            notifier.withdraw(key: firing.key)
            gone.append(firing.firingKey)
        }
        for key in gone { onScreen[key.description] = nil }
        try ledger.forgetShown(keys: gone)
    }

    /// Shows `firing` through the notifier, marked read-only when its
    /// calendar takes no changes (its notification then offers no Done).
    func present(_ firing: Firing, late: Bool, replacing: ShownNotificationID?) throws -> ShownNotificationID? {
        var firing = firing
        firing.isReadOnly = (try? store.takesChanges(item: firing.itemIdentifier)) == false
        return try notifier.present(firing, late: late, replacing: replacing)
    }

    /// At start: the notifications an earlier process left on screen are
    /// shown again in place (their buttons now answer this process), or
    /// closed when their firing no longer rings as shown.
    func takeBackShown() throws {
        let remembered = try ledger.shownNotifications()
        for (index, shown) in remembered.enumerated() {
            let notification = ShownNotificationID(id: shown.serverID, server: shown.server)
            guard let (firing, late) = Firing.fromRecord(shown.firing), try isCurrent(firing) else {
                notifier.close(notification)
                try ledger.forgetShown(keys: [shown.rootKey])
                continue
            }
            do {
                let now = try present(firing, late: late, replacing: notification)
                remember(firing, late: late, shown: now)
            } catch {
                // No server now: the notifications went with it.
                log("chimed: cannot show the \(remembered.count - index) notification(s) left on screen again: \(error)")
                try ledger.forgetShown(keys: remembered[index...].map(\.rootKey))
                return
            }
        }
    }
}
