#ifndef CHIME_CSQLITE_SHIM_H
#define CHIME_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// does not import: hand it over through a function instead. It tells SQLite
// to copy a bound text or blob before the bind call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_config is variadic, which Swift does not import. Memory
// statistics (on by default) put a process-wide mutex and two counters
// around every allocation SQLite makes; Chime reads none of them
// (sqlite3_memory_used, a soft heap limit). Only before SQLite is first
// used in the process does the call take: after, it is SQLITE_MISUSE.
static inline int csqlite_config_no_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
