#!/usr/bin/env bash
# Builds a Backyard Birds ledger where the sampler_hero experiment ran: purchases made through
# the local store, exposures written into the ledger's experiment tables (half the bird watchers
# in each variant, the sampler's buying more), renders `storerules experiments report --html`,
# opens it in headless Chromium, checks that the split check comes first, that each difference
# is drawn and that the console stays silent, and takes a screenshot into .build/experiments/.
set -euo pipefail
cd "$(dirname "$0")/.."

storerules=${STORERULES:-.build/debug/storerules}
out=.build/experiments
ledger=$out/ledger.sqlite
mkdir -p "$out"
rm -rf "$ledger" "$ledger".*
chromium_flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1800)

store() { "$storerules" store Examples/BackyardBirds --ledger "$ledger" "$@" >/dev/null; }
exposed=$(( $(date +%s%3N) - 3600000 ))
variants=()
for i in $(seq 0 23); do
    customer="watcher-$i"
    variant=$([ $((i % 2)) -eq 0 ] && echo control || echo sampler)
    case "$variant:$((i % 4))" in
        sampler:1) store purchase food.sampler --customer "$customer"; store purchase pellet.box --customer "$customer" ;;
        sampler:3) store purchase food.sampler --customer "$customer" ;;
        control:0) [ $((i % 8)) -eq 0 ] && store purchase pellet.box --customer "$customer" || store purchase pellet.single --customer "$customer" ;;
        *) store purchase pellet.single --customer "$customer" ;;
    esac
    variants+=("$customer:$variant")
done
phase=$("$storerules" experiments report Examples/BackyardBirds --ledger "$ledger" --json \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["experiments"][0]["phases"][0]["phase"])')
rows="INSERT INTO experiment_phase VALUES ('sampler_hero', '$phase', '[{\"name\":\"control\",\"weight\":50},{\"name\":\"sampler\",\"weight\":50}]', 100, $exposed);"
for pair in "${variants[@]}"; do
    rows+="INSERT INTO experiment_exposure VALUES ('${pair%%:*}', 'sampler_hero', '$phase', '${pair##*:}', $exposed, 'screenshot', 'storefront', 'store');"
done
sqlite3 "$ledger" "$rows"

as_of=$(( exposed + 31 * 86400000 ))
"$storerules" experiments report Examples/BackyardBirds --ledger "$ledger" --as-of "$as_of" --html "$out/report.html" >/dev/null
dom=$(chromium "${chromium_flags[@]}" --dump-dom "file://$PWD/$out/report.html" 2>/dev/null)
for expected in 'data-testid="srm"' 'data-horizon="30"' 'data-metric="net_revenue"' '<circle'; do
    if ! grep -q "$expected" <<<"$dom"; then
        echo "experiments-report-screenshot: the rendered page has no $expected" >&2
        exit 1
    fi
done
if [ "$(grep -b -o 'data-testid="srm"' <<<"$dom" | head -1 | cut -d: -f1)" -gt "$(grep -b -o 'data-metric=' <<<"$dom" | head -1 | cut -d: -f1)" ]; then
    echo "experiments-report-screenshot: a metric comes before the split check" >&2
    exit 1
fi
console=$(chromium "${chromium_flags[@]}" --enable-logging=stderr --v=0 --screenshot="$out/report.png" "file://$PWD/$out/report.html" 2>&1 >/dev/null \
    | grep -E 'CONSOLE|Uncaught|Failed to load' || true)
if [ -n "$console" ]; then
    echo "experiments-report-screenshot: the console says: $console" >&2
    exit 1
fi
if [ "$(stat -c %s "$out/report.png")" -lt 10000 ]; then
    echo "experiments-report-screenshot: the screenshot is empty" >&2
    exit 1
fi
echo "experiments-report-screenshot: $out/report.png"
