#ifndef STORERULES_CSQLITE_SHIM_H
#define STORERULES_CSQLITE_SHIM_H

#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a macro casting -1 to a destructor pointer, which Swift cannot import.
static inline sqlite3_destructor_type storerules_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// Turns off SQLite's memory statistics, whose one global mutex every allocation of every
/// connection takes. `sqlite3_config` is variadic, which Swift cannot call; it answers
/// `SQLITE_MISUSE` once the library is initialized.
static inline int storerules_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
