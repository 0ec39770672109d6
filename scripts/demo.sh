#!/usr/bin/env bash
# The Backyard Birds example: its catalog, its policy tests, and what the policy decides for
# bird watchers at each step of their journey with the shop and the Backyard Birds Pass.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh
swift build --product storerules >/dev/null
storerules=.build/debug/storerules
example=Examples/BackyardBirds
pass=6F3A93AB
now=$(date +%s)
month_later=$((now + 30 * 86400))

heading() { printf '\n== %s\n' "$1"; }

# decide CONTEXT HOOK [ARG...]: prints the hook call and its validated result.
# A LABEL environment variable replaces the arguments in the printed call.
decide() {
    local context=$1 hook=$2
    shift 2
    local arguments=() shown=()
    for argument in "$@"; do
        arguments+=(--arg "$argument")
        shown+=("$argument")
    done
    local response
    response=$(printf '%s' "$context" | "$storerules" eval "$example" "$hook" --input - "${arguments[@]}")
    printf '  %-48s → %s\n' "$hook(${LABEL:-${shown[*]:-}})" \
        "$(printf '%s' "$response" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["result"], sort_keys=True))')"
}

subscriber() { # subscriber PRODUCT LEVEL STATE
    printf '{"now": %s, "customer": {"id": "watcher-1", "status_known": true, "entitlements": ["%s"], "subscriptions": {"%s": {"product_id": "%s", "group_level": %s, "state": "%s", "will_auto_renew": true, "expiration_date": %s}}, "balances": {"pellet": 5}}}' \
        "$now" "$1" "$pass" "$1" "$2" "$3" "$month_later"
}

heading "The catalog"
"$storerules" catalog "$example/Products.storekit"

heading "The policy's own tests"
"$storerules" test "$example"

heading "Opening the app: subscription status not loaded yet"
decide '{"customer": {"id": "watcher-1"}}' show_merchandising '"home"'

heading "A new bird watcher"
new='{"customer": {"id": "watcher-1", "status_known": true}}'
decide "$new" show_merchandising '"home"'
decide "$new" visible_relationships "\"$pass\""
decide "$new" product_style '"pellet.box"'
decide "$new" product_style '"pellet.single"'
decide "$new" store_buttons '"subscription_store"'
decide "$new" features

heading "Buys two boxes of pellets"
LABEL="ctx, tx { productId = pellet.box, quantity = 2 }, product" decide "$new" grant "{\"transactionId\": \"2000000000000001\", \"originalTransactionId\": \"2000000000000001\", \"productId\": \"pellet.box\", \"quantity\": 2, \"type\": \"Consumable\", \"purchaseDate\": ${now}000}"

heading "Subscribes to Individual: the offer card goes away, the upgrade sheet shows better plans"
individual=$(subscriber pass.individual 3 subscribed)
decide "$individual" show_merchandising '"home"'
decide "$individual" visible_relationships "\"$pass\""
decide "$individual" plan_icon '"pass.family"'
decide "$individual" plan_icon '"pass.premium"'
decide "$individual" features

heading "Upgrades to Premium: no upgrade left to offer"
premium=$(subscriber pass.premium 1 subscribed)
decide "$premium" visible_relationships "\"$pass\""
decide "$premium" features

heading "A renewal fails: billing retry and the grace period keep access"
decide "$(subscriber pass.premium 1 in_billing_retry)" features
decide "$(subscriber pass.premium 1 in_grace_period)" features

heading "The pass expires: the offer comes back"
expired=$(subscriber pass.premium 1 expired)
decide "$expired" show_merchandising '"home"'
decide "$expired" features
