import CalendarModel
import Foundation
import SQLiteDatabase

/// How items, times and alarms map onto rows.
extension CalendarStore {
    typealias Arguments = [String: (any DatabaseValueConvertible)?]

    /// The three columns (`<prefix>_kind`, `_local`, `_zone`) that hold an item time.
    static func timeColumns(_ time: ItemTime?) -> (kind: String?, local: Int64?, zone: String?) {
        switch time {
        case nil: (nil, nil, nil)
        case .date(let date): ("date", LocalDateTime(date: date)!.localSeconds, nil)
        case .floating(let time): ("floating", time.localSeconds, nil)
        case .zoned(let time, let zone): ("zoned", time.localSeconds, zone)
        }
    }

    static func setColumns(_ time: ItemTime?, _ prefix: String, in values: inout Arguments) {
        let (kind, local, zone) = timeColumns(time)
        // updateValue keeps a NULL; assigning nil through the subscript would drop the key.
        values.updateValue(kind, forKey: prefix + "_kind")
        values.updateValue(local, forKey: prefix + "_local")
        values.updateValue(zone, forKey: prefix + "_zone")
    }

    static func time(_ row: Row, _ prefix: String) throws -> ItemTime? {
        guard let kind: String = try row.value(prefix + "_kind") else { return nil }
        let local = LocalDateTime(localSeconds: try row.value(prefix + "_local"))
        switch kind {
        case "date": return .date(local.date)
        case "floating": return .floating(local)
        default: return .zoned(local, zone: try row.value(prefix + "_zone") ?? "UTC")
        }
    }

    static func dateList(_ dates: [LocalDateTime]) -> String { dates.map(\.basicFormat).joined(separator: ",") }

    static func dates(_ text: String) -> [LocalDateTime] {
        text.split(separator: ",").compactMap { LocalDateTime(parsing: $0) }
    }

    static func identifier(_ row: Row, _ column: String) throws -> ItemIdentifier? {
        guard let text: String = try row.value(column) else { return nil }
        return ItemIdentifier(text)
    }

    func writeAlarms(_ alarms: [Alarm], of item: ItemIdentifier, in db: Database) throws {
        try db.execute("DELETE FROM alarms WHERE item_id = ?", [item.rawValue])
        for (position, alarm) in alarms.enumerated() {
            var values: Arguments = [
                "id": alarm.identifier.rawValue, "item": item.rawValue, "position": position,
                "kind": nil, "at": nil, "offset": nil, "title": nil, "lat": nil, "lon": nil, "radius": nil, "proximity": nil,
            ]
            switch alarm.trigger {
            case .absolute(let date):
                values["kind"] = "absolute"
                values["at"] = date.timeIntervalSince1970
            case .relative(let seconds):
                values["kind"] = "relative"
                values["offset"] = seconds
            case .proximity(let location, let proximity):
                values["kind"] = "proximity"
                values["title"] = location.title
                values["lat"] = location.latitude
                values["lon"] = location.longitude
                values["radius"] = location.radius
                values["proximity"] = proximity.rawValue
            }
            try db.execute("""
                INSERT INTO alarms (id, item_id, position, kind, absolute_at, offset_seconds, location_title, latitude, longitude, radius, proximity)
                VALUES (:id, :item, :position, :kind, :at, :offset, :title, :lat, :lon, :radius, :proximity)
                """, named: values)
        }
    }

    func alarms(of item: ItemIdentifier) throws -> [Alarm] {
        try alarmsByItem("SELECT * FROM alarms WHERE item_id = ? ORDER BY position", [item.rawValue])[item.rawValue] ?? []
    }

    /// The recurrence rule of a row, parsed once per distinct text.
    func rule(_ row: Row) throws -> RecurrenceRule? {
        guard let text: String = try row.value("rrule") else { return nil }
        if let cached = parsedRules[text] { return cached }
        let rule = try RecurrenceRule(rfc5545: text)
        if parsedRules.count > 1000 { parsedRules.removeAll() }
        parsedRules[text] = rule
        return rule
    }

    /// Alarms from a query over the alarms table, grouped by item, in position order.
    func alarmsByItem(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?]) throws -> [String: [Alarm]] {
        var result: [String: [Alarm]] = [:]
        try database.forEachRow(sql, arguments) { row in
            result[try row.value("item_id"), default: []].append(try Self.alarm(row))
            return true
        }
        return result
    }

    static func alarm(_ row: Row) throws -> Alarm {
        let identifier = try Self.identifier(row, "id") ?? .random()
        switch try row.value("kind") as String {
        case "absolute":
            return Alarm(identifier: identifier, trigger: .absolute(Date(timeIntervalSince1970: try row.value("absolute_at"))))
        case "relative":
            return Alarm(identifier: identifier, trigger: .relative(seconds: try row.value("offset_seconds")))
        default:
            let location = try StructuredLocation(title: try row.value("location_title") ?? "", latitude: try row.value("latitude"),
                                                  longitude: try row.value("longitude"), radius: try row.value("radius"))
            return Alarm(identifier: identifier,
                         trigger: .proximity(location, Alarm.Proximity(rawValue: try row.value("proximity")) ?? .enter))
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
