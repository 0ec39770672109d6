#ifndef STORERULES_CLUA_SHIM_H
#define STORERULES_CLUA_SHIM_H

/*
 * The Lua 5.4 C API for Swift.
 *
 * Swift cannot import function-like macros, so the macros of lua.h and lauxlib.h that
 * StoreRules uses are restated here as static inline functions.  The second half holds the
 * few pieces that must be C because they raise Lua errors (which `longjmp`): the limits
 * (allocator, count hook) and the trampoline through which Lua calls Swift functions.
 * A Swift frame is never on the C stack when a Lua error is raised.
 */

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- lua.h macros ---------------------------------------------------------------- */

static inline int srlua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcallk(L, nargs, nresults, msgh, 0, NULL);
}
static inline void srlua_call(lua_State *L, int nargs, int nresults) {
    lua_callk(L, nargs, nresults, 0, NULL);
}
static inline void srlua_pop(lua_State *L, int n) { lua_settop(L, -(n) - 1); }
static inline void srlua_newtable(lua_State *L) { lua_createtable(L, 0, 0); }
static inline const char *srlua_tostring(lua_State *L, int idx) { return lua_tolstring(L, idx, NULL); }
static inline lua_Number srlua_tonumber(lua_State *L, int idx) { return lua_tonumberx(L, idx, NULL); }
static inline lua_Integer srlua_tointeger(lua_State *L, int idx) { return lua_tointegerx(L, idx, NULL); }
static inline int srlua_isnil(lua_State *L, int idx) { return lua_type(L, idx) == LUA_TNIL; }
static inline int srlua_isfunction(lua_State *L, int idx) { return lua_type(L, idx) == LUA_TFUNCTION; }
static inline int srlua_istable(lua_State *L, int idx) { return lua_type(L, idx) == LUA_TTABLE; }
static inline void srlua_insert(lua_State *L, int idx) { lua_rotate(L, idx, 1); }
static inline void srlua_remove(lua_State *L, int idx) { lua_rotate(L, idx, -1); lua_settop(L, -2); }
static inline void srlua_collect_garbage(lua_State *L) { (void)lua_gc(L, LUA_GCCOLLECT, 0); }
/* Switches the collector to generational mode: most of what a hook call allocates (its
 * context, arguments and result tables) dies young. */
static inline void srlua_use_generational_gc(lua_State *L) { (void)lua_gc(L, LUA_GCGEN, 0, 0); }
static inline int srlua_upvalueindex(int i) { return LUA_REGISTRYINDEX - i; }
static inline int srlua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int srlua_ridx_globals(void) { return LUA_RIDX_GLOBALS; }
static inline int srlua_refnil(void) { return LUA_REFNIL; }
static inline int srlua_noref(void) { return LUA_NOREF; }
static inline int srlua_multret(void) { return LUA_MULTRET; }

/* ---- lauxlib.h macros ------------------------------------------------------------ */

static inline int srlua_loadbuffer(lua_State *L, const char *buff, size_t sz,
                                   const char *name, const char *mode) {
    return luaL_loadbufferx(L, buff, sz, name, mode);
}
static inline const char *srlua_typename(lua_State *L, int idx) {
    return lua_typename(L, lua_type(L, idx));
}

/* ---- limits: memory cap, instruction budget, wall-clock deadline ------------------ */

/* Which limit stopped the running call. */
enum {
    SRLUA_TRIPPED_NONE = 0,
    SRLUA_TRIPPED_BUDGET = 1,
    SRLUA_TRIPPED_DEADLINE = 2,
    SRLUA_TRIPPED_MEMORY = 3
};

/* The lines of a chunk in the order they ran, shared by every state that records them. */
typedef struct srlua_line_order {
    int *lines;
    int capacity;
    int length;
    long long dropped;           /* lines that ran after `lines` was full */
} srlua_line_order;

/* Per-state accounting, owned by the Swift `LuaState` and reached from C through the
 * allocator's user data and the state's extra space. */
