import CalendarModel
import Foundation
import SQLiteDatabase

extension StoreBenchmark {
    /// The peer of Chime's insert, measured in the same run: the same
    /// events' identifiers, titles, times and rules into a bare SQLite table
    /// with one index, in one transaction through one prepared statement.
    /// It is what SQLite alone costs on this machine at this moment, so a
    /// slow run of the machine shows on both lines.
    func bareInsert(_ events: [Event], folder: String) throws -> Duration {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let database = try Database(path: folder + "/bare-\(UUID().uuidString).db")
        try database.execute("PRAGMA cache_size = -32768")
        try database.executeScript("""
            CREATE TABLE items (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, start_local INTEGER NOT NULL,
                                end_local INTEGER NOT NULL, rrule TEXT);
            CREATE INDEX items_start ON items(start_local);
            """)
        return try ContinuousClock().measure {
            try database.transaction {
                for event in events {
                    try database.execute("INSERT INTO items VALUES (?, ?, ?, ?, ?)", [
                        event.identifier.rawValue, event.title, event.start.wallClock.localSeconds, event.end.wallClock.localSeconds,
                        event.recurrenceRule?.rfc5545,
                    ])
                }
            }
        }
    }
}
