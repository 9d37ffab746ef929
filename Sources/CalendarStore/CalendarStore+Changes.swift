import CalendarModel
import Foundation
import SQLiteDatabase
#if canImport(Glibc)
import Glibc
#endif

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

        public var kind: ItemKind {
            switch self {
            case .event: .event
            case .reminder: .reminder
            }
        }

        public internal(set) var alarms: [Alarm] {
            get {
                switch self {
                case .event(let event, _): event.alarms
                case .reminder(let reminder): reminder.alarms
                }
            }
            set {
                switch self {
                case .event(var event, let detached):
                    event.alarms = newValue
                    self = .event(event, detached: detached)
                case .reminder(var reminder):
                    reminder.alarms = newValue
                    self = .reminder(reminder)
                }
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

    /// From how many rows an import logs its writes in one statement
    /// rather than through the triggers (see `importItems`).
    static let itemChangesLoggedAtOnce = 500

    /// Takes the log's triggers off the items table for a batch, and puts
    /// them back as they were (their text, from the schema) after it, with
    /// a gap in the log's numbering that `itemChanges(after:)` reports as
    /// "cannot say" to every reader from before the batch. Dropping them
    /// saves what a condition on them would not: the trigger program run
    /// for each row (a tenth of a 110,000-event insert, measured).
    /// `keepingDeletes` leaves the delete trigger on, for a batch whose
    /// writer logs its own inserts and updates (`resumeItemChangeLog(_:_:logging:)`)
    /// but whose deletes may cascade to rows it does not name.
    static func suspendItemChangeLog(_ db: Database, keepingDeletes: Bool = false) throws -> [String] {
        var triggers: [(name: String, sql: String)] = []
        let names = keepingDeletes ? "name IN ('item_changes_insert', 'item_changes_update')" : "name LIKE 'item_changes_%'"
        try db.forEachRow("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'items' AND \(names)") { row in
            triggers.append((try row.value(0), try row.value(1)))
            return true
        }
        for trigger in triggers { try db.execute("DROP TRIGGER \(trigger.name)") }
        return triggers.map(\.sql)
    }

    /// Puts the triggers back. With `logging`, the batch's writer names
    /// the items it inserted and updated, and they go into the log in one
    /// statement, as the triggers would have logged them row by row (the
    /// log is read as a set, so order within a commit does not matter);
    /// without, the log gets a gap.
    static func resumeItemChangeLog(_ triggers: [String], _ db: Database, logging identifiers: [ItemIdentifier]? = nil) throws {
        for sql in triggers { try db.execute(sql) }
        if let identifiers {
            try logItemChanges(identifiers, db)
            return
        }
        let last: Int64 = try db.scalar("SELECT max(rowid) FROM item_changes") ?? 0
        try db.execute("DELETE FROM item_changes")
        try db.execute("INSERT INTO item_changes (rowid, item_id) VALUES (?, '')", [last + 2])
    }

    /// Logs the items a writer inserted and updated while the triggers were
    /// off, in one statement, as the triggers would have logged them row by
    /// row (the log is read as a set, so order within a commit does not matter).
    static func logItemChanges(_ identifiers: [ItemIdentifier], _ db: Database) throws {
        guard !identifiers.isEmpty else { return }
        try db.execute("INSERT INTO item_changes (item_id) SELECT value FROM json_each(?)", [jsonArray(identifiers)])
    }

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

    /// Every item with alarms that may ring after `instant` (nil: every
    /// item with alarms), one at a time, so that planning a large store
    /// never holds all of it at once. Without `details`, events carry only
    /// what says when they ring (their schedule and alarms; no title,
    /// location or notes): a plan of a hundred thousand needs no more.
    ///
    /// Single events long past are most of a store that has been used for
    /// years, and they cannot ring again: one whose end is more than a week
    /// before `instant` is left out unless an alarm of its own rings later
    /// (an absolute alarm after `instant`, or one set more than a week
    /// after the start). The range index finds the rest without reading
    /// the old rows.
    public func forEachAlarmedItem(after instant: Int64? = nil, details: Bool = true,
                                   _ body: (AlarmedItem) throws -> Void) throws(StoreError) {
        var conditions = ["has_alarms = 1 AND (type = 'event' OR completed = 0)"]
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let instant {
            let recent = instant - Self.lateAlarmSlack - Self.shortEventLimit
            conditions = [
                "type = 'reminder' AND completed = 0 AND has_alarms = 1",
                // One sequential pass over the events reads faster than the
                // range index's random visits when most are recent (measured).
                "type = 'event' AND has_alarms = 1 AND (is_long = 1 OR is_long IS NULL OR range_low IS NULL OR range_low >= ?)",
                """
                type = 'event' AND is_long = 0 AND range_low < ? AND id IN (SELECT item_id FROM alarms
                    WHERE (kind = 'absolute' AND absolute_at > ?) OR (kind = 'relative' AND offset_seconds > ?))
                """,
            ]
            arguments = [recent, recent, instant, Self.lateAlarmSlack]
        }
        try StoreError.wrap {
            let detached = try detachedStarts(of: nil)
            // Alarms are read for a few hundred items at a time: one query,
            // not one per item.
            var chunk: [AlarmedItem] = []
            func flush() throws {
                let alarms = try alarms(ofItems: chunk.map(\.identifier))
                for var item in chunk {
                    item.alarms = alarms[item.identifier] ?? []
                    try body(item)
                }
                chunk.removeAll(keepingCapacity: true)
            }
            try forEachItem(where: conditions[0], or: Array(conditions.dropFirst()), columns: Self.planColumns, arguments) { row in
                chunk.append(try alarmedItem(row, detached: detached, details: details, alarms: false))
                if chunk.count == 256 { try flush() }
                return true
            }
            try flush()
        }
    }

    /// How long after its start a relative alarm may ring for a single
    /// event to be found among recent ones; one set later is looked up.
    static let lateAlarmSlack: Int64 = 7 * 86_400

    /// The items among `identifiers` that have alarms; the others (removed,
    /// without alarms, completed reminders) have nothing to plan.
    public func alarmedItems(_ identifiers: some Collection<ItemIdentifier>) throws(StoreError) -> [AlarmedItem] {
        guard !identifiers.isEmpty else { return [] }
        return try StoreError.wrap {
            let list = Self.jsonArray(identifiers)
            let detached = try detachedStarts(of: list)
            var items: [AlarmedItem] = []
            try forEachItem(where: "id IN (SELECT value FROM json_each(?)) AND has_alarms = 1 AND (type = 'event' OR completed = 0)",
                            columns: Self.planColumns, [list]) { row in
                items.append(try alarmedItem(row, detached: detached))
                return true
            }
            return items
        }
    }

    private func alarmedItem(_ row: Statement, detached: [ItemIdentifier: Set<LocalDateTime>], details: Bool = true,
                             alarms: Bool = true) throws -> AlarmedItem {
        if row.text(ItemColumn.type.rawValue) == "reminder" { return .reminder(try reminder(row, alarms: alarms)) }
        var event = try eventSchedule(row)
        if details { try addDetails(to: &event, row, alarms: alarms) }
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
    /// holiday years, the ordinary weeks, the morning's end and the personal
    /// days (leave, days worked). Equal tokens, equal calendars.
    public func workdayDataToken() throws(StoreError) -> String {
        try StoreError.wrap {
            let years: String? = try database.scalar("SELECT group_concat(region || year || content_hash, ',') FROM holiday_years")
            let weeks: String? = try database.scalar("SELECT group_concat(key || '=' || value, ',') FROM settings WHERE key LIKE 'week.%' OR key = 'morning-end'")
            // Dates, kinds and halves only: a name changes no firing.
            let personal: String? = try personalDaysTable().flatMap { table in
                try database.scalar("SELECT group_concat(date || kind || coalesce(half, ''), ',') FROM (SELECT date, kind, half FROM \(table) ORDER BY date)")
            }
            return (years ?? "") + ";" + (weeks ?? "") + ";" + (personal ?? "")
        }
    }
}

extension CalendarStore {
    /// Caps SQLite's page cache (32 MB by default, for queries that come
    /// back to the same pages): a daemon reads a few items per wake, and
    /// its one full scan is sequential.
    public func limitPageCache(kilobytes: Int) {
        try? database.execute("PRAGMA cache_size = -\(max(kilobytes, 64))")
    }

    /// Runs `body` with the store's file mapped into memory, and unmaps it
    /// after. A full scan through a small page cache otherwise spends a
    /// third of its time copying pages out of the kernel with pread
    /// (measured on the daemon's start with 100,000 alarms); the mapping's
    /// pages are the kernel's page cache, shared and dropped with the map.
    public func withMappedFile<T>(_ body: () throws -> T) rethrows -> T {
        try? database.execute("PRAGMA mmap_size = \(1 << 30)")
        defer { try? database.execute("PRAGMA mmap_size = 0") }
        return try body()
    }

    /// Gives back the memory a large read took: SQLite's page cache, then
    /// the C heap's free pages. A daemon that scanned the whole store once
    /// need not keep the store in memory for the rest of its life.
    public func releaseMemory() {
        try? database.execute("PRAGMA shrink_memory")
        #if canImport(Glibc)
        _ = chimeMallocTrim(0)
        #endif
    }
}

#if canImport(Glibc)
/// glibc's `malloc_trim` (`<malloc.h>`, which the Glibc module leaves out).
@_silgen_name("malloc_trim")
private func chimeMallocTrim(_ pad: Int) -> Int32
#endif

extension CalendarStore {
    /// Where each of `items` (as `itemChanges(after:)` names them) is now:
    /// its calendar and the UID it exports under (its key, else the
    /// identifier with `@chime`). An item no longer stored is not in the
    /// answer: a caller that finds fewer than it asked for knows that some
    /// were removed.
    public func placement(of items: Set<ItemIdentifier>) throws(StoreError) -> [ItemIdentifier: (calendar: ItemIdentifier, uid: String)] {
        guard !items.isEmpty else { return [:] }
        return try StoreError.wrap {
            var placed: [ItemIdentifier: (calendar: ItemIdentifier, uid: String)] = [:]
            try database.forEachRow("SELECT id, calendar_id, external_key FROM items WHERE id IN (SELECT value FROM json_each(?))",
                                    [Self.jsonArray(items)]) { row in
                let id: String = try row.value(0), calendar: String = try row.value(1), key: String? = try row.value(2)
                if let identifier = ItemIdentifier(id), let calendar = ItemIdentifier(calendar) {
                    placed[identifier] = (calendar, key ?? identifier.uid)
                }
                return true
            }
            return placed
        }
    }
}
