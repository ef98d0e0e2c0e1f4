// SQLite for Swift. SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// cannot import, so it is given here as a function.
#ifndef KEPT_CSQLITE_SHIM_H
#define KEPT_CSQLITE_SHIM_H
#include <sqlite3.h>

static inline sqlite3_destructor_type kept_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic, which Swift cannot call.
static inline int kept_sqlite_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

// sqlite3_config is variadic too. SQLite's memory statistics take a global lock at every
// allocation; Kept reads none of them. Called before the first connection opens (it fails,
// harmlessly, once SQLite is initialized).
static inline int kept_sqlite_configure(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
