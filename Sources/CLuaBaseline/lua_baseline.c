#include "lua_baseline.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct lua_baseline {
    lua_State *L;
    int hook_ref;
    int catalog_ref;
    long long instructions_left;
    double deadline;
};

static double monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The baseline keeps its state's owner in the extra space, for the hook. */
static void budget_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    lua_baseline *baseline = *(lua_baseline **)lua_getextraspace(L);
    baseline->instructions_left -= 1000;
    if (baseline->instructions_left <= 0 || monotonic_seconds() > baseline->deadline) {
        luaL_error(L, "limit reached");
    }
}

static int traceback(lua_State *L) {
    luaL_traceback(L, L, lua_tostring(L, 1), 1);
    return 1;
}

lua_baseline *lua_baseline_open(const char *source, const char *hook, char *error, int error_size) {
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        snprintf(error, error_size, "cannot create a Lua state");
        return NULL;
    }
    luaL_openlibs(L);
    if (luaL_loadstring(L, source) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
        snprintf(error, error_size, "%s", lua_tostring(L, -1));
        lua_close(L);
        return NULL;
    }
    if (lua_getfield(L, -1, hook) != LUA_TFUNCTION) {
        snprintf(error, error_size, "no function '%s'", hook);
        lua_close(L);
        return NULL;
    }
    lua_baseline *baseline = malloc(sizeof *baseline);
    *(lua_baseline **)lua_getextraspace(L) = baseline;
    baseline->L = L;
    baseline->hook_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, 2);
    baseline->catalog_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_settop(L, 0);
    return baseline;
}

static void set_string(lua_State *L, int table, const char *key, const char *value) {
    lua_pushstring(L, value);
    lua_setfield(L, table, key);
}

static void set_integer(lua_State *L, int table, const char *key, lua_Integer value) {
    lua_pushinteger(L, value);
    lua_setfield(L, table, key);
}

int lua_baseline_decide(lua_baseline *baseline, const lua_baseline_input *input, lua_baseline_result *result,
                        int limited) {
    lua_State *L = baseline->L;
    int base = lua_gettop(L);
    lua_pushcfunction(L, traceback);
    lua_rawgeti(L, LUA_REGISTRYINDEX, baseline->hook_ref);

    /* ctx, with the same fields the engine pushes */
    lua_createtable(L, 0, 6);
    int ctx = lua_gettop(L);
    set_integer(L, ctx, "now", input->now);
    set_string(L, ctx, "storefront", input->country);
    set_string(L, ctx, "locale", "en_US");
    set_string(L, ctx, "environment", "xcode");
    lua_rawgeti(L, LUA_REGISTRYINDEX, baseline->catalog_ref);
    lua_setfield(L, ctx, "catalog");

    lua_createtable(L, 0, 7);
    int customer = lua_gettop(L);
    set_string(L, customer, "id", input->customer_id);
    set_integer(L, customer, "seed", 42);
    lua_pushboolean(L, 1);
    lua_setfield(L, customer, "status_known");
    lua_createtable(L, input->subscribed ? 1 : 0, 0);
    if (input->subscribed) {
        lua_pushstring(L, input->product_ids[input->group_level - 1]);
        lua_rawseti(L, -2, 1);
    }
    lua_setfield(L, customer, "entitlements");
    lua_createtable(L, 0, 1);
    if (input->subscribed) {
        lua_createtable(L, 0, 6);
        int subscription = lua_gettop(L);
        set_string(L, subscription, "product_id", input->product_ids[input->group_level - 1]);
        set_integer(L, subscription, "group_level", input->group_level);
        set_string(L, subscription, "state", "subscribed");
        lua_pushboolean(L, 1);
        lua_setfield(L, subscription, "will_auto_renew");
        set_integer(L, subscription, "expiration_date", input->now + 86400);
        lua_pushboolean(L, 0);
        lua_setfield(L, subscription, "intro_eligible");
        lua_setfield(L, -2, input->group_id);
    }
    lua_setfield(L, customer, "subscriptions");
    lua_createtable(L, 0, 0);
    lua_setfield(L, customer, "balances");
    lua_createtable(L, 0, 1);
    set_integer(L, lua_gettop(L), "days_since_install", input->days_since_install);
    lua_setfield(L, customer, "attributes");
    lua_setfield(L, ctx, "customer");

    lua_createtable(L, 3, 0);
    for (int i = 0; i < 3; i++) {
        lua_pushstring(L, input->product_ids[i]);
        lua_rawseti(L, -2, i + 1);
    }

    if (limited) {
        baseline->instructions_left = 10000000;
        baseline->deadline = monotonic_seconds() + 0.25;
        lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1000);
    }
    int status = lua_pcall(L, 2, 1, base + 1);
    if (limited) {
        lua_sethook(L, NULL, 0, 0);
    }
    if (status != LUA_OK) {
        lua_settop(L, base);
        return 1;
    }
    int out = lua_gettop(L);
    lua_getfield(L, out, "show");
    result->show = lua_toboolean(L, -1);
    lua_getfield(L, out, "upgrades");
    lua_Integer count = (lua_Integer)lua_rawlen(L, -1);
    result->upgrade_count = 0;
    for (lua_Integer i = 1; i <= count && i <= 3; i++) {
        lua_rawgeti(L, -1, i);
        result->upgrades[result->upgrade_count++] = lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    lua_settop(L, base);
    return 0;
}

void lua_baseline_close(lua_baseline *baseline) {
    lua_close(baseline->L);
    free(baseline);
}
