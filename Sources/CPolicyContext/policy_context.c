#include "policy_context.h"

#include <lauxlib.h>

/* What is made on first read and kept, in a registry slot, for the rest of the context's life. */
enum part { PART_CUSTOMER, PART_ENTITLEMENTS, PART_SUBSCRIPTIONS, PART_BALANCES, PART_ATTRIBUTES, PART_EVENTS, PART_EXPERIMENTS, PART_COUNT };

struct policy_context {
    policy_context_snapshot *snapshot; /* NULL once the context has ended */
    unsigned built;                          /* one bit per part */
    int context_slot;
    int context_metatable_slot;
    int part_slots[PART_COUNT];
    int customer_metatable_slot;
    int entry_keys_slot;
    int catalog_slot;
    int entry_metatable_slot;
    int next_slot;
    int push_part_slot;
    int error_text_slot;
};

/* One kind of strict table: `ctx` or `ctx.customer`, with its declared fields. */
struct table_kind {
    int which;                 /* POLICY_CONTEXT_CTX or POLICY_CONTEXT_CUSTOMER */
    const policy_context_table *table;
};

static const struct table_kind context_kind = {POLICY_CONTEXT_CTX, &policy_context_ctx_table};
static const struct table_kind customer_kind = {POLICY_CONTEXT_CUSTOMER, &policy_context_customer_table};

static void push_string(lua_State *L, policy_context_string string) {
    lua_pushlstring(L, string.bytes, string.length);
}

static void store(lua_State *L, int slot) {
    lua_rawseti(L, LUA_REGISTRYINDEX, slot);
}

