import CalendarModel
import Foundation
import Geofencing
import SQLiteDatabase

/// Location alarms: the proximity alarms chimed watches. The geofence
/// monitor's state and the newest position fed in are the scheduler's
/// (`AlarmLedger`): one machine's, never travelling with the items.
extension CalendarStore {
    /// A proximity alarm of an incomplete reminder, with what a firing of
    /// it shows.
    public struct LocationAlarm: Hashable, Sendable {
        public var alarm: Alarm
        public var item: ItemIdentifier
        /// The reminder's title, location text and notes.
        public var title: String
        public var place: String
        public var notes: String

        public init(alarm: Alarm, item: ItemIdentifier, title: String, place: String = "", notes: String = "") {
            self.alarm = alarm
            self.item = item
            self.title = title
            self.place = place
            self.notes = notes
        }
    }

    /// The proximity alarms of every incomplete reminder, in alarm
    /// identifier order. One query over a partial index of the proximity
    /// alarms: cheap enough to run again whenever the store changed.
    /// Events' location alarms are not read: they have no "while it is not
    /// done" to bound them (see `eventLocationAlarmCount`).
    public func locationAlarms() throws(StoreError) -> [LocationAlarm] {
        try StoreError.wrap {
            var result: [LocationAlarm] = []
            let columns = Self.qualifiedAlarmColumns
            try database.withStatement("""
                SELECT \(columns.joined(separator: ", ")), items.title, items.location, items.notes
                FROM alarms JOIN items ON items.id = alarms.item_id
                WHERE alarms.kind = 'proximity' AND items.type = 'reminder' AND items.completed = 0
                ORDER BY alarms.id
                """) { statement in
                let title = columns.count
                while try statement.advance() {
                    let alarm: Alarm
                    do {
                        alarm = try Self.alarm(statement)
                    } catch {
                        throw StoreError.damaged(item: statement.text(0) ?? "?", reason: "location alarm \(statement.text(1) ?? "?"): \(error)")
                    }
                    guard let item = statement.identifier(0) else {
                        throw StoreError.damaged(item: statement.text(0) ?? "?", reason: "a location alarm with a malformed identifier")
                    }
                    result.append(LocationAlarm(alarm: alarm, item: item, title: statement.text(title) ?? "",
                                                place: statement.text(title + 1) ?? "", notes: statement.text(title + 2) ?? ""))
                }
            }
            return result
        }
    }

    /// How many location alarms sit on events (which chimed does not watch).
    public func eventLocationAlarmCount() throws(StoreError) -> Int {
        try StoreError.wrap {
            try database.scalar("""
                SELECT count(*) FROM alarms JOIN items ON items.id = alarms.item_id
                WHERE alarms.kind = 'proximity' AND items.type = 'event'
                """) ?? 0
        }
    }
}