typedef struct srlua_limits {
    size_t bytes_in_use;
    size_t bytes_limit;          /* 0: unlimited */
    int enforcing;               /* the cap applies only while policy code runs */
    int allocation_refused;      /* set when the cap refused a request during a call */
    long long instructions_left; /* budget for the running call */
    long long hook_interval;     /* instructions between two count-hook calls */
    double deadline;             /* CLOCK_MONOTONIC seconds; 0: none */
    int tripped;                 /* SRLUA_TRIPPED_* */
    unsigned int *line_counts;   /* coverage: times each line of one chunk ran; NULL: off */
    int line_count_size;         /* entries in line_counts (lines 0 … size - 1) */
    const char *covered_source;  /* the chunk counted, as Lua names its source ("@name") */
    srlua_line_order *line_order; /* the chunk's lines in the order they ran; NULL: not kept */
} srlua_limits;

static inline double srlua_monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A lua_Alloc that counts every byte and, while policy code runs, refuses growth past the
 * cap.  The host's own pushes (arguments it built and bounded) are never refused, so a memory
 * error cannot be raised outside a protected call. */
static inline void *srlua_limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    srlua_limits *limits = (srlua_limits *)ud;
    size_t old_size = ptr != NULL ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        limits->bytes_in_use -= old_size;
        return NULL;
    }
    if (limits->enforcing && limits->bytes_limit != 0 && nsize > old_size &&
        (nsize - old_size > limits->bytes_limit ||
         limits->bytes_in_use + (nsize - old_size) > limits->bytes_limit)) {
        limits->allocation_refused = 1;
        return NULL;
    }
    void *block = realloc(ptr, nsize);
    if (block != NULL) {
        limits->bytes_in_use = limits->bytes_in_use - old_size + nsize;
    } else {
        limits->allocation_refused = 1;
    }
    return block;
}

static inline srlua_limits *srlua_limits_of(lua_State *L) {
    return *(srlua_limits **)lua_getextraspace(L);
}

/* The count hook: charges the budget, checks the clock and the memory cap, and once a limit
 * is hit raises an error at every instruction, so a script that catches the error with pcall
 * cannot go on. */
static inline void srlua_count_hook(lua_State *L, lua_Debug *ar) {
    srlua_limits *limits = srlua_limits_of(L);
    if (ar->event == LUA_HOOKLINE) {
        /* Coverage: count the line when it belongs to the chunk counted. */
        int line = ar->currentline;
        if (limits->line_counts != NULL && line > 0 && line < limits->line_count_size &&
            lua_getinfo(L, "S", ar) && strcmp(ar->source, limits->covered_source) == 0) {
            limits->line_counts[line] += 1;
            srlua_line_order *order = limits->line_order;
            if (order != NULL) {
                if (order->length < order->capacity) {
                    order->lines[order->length++] = line;
                } else {
                    order->dropped += 1;
                }
            }
        }
        return;
    }
    if (limits->tripped == SRLUA_TRIPPED_NONE) {
        limits->instructions_left -= limits->hook_interval;
        if (limits->allocation_refused) {
            limits->tripped = SRLUA_TRIPPED_MEMORY;
        } else if (limits->instructions_left <= 0) {
            limits->tripped = SRLUA_TRIPPED_BUDGET;
        } else if (limits->deadline > 0 && srlua_monotonic_seconds() > limits->deadline) {
            limits->tripped = SRLUA_TRIPPED_DEADLINE;
        }
        if (limits->tripped != SRLUA_TRIPPED_NONE) {
            lua_sethook(L, srlua_count_hook, LUA_MASKCOUNT, 1);
        }
    }
    if (limits->tripped == SRLUA_TRIPPED_BUDGET) {
        luaL_error(L, "instruction budget exhausted");
    } else if (limits->tripped == SRLUA_TRIPPED_DEADLINE) {
        luaL_error(L, "deadline passed");
    } else if (limits->tripped == SRLUA_TRIPPED_MEMORY) {
        luaL_error(L, "not enough memory");
    }
}

/* Creates a state whose allocator counts against `limits`, and stores `limits` in the
 * state's extra space for the hook. */
