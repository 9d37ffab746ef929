import CalendarModel
import Foundation
import SQLiteDatabase

extension StoreBenchmark {
    /// The peer of Chime's insert, measured in the same run: the same
    /// events' identifiers, titles, times and rules into a bare SQLite table
    /// with an index of starts and one of series' starts, in one transaction
    /// through one prepared statement.
    /// It is what SQLite alone costs on this machine at this moment, so a
    /// slow run of the machine shows on both lines.
    func bareInsert(_ events: [Event], folder: String) throws -> (duration: Duration, database: Database) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let database = try Database(path: folder + "/bare-\(UUID().uuidString).db")
        try database.execute("PRAGMA cache_size = -32768")
        try database.executeScript("""
            CREATE TABLE items (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, start_local INTEGER NOT NULL,
                                end_local INTEGER NOT NULL, rrule TEXT);
            CREATE INDEX items_start ON items(start_local);
            CREATE INDEX items_series ON items(start_local) WHERE rrule IS NOT NULL;
            """)
        let duration = try ContinuousClock().measure {
            try database.transaction {
                for event in events {
                    try database.execute("INSERT INTO items VALUES (?, ?, ?, ?, ?)", [
                        event.identifier.rawValue, event.title, event.start.wallClock.localSeconds, event.end.wallClock.localSeconds,
                        event.recurrenceRule?.rfc5545,
                    ])
                }
            }
        }
        return (duration, database)
    }

    /// The peer of the one-week query, on the bare table: the rows a week
    /// needs read through its two indexes (the events starting in the week
    /// or the week before, and every series started by the week's end, which
    /// the bare table cannot narrow further), their columns read as the
    /// store reads its own, with no expansion, no alarms and no sort: what
    /// reading the rows costs SQLite alone at this moment.
    func bareWeekQueries(_ database: Database) throws -> (milliseconds: Double, rows: Int) {
        let clock = ContinuousClock()
        var samples: [Double] = []
        var rows = 0
        var characters = 0
        for query in 0..<queries {
            let monday = CivilDate(year: 2026, month: 1, day: 5)!.dayNumber + 7 * (query % 100)
            let low = Int64(monday) * 86_400, high = low + 7 * 86_400
            let elapsed = try clock.measure {
                rows = 0
                try database.withStatement("""
                    SELECT id, title, start_local, end_local, rrule FROM items WHERE start_local >= ? AND start_local < ? AND end_local > ?
                    UNION ALL SELECT id, title, start_local, end_local, rrule FROM items WHERE rrule IS NOT NULL AND start_local < ?
                    """) { statement in
                    try statement.bind([.integer(low - 7 * 86_400), .integer(high), .integer(low), .integer(high)], from: 1)
                    while try statement.advance() {
                        let id = statement.text(0) ?? "", title = statement.text(1) ?? "", rule = statement.text(4) ?? ""
                        characters &+= id.utf8.count + title.utf8.count + rule.utf8.count
                            + Int(statement.int64(2) & 1) + Int(statement.int64(3) & 1)
                        rows += 1
                    }
                }
            }
            samples.append(Self.milliseconds(elapsed))
        }
        samples.sort()
        precondition(characters != 0)
        return (samples[samples.count / 2], rows)
    }
}
