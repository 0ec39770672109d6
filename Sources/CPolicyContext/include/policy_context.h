#ifndef STORERULES_POLICY_CONTEXT_H
#define STORERULES_POLICY_CONTEXT_H

/*
 * `ctx` and `ctx.customer` as policy hooks receive them, built in C.
 *
 * The host prepares a plain-data snapshot of the context once per request (strings as bytes
 * and lengths, numbers, flags); the tables a hook reads are made from it the first time the
 * hook reads them, by C functions that Lua calls directly as the tables' `__index`.  Every
 * key is interned once per state and every table is preallocated to its final shape, so
 * reading `ctx.customer.subscriptions` costs no call into the host.  Only `attributes` and
 * `events`, whose values are arbitrary trees, are pushed by a host function; a host function
 * also words the errors for an unknown field (naming the nearest one) and for a write.  The
 * tables' fields are declared in policy_context_fields.h.
 */

#include <lua.h>
#include <stddef.h>

#include "policy_context_fields.h"

/* UTF-8 bytes, not NUL-terminated. */
typedef struct policy_context_string {
    const char *bytes;
    size_t length;
} policy_context_string;

/* Strings, in order. */
typedef struct policy_context_list {
    const policy_context_string *items;
    int count;
} policy_context_list;

/* The value of one field, read as the field's kind (policy_context_fields.h) says. */
typedef union policy_context_value {
    lua_Integer integer;                  /* INTEGER; a date is seconds since 1970 */
    lua_Number number;                    /* NUMBER */
    int boolean;                          /* BOOLEAN */
    policy_context_string string;         /* STRING */
    policy_context_list list;             /* STRING_LIST */
} policy_context_value;

/* One entry of `ctx.customer.subscriptions`, with the group it is filed under: one value per
 * field of policy_context_entry_table, in its order, and a bit (1 << position) in `absent` for
 * each field the host has no value for (a WHEN_KNOWN field), which the entry leaves out. */
typedef struct policy_context_subscription {
    policy_context_string group_id;
    unsigned absent;
    const policy_context_value *values;
} policy_context_subscription;

/* One entry of `ctx.customer.balances`. */
typedef struct policy_context_balance {
    policy_context_string item;
    lua_Integer amount;
} policy_context_balance;

typedef struct policy_context_snapshot policy_context_snapshot;

/* Fills a snapshot's customer collections (entitlements, subscriptions, balances); called
 * with the snapshot's owner the first time a hook reads one of them.  It must not raise a Lua
 * error. */
typedef void (*policy_context_fill)(void *owner, policy_context_snapshot *snapshot);

/* Everything of a context that is plain data.  The scalars are set before the context is
 * pushed; the collections when `fill_collections` runs, at most once per context. */
struct policy_context_snapshot {
    lua_Integer now;
    policy_context_string storefront;
    policy_context_string locale;
    policy_context_string environment;
    policy_context_string customer_id;
    lua_Integer seed;
    int status_known;
    int entitlement_count;
    const policy_context_string *entitlements;
    int subscription_count;
    const policy_context_subscription *subscriptions;
    int balance_count;
    const policy_context_balance *balances;
    int collections_filled;
    policy_context_fill fill_collections;
    void *owner;
};

/* The parts of `ctx` and `ctx.customer` a host function pushes: the function is called with
 * the part's number and must push exactly one table. */
enum { POLICY_CONTEXT_ATTRIBUTES = 1, POLICY_CONTEXT_EVENTS = 2, POLICY_CONTEXT_EXPERIMENTS = 3 };

/* The text of an error about a key: the host function is called with the table's number
 * (POLICY_CONTEXT_CTX or POLICY_CONTEXT_CUSTOMER), the key, and whether the key was written
 * (every write is refused) rather than read (a read fails only for a key the table does not
 * list); it returns the message without its location, which is added here. */
enum { POLICY_CONTEXT_CTX = 1, POLICY_CONTEXT_CUSTOMER = 2 };

typedef struct policy_context policy_context;

/*
 * Makes the metatables of `ctx` and `ctx.customer` in `L`, once per state.  The registry
 * slots name the catalog `ctx.catalog` shows, the metatable every subscription entry gets,
 * the `next` function `pairs` walks with, the host function that pushes attributes, events and the
 * experiments table, and the host function that words an error about a key.  The context lives as long
 * as the state (it is a userdata anchored in the registry).  Raises a Lua error when memory
 * runs out, so call it protected or while the state has room.
 */
policy_context *policy_context_open(lua_State *L, int catalog_slot, int entry_metatable_slot, int next_slot,
                                    int push_part_slot, int error_text_slot);

/* Pushes a new `ctx` for `snapshot`, which becomes the current one; the snapshot's memory
 * must stay valid until policy_context_end. */
void policy_context_push(lua_State *L, policy_context *context, policy_context_snapshot *snapshot);

/* Pushes the current `ctx` again, for the next hook of a storefront plan. */
void policy_context_push_current(lua_State *L, policy_context *context);

/* Ends the current context: its tables answer no more reads. */
void policy_context_end(policy_context *context);

#endif
