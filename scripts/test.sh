#!/usr/bin/env bash
# Installs what is needed, then runs the whole StoreRules test suite: the Swift tests (with
# the cross-check against Apple's App Store Server Library), the example policies' own
# tests, and the storefront page in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh --test
scripts/crosscheck/setup.sh

swift build --build-tests
# A test that hangs fails the run within minutes instead of holding the machine.
timeout --kill-after=30s 20m swift test --skip-build --parallel || {
    status=$?
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        echo "scripts/test.sh: the Swift tests did not finish within 20 minutes" >&2
    fi
    exit "$status"
}

for policy in Examples/*/policy.lua; do
    .build/debug/storerules test "$(dirname "$policy")"
done
scripts/storefront-screenshot.sh
