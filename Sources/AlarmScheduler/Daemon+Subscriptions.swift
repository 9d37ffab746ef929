import Dispatch

/// Subscribed calendars: one timer, armed for the earliest subscription
/// due, that hands the refresh to `Options.subscriptions` on a queue of its
/// own. The refresh writes through its own connection; the store watch
/// then re-plans, as for any other writer.
extension Daemon {
    /// Arms (or re-arms) the refresh timer for the next subscription due;
    /// nothing when there is none or no refresher was given.
    func armSubscriptions() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard options.subscriptions != nil, let store else { return }
        let next: Int64?
        do { next = try store.nextSubscriptionDue() } catch {
            log("chimed: subscriptions: \(error)")
            return
        }
        guard let next else {
            subscriptionTimer?.source.cancel()
            subscriptionTimer = nil
            return
        }
        // A refresh running arms again when it ends.
        if refreshing { return }
        // A refresh that could not record its outcome leaves the feed due:
        // a minute between attempts keeps that from spinning.
        let at = max(Double(next), (subscriptionsRefreshedAt ?? -.infinity) + 60)
        if let armed = subscriptionTimer, armed.at == at { return }
        subscriptionTimer?.source.cancel()
        subscriptionTimer = oneShot(at: at) { $0.refreshSubscriptions() }
    }

    /// Runs the due refreshes on the refresh queue, then arms for the next.
    func refreshSubscriptions() {
        dispatchPrecondition(condition: .onQueue(queue))
        subscriptionTimer = nil
        guard let refresher = options.subscriptions, !refreshing, store != nil else { return }
        refreshing = true
        subscriptionsRefreshedAt = clock.now
        let path = options.storePath, now = Int64(clock.now.rounded(.down)), log = self.log
        subscriptionQueue.async { [weak self] in
            refresher.refreshDue(storePath: path, now: now, log: log)
            guard let self else { return }
            self.queue.async {
                self.refreshing = false
                self.armSubscriptions()
            }
        }
    }
}
