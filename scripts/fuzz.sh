#!/usr/bin/env bash
# Runs every StoreRules fuzz target under libFuzzer with AddressSanitizer for a bounded time.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     each target SECONDS long (default 60); all by default
#
# Targets run side by side, as many at once as the machine has cores (STORERULES_FUZZ_JOBS).
#
# A target's corpus starts from its seeds (real .storekit files, the examples' journeys,
# payloads signed for the run, request lines); a seed folder that is missing fails the run.
# A crash, a trap, a leak-free out-of-memory or a hang (an input over 10 s) fails the run; the
# input that caused it is copied to Fuzz/Regressions/<target>/, where the regression tests
# (StoreFuzzingTests) replay it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    targets=(signed-data payload-json catalog policy-context journey service-request http-request http-connection service-edge lua-result app-store-api policy-source)
fi

# The targets run side by side, one per core (STORERULES_FUZZ_JOBS to change).
jobs_at_once="${STORERULES_FUZZ_JOBS:-$(nproc)}"
if ! [[ "$jobs_at_once" =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz: STORERULES_FUZZ_JOBS must be a positive whole number, not '$jobs_at_once'" >&2
    exit 64
fi

scripts/bootstrap.sh
# Unoptimized, each module compiled as a whole (SwiftPM's release layout): a tenth quicker from
# clean than file by file.
fuzz_build=(--package-path Fuzz -c release -Xswiftc -Onone -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
swift build "${fuzz_build[@]}"
fuzzer="$(swift build "${fuzz_build[@]}" --show-bin-path)/storerules-fuzz"

work="$(mktemp -d /tmp/storerules-fuzz-XXXXXX)"
trap 'rm -rf "$work"' EXIT

# Runs one target for its time; its log, artifacts and exit status stay in $work/<target>/.
fuzz_target() {
    local target=$1
    local corpus="$work/$target/corpus" artifacts="$work/$target/artifacts"
    # Leak checks are off: LeakSanitizer reports Swift's live global objects as leaks at exit.
    if STORERULES_FUZZ_TARGET="$target" STORERULES_FUZZ_SEEDS="$corpus" STORERULES_PACKAGE_ROOT="$PWD" \
        ASAN_OPTIONS=detect_leaks=0 \
        "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
        -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" >"$work/$target/log" 2>&1; then
        echo 0 >"$work/$target/status"
    else
        echo 1 >"$work/$target/status"
    fi
}

# Each target for SECONDS, side by side.
for target in "${targets[@]}"; do
    mkdir -p "$work/$target/corpus" "$work/$target/artifacts"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do
        wait -n || true
    done
    echo "fuzz: $target for ${seconds}s"
    fuzz_target "$target" &
done
wait

failed=()
for target in "${targets[@]}"; do
    if [ "$(cat "$work/$target/status" 2>/dev/null)" != 0 ]; then
        failed+=("$target")
        mkdir -p "Fuzz/Regressions/$target"
        for artifact in "$work/$target/artifacts"/*; do
            [ -e "$artifact" ] || continue
            cp "$artifact" "Fuzz/Regressions/$target/"
            echo "fuzz: $target: kept $(basename "$artifact") in Fuzz/Regressions/$target/" >&2
        done
        grep -E "ERROR|SUMMARY|panic|Fatal error|#[0-9]+ 0x" "$work/$target/log" | head -40 >&2 || true
    fi
    echo "fuzz: $target: $(grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/$target/log" | tr '\n' ' ' || true)"
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: failed: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: no crash in ${targets[*]}"
