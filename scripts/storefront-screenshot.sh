#!/usr/bin/env bash
# Renders the Backyard Birds storefront for a new bird watcher and for an Individual
# subscriber as HTML pages, opens them in headless Chromium, checks that the page rendered
# the plans, and takes a screenshot of each into .build/storefront/.
set -euo pipefail
cd "$(dirname "$0")/.."

storerules=${STORERULES:-.build/debug/storerules}
out=.build/storefront
mkdir -p "$out"
chromium_flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,900)

render() { # render NAME CONTEXT_JSON PLACEMENT EXPECTED_PLAN...
    local name=$1 context=$2 placement=$3
    shift 3
    printf '%s' "$context" | "$storerules" storefront Examples/BackyardBirds --customer - \
        --placement "$placement" --html "$out/$name.html" >/dev/null
    local dom
    dom=$(chromium "${chromium_flags[@]}" --dump-dom "file://$PWD/$out/$name.html" 2>/dev/null)
    for plan in "$@"; do
        if ! grep -q "data-plan=\"$plan\"" <<<"$dom"; then
            echo "storefront-screenshot: $name: the rendered page has no plan $plan" >&2
            exit 1
        fi
    done
    chromium "${chromium_flags[@]}" --screenshot="$out/$name.png" "file://$PWD/$out/$name.html" 2>/dev/null >/dev/null
    if [ "$(stat -c %s "$out/$name.png")" -lt 10000 ]; then
        echo "storefront-screenshot: $name: the screenshot is empty" >&2
        exit 1
    fi
    echo "storefront-screenshot: $out/$name.png"
}

render new-bird-watcher '{"customer": {"id": "watcher-1", "status_known": true}}' store \
    pass.premium pass.family pass.individual
render individual-subscriber '{"customer": {"id": "watcher-2", "status_known": true, "subscriptions": {"6F3A93AB": {"product_id": "pass.individual", "state": "subscribed", "expiration_date": 1798761600}}}}' home \
    pass.premium pass.family
