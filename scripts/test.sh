#!/usr/bin/env bash
# Installs what is needed, then runs the whole StoreRules test suite: the Swift tests (with
# the cross-check against Apple's App Store Server Library), the example policies' own
# tests, and the storefront page in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh --test
scripts/crosscheck/setup.sh

swift build --build-tests
swift test --skip-build --parallel

for policy in Examples/*/policy.lua; do
    .build/debug/storerules test "$(dirname "$policy")"
done
scripts/storefront-screenshot.sh
