import CalendarStore
import Foundation

/// The notifications on screen: which server notification shows which
/// firing, kept beside the delivery log so that a daemon started again (after
/// a stop or a crash) takes them back instead of leaving buttons that answer
/// nobody. The daemon's own bookkeeping: not a change to the items.
extension AlarmLedger {
    public struct ShownNotification: Hashable, Sendable {
        /// The key of the firing the notification continues (see `Firing.rootKey`).
        public var rootKey: FiringKey
        /// The key of the firing it shows now.
        public var key: FiringKey
        /// The id the notification server gave it.
        public var serverID: UInt32
        /// Which server gave the id (its unique bus name): another server's
        /// ids are not ours to replace.
        public var server: String
        /// The firing, as the daemon wrote it, to show again.
        public var firing: String
        /// When it was shown, in Unix seconds.
        public var shownAt: Int64

        public init(rootKey: FiringKey, key: FiringKey, serverID: UInt32, server: String, firing: String, shownAt: Int64) {
            self.rootKey = rootKey
            self.key = key
            self.serverID = serverID
            self.server = server
            self.firing = firing
            self.shownAt = shownAt
        }
    }

    /// The most notifications remembered; the oldest go first.
    public static let shownNotificationsKept = 1000

    /// Remembers a notification on screen, in place of what its root key showed before.
    public func recordShown(_ shown: ShownNotification) throws(StoreError) {
        try StoreError.wrap { try database.transaction { () throws in
            try database.execute("""
                INSERT INTO notifications_shown (root_key, key, server_id, server, firing, shown_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(root_key) DO UPDATE SET key = excluded.key, server_id = excluded.server_id, server = excluded.server,
                    firing = excluded.firing, shown_at = excluded.shown_at
                """, [shown.rootKey.description, shown.key.description, Int64(shown.serverID), shown.server, shown.firing, Double(shown.shownAt)])
            try database.execute("""
                DELETE FROM notifications_shown WHERE root_key NOT IN
                    (SELECT root_key FROM notifications_shown ORDER BY shown_at DESC LIMIT ?)
                """, [Self.shownNotificationsKept])
        } }
    }

    /// Forgets the notifications showing these firings (by their key or root key).
    public func forgetShown(keys: [FiringKey]) throws(StoreError) {
        guard !keys.isEmpty else { return }
        try StoreError.wrap {
            let list = CalendarStore.jsonArray(keys.map(\.description))
            try database.execute("""
                DELETE FROM notifications_shown WHERE key IN (SELECT value FROM json_each(?1)) OR root_key IN (SELECT value FROM json_each(?1))
                """, [list])
        }
    }

    /// Every notification remembered, oldest first.
    public func shownNotifications() throws(StoreError) -> [ShownNotification] {
        try StoreError.wrap {
            try database.query("SELECT root_key, key, server_id, server, firing, shown_at FROM notifications_shown ORDER BY shown_at, root_key")
                .map { row in
                    let id: Int64 = try row.value(2), rootText: String = try row.value(0), text: String = try row.value(1)
                    guard let rootKey = FiringKey(rootText), let key = FiringKey(text) else {
                        throw StoreError.damaged(item: "notification of \(rootText)", reason: "'\(text)' is not a firing's key")
                    }
                    return ShownNotification(rootKey: rootKey, key: key, serverID: UInt32(clamping: id),
                                             server: try row.value(3), firing: try row.value(4),
                                             shownAt: AlarmLedger.second(try row.value(5)))
                }
        }
    }
}
