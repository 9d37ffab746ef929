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

    static func dateList(_ dates: [LocalDateTime]) -> String { dates.map(\.basicFormat).joined(separator: ",") }

    func writeAlarms(_ alarms: [Alarm], of item: ItemIdentifier, in db: Database) throws {
        try db.execute("DELETE FROM alarms WHERE item_id = ?", [item.rawValue])
        for (position, alarm) in alarms.enumerated() {
            var values: Arguments = [
                "id": alarm.identifier.rawValue, "item": item.rawValue, "position": position,
                "kind": nil, "at": nil, "offset": nil, "title": nil, "lat": nil, "lon": nil, "radius": nil, "proximity": nil,
                "window": alarm.missedWindow, "dwell": alarm.dwell, "first": alarm.firesOnFirstFix ? 1 : 0,
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
                INSERT INTO alarms (id, item_id, position, kind, absolute_at, offset_seconds, location_title, latitude, longitude, radius,
                    proximity, missed_window, dwell, fires_on_first_fix)
                VALUES (:id, :item, :position, :kind, :at, :offset, :title, :lat, :lon, :radius, :proximity, :window, :dwell, :first)
                """, named: values)
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
