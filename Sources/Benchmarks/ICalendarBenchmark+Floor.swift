import CalendarStore
import Foundation
import SQLiteDatabase
import SystemCalls

/// The floor under any import into Chime's store: the rows an import
/// wrote (items and alarms), inserted again into an empty copy of its
/// store, by one prepared statement a table in one transaction, with the
/// change log suspended as an import suspends it, and the file built and
/// synced as the import builds a new store (see `CalendarStore.init`'s
/// `building`). No reading, mapping or checking: what SQLite takes to hold
/// the same data with the same indexes. The import's time less this is
/// what Chime's own code costs.
extension ICalendarBenchmark {
    struct StoreFloor {
        var milliseconds: [Double]
        var items: Int
        var alarms: Int
    }

    static func storeFloor(of storePath: String, folder: String, runs: Int) throws -> StoreFloor {
        let tables = ["items", "alarms"]
        var rows: [String: [[DatabaseValue]]] = [:]
        var columns: [String: [String]] = [:]
        do {
            let source = try Database(path: storePath, options: DatabaseOptions(access: .readWrite))
            // Everything in the main file, so that a copy of it alone is the whole store.
            try source.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            for table in tables {
                let read = try source.query("SELECT * FROM \(table)")
                columns[table] = read.first?.columnNames ?? []
                rows[table] = try read.map { row in try (0..<row.count).map { try row.value($0, as: DatabaseValue.self) } }
            }
        }
        let clock = ContinuousClock()
        var samples: [Double] = []
        for run in 0..<runs {
            let path = folder + "/floor-\(run).db"
            try FileManager.default.copyItem(atPath: storePath, toPath: path)
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let database = try Database(path: path, options: DatabaseOptions(access: .readWrite, journalMode: .memory, syncsCommits: false))
            try database.executeScript("""
                DELETE FROM alarms; DELETE FROM items; DELETE FROM item_changes; VACUUM;
                DROP TRIGGER item_changes_insert;
                PRAGMA cache_size = -\(CalendarStore.importPageCacheKilobytes);
                """)
            let elapsed = try clock.measure {
                try database.transaction {
                    for table in tables {
                        guard let names = columns[table], !names.isEmpty else { continue }
                        let sql = "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
                        try database.withStatement(sql) { insert in
                            for row in rows[table] ?? [] {
                                try insert.bind(row, from: 1)
                                try insert.execute()
                            }
                        }
                    }
                }
                try DiskSync.sync(path: path)
            }
            samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        return StoreFloor(milliseconds: samples, items: rows["items"]?.count ?? 0, alarms: rows["alarms"]?.count ?? 0)
    }
}
