#!/usr/bin/env bash
# Installs what is needed, then runs the whole StoreRules test suite: the Swift tests (with
# the cross-check against Apple's App Store Server Library), the same tests again under
# AddressSanitizer, every fuzz target for a short bounded time, the example policies' own
# tests, and the storefront page in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh --test
scripts/crosscheck/setup.sh

# Runs `swift test` with the given options; a test that hangs fails the run within minutes
# instead of holding the machine.
run_swift_tests() {
    timeout --kill-after=30s 20m swift test --skip-build --parallel "$@" || {
        status=$?
        if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
            echo "scripts/test.sh: the Swift tests did not finish within 20 minutes" >&2
        fi
        exit "$status"
    }
}

swift build --build-tests
run_swift_tests

# AddressSanitizer over Lua's C, OpenSSL's and SQLite's callers and the bridge's host
# functions. Leak checks are off: LeakSanitizer reports Swift's live globals at exit.
swift build --build-tests --sanitize=address --scratch-path .build/asan
ASAN_OPTIONS=detect_leaks=0 run_swift_tests --sanitize=address --scratch-path .build/asan

# Every fuzz target, briefly; a crash fails the run and keeps its input in Fuzz/Regressions.
scripts/fuzz.sh "${STORERULES_FUZZ_SECONDS:-20}"

for policy in Examples/*/policy.lua; do
    .build/debug/storerules test "$(dirname "$policy")"
done
scripts/storefront-screenshot.sh
