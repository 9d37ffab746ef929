// SQLiteDatabase: a thin Swift face on SQLite (connections, cached
// statements, transactions, migrations, result codes).
//
// Imports: CSQLite, SystemCalls, Foundation and Glibc only. Never a Chime model type:
// it knows rows and values, not calendars, so the store and the
// scheduler's ledger can each keep their own tables in one file.
