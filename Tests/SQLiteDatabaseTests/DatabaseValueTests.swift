import Foundation
import SQLiteDatabase
import Testing

@Suite("Values: every type round-trips through a real file")
struct DatabaseValueTests {
    /// Stores `value` in a column without type affinity, reads it back as `T`,
    /// and returns it with SQLite's `typeof()` of the stored value.
    private func roundTrip<T: DatabaseValueConvertible>(_ value: T, in db: Database) throws -> (T, String) {
        try db.execute("DELETE FROM v")
        try db.execute("INSERT INTO v(x) VALUES (?)", [value])
        let row = try #require(try db.query("SELECT x, typeof(x) FROM v").first)
        return (try row.value(0, as: T.self), try row.value(1))
    }

    private func withValueTable(_ body: (Database) throws -> Void) throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute("CREATE TABLE v(x)")
            try body(db)
        }
    }

    @Test("integers of every width round-trip, extremes included")
    func integers() throws {
        try withValueTable { db throws in
            for value in [0, 1, -1, 42, Int.max, Int.min] {
                #expect(try roundTrip(value, in: db) == (value, "integer"))
            }
            for value in [Int64.max, Int64.min, Int64.max - 1, Int64.min + 1] {
                #expect(try roundTrip(value, in: db) == (value, "integer"))
            }
            for value in [Int32.max, Int32.min, 0] {
                #expect(try roundTrip(value, in: db) == (value, "integer"))
            }
        }
    }

    @Test("doubles round-trip bit for bit, infinities included")
    func doubles() throws {
        try withValueTable { db throws in
            let values: [Double] = [0, 1.5, -2.25, .pi, 1e300, -1e-300, .greatestFiniteMagnitude,
                                    .leastNonzeroMagnitude, .infinity, -.infinity, 0.1 + 0.2]
            for value in values {
                let (back, type) = try roundTrip(value, in: db)
                #expect(back.bitPattern == value.bitPattern, "\(value)")
                #expect(type == "real")
            }
        }
    }

    @Test("booleans are stored as 0 and 1")
    func booleans() throws {
        try withValueTable { db throws in
            #expect(try roundTrip(true, in: db) == (true, "integer"))
            #expect(try roundTrip(false, in: db) == (false, "integer"))
            #expect(try db.scalar("SELECT x FROM v", as: Int.self) == 0)
            #expect(try db.scalar("SELECT 7", as: Bool.self) == true)
        }
    }

    @Test("text round-trips: empty, Unicode, emoji, CJK, combining marks, embedded NUL")
    func text() throws {
        try withValueTable { db throws in
            let values = ["", "plain", "héllo wörld", "调休补班 08:50", "🔔⏰👩‍👩‍👧", "e\u{301} vs é",
                          "a\u{0}b\u{0}", "quote ' and \" and \\", String(repeating: "长", count: 10_000)]
            for value in values {
                let (back, type) = try roundTrip(value, in: db)
                #expect(back == value)
                #expect(Array(back.utf8) == Array(value.utf8), "the exact bytes, not just an equal string")
                #expect(type == "text")
            }
            // SQLite counts the NUL-bearing text by its bytes.
            try db.execute("DELETE FROM v")
            try db.execute("INSERT INTO v(x) VALUES (?)", ["a\u{0}b"])
            #expect(try db.scalar("SELECT length(CAST(x AS BLOB)) FROM v", as: Int.self) == 3)
        }
    }

    @Test("blobs round-trip with zero bytes, and an empty blob is a blob, not NULL")
    func blobs() throws {
        try withValueTable { db throws in
            let values: [[UInt8]] = [[], [0], [0, 0, 0], [0, 1, 255, 0], Array(0...255), Array(repeating: 0, count: 100_000)]
            for value in values {
                #expect(try roundTrip(value, in: db) == (value, "blob"))
                #expect(try roundTrip(Data(value), in: db) == (Data(value), "blob"))
            }
        }
    }

    @Test("dates are stored as Unix seconds in a REAL")
    func dates() throws {
        try withValueTable { db throws in
            for seconds in [0, 1_700_000_000.5, -86_400.25, 4_102_444_800] as [Double] {
                let date = Date(timeIntervalSince1970: seconds)
                let (back, type) = try roundTrip(date, in: db)
                #expect(back == date)
                #expect(type == "real")
                #expect(try db.scalar("SELECT x FROM v", as: Double.self) == seconds)
            }
            let now = Date()
            let (back, _) = try roundTrip(now, in: db)
            #expect(abs(back.timeIntervalSince(now)) < 1e-6)
            // An integer column reads as a date too.
            #expect(try db.scalar("SELECT 86400", as: Date.self) == Date(timeIntervalSince1970: 86_400))
        }
    }

    @Test("NULL: optionals store nil as NULL and read it back as nil; non-optionals refuse it")
    func nulls() throws {
        try withValueTable { db throws in
            let none: Int? = nil
            #expect(try roundTrip(none, in: db) == (nil, "null"))
            #expect(try roundTrip(Optional(5), in: db) == (5, "integer"))
            #expect(try roundTrip(String?.none, in: db) == (nil, "null"))
            #expect(try roundTrip(Optional("x"), in: db) == ("x", "text"))

            try db.execute("DELETE FROM v")
            try db.execute("INSERT INTO v(x) VALUES (?)", [nil])
            let row = try #require(try db.query("SELECT x FROM v").first)
            #expect(row[0] == .null)
            #expect(try row.value(0, as: Int?.self) == nil)
            let error = #expect(throws: DatabaseError.self) { try row.value(0, as: Int.self) }
            #expect(error?.resultCode == .mismatch)
            #expect(error?.message == "column x holds NULL, which is not a Int")
        }
    }

    @Test("every DatabaseValue case round-trips as itself")
    func databaseValues() throws {
        try withValueTable { db throws in
            let values: [DatabaseValue] = [.null, .integer(-7), .integer(.max), .real(2.5), .text(""),
                                           .text("ß"), .blob([]), .blob([0, 9])]
            for value in values {
                let (back, _) = try roundTrip(value, in: db)
                #expect(back == value)
            }
        }
    }

    @Test("reading is strict: no text as a number, no fraction as an integer, no out-of-range integer")
    func strictConversions() throws {
        try withTemporaryDatabase { db, _ throws in
            for (sql, check) in [("SELECT '42'", "text"), ("SELECT 1.5", "fraction"),
                                 ("SELECT 4294967296", "range"), ("SELECT x'01'", "blob")] {
                let error = #expect(throws: DatabaseError.self, "\(check)") { try db.scalar(sql, as: Int32.self) }
                #expect(error?.resultCode == .mismatch)
            }
            #expect(try db.scalar("SELECT 3.0", as: Int.self) == 3)
            #expect(try db.scalar("SELECT 3", as: Double.self) == 3.0)
            #expect(throws: DatabaseError.self) { try db.scalar("SELECT 1", as: String.self) }
            #expect(try db.scalar("SELECT 'ab'", as: [UInt8].self) == [0x61, 0x62])
        }
    }

    @Test("SQLite turns a NaN into NULL")
    func notANumber() throws {
        try withValueTable { db throws in
            try db.execute("INSERT INTO v(x) VALUES (?)", [Double.nan])
            #expect(try db.scalar("SELECT typeof(x) FROM v", as: String.self) == "null")
        }
    }

    @Test("a value's description is its SQL literal")
    func descriptions() {
        #expect(DatabaseValue.null.description == "NULL")
        #expect(DatabaseValue.integer(-3).description == "-3")
        #expect(DatabaseValue.real(0.5).description == "0.5")
        #expect(DatabaseValue.text("it's").description == "'it''s'")
        #expect(DatabaseValue.blob([0, 0xAB]).description == "X'00AB'")
    }
}