static int new_slot(lua_State *L) {
    lua_pushboolean(L, 0);
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

/* ---- parts ------------------------------------------------------------------------ */

static void push_list(lua_State *L, const policy_context_string *items, int count) {
    lua_createtable(L, count, 0);
    for (int i = 0; i < count; i++) {
        push_string(L, items[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

_Static_assert(POLICY_CONTEXT_ENTRY_FIELD_COUNT <= 32, "an entry's absent fields are one bit each of an unsigned");

/* Pushes `value` as `kind` says; an entry has no field of kind TABLE, which pushes nil. */
static void push_value(lua_State *L, policy_context_kind kind, const policy_context_value *value) {
    switch (kind) {
    case POLICY_CONTEXT_KIND_INTEGER: lua_pushinteger(L, value->integer); return;
    case POLICY_CONTEXT_KIND_NUMBER: lua_pushnumber(L, value->number); return;
    case POLICY_CONTEXT_KIND_STRING: push_string(L, value->string); return;
    case POLICY_CONTEXT_KIND_BOOLEAN: lua_pushboolean(L, value->boolean); return;
    case POLICY_CONTEXT_KIND_STRING_LIST: push_list(L, value->list.items, value->list.count); return;
    case POLICY_CONTEXT_KIND_TABLE: break;
    }
    lua_pushnil(L);
}

/* Pushes a subscription entry: each declared field the host has a value for, in the declared
 * order, under the key interned at the field's position + 1 of the table at `keys`. */
static void push_entry(lua_State *L, const policy_context *context, int keys, const policy_context_subscription *item) {
    const policy_context_field *fields = policy_context_entry_table.fields;
    lua_createtable(L, 0, POLICY_CONTEXT_ENTRY_FIELD_COUNT);
    int entry = lua_gettop(L);
    for (int position = 0; position < POLICY_CONTEXT_ENTRY_FIELD_COUNT; position++) {
        if (item->absent & (1u << position)) continue;
        lua_rawgeti(L, keys, position + 1);
        push_value(L, fields[position].kind, &item->values[position]);
        lua_rawset(L, entry);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, context->entry_metatable_slot);
    lua_setmetatable(L, entry);
}

static void make_subscriptions(lua_State *L, const policy_context *context) {
    const policy_context_snapshot *snapshot = context->snapshot;
    lua_rawgeti(L, LUA_REGISTRYINDEX, context->entry_keys_slot);
    int keys = lua_gettop(L);
    lua_createtable(L, 0, snapshot->subscription_count);
    int table = lua_gettop(L);
    for (int i = 0; i < snapshot->subscription_count; i++) {
        const policy_context_subscription *item = &snapshot->subscriptions[i];
        push_string(L, item->group_id);
        push_entry(L, context, keys, item);
        lua_rawset(L, table);
    }
    lua_remove(L, keys);
}

static void make_balances(lua_State *L, const policy_context_snapshot *snapshot) {
    lua_createtable(L, 0, snapshot->balance_count);
    for (int i = 0; i < snapshot->balance_count; i++) {
        push_string(L, snapshot->balances[i].item);
        lua_pushinteger(L, snapshot->balances[i].amount);
        lua_rawset(L, -3);
    }
}

static void make_part(lua_State *L, policy_context *context, enum part part) {
    policy_context_snapshot *snapshot = context->snapshot;
    if ((part == PART_ENTITLEMENTS || part == PART_SUBSCRIPTIONS || part == PART_BALANCES) && !snapshot->collections_filled) {
        snapshot->fill_collections(snapshot->owner, snapshot);
        snapshot->collections_filled = 1;
    }
    switch (part) {
    case PART_CUSTOMER:
        lua_createtable(L, 0, 0);
        lua_rawgeti(L, LUA_REGISTRYINDEX, context->customer_metatable_slot);
        lua_setmetatable(L, -2);
        break;
    case PART_ENTITLEMENTS:
        push_list(L, snapshot->entitlements, snapshot->entitlement_count);
        break;
    case PART_SUBSCRIPTIONS:
        make_subscriptions(L, context);
        break;
    case PART_BALANCES:
        make_balances(L, snapshot);
        break;
    case PART_ATTRIBUTES:
    case PART_EVENTS:
    case PART_EXPERIMENTS:
        lua_rawgeti(L, LUA_REGISTRYINDEX, context->push_part_slot);
        lua_pushinteger(L, part == PART_ATTRIBUTES ? POLICY_CONTEXT_ATTRIBUTES
                           : part == PART_EVENTS   ? POLICY_CONTEXT_EVENTS
                                                   : POLICY_CONTEXT_EXPERIMENTS);
        lua_call(L, 1, 1);
        break;
    case PART_COUNT:
        lua_pushnil(L);
        break;
    }
}

/* Pushes `part`, making it the first time the current context needs it. */
static void push_part(lua_State *L, policy_context *context, enum part part) {
    unsigned bit = 1u << part;
    if (context->built & bit) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, context->part_slots[part]);
        return;
    }
    make_part(L, context, part);
    lua_pushvalue(L, -1);
    store(L, context->part_slots[part]);
    context->built |= bit;
}

/* ---- fields ----------------------------------------------------------------------- */

/* Pushes the field of `ctx` at `field`; a field declared without a case here reads as nil. */
static void push_context_field(lua_State *L, policy_context *context, policy_context_ctx_field field) {
    const policy_context_snapshot *snapshot = context->snapshot;
    switch (field) {
    case POLICY_CONTEXT_CTX_NOW: lua_pushinteger(L, snapshot->now); return;
    case POLICY_CONTEXT_CTX_STOREFRONT: push_string(L, snapshot->storefront); return;
    case POLICY_CONTEXT_CTX_LOCALE: push_string(L, snapshot->locale); return;
    case POLICY_CONTEXT_CTX_ENVIRONMENT: push_string(L, snapshot->environment); return;
    case POLICY_CONTEXT_CTX_CATALOG: lua_rawgeti(L, LUA_REGISTRYINDEX, context->catalog_slot); return;
    case POLICY_CONTEXT_CTX_CUSTOMER: push_part(L, context, PART_CUSTOMER); return;
    case POLICY_CONTEXT_CTX_EXPERIMENTS: push_part(L, context, PART_EXPERIMENTS); return;
    }
    lua_pushnil(L);
}

/* Pushes the field of `ctx.customer` at `field`; a field declared without a case here reads as nil. */
static void push_customer_field(lua_State *L, policy_context *context, policy_context_customer_field field) {
    const policy_context_snapshot *snapshot = context->snapshot;
    switch (field) {
    case POLICY_CONTEXT_CUSTOMER_ID: push_string(L, snapshot->customer_id); return;
    case POLICY_CONTEXT_CUSTOMER_SEED: lua_pushinteger(L, snapshot->seed); return;
    case POLICY_CONTEXT_CUSTOMER_STATUS_KNOWN: lua_pushboolean(L, snapshot->status_known); return;
    case POLICY_CONTEXT_CUSTOMER_ENTITLEMENTS: push_part(L, context, PART_ENTITLEMENTS); return;
    case POLICY_CONTEXT_CUSTOMER_SUBSCRIPTIONS: push_part(L, context, PART_SUBSCRIPTIONS); return;
    case POLICY_CONTEXT_CUSTOMER_BALANCES: push_part(L, context, PART_BALANCES); return;
    case POLICY_CONTEXT_CUSTOMER_ATTRIBUTES: push_part(L, context, PART_ATTRIBUTES); return;
    case POLICY_CONTEXT_CUSTOMER_EVENTS: push_part(L, context, PART_EVENTS); return;
    }
    lua_pushnil(L);
}

static void push_field(lua_State *L, policy_context *context, const struct table_kind *kind, int position) {
    if (kind->which == POLICY_CONTEXT_CTX) {
        push_context_field(L, context, (policy_context_ctx_field)position);
    } else {
        push_customer_field(L, context, (policy_context_customer_field)position);
    }
}

/* ---- metamethods -------------------------------------------------------------------- */

/* Upvalues of every metamethod: 1 the context, 2 a light userdata to its table_kind,
 * 3 the table of the kind's field names to their 0-based positions. */

static policy_context *context_of(lua_State *L) {
    return (policy_context *)lua_touserdata(L, lua_upvalueindex(1));
}

static const struct table_kind *kind_of(lua_State *L) {
    return (const struct table_kind *)lua_touserdata(L, lua_upvalueindex(2));
}

/* Whether the table at index 1 is the current context's table of `kind`. */
static int is_current(lua_State *L, const policy_context *context, const struct table_kind *kind) {
    if (context->snapshot == NULL) return 0;
    int slot;
    if (kind->which == POLICY_CONTEXT_CTX) {
        slot = context->context_slot;
    } else {
        if (!(context->built & (1u << PART_CUSTOMER))) return 0;
        slot = context->part_slots[PART_CUSTOMER];
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, slot);
    int same = lua_rawequal(L, 1, -1);
    lua_pop(L, 1);
    return same;
}

/* The context of the running metamethod, after checking that the table at index 1 is its
 * current table of `kind`: a table kept past its call raises an error instead. */
static policy_context *current_context(lua_State *L, const struct table_kind *kind) {
    policy_context *context = context_of(L);
    if (!is_current(L, context, kind)) {
        const char *name = kind->table->name;
        luaL_where(L, 1);
        lua_pushfstring(L, "%s belongs to a hook call that has ended; keep the values a later call needs, not %s", name, name);
        lua_concat(L, 2);
        lua_error(L);
    }
    return context;
}

/* Raises the error for reading (`writing` 0) a key that `kind` does not list, or for writing
 * (`writing` 1) any key, at index 2; the host function words it, the location is added here. */
static int raise_key_error(lua_State *L, const policy_context *context, const struct table_kind *kind, int writing) {
    lua_settop(L, 2);
    luaL_where(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, context->error_text_slot);
    lua_pushinteger(L, kind->which);
    lua_pushvalue(L, 2);
    lua_pushboolean(L, writing);
    lua_call(L, 3, 1);
    lua_concat(L, 2);
    return lua_error(L);
}

static int index_metamethod(lua_State *L) {
    const struct table_kind *kind = kind_of(L);
    policy_context *context = current_context(L, kind);
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(3)) == LUA_TNUMBER) {
        int position = (int)lua_tointeger(L, -1);
        lua_settop(L, 2);
        push_field(L, context, kind, position);
        return 1;
    }
    return raise_key_error(L, context, kind, 0);
}

static int pairs_metamethod(lua_State *L) {
    const struct table_kind *kind = kind_of(L);
    policy_context *context = current_context(L, kind);
    lua_rawgeti(L, LUA_REGISTRYINDEX, context->next_slot);
    const policy_context_table *table = kind->table;
    lua_createtable(L, 0, table->field_count);
    int snapshot = lua_gettop(L);
    for (int position = 0; position < table->field_count; position++) {
        push_field(L, context, kind, position);
        lua_setfield(L, snapshot, table->fields[position].name);
    }
    lua_pushnil(L);
    return 3;
}

static int newindex_metamethod(lua_State *L) {
    return raise_key_error(L, context_of(L), kind_of(L), 1);
}

/* ---- setup ------------------------------------------------------------------------- */

/* Pushes a closure of `function` over the three shared upvalues; the positions table is at `positions`. */
static void push_metamethod(lua_State *L, lua_CFunction function, int holder, const struct table_kind *kind, int positions) {
    lua_pushvalue(L, holder);
    lua_pushlightuserdata(L, (void *)kind);
    lua_pushvalue(L, positions);
    lua_pushcclosure(L, function, 3);
}

/* Makes the locked metatable of `kind` and returns its registry slot. */
static int make_metatable(lua_State *L, int holder, const struct table_kind *kind) {
    const policy_context_table *table = kind->table;
    lua_createtable(L, 0, table->field_count);
    int positions = lua_gettop(L);
    for (int position = 0; position < table->field_count; position++) {
        lua_pushinteger(L, position);
        lua_setfield(L, positions, table->fields[position].name);
    }
    lua_createtable(L, 0, 4);
    int metatable = lua_gettop(L);
    push_metamethod(L, index_metamethod, holder, kind, positions);
    lua_setfield(L, metatable, "__index");
    push_metamethod(L, pairs_metamethod, holder, kind, positions);
    lua_setfield(L, metatable, "__pairs");
    push_metamethod(L, newindex_metamethod, holder, kind, positions);
    lua_setfield(L, metatable, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, metatable, "__metatable");
    int slot = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pop(L, 1);
    return slot;
}

policy_context *policy_context_open(lua_State *L, int catalog_slot, int entry_metatable_slot, int next_slot,
                                    int push_part_slot, int error_text_slot) {
    int base = lua_gettop(L);
    policy_context *context = (policy_context *)lua_newuserdatauv(L, sizeof *context, 0);
    int holder = lua_gettop(L);
    context->snapshot = NULL;
    context->built = 0;
    context->catalog_slot = catalog_slot;
    context->entry_metatable_slot = entry_metatable_slot;
    context->next_slot = next_slot;
    context->push_part_slot = push_part_slot;
    context->error_text_slot = error_text_slot;
    context->context_slot = new_slot(L);
    for (int part = 0; part < PART_COUNT; part++) context->part_slots[part] = new_slot(L);
    lua_createtable(L, POLICY_CONTEXT_ENTRY_FIELD_COUNT, 0);
    for (int position = 0; position < POLICY_CONTEXT_ENTRY_FIELD_COUNT; position++) {
        lua_pushstring(L, policy_context_entry_table.fields[position].name);
        lua_rawseti(L, -2, position + 1);
    }
    context->entry_keys_slot = luaL_ref(L, LUA_REGISTRYINDEX);
    context->context_metatable_slot = make_metatable(L, holder, &context_kind);
    context->customer_metatable_slot = make_metatable(L, holder, &customer_kind);
    lua_settop(L, holder);
    luaL_ref(L, LUA_REGISTRYINDEX); /* anchors the context for the state's life */
    lua_settop(L, base);
    return context;
}

void policy_context_push(lua_State *L, policy_context *context, policy_context_snapshot *snapshot) {
    lua_createtable(L, 0, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, context->context_metatable_slot);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    store(L, context->context_slot);
    context->snapshot = snapshot;
    context->built = 0;
}

void policy_context_push_current(lua_State *L, policy_context *context) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, context->context_slot);
}

void policy_context_end(policy_context *context) {
    context->snapshot = NULL;
}
