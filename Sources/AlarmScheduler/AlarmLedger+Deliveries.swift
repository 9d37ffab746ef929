import CalendarModel
import CalendarStore
import Foundation
import RecurrenceEngine
import SQLiteDatabase

/// The delivery log: which firings were shown, shown late, or passed over,
/// so that none is shown twice and none is dropped without a trace.
extension AlarmLedger {
    public struct Delivery: Hashable, Sendable {
        public enum Outcome: String, Sendable {
            /// Being shown: recorded before the notifier is called. A process
            /// that stops before marking it shown leaves it so: the next run
            /// shows it again, marked as interrupted (a lost alarm is worse
            /// than a repeated one).
            case showing
            /// The process stopped while showing it, and it was not shown
            /// again (its missed window had passed, or its alarm was gone).
            case interrupted
            /// Shown on time.
            case delivered
            /// Shown after its time, marked as missed with its due time.
            case late
            /// Passed over without a popup (too old, or one of many of the same alarm).
            case missed
        }

        /// The firing's identity: its alarm and its occurrence.
        public var key: FiringKey
        public var alarm: ItemIdentifier
        public var item: ItemIdentifier
        public var title: String
        /// When it was due, in Unix seconds.
        public var due: Int64
        public var outcome: Outcome
        /// When the log recorded it, in Unix seconds.
        public var recordedAt: Int64

        /// An occurrence of a repeating reminder not completed before the
        /// next came due, which the reminder moved on from: logged as
        /// missed under the reminder's identifier instead of an alarm's.
        public var isNotDone: Bool { alarm == item }

        public init(key: FiringKey, alarm: ItemIdentifier, item: ItemIdentifier, title: String, due: Int64,
                    outcome: Outcome, recordedAt: Int64) {
            self.key = key
            self.alarm = alarm
            self.item = item
            self.title = title
            self.due = due
            self.outcome = outcome
            self.recordedAt = recordedAt
        }
    }

    /// Records firings in one transaction; a key already recorded keeps its
    /// first record (a firing happens once). The log is the scheduler's own
    /// bookkeeping: it does not count as a change to the items.
    public func record(_ deliveries: [Delivery]) throws(StoreError) {
        guard !deliveries.isEmpty else { return }
        try StoreError.wrap { try database.transaction { () throws in try Self.insert(deliveries, in: database) } }
    }

    static func insert(_ deliveries: [Delivery], in db: Database) throws {
        for delivery in deliveries {
            try insert(key: delivery.key.description, alarm: delivery.alarm, item: delivery.item, title: delivery.title,
                       due: delivery.due, outcome: delivery.outcome, recordedAt: delivery.recordedAt, in: db)
        }
    }

    /// One row of the log, a firing's or a notice's; a key already there keeps its row.
    private static func insert(key: String, alarm: ItemIdentifier, item: ItemIdentifier, title: String, due: Int64,
                               outcome: Delivery.Outcome, recordedAt: Int64, in db: Database) throws {
        try db.execute("""
            INSERT INTO deliveries (key, alarm_id, item_id, title, due_at, recorded_at, outcome)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO NOTHING
            """, [key, alarm.rawValue, item.rawValue, title, due, Double(recordedAt), outcome.rawValue])
    }

    /// Sets the outcome of recorded firings (`showing` → `delivered`, …).
    public func setOutcome(_ outcome: Delivery.Outcome, keys: [FiringKey]) throws(StoreError) {
        guard !keys.isEmpty else { return }
        try StoreError.wrap {
            let list = CalendarStore.jsonArray(keys.map(\.description))
            try database.execute("UPDATE deliveries SET outcome = ? WHERE key IN (SELECT value FROM json_each(?))", [outcome.rawValue, list])
        }
    }

    /// Drops records, for firings that could not be shown and are to be tried again.
    public func forgetDeliveries(keys: [FiringKey]) throws(StoreError) {
        guard !keys.isEmpty else { return }
        try StoreError.wrap {
            let list = CalendarStore.jsonArray(keys.map(\.description))
            try database.execute("DELETE FROM deliveries WHERE key IN (SELECT value FROM json_each(?))", [list])
        }
    }

    /// Which of `keys` the log already holds.
    public func recordedKeys(among keys: [FiringKey]) throws(StoreError) -> Set<FiringKey> {
        let found = try recorded(among: keys.map(\.description))
        return Set(keys.filter { found.contains($0.description) })
    }

