#!/usr/bin/env bash
# Serves a Backyard Birds ledger filled through the local store (subscriptions, a consumable, a
# refund request) with `storerules serve` on loopback with API keys, makes a few decisions
# through it, checks that GET /admin asks a browser for the key (HTTP Basic) and answers it under
# a Content-Security-Policy, fetches the page with the admin key, opens it in headless Chromium,
# checks that every section rendered and that the console stays silent, and takes a screenshot
# at a desktop's width and at a phone's into .build/operator/.
set -euo pipefail
cd "$(dirname "$0")/.."

storerules=${STORERULES:-.build/debug/storerules}
out=.build/operator
ledger=$out/ledger.sqlite
mkdir -p "$out"
rm -rf "$ledger" "$ledger".* "$out"/*.png "$out"/admin.*
fail() { echo "operator-page-screenshot: $*" >&2; exit 1; }

store() { "$storerules" store Examples/BackyardBirds --ledger "$ledger" "$@"; }
for i in 1 2 3; do store purchase pass.premium --customer "watcher-$i" >/dev/null; done
store purchase pass.individual --customer watcher-4 >/dev/null
store purchase pellet.box --customer watcher-5 >/dev/null
store advance 1M >/dev/null
refunded=$(store transactions --customer watcher-5 --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["transactions"][0]["transaction_id"])')
store refund-request "$refunded" >/dev/null

keys=$out/keys.txt
admin_key=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
app_key=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
printf 'admin %s\napp %s\n' "$admin_key" "$app_key" >"$keys"
chmod 600 "$keys"

"$storerules" serve Examples/BackyardBirds --ledger "$ledger" --root "$ledger.certificates/root-certificate.pem" \
    --bundle-id com.example.storerules --environment Xcode --listen 127.0.0.1:0 --api-keys "$keys" \
    >"$out/serve.out" 2>"$out/serve.err" &
serve_pid=$!
trap 'kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true' EXIT
port=
for _ in $(seq 1 100); do
    port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$out/serve.out")
    [ -n "$port" ] && break
    kill -0 "$serve_pid" 2>/dev/null || fail "serve stopped: $(cat "$out/serve.err")"
    sleep 0.1
done
[ -n "$port" ] || fail "serve did not say where it listens"
base=http://127.0.0.1:$port

# Apple's notifications reach the service: the refund request is kept to be answered.
store notifications --json | python3 -c 'import json, sys
for n in json.load(sys.stdin)["notifications"]: print(json.dumps({"signedPayload": n["signed_payload"]}))' |
while read -r body; do
    curl -sf -o /dev/null -X POST -H 'Content-Type: application/json' --data "$body" "$base/v1/notifications" \
        || fail "a notification was refused"
done
decide() {
    curl -sf -o /dev/null -X POST -H "Authorization: Bearer $app_key" -H 'Content-Type: application/json' --data "$2" "$base/v1/decisions/$1" \
        || fail "the decision $1 failed"
}
for i in 1 2 3 4 5; do
    decide features "{\"customer\": \"watcher-$i\"}"
    decide show_merchandising "{\"customer\": \"watcher-$i\", \"args\": [\"home\"]}"
done

challenge=$(curl -s -o /dev/null -D - "$base/admin" | tr -d '\r')
grep -q '^HTTP/1.1 401' <<<"$challenge" || fail "GET /admin without the key is not 401"
grep -qi '^WWW-Authenticate: Basic realm="StoreRules"' <<<"$challenge" || fail "GET /admin does not ask a browser for the key"
curl -sf -u "operator:$admin_key" -D "$out/admin.headers" -o "$out/admin.html" "$base/admin" || fail "GET /admin with the admin key failed"
grep -qi "^Content-Security-Policy: default-src 'none'" "$out/admin.headers" || fail "the page has no strict Content-Security-Policy"

chromium_flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars)
dom=$(chromium "${chromium_flags[@]}" --window-size=1280,900 --dump-dom "file://$PWD/$out/admin.html" 2>/dev/null)
for expected in 'id="policy"' 'id="decisions"' 'id="waiting"' 'id="experiments"' '<td>show_merchandising</td>' 'UNINTENDED_PURCHASE\|1 pending'; do
    grep -q "$expected" <<<"$dom" || fail "the rendered page has no $expected"
done
grep -qi '<script' <<<"$dom" && fail "the page has a script"
shoot() { # shoot NAME WIDTH HEIGHT
    local console
    console=$(chromium "${chromium_flags[@]}" --window-size="$2,$3" --enable-logging=stderr --v=0 --screenshot="$out/$1.png" \
        "file://$PWD/$out/admin.html" 2>&1 >/dev/null | grep -E 'CONSOLE|Uncaught|Failed to load|Content Security Policy' || true)
    [ -z "$console" ] || fail "$1: the console says: $console"
    [ "$(stat -c %s "$out/$1.png")" -ge 10000 ] || fail "$1: the screenshot is empty"
    echo "operator-page-screenshot: $out/$1.png"
}
shoot desktop 1280 2800
shoot phone 390 5200
