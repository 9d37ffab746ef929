import CalendarModel
import Foundation
import SQLiteDatabase

extension CalendarStore {
    /// An item whose alarms the daemon plans: an event (with the original
    /// starts of its detached occurrences, which ring through their own
    /// items), or an incomplete reminder.
    public enum AlarmedItem: Sendable {
        case event(Event, detached: Set<LocalDateTime>)
        case reminder(Reminder)

        public var identifier: ItemIdentifier {
            switch self {
            case .event(let event, _): event.identifier
            case .reminder(let reminder): reminder.identifier
            }
        }
    }

    /// What changed since a mark in the item change log.
    public struct ItemChanges: Sendable {
        /// Where the log stands now: the mark to ask from next time.
        public var mark: Int64
        /// The items added, changed or removed since the mark; nil when the
        /// log no longer reaches back that far (re-plan everything).
        public var items: Set<ItemIdentifier>?
    }

    /// How many entries the change log keeps: a reader further behind than
    /// this re-plans everything, which a change this large needs anyway.
    static let itemChangesKept = 20_000

    static func pruneItemChanges(_ db: Database) throws {
        try db.execute("DELETE FROM item_changes WHERE rowid < (SELECT max(rowid) FROM item_changes) - ?", [itemChangesKept])
    }

    /// The items changed after `mark` (0: from the start of the log).
    public func itemChanges(after mark: Int64) throws(StoreError) -> ItemChanges {
        try StoreError.wrap {
            let last: Int64 = try database.scalar("SELECT max(rowid) FROM item_changes") ?? mark
            guard last > mark else { return ItemChanges(mark: max(last, mark), items: []) }
            let first: Int64 = try database.scalar("SELECT min(rowid) FROM item_changes") ?? 0
            // Entries past the mark were pruned: the log cannot say what they were.
            guard first <= mark + 1 else { return ItemChanges(mark: last, items: nil) }
            var items = Set<ItemIdentifier>()
            try database.forEachRow("SELECT item_id FROM item_changes WHERE rowid > ? AND rowid <= ?", [mark, last]) { row in
                if let identifier = ItemIdentifier(try row.value(0)) { items.insert(identifier) }
                return true
            }
            return ItemChanges(mark: last, items: items)
        }
    }

    /// The current end of the change log: a full plan made now covers everything before it.
    public func itemChangeMark() throws(StoreError) -> Int64 {
        try StoreError.wrap { try database.scalar("SELECT max(rowid) FROM item_changes") ?? 0 }
    }

    /// Every item with alarms, one at a time, so that planning a large
    /// store never holds all of it at once.
    public func forEachAlarmedItem(_ body: (AlarmedItem) throws -> Void) throws(StoreError) {
        try StoreError.wrap {
            let detached = try detachedStarts(of: nil)
            try forEachItem(where: "has_alarms = 1 AND (type = 'event' OR completed = 0)", []) { row in
                try body(try alarmedItem(row, detached: detached))
                return true
            }
        }
    }

    /// The items among `identifiers` that have alarms; the others (removed,
    /// without alarms, completed reminders) have nothing to plan.
    public func alarmedItems(_ identifiers: some Collection<ItemIdentifier>) throws(StoreError) -> [AlarmedItem] {
        guard !identifiers.isEmpty else { return [] }
        return try StoreError.wrap {
            let list = Self.jsonArray(identifiers.map(\.rawValue))
            let detached = try detachedStarts(of: list)
            var items: [AlarmedItem] = []
            try forEachItem(where: "id IN (SELECT value FROM json_each(?)) AND has_alarms = 1 AND (type = 'event' OR completed = 0)",
                            [list]) { row in
                items.append(try alarmedItem(row, detached: detached))
                return true
            }
            return items
        }
    }

    private func alarmedItem(_ row: Statement, detached: [ItemIdentifier: Set<LocalDateTime>]) throws -> AlarmedItem {
        if row.text(ItemColumn.type.rawValue) == "reminder" { return .reminder(try reminder(row)) }
        let event = try event(row)
        return .event(event, detached: detached[event.identifier] ?? [])
    }

    /// The original starts of detached occurrences by series: of the series
    /// in the JSON array `series`, or of all when nil.
    private func detachedStarts(of series: String?) throws -> [ItemIdentifier: Set<LocalDateTime>] {
        var detached: [ItemIdentifier: Set<LocalDateTime>] = [:]
        let sql = "SELECT series_id, original_start FROM items WHERE series_id IS NOT NULL"
            + (series == nil ? "" : " AND series_id IN (SELECT value FROM json_each(?))")
        try database.forEachRow(sql, series.map { [$0] } ?? []) { row in
            if let identifier = ItemIdentifier(try row.value(0)) {
                detached[identifier, default: []].insert(LocalDateTime(localSeconds: try row.value(1)))
            }
            return true
        }
        return detached
    }

    /// Changes whenever anything that moves workday rules changes: imported
    /// holiday years and the ordinary weeks. Equal tokens, equal calendars.
    public func workdayDataToken() throws(StoreError) -> String {
        try StoreError.wrap {
            let years: String? = try database.scalar("SELECT group_concat(region || year || content_hash, ',') FROM holiday_years")
            let weeks: String? = try database.scalar("SELECT group_concat(key || '=' || value, ',') FROM settings WHERE key LIKE 'week.%'")
            return (years ?? "") + ";" + (weeks ?? "")
        }
    }
}