    private func recorded(among keys: [String]) throws(StoreError) -> Set<String> {
        guard !keys.isEmpty else { return [] }
        return try StoreError.wrap {
            var found: Set<String> = []
            let list = CalendarStore.jsonArray(keys)
            try database.forEachRow("SELECT key FROM deliveries WHERE key IN (SELECT value FROM json_each(?))", [list]) { row in
                found.insert(try row.value(0))
                return true
            }
            return found
        }
    }

    /// The log, newest due first; `outcomes` empty means all.
    public func deliveries(outcomes: [Delivery.Outcome] = [], limit: Int = 100) throws(StoreError) -> [Delivery] {
        let condition = outcomes.isEmpty ? "1" : "outcome IN (" + outcomes.map { "'\($0.rawValue)'" }.joined(separator: ",") + ")"
        return try deliveries(where: condition, [], limit: limit)
    }

    private func deliveries(where condition: String, _ arguments: [(any DatabaseValueConvertible)?],
                            limit: Int = 100) throws(StoreError) -> [Delivery] {
        try StoreError.wrap {
            let sql = "SELECT key, alarm_id, item_id, title, due_at, outcome, recorded_at FROM deliveries "
                + "WHERE (\(condition)) AND key NOT GLOB '\(Self.noticeKeyPrefix)*' ORDER BY due_at DESC, key LIMIT ?"
            return try database.query(sql, arguments + [limit]).map { row in
                let key: String = try row.value(0), outcome: String = try row.value(5)
                guard let known = Delivery.Outcome(rawValue: outcome) else {
                    throw StoreError.damaged(item: "delivery \(key)", reason: "its outcome '\(outcome)' is not one the log records")
                }
                guard let firingKey = FiringKey(key) else {
                    throw StoreError.damaged(item: "delivery \(key)", reason: "'\(key)' is not a firing's key")
                }
                return Delivery(key: firingKey, alarm: try .stored(try row.value(1), row: "delivery \(key)", column: "alarm id"),
                                item: try .stored(try row.value(2), row: "delivery \(key)", column: "item id"),
                                title: try row.value(3), due: try row.value(4), outcome: known,
                                recordedAt: AlarmLedger.second(try row.value(6)))
            }
        }
    }
}

/// Notices the daemon shows once (a year without holiday data): logged with
/// the firings, so that each is shown once, but no firing (no alarm, no
/// occurrence), so under a key of their own that the firings' readers pass by.
extension AlarmLedger {
    static let noticeKeyPrefix = "holiday-data-"

    /// Whether the notice that `region` has no holiday data for `year` was shown.
    public func holidayNoticeShown(region: String, year: Int) throws(StoreError) -> Bool {
        try !recorded(among: [Self.holidayNoticeKey(region: region, year: year)]).isEmpty
    }

    /// Logs the notice that `region` has no holiday data for `year` as shown at `instant`.
    public func recordHolidayNotice(region: String, year: Int, at instant: Int64) throws(StoreError) {
        try StoreError.wrap {
            // The log's columns want an alarm and an item: identifiers of none.
            try Self.insert(key: Self.holidayNoticeKey(region: region, year: year), alarm: .random(), item: .random(),
                            title: "holiday data \(region) \(year)", due: instant, outcome: .delivered, recordedAt: instant, in: database)
        }
    }

    private static func holidayNoticeKey(region: String, year: Int) -> String { "\(noticeKeyPrefix)\(region)@\(year)" }
}

/// Snoozes: a firing that was shown rings again later, under a key of its
/// own (the firing's key and the new time), so the log keeps both.
extension AlarmLedger {
    public struct Snooze: Hashable, Sendable {
        /// The firing that was snoozed.
        public var firingKey: FiringKey
        public var alarm: ItemIdentifier
        public var item: ItemIdentifier
        public var title: String
        /// When the firing was first due.
        public var due: Int64
        /// When it rings again.
        public var fireAt: Int64

        /// The key of the firing the snooze makes.
        public var key: FiringKey { firingKey.snoozed(until: fireAt) }
        // Made only by the ledger: the memberwise initializer serves.
    }