static inline lua_State *srlua_newstate(srlua_limits *limits) {
    lua_State *L = lua_newstate(srlua_limited_alloc, limits);
    if (L != NULL) {
        *(srlua_limits **)lua_getextraspace(L) = limits;
    }
    return L;
}

/* Arms the limits for one call. */
static inline void srlua_arm(lua_State *L, long long budget, long long interval, double seconds) {
    srlua_limits *limits = srlua_limits_of(L);
    limits->instructions_left = budget;
    limits->hook_interval = interval;
    limits->deadline = seconds > 0 ? srlua_monotonic_seconds() + seconds : 0;
    limits->tripped = SRLUA_TRIPPED_NONE;
    limits->allocation_refused = 0;
    limits->enforcing = 1;
    lua_sethook(L, srlua_count_hook, LUA_MASKCOUNT | (limits->line_counts != NULL ? LUA_MASKLINE : 0), (int)interval);
}

/* Disarms the limits after a call. */
static inline void srlua_disarm(lua_State *L) {
    srlua_limits_of(L)->enforcing = 0;
    lua_sethook(L, NULL, 0, 0);
}

/* ---- read-only views ------------------------------------------------------------- */

/* The `__index` every frozen view shares: upvalue 1 is the weak table from each view to the
 * table it shows, and the key is read from that table as policy code would read it (through
 * its own metatable, so a strict table's check still runs). */
static inline int srlua_view_index(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, 1);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TTABLE) return 0;
    lua_pushvalue(L, 2);
    lua_gettable(L, -2);
    return 1;
}

/* Given the view-to-target table, returns srlua_view_index closed over it. */
static inline int srlua_make_view_index(lua_State *L) {
    lua_settop(L, 1);
    lua_pushcclosure(L, srlua_view_index, 1);
    return 1;
}

/* ---- the message handler ------------------------------------------------------- */

/* Adds a traceback to a string error.  Other error values are described by their type
 * only: their __tostring metamethods are policy code and are not run while handling an error. */
static inline int srlua_message_handler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL || lua_type(L, 1) != LUA_TSTRING) {
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* ---- calling Swift from Lua --------------------------------------------------- */

/* A Swift function callable from Lua.  It returns the number of results it pushed, or
 * SRLUA_CALLBACK_ERROR after pushing an error message, and never raises a Lua error itself. */
typedef int (*srlua_callback)(lua_State *L, void *context);
enum { SRLUA_CALLBACK_ERROR = -1 };

/* The C function Lua calls: upvalue 1 holds the Swift callback, upvalue 2 its context.
 *
 * The memory cap is disarmed while the Swift callback runs, so an allocation it makes
 * (pushing a string, creating or filling a table) is never refused with a memory error that
 * would longjmp over its frame.  Once the callback has returned, a state left over its cap
 * trips the memory limit here, in C, as a refused allocation would have; a failure reported
 * by the callback is raised here too. */
static inline int srlua_trampoline(lua_State *L) {
    srlua_callback callback = (srlua_callback)lua_touserdata(L, lua_upvalueindex(1));
    void *context = lua_touserdata(L, lua_upvalueindex(2));
    srlua_limits *limits = srlua_limits_of(L);
    int enforcing = limits->enforcing;
    limits->enforcing = 0;
    int results = callback(L, context);
    limits->enforcing = enforcing;
    if (enforcing && limits->bytes_limit != 0 && limits->bytes_in_use > limits->bytes_limit) {
        limits->allocation_refused = 1;
        limits->tripped = SRLUA_TRIPPED_MEMORY;
        lua_sethook(L, srlua_count_hook, LUA_MASKCOUNT, 1);
        return luaL_error(L, "not enough memory");
    }
    if (results == SRLUA_CALLBACK_ERROR) {
        return lua_error(L);
    }
    return results;
}

/* Pushes a Lua function that calls `callback` with `context`. */
static inline void srlua_push_callback(lua_State *L, srlua_callback callback, void *context) {
    lua_pushlightuserdata(L, (void *)callback);
    lua_pushlightuserdata(L, context);
    lua_pushcclosure(L, srlua_trampoline, 2);
}

#endif
