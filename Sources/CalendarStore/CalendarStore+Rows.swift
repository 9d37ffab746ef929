import CalendarModel
import Foundation
import SQLiteDatabase

/// How items, times and alarms map onto rows.
extension CalendarStore {
    /// A JSON array of strings, for `json_each(?)`: one bound argument for
    /// a list of any length. Each text is escaped as JSON requires (`"`,
    /// `\` and control characters), so that any text can be listed: a UID
    /// may hold quotes and backslashes, and one that did made the JSON
    /// malformed and the import that looked it up fail.
    package static func jsonArray(_ texts: some Sequence<String>) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for text in texts {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                case 0..<0x20:
                    // \u00XX; the high digit is 0 or 1.
                    let low = byte & 0xF
                    bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                              UInt8(ascii: "0") + (byte >> 4), low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10]
                default:
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A JSON array of identifiers' texts, as `jsonArray` of their
    /// `rawValue`s, written without a String for each: an import logs its
    /// items' identifiers this way, ten thousand for a large file.
    package static func jsonArray(_ identifiers: some Collection<ItemIdentifier>) -> String {
        guard !identifiers.isEmpty else { return "[]" }
        // ["…","…"]: 32 digits and three bytes for each but the last, which has two, and the brackets.
        let count = identifiers.count * 35 + 1
        return String(unsafeUninitializedCapacity: count) { buffer in
            var position = 0
            for (index, identifier) in identifiers.enumerated() {
                buffer[position] = index == 0 ? UInt8(ascii: "[") : UInt8(ascii: ",")
                buffer[position + 1] = UInt8(ascii: "\"")
                identifier.writeDigits(into: buffer, at: position + 2)
                buffer[position + 34] = UInt8(ascii: "\"")
                position += 35
            }
            buffer[position] = UInt8(ascii: "]")
            return count
        }
    }

    /// The three columns (`<prefix>_kind`, `_local`, `_zone`) that hold an item time.
    /// A zoned time that names the later of a fold's two instants is of kind `zoned-later`.
    static func timeColumns(_ time: ItemTime?) -> (kind: String?, local: Int64?, zone: String?) {
        switch time {
        case nil: (nil, nil, nil)
        case .date(let date): ("date", LocalDateTime(date: date)!.localSeconds, nil)
        case .floating(let time): ("floating", time.localSeconds, nil)
        case .zoned(let time, let zone, let fold): (fold == .later ? "zoned-later" : "zoned", time.localSeconds, zone)
        }
    }

    static func dateList(_ dates: [LocalDateTime]) -> String { dates.map(\.basicFormat).joined(separator: ",") }

    /// The four `structured_` columns, appended: all NULL for an event without one.
    static func appendStructuredLocation(_ location: StructuredLocation?, to values: inout [DatabaseValue]) {
        guard let location else { return values.append(contentsOf: repeatElement(.null, count: 4)) }
        values.append(.text(location.title))
        values.append(.real(location.latitude))
        values.append(.real(location.longitude))
        values.append(.real(location.radius))
    }

    /// The three `ical_` columns, appended: all NULL for an item made in Chime.
    static func appendOrigin(_ origin: ICalendarOrigin?, to values: inout [DatabaseValue]) {
        guard let origin else { return values.append(contentsOf: repeatElement(.null, count: 3)) }
        values.append(.integer(Int64(origin.sequence)))
        values.append(origin.lastModified.databaseValue)
        values.append(.text(origin.unmodelled))
    }

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

    /// An item's row and its alarms' rows as the values they are bound
    /// with: made where the item is, written where the store is (an import
    /// renders a piece's new items on its reading thread, see
    /// `prepareImport`). `values` follow `statements.columns`; each of
    /// `alarms` follows `alarmInsert`'s columns.
    struct ItemRow: Sendable {
        var identifier: ItemIdentifier
        /// `identifier` as the `id` column holds it, made where the row is.
        var identifierText: DatabaseValue
        var statements: ItemRowStatements
        var values: [DatabaseValue]
        var alarms: [[DatabaseValue]]

