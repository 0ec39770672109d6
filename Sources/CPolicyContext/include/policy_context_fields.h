#ifndef STORERULES_POLICY_CONTEXT_FIELDS_H
#define STORERULES_POLICY_CONTEXT_FIELDS_H

/*
 * The fields of `ctx`, of `ctx.customer` and of a subscription entry, with the kind of value
 * each holds: declared here and nowhere else.  The C context makes its tables, their keys and
 * their `pairs` from these lists; Swift reads the same lists (`policy_context_ctx_table` and
 * the others) for its strict errors, which name the nearest field, and fills a subscription
 * entry by switching over `policy_context_entry_field`, so a field added here is a case the
 * Swift compiler asks for.
 *
 * Each list is an X-macro: POLICY_CONTEXT_CTX_FIELDS(FIELD) expands FIELD(ID, name, KIND,
 * PRESENCE) once per field, in the order the tables are filled and walked.
 */

#define POLICY_CONTEXT_CTX_FIELDS(FIELD)                                                                    \
    FIELD(NOW, "now", INTEGER, ALWAYS)                                                                        \
    FIELD(STOREFRONT, "storefront", STRING, ALWAYS)                                                           \
    FIELD(LOCALE, "locale", STRING, ALWAYS)                                                                   \
    FIELD(ENVIRONMENT, "environment", STRING, ALWAYS)                                                         \
    FIELD(CATALOG, "catalog", TABLE, ALWAYS)                                                                  \
    FIELD(CUSTOMER, "customer", TABLE, ALWAYS)                                                                \
    FIELD(EXPERIMENTS, "experiments", TABLE, ALWAYS)

#define POLICY_CONTEXT_CUSTOMER_FIELDS(FIELD)                                                               \
    FIELD(ID, "id", STRING, ALWAYS)                                                                           \
    FIELD(SEED, "seed", INTEGER, ALWAYS)                                                                      \
    FIELD(STATUS_KNOWN, "status_known", BOOLEAN, ALWAYS)                                                      \
    FIELD(ENTITLEMENTS, "entitlements", STRING_LIST, ALWAYS)                                                  \
    FIELD(SUBSCRIPTIONS, "subscriptions", TABLE, ALWAYS)                                                      \
    FIELD(BALANCES, "balances", TABLE, ALWAYS)                                                                \
    FIELD(ATTRIBUTES, "attributes", TABLE, ALWAYS)                                                            \
    FIELD(EVENTS, "events", TABLE, ALWAYS)

#define POLICY_CONTEXT_ENTRY_FIELDS(FIELD)                                                                  \
    FIELD(PRODUCT_ID, "product_id", STRING, ALWAYS)                                                           \
    FIELD(GROUP_LEVEL, "group_level", INTEGER, ALWAYS)                                                        \
    FIELD(STATE, "state", STRING, ALWAYS)                                                                     \
    FIELD(WILL_AUTO_RENEW, "will_auto_renew", BOOLEAN, ALWAYS)                                                \
    FIELD(EXPIRATION_DATE, "expiration_date", INTEGER, WHEN_KNOWN)                                            \
    FIELD(INTRO_ELIGIBLE, "intro_eligible", BOOLEAN, ALWAYS)                                                  \
    FIELD(WIN_BACK_OFFERS, "win_back_offers", STRING_LIST, ALWAYS)                                            \
    FIELD(PAID_MONTHS, "paid_months", NUMBER, ALWAYS)

#define POLICY_CONTEXT_CLOSED __attribute__((enum_extensibility(closed)))

/* The Lua value a field holds. */
typedef enum POLICY_CONTEXT_CLOSED policy_context_kind {
    POLICY_CONTEXT_KIND_INTEGER,     /* a whole number (`math.type` "integer") */
    POLICY_CONTEXT_KIND_NUMBER,      /* a number with a fraction (`math.type` "float") */
    POLICY_CONTEXT_KIND_STRING,
    POLICY_CONTEXT_KIND_BOOLEAN,
    POLICY_CONTEXT_KIND_STRING_LIST, /* a sequence of strings */
    POLICY_CONTEXT_KIND_TABLE        /* any other table: keyed by data, or one of the context's own */
} policy_context_kind;

/* Whether a field is always there, or only when the host knows its value (reading it then gives nil). */
typedef enum POLICY_CONTEXT_CLOSED policy_context_presence {
    POLICY_CONTEXT_PRESENCE_ALWAYS,
    POLICY_CONTEXT_PRESENCE_WHEN_KNOWN
} policy_context_presence;

#define POLICY_CONTEXT_FIELD_CASE(table, id, name, kind, presence) POLICY_CONTEXT_##table##_##id,
#define POLICY_CONTEXT_CTX_CASE(id, name, kind, presence) POLICY_CONTEXT_FIELD_CASE(CTX, id, name, kind, presence)
#define POLICY_CONTEXT_CUSTOMER_CASE(id, name, kind, presence) POLICY_CONTEXT_FIELD_CASE(CUSTOMER, id, name, kind, presence)
#define POLICY_CONTEXT_ENTRY_CASE(id, name, kind, presence) POLICY_CONTEXT_FIELD_CASE(ENTRY, id, name, kind, presence)
#define POLICY_CONTEXT_COUNT_ONE(id, name, kind, presence) +1

/* Each field's position in its list. */
typedef enum POLICY_CONTEXT_CLOSED policy_context_ctx_field {
    POLICY_CONTEXT_CTX_FIELDS(POLICY_CONTEXT_CTX_CASE)
} policy_context_ctx_field;
typedef enum POLICY_CONTEXT_CLOSED policy_context_customer_field {
    POLICY_CONTEXT_CUSTOMER_FIELDS(POLICY_CONTEXT_CUSTOMER_CASE)
} policy_context_customer_field;
typedef enum POLICY_CONTEXT_CLOSED policy_context_entry_field {
    POLICY_CONTEXT_ENTRY_FIELDS(POLICY_CONTEXT_ENTRY_CASE)
} policy_context_entry_field;

/* How many fields each list has. */
enum {
    POLICY_CONTEXT_CTX_FIELD_COUNT = 0 POLICY_CONTEXT_CTX_FIELDS(POLICY_CONTEXT_COUNT_ONE),
    POLICY_CONTEXT_CUSTOMER_FIELD_COUNT = 0 POLICY_CONTEXT_CUSTOMER_FIELDS(POLICY_CONTEXT_COUNT_ONE),
    POLICY_CONTEXT_ENTRY_FIELD_COUNT = 0 POLICY_CONTEXT_ENTRY_FIELDS(POLICY_CONTEXT_COUNT_ONE)
};

/* One field: its name in Lua, its kind, whether it is always there. */
typedef struct policy_context_field {
    const char *name;
    policy_context_kind kind;
    policy_context_presence presence;
} policy_context_field;

/* One strict table: the name its errors give it and its fields, in their list's order. */
typedef struct policy_context_table {
    const char *name;
    const policy_context_field *fields;
    int field_count;
} policy_context_table;

/* `ctx`, `ctx.customer`, and each entry of `ctx.customer.subscriptions`. */
extern const policy_context_table policy_context_ctx_table;
extern const policy_context_table policy_context_customer_table;
extern const policy_context_table policy_context_entry_table;

#endif
