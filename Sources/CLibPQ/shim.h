#ifndef STORERULES_CLIBPQ_SHIM_H
#define STORERULES_CLIBPQ_SHIM_H

#include <libpq-fe.h>

/// The `PG_DIAG_SQLSTATE` field code, a character-literal macro Swift does not import.
static inline int storerules_pq_diag_sqlstate(void) {
    return PG_DIAG_SQLSTATE;
}

/// The `PG_DIAG_MESSAGE_PRIMARY` field code, a character-literal macro Swift does not import.
static inline int storerules_pq_diag_message_primary(void) {
    return PG_DIAG_MESSAGE_PRIMARY;
}

#endif
