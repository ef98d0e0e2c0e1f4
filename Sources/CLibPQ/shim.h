// libpq, PostgreSQL's client library, for Swift. Only `Sources/KeptSync/Postgres.swift` imports
// it; pkg-config gives the folder of `libpq-fe.h` (Debian's libpq-dev puts it under postgresql/).
#ifndef KEPT_CLIBPQ_SHIM_H
#define KEPT_CLIBPQ_SHIM_H
#include <libpq-fe.h>

// The error fields are character macros ('C', 'M'), which Swift does not import as one type
// everywhere; as functions they are plain ints.
static inline int kept_pq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int kept_pq_diag_message(void) { return PG_DIAG_MESSAGE_PRIMARY; }
static inline int kept_pq_diag_detail(void) { return PG_DIAG_MESSAGE_DETAIL; }
#endif
