import SQLiteDatabase

/// The person's settings, one text value a key in `settings`: the ordinary
/// weeks (`week.cn`), the morning's end, the leave allowance, the holiday
/// source, the places (`place.NAME`). This machine's: not exported or synced.
extension CalendarStore {
    /// The value of one of the store's settings; nil when it is not set.
    func setting(_ key: String) throws(StoreError) -> String? {
        try StoreError.wrap { try database.scalar("SELECT value FROM settings WHERE key = ?", [key]) }
    }

    /// Sets one of the store's settings (nil: unsets it), in a transaction of its own.
    func setSetting(_ key: String, to value: String?) throws(StoreError) {
        try perform(commit: true) { db in
            if let value {
                try db.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value])
            } else {
                try db.execute("DELETE FROM settings WHERE key = ?", [key])
            }
        }
    }
}
