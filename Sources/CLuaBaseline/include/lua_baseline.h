#ifndef STORERULES_LUA_BASELINE_H
#define STORERULES_LUA_BASELINE_H

/*
 * The benchmark's floor: the same table-in/table-out policy call that the engine makes,
 * written directly against the Lua 5.4 C API, with no bridge in between.
 */

#include <stdint.h>

/* The benchmark rule's input. */
typedef struct lua_baseline_input {
    int subscribed;               /* whether the customer is subscribed */
    int group_level;              /* 1 best … 3 lowest, 0 none */
    const char *country;          /* storefront, e.g. "USA" */
    int64_t days_since_install;
    const char *product_ids[3];
    const char *group_id;
    const char *customer_id;
    int64_t now;
} lua_baseline_input;

/* The benchmark rule's output. */
typedef struct lua_baseline_result {
    int show;
    int upgrade_count;
    int64_t upgrades[3];
} lua_baseline_result;

typedef struct lua_baseline lua_baseline;

/* Loads `source` (a chunk returning a table of hooks) and keeps hook `hook`.
 * Returns NULL and writes a message into `error` on failure. */
lua_baseline *lua_baseline_open(const char *source, const char *hook, char *error, int error_size);

/* Makes one decision; returns 0 on success. With `limited` non-zero the call runs under an
 * instruction budget checked by a count hook every 1,000 instructions and a clock_gettime
 * deadline, armed before and cleared after the call, as a C host enforcing limits would. */
int lua_baseline_decide(lua_baseline *baseline, const lua_baseline_input *input, lua_baseline_result *result,
                        int limited);

/* Frees the state. */
void lua_baseline_close(lua_baseline *baseline);

#endif
