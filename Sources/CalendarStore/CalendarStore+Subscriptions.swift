import CalendarModel
import Foundation
import SQLiteDatabase

/// Subscribed calendars' feeds: where they are and how their refreshes went.
/// A refresh itself is `importItems(_:into:removingMissing: true,
/// asSubscriptionRefresh: true)` followed by `recordRefresh`; in one
/// `transaction` when the two must stand or fall together.
extension CalendarStore {
    /// How one attempt to refresh a feed ended.
    public enum RefreshOutcome: Hashable, Sendable {
        /// The feed came (and was imported), with the answer's validators.
        case fetched(entityTag: String?, lastModifiedHeader: String?)
        /// The server said it had not changed (304): the items stand.
        case notModified
        /// Nothing usable came: the reason, to show.
        case failed(String)
    }

    /// The subscription of `calendar`; nil when it has none.
    public func subscription(of calendar: ItemIdentifier) throws(StoreError) -> Subscription? {
        _ = try self.calendar(identifier: calendar)
        return try StoreError.wrap {
            try database.query("SELECT * FROM subscriptions WHERE calendar_id = ?", [calendar.rawValue]).first.map(Self.subscription)
        }
    }

    /// Every subscription, by calendar identifier.
    public func subscriptions() throws(StoreError) -> [Subscription] {
        try StoreError.wrap { try database.query("SELECT * FROM subscriptions ORDER BY calendar_id").map(Self.subscription) }
    }

    /// Adds or changes the subscription of its calendar, and makes the
    /// calendar one of kind `.subscribed(url:)` with its URL. A new URL
    /// drops the old one's validators and makes the feed due at once.
    /// Moves the change counter: a daemon that refreshes feeds re-reads
    /// when they are due.
    public func saveSubscription(_ subscription: Subscription) throws(StoreError) {
        do { try subscription.validate() } catch { throw .invalid(error) }
        try StoreError.wrap {
            try transaction { () throws(StoreError) in
                _ = try self.calendar(identifier: subscription.calendarIdentifier)
                var saved = subscription
                if let old = try self.subscription(of: subscription.calendarIdentifier), old.url != subscription.url {
                    saved.entityTag = nil
                    saved.lastModifiedHeader = nil
                    saved.lastAttempt = nil
                    saved.consecutiveFailures = 0
                }
                try StoreError.wrap {
                    try write(saved)
                    try database.execute("UPDATE calendars SET subscription_url = ? WHERE id = ?",
                                         [saved.url, saved.calendarIdentifier.rawValue])
                    try database.execute("UPDATE store_state SET change_counter = change_counter + 1 WHERE id = 1")
                }
            }
        }
    }

    /// Ends the subscription of `calendar`: it becomes a local calendar
    /// with the items it has, as they are (still read-only if it was).
    public func removeSubscription(of calendar: ItemIdentifier) throws(StoreError) {
        _ = try self.calendar(identifier: calendar)
        try StoreError.wrap {
            try database.transaction(.immediate) {
                try database.execute("DELETE FROM subscriptions WHERE calendar_id = ?", [calendar.rawValue])
                try database.execute("UPDATE calendars SET subscription_url = NULL WHERE id = ?", [calendar.rawValue])
                try database.execute("UPDATE store_state SET change_counter = change_counter + 1 WHERE id = 1")
            }
        }
    }

    /// The subscriptions whose next attempt (`Subscription.nextAttempt`)
    /// is at or before `instant` (Unix seconds), the longest due first.
    public func subscriptionsDue(at instant: Int64) throws(StoreError) -> [Subscription] {
        try StoreError.wrap {
            try database.query("SELECT * FROM subscriptions WHERE next_attempt_at <= ? ORDER BY next_attempt_at, calendar_id", [instant])
                .map(Self.subscription)
        }
    }

    /// When the next subscription falls due (Unix seconds; `Int64.min` for
    /// one never tried), nil without any: what a single timer waits for.
    public func nextSubscriptionDue() throws(StoreError) -> Int64? {
        try StoreError.wrap { try database.scalar("SELECT min(next_attempt_at) FROM subscriptions") }
    }

    /// Notes an attempt to refresh `calendar`'s feed at `instant` (Unix
    /// seconds) and how it ended. Fetched: the new validators are kept;
    /// not modified: the old ones stay; either is a success, which clears
    /// the last error and the failure count. Failed: the reason is kept and
    /// the next attempt comes sooner than the interval (see `nextAttempt`).
    /// Does not move the change counter: no item changed.
    @discardableResult
    public func recordRefresh(of calendar: ItemIdentifier, at instant: Int64, _ outcome: RefreshOutcome) throws(StoreError) -> Subscription {
        try StoreError.wrap {
            try transaction { () throws(StoreError) -> Subscription in
                guard var subscription = try self.subscription(of: calendar) else {
                    throw .notFound(kind: "subscription of calendar", identifier: calendar.rawValue)
                }
                subscription.lastAttempt = instant
                switch outcome {
                case .fetched(let entityTag, let lastModifiedHeader):
                    subscription.entityTag = entityTag
                    subscription.lastModifiedHeader = lastModifiedHeader
                    subscription.lastSuccess = instant
                    subscription.lastError = nil
                    subscription.consecutiveFailures = 0
                case .notModified:
                    subscription.lastSuccess = instant
                    subscription.lastError = nil
                    subscription.consecutiveFailures = 0
                case .failed(let reason):
                    subscription.lastError = reason
                    subscription.consecutiveFailures += 1
                }
                let recorded = subscription
                try StoreError.wrap { try write(recorded) }
                return subscription
            }
        }
    }

    private func write(_ subscription: Subscription) throws {
        try database.execute("""
            INSERT INTO subscriptions (calendar_id, url, refresh_interval, entity_tag, last_modified_header, last_attempt_at,
                                       last_success_at, last_error, failures, next_attempt_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(calendar_id) DO UPDATE SET url = excluded.url, refresh_interval = excluded.refresh_interval,
                entity_tag = excluded.entity_tag, last_modified_header = excluded.last_modified_header,
                last_attempt_at = excluded.last_attempt_at, last_success_at = excluded.last_success_at,
                last_error = excluded.last_error, failures = excluded.failures, next_attempt_at = excluded.next_attempt_at
            """, [subscription.calendarIdentifier.rawValue, subscription.url, subscription.refreshInterval, subscription.entityTag,
                  subscription.lastModifiedHeader, subscription.lastAttempt, subscription.lastSuccess, subscription.lastError,
                  subscription.consecutiveFailures, subscription.nextAttempt])
    }

    private static func subscription(_ row: Row) throws -> Subscription {
        let text: String = try row.value("calendar_id")
        let identifier = try ItemIdentifier.stored(text, row: "subscription of \(text)", column: "calendar_id")
        return Subscription(calendarIdentifier: identifier, url: try row.value("url"), refreshInterval: try row.value("refresh_interval"),
                            entityTag: try row.value("entity_tag"), lastModifiedHeader: try row.value("last_modified_header"),
                            lastAttempt: try row.value("last_attempt_at"), lastSuccess: try row.value("last_success_at"),
                            lastError: try row.value("last_error"), consecutiveFailures: try row.value("failures"))
    }
}
