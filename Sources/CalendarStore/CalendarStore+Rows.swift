import CalendarModel
import Foundation
import SQLiteDatabase

/// How items, times and alarms map onto rows.
extension CalendarStore {
    /// The three columns (`<prefix>_kind`, `_local`, `_zone`) that hold an item time.
    static func timeColumns(_ time: ItemTime?) -> (kind: String?, local: Int64?, zone: String?) {
        switch time {
        case nil: (nil, nil, nil)
        case .date(let date): ("date", LocalDateTime(date: date)!.localSeconds, nil)
        case .floating(let time): ("floating", time.localSeconds, nil)
        case .zoned(let time, let zone): ("zoned", time.localSeconds, zone)
        }
    }

    static func dateList(_ dates: [LocalDateTime]) -> String { dates.map(\.basicFormat).joined(separator: ",") }

    /// The statements that write one kind of item row: `insert` adds it
    /// when its identifier is new, `update` changes it in place otherwise
    /// (keeping `created_at`).
    struct ItemRowStatements {
        let columns: [String]
        let insert: String
        let update: String
        /// The insert without OR IGNORE: what reports a refused row.
        let strictInsert: String

        /// `columns` are what a save sets, besides `id`, `type` and the timestamps.
        init(type: String, columns: [String]) {
            self.columns = columns
            strictInsert = "INSERT INTO items (id, type, \(columns.joined(separator: ", ")), created_at, modified_at) "
                + "VALUES (?, '\(type)', \(Array(repeating: "?", count: columns.count).joined(separator: ", ")), ?, ?)"
            insert = strictInsert.replacingOccurrences(of: "INSERT INTO", with: "INSERT OR IGNORE INTO")
            update = "UPDATE items SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")), modified_at = ? "
                + "WHERE id = ? AND type = '\(type)'"
        }
    }

    /// Writes an item's row and its alarms. A new item, nearly every row
    /// of a large batch, costs one statement and its alarms' inserts: no
    /// upsert and no old alarms to clear, which halves the statements of a
    /// 110,000-event insert. `values` follow `statements.columns`.
    func writeItem(_ item: ItemIdentifier, _ statements: ItemRowStatements, _ values: [(any DatabaseValueConvertible)?],
                   alarms: [Alarm], in db: Database) throws {
        let now = Date().timeIntervalSince1970
        try db.execute(statements.insert, [item.rawValue] + values + [now, now])
        if db.changes == 0 {
            // The row is there, or a constraint other than its identifier
            // refused it (OR IGNORE skips those too): the update finds no
            // row then, and the plain insert reports the constraint.
            try db.execute(statements.update, values + [now, item.rawValue])
            if db.changes == 0 {
                try db.execute(statements.strictInsert, [item.rawValue] + values + [now, now])
            }
            try db.execute("DELETE FROM alarms WHERE item_id = ?", [item.rawValue])
        }
        for (position, alarm) in alarms.enumerated() {
            var values: [(any DatabaseValueConvertible)?] = [alarm.identifier.rawValue, item.rawValue, position]
            switch alarm.trigger {
            case .absolute(let date):
                values += ["absolute", date.timeIntervalSince1970, nil, nil, nil, nil, nil, nil]
            case .relative(let seconds):
                values += ["relative", nil, seconds, nil, nil, nil, nil, nil]
            case .proximity(let location, let proximity):
                values += ["proximity", nil, nil, location.title, location.latitude, location.longitude, location.radius, proximity.rawValue]
            }
            values += [alarm.missedWindow, alarm.dwell, alarm.firesOnFirstFix]
            try db.execute("""
                INSERT INTO alarms (id, item_id, position, kind, absolute_at, offset_seconds, location_title, latitude, longitude, radius,
                    proximity, missed_window, dwell, fires_on_first_fix)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, values)
        }
    }

    /// The full identifier an abbreviation stands for, like git's short hashes.
    public func itemIdentifier(matching prefix: String) throws(StoreError) -> ItemIdentifier {
        let lowered = prefix.lowercased()
        guard !lowered.isEmpty, lowered.count <= 32, lowered.allSatisfy({ $0.isHexDigit }) else {
            throw .notFound(kind: "item", identifier: prefix)
        }
        let matches: [String] = try StoreError.wrap {
            try database.query("SELECT id FROM items WHERE id >= ? AND id < ? LIMIT 2", [lowered, lowered + "g"]).map { try $0.value(0) }
        }
        guard let first = matches.first, let identifier = ItemIdentifier(first) else { throw .notFound(kind: "item", identifier: prefix) }
        if matches.count > 1 {
            let count: Int = (try? database.scalar("SELECT count(*) FROM items WHERE id >= ? AND id < ?", [lowered, lowered + "g"])) ?? 2
            throw .ambiguous(prefix: prefix, matches: count)
        }
        return identifier
    }

    /// Checks an external key before a save: a new item whose key is taken
    /// adopts the identifier of the item that has it (so a script can save
    /// the same thing twice), an existing item may not take another's key.
    /// The key may only be adopted from an item of the same type (`event`,
    /// `reminder`); one held by the other type is a conflict.
    func resolveExternalKey(_ key: String?, type: String, calendar: ItemIdentifier, identifier: ItemIdentifier) throws(StoreError) -> ItemIdentifier {
        guard let key else { return identifier }
        let (holder, holderType, exists): (String?, String?, Bool) = try StoreError.wrap {
            (try database.scalar("SELECT id FROM items WHERE calendar_id = ? AND external_key = ?", [calendar.rawValue, key]),
             try database.scalar("SELECT type FROM items WHERE calendar_id = ? AND external_key = ?", [calendar.rawValue, key]),
             (try database.scalar("SELECT count(*) FROM items WHERE id = ?", [identifier.rawValue]) ?? 0) > 0)
        }
        guard let holder, holder != identifier.rawValue else { return identifier }
        if exists || holderType != type {
            let title = (try? self.calendar(identifier: calendar).title) ?? calendar.rawValue
            throw .duplicateExternalKey(key: key, calendar: title)
        }
        return ItemIdentifier(holder)!
    }
}
