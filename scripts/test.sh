#!/usr/bin/env bash
# Installs what is needed, then runs the whole StoreRules test suite: the Swift tests, built once
# with AddressSanitizer (with the cross-check against Apple's App Store Server Library, and the
# PostgreSQL suites against a throwaway server started here, or the one
# STORERULES_TEST_POSTGRES_URL names), the route tests' requests and answers against the OpenAPI
# contract, every fuzz target for a short bounded time, the example policies' own tests, the
# storefront page in headless Chromium, and the alert rules under promtool; then what ran.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

scripts/bootstrap.sh --test
scripts/crosscheck/setup.sh
scripts/statistics/setup.sh
scripts/contract/setup.sh

# What the run made for itself (the summary, each pass's output, a PostgreSQL server's folder)
# goes when it ends, whether it passes or fails.
scratch="$(mktemp -d /tmp/storerules-test-XXXXXX)"
postgres_dir=
finish() {
    if [ -n "$postgres_dir" ]; then
        scripts/postgres-test-server.sh stop "$postgres_dir"
    fi
    rm -rf "$scratch"
}
trap finish EXIT

# A throwaway PostgreSQL server for the PostgreSQL suites.
if [ -z "${STORERULES_TEST_POSTGRES_URL:-}" ]; then
    postgres_dir="$(mktemp -d /tmp/storerules-postgres-XXXXXX)"
    STORERULES_TEST_POSTGRES_URL="$(scripts/postgres-test-server.sh start "$postgres_dir")"
    export STORERULES_TEST_POSTGRES_URL
fi

summary="$scratch/summary"
# Adds a line to the summary, with how far into the run it was written.
note() {
    local elapsed=$(($(date +%s) - started))
    printf '%s (at %dm%02ds)\n' "$1" $((elapsed / 60)) $((elapsed % 60)) >>"$summary"
}
note "Set-up: the tools and the test tooling's environments installed"

# Runs a test command after a label; a test that hangs fails the run within minutes instead of
# holding the machine. The run's closing line is kept for the summary.
run_swift_tests() {
    local label=$1 output
    shift
    output="$scratch/output-${label//[^a-zA-Z]/-}"
    timeout --kill-after=30s 30m "$@" 2>&1 | tee "$output" || {
        # The tests' status, or tee's failure when they passed: either fails the run.
        status=${PIPESTATUS[0]}
        [ "$status" -ne 0 ] || status=1
        if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
            echo "scripts/test.sh: the Swift tests did not finish within 30 minutes" >&2
        fi
        exit "$status"
    }
    note "$label: $(grep 'Test run with' "$output" | tail -1 | sed -E 's/.*Test run with //; s/\x1b\[[0-9;]*m//g')"
}

# One build for every Swift test, with AddressSanitizer: a memory error in Lua's C, in the
# bridge's host functions, in the transport or in the OpenSSL, SQLite and libpq callers fails
# the run, in the test process and in the storerules processes the command line's tests start.
# Leak checks are off: LeakSanitizer reports Swift's live globals at exit.
# Unoptimized, as a debug build is, but each module compiled as a whole (SwiftPM's release
# layout), which from clean takes about a tenth less time than compiling it file by file.
build=(-c release --sanitize=address --enable-index-store --scratch-path .build/asan
       -Xswiftc -Onone -Xswiftc -enable-testing -Xswiftc -DDEBUG)
swift build --build-tests "${build[@]}"
note "Build with AddressSanitizer: done"
binaries="$(swift build "${build[@]}" --show-bin-path)"
export ASAN_OPTIONS=detect_leaks=0
# The command line's tests spend most of their time waiting for the processes they start, so
# they run beside the others, in two test processes of their own with their own threads (the
# bundle run directly, as SwiftPM allows one `swift test` at a time): the suites from L on, and
# every other; their output follows the others'.
test_bundle="$binaries/StoreRulesPackageTests.xctest"
later_suites='StoreRulesCLITests\.[L-Z]'
run_swift_tests "Swift tests of the command line, suites L to Z" "$test_bundle" --testing-library swift-testing \
    --filter "$later_suites" >"$scratch/command-line-tests-later" 2>&1 &
command_line_tests_later=$!
run_swift_tests "Swift tests of the command line, the other suites" "$test_bundle" --testing-library swift-testing \
    --filter StoreRulesCLITests --skip "$later_suites" >"$scratch/command-line-tests" 2>&1 &
command_line_tests=$!
# The route tests' requests and answers are recorded, to be checked against the contract below.
exchanges="$scratch/exchanges.jsonl"
in_process_status=0
(STORERULES_CONTRACT_EXCHANGES="$exchanges" run_swift_tests "Swift tests in process" \
    swift test --skip-build --parallel "${build[@]}" --skip StoreRulesCLITests) || in_process_status=$?
command_line_status=0
wait "$command_line_tests_later" || command_line_status=$?
wait "$command_line_tests" || command_line_status=$?
cat "$scratch/command-line-tests-later" "$scratch/command-line-tests"
[ "$in_process_status" -eq 0 ] || exit "$in_process_status"
[ "$command_line_status" -eq 0 ] || exit "$command_line_status"

# The contract: the OpenAPI document is valid OpenAPI 3.1, and every request the route tests
# made and every answer they got is what it says.
contract=Sources/StoreService/Contract/openapi.json
.venv-contract/bin/python -m openapi_spec_validator "$contract"
.venv-contract/bin/python scripts/contract/validate_exchanges.py --require-coverage "$contract" "$exchanges" | tee "$scratch/contract-output"
note "Contract: $(grep ' exchanges, ' "$scratch/contract-output")"

# Every fuzz target, briefly; a crash fails the run and keeps its input in Fuzz/Regressions.
fuzz_seconds="${STORERULES_FUZZ_SECONDS:-20}"
fuzz_output="$scratch/fuzz-output"
scripts/fuzz.sh "$fuzz_seconds" 2>&1 | tee "$fuzz_output"
note "Fuzz targets: $(sed -n 's/^fuzz: no crash in //p' "$fuzz_output" | wc -w), ${fuzz_seconds}s each, no crash"

examples=0
for policy in Examples/*/policy.lua; do
    "$binaries/storerules" test "$(dirname "$policy")"
    examples=$((examples + 1))
done
note "Example policies' tests: $examples folders passed"
export STORERULES="$binaries/storerules"
scripts/storefront-screenshot.sh
note "Storefront page in headless Chromium: rendered"
scripts/experiments-report-screenshot.sh
note "Experiment report page in headless Chromium: rendered"
scripts/operator-page-screenshot.sh
note "Operator page in headless Chromium: rendered at a desktop's and a phone's width"

# The alert rules load, and their unit tests pass.
promtool check rules deploy/prometheus/storerules-alerts.yml
promtool test rules deploy/prometheus/storerules-alerts.test.yml
note "Alert rules: $(grep -c '^ *- alert:' deploy/prometheus/storerules-alerts.yml) checked and tested by promtool"

echo
echo "scripts/test.sh: passed"
sed 's/^/  /' "$summary"