        /// `freshAlarmIdentifiers`: each alarm written under a new random
        /// identifier (an item new to the store, whose batch's alarm
        /// identifiers could be in use elsewhere), else under its own.
        init(_ identifier: ItemIdentifier, _ statements: ItemRowStatements, _ values: [DatabaseValue], alarms: [Alarm],
             freshAlarmIdentifiers: Bool = false) {
            self.identifier = identifier
            let item = DatabaseValue.text(identifier.rawValue)
            identifierText = item
            self.statements = statements
            self.values = values
            self.alarms = alarms.enumerated().map { position, alarm in
                let alarmIdentifier = freshAlarmIdentifiers ? ItemIdentifier.random() : alarm.identifier
                // Appended one by one into room made once: array literals added together were most of a row's making.
                var values: [DatabaseValue] = []
                values.reserveCapacity(18)
                values.append(.text(alarmIdentifier.rawValue))
                values.append(item)
                values.append(.integer(Int64(position)))
                switch alarm.trigger {
                case .absolute(let date):
                    values.append(.text("absolute"))
                    values.append(.real(date.timeIntervalSince1970))
                    values.append(contentsOf: repeatElement(.null, count: 6))
                case .relative(let seconds):
                    values.append(.text("relative"))
                    values.append(.null)
                    values.append(.integer(Int64(seconds)))
                    values.append(contentsOf: repeatElement(.null, count: 5))
                case .proximity(let location, let proximity):
                    values.append(.text("proximity"))
                    values.append(contentsOf: repeatElement(.null, count: 2))
                    values.append(.text(location.title))
                    values.append(.real(location.latitude))
                    values.append(.real(location.longitude))
                    values.append(.real(location.radius))
                    values.append(.text(proximity.rawValue))
                }
                values.append(alarm.missedWindow.databaseValue)
                values.append(.integer(Int64(alarm.dwell)))
                values.append(alarm.firesOnFirstFix.databaseValue)
                values.append(alarm.unmodelled.isEmpty ? .null : .text(alarm.unmodelled))
                values.append(CalendarStore.second(alarm.acknowledged))
                values.append(CalendarStore.second(alarm.snoozedElsewhere?.until))
                values.append(CalendarStore.second(alarm.snoozedElsewhere?.occurrence))
                return values
            }
        }
    }

    static let alarmInsert = """
        INSERT INTO alarms (id, item_id, position, kind, absolute_at, offset_seconds, location_title, latitude, longitude, radius,
            proximity, missed_window, dwell, fires_on_first_fix, unmodelled, acknowledged, snoozed_until, snoozed_occurrence)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Writes an item's row and its alarms. A new item, nearly every row
    /// of a large batch, costs one statement and its alarms' inserts: no
    /// upsert and no old alarms to clear, which halves the statements of a
    /// 110,000-event insert. The values are bound by position, unboxed
    /// (boxing each value as an existential was a sixth of a large batch's
    /// commit).
    /// Returns whether the row is new (nothing of the item was stored before).
    @discardableResult
    func writeItem(_ row: ItemRow, in db: Database) throws -> Bool {
        importState?.written?.insert(row.identifier)
        let identifier = row.identifierText
        let values = row.values
        let now = DatabaseValue.real(Date().timeIntervalSince1970)
        func insert(_ sql: String) throws -> Bool {
            try db.withStatement(sql) { insert in
                try insert.bind(identifier, at: 1)
                try insert.bind(now, at: values.count + 2)
                try insert.bind(now, at: values.count + 3)
                try insert.withBound(values, from: 2) { try insert.execute() }
                return db.changes > 0
            }
        }
        let isNew = try insert(row.statements.insert)
        if !isNew {
            // The row is there, or a constraint other than its identifier
            // refused it (OR IGNORE skips those too): the update finds no
            // row then, and the plain insert reports the constraint.
            let updated = try db.withStatement(row.statements.update) { update in
                try update.bind(values, from: 1)
                try update.bind([now, identifier], from: values.count + 1)
                try update.execute()
                return db.changes > 0
            }
            if !updated { _ = try insert(row.statements.strictInsert) }
            try db.execute("DELETE FROM alarms WHERE item_id = ?", [row.identifier.rawValue])
        }
        guard !row.alarms.isEmpty else { return isNew }
        try db.withStatement(Self.alarmInsert) { insert in
            for values in row.alarms {
                try insert.withBound(values, from: 1) { try insert.execute() }
            }
        }
        return isNew
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

extension CalendarStore {
    /// A time as the alarms table holds it: whole Unix seconds, NULL for none.
    static func second(_ date: Date?) -> DatabaseValue {
        date.map { .integer(Int64($0.timeIntervalSince1970.rounded(.down))) } ?? .null
    }
}