    /// Snoozes the firing with `key` for `seconds` from `now`, a whole second
    /// (firings ring on whole seconds): the caller rounds its clock up
    /// (`DaemonClock.secondUp`), so a snooze never rings sooner than asked.
    public func snooze(_ key: String, for seconds: Int64, from now: Int64) throws(StoreError) -> Snooze {
        try snooze(key, until: now + seconds)
    }

    /// Snoozes the firing with `key` (from the log) until `fireAt`; a firing
    /// snoozed again replaces its earlier snooze. Throws notFound for a key
    /// the log does not hold.
    public func snooze(_ key: String, until fireAt: Int64) throws(StoreError) -> Snooze {
        guard let root = FiringKey(key)?.root, let delivery = try deliveries(where: "key = ?", [root.description]).first else {
            throw .notFound(kind: "firing", identifier: key)
        }
        let baseKey = root.description
        let snooze = Snooze(firingKey: root, alarm: delivery.alarm, item: delivery.item, title: delivery.title,
                            due: delivery.due, fireAt: fireAt)
        try StoreError.wrap {
            try database.transaction {
                try database.execute("DELETE FROM snoozes WHERE firing_key = ?", [baseKey])
                try database.execute("""
                    INSERT INTO snoozes (key, firing_key, alarm_id, item_id, title, due_at, fire_at, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, [snooze.key.description, baseKey, snooze.alarm.rawValue, snooze.item.rawValue, snooze.title, snooze.due, fireAt,
                          now().timeIntervalSince1970])
            }
        }
        return snooze
    }

    /// Drops pending snoozes of a firing (its key, or a snooze's key). Returns how many.
    @discardableResult
    public func dismiss(_ key: String) throws(StoreError) -> Int {
        guard let root = FiringKey(key)?.root else { return 0 }
        return try StoreError.wrap {
            try database.execute("DELETE FROM snoozes WHERE firing_key = ?", [root.description])
            return database.changes
        }
    }

    /// Pending snoozes that ring after `instant`, earliest first.
    public func snoozes(after instant: Int64) throws(StoreError) -> [Snooze] {
        try StoreError.wrap {
            try database.query("SELECT firing_key, alarm_id, item_id, title, due_at, fire_at FROM snoozes WHERE fire_at > ? ORDER BY fire_at",
                               [instant]).map { row in
                let text: String = try row.value(0)
                guard let firingKey = FiringKey(text), firingKey.snoozedUntil == nil else {
                    throw StoreError.damaged(item: "snooze of \(text)", reason: "'\(text)' is not a firing's key")
                }
                return Snooze(firingKey: firingKey, alarm: try .stored(try row.value(1), row: "snooze of \(text)", column: "alarm id"),
                              item: try .stored(try row.value(2), row: "snooze of \(text)", column: "item id"),
                              title: try row.value(3), due: try row.value(4), fireAt: try row.value(5))
            }
        }
    }

    /// The latest firing of an item in the log, to snooze from the command line.
    public func latestDelivery(of item: ItemIdentifier) throws(StoreError) -> Delivery? {
        try deliveries(where: "item_id = ? AND outcome IN ('showing', 'delivered', 'late')", [item.rawValue]).first
    }
}

/// Occurrences of repeating reminders passed over, in the log.
extension AlarmLedger {
    /// Completes `reminder` in `store` and logs the occurrences it passed
    /// over as missed, in one transaction: both happen, or neither.
    @discardableResult
    public func complete(_ reminder: ItemIdentifier, in store: CalendarStore) throws(StoreError) -> [CalendarStore.NotDone] {
        try StoreError.wrap {
            try store.transaction { () throws(StoreError) in
                let passed = try store.complete(reminder)
                let at = nowSecond
                try record(passed.map { Delivery($0, recordedAt: at) })
                return passed
            }
        }
    }
}

extension AlarmLedger.Delivery {
    /// A passed-over occurrence's record: logged as missed under the
    /// reminder's identifier and the occurrence's scheduled time (alarms'
    /// firings have their alarm's).
    public init(_ notDone: CalendarStore.NotDone, recordedAt: Int64) {
        self.init(key: FiringKey(alarm: notDone.reminder, occurrence: .scheduled(notDone.occurrence.scheduledTime.localSeconds)), alarm: notDone.reminder,
                  item: notDone.reminder, title: notDone.title, due: notDone.occurrence.instant, outcome: .missed, recordedAt: recordedAt)
    }
}
