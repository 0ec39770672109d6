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

/// The `PG_DIAG_MESSAGE_DETAIL` field code, such as `Key (id)=(ana) already exists.`
static inline int storerules_pq_diag_message_detail(void) {
    return PG_DIAG_MESSAGE_DETAIL;
}

/// The `PG_DIAG_TABLE_NAME` field code: the table a constraint belongs to.
static inline int storerules_pq_diag_table_name(void) {
    return PG_DIAG_TABLE_NAME;
}

#endif
