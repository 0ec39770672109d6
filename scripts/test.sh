#!/usr/bin/env bash
# Installs what is needed, then runs the whole StoreRules test suite: the Swift tests (with
# the cross-check against Apple's App Store Server Library, and the PostgreSQL suites against
# a throwaway server started here, or the one STORERULES_TEST_POSTGRES_URL names), the same
# tests again under AddressSanitizer, every fuzz target for a short bounded time, the example
# policies' own tests, and the storefront page in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh --test
scripts/crosscheck/setup.sh

# A throwaway PostgreSQL server for the PostgreSQL suites, stopped and removed when the run
# ends, whether it passes or fails.
if [ -z "${STORERULES_TEST_POSTGRES_URL:-}" ]; then
    postgres_dir="$(mktemp -d /tmp/storerules-postgres-XXXXXX)"
    trap 'scripts/postgres-test-server.sh stop "$postgres_dir"' EXIT
    STORERULES_TEST_POSTGRES_URL="$(scripts/postgres-test-server.sh start "$postgres_dir")"
    export STORERULES_TEST_POSTGRES_URL
fi

# Runs `swift test` with the given options; a test that hangs fails the run within minutes
# instead of holding the machine.
run_swift_tests() {
    timeout --kill-after=30s 30m swift test --skip-build --parallel "$@" || {
        status=$?
        if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
            echo "scripts/test.sh: the Swift tests did not finish within 30 minutes" >&2
        fi
        exit "$status"
    }
}

swift build --build-tests
run_swift_tests

# AddressSanitizer over Lua's C, OpenSSL's, SQLite's and libpq's callers and the bridge's host
# functions. Leak checks are off: LeakSanitizer reports Swift's live globals at exit.
swift build --build-tests --sanitize=address --scratch-path .build/asan
ASAN_OPTIONS=detect_leaks=0 run_swift_tests --sanitize=address --scratch-path .build/asan

# Every fuzz target, briefly; a crash fails the run and keeps its input in Fuzz/Regressions.
scripts/fuzz.sh "${STORERULES_FUZZ_SECONDS:-20}"

for policy in Examples/*/policy.lua; do
    .build/debug/storerules test "$(dirname "$policy")"
done
scripts/storefront-screenshot.sh
