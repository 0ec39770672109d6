#!/usr/bin/env bash
# Installs what StoreRules needs to build on a Debian machine, and with --test what its tests
# need too (headless Chromium for the storefront page, tmux for the interactive REPL test, a
# PostgreSQL server for the PostgreSQL ledger's tests, openssl and curl for the service's,
# wrk for its load tests, lcov's genhtml for coverage reports, Debian's prometheus for its
# promtool, which checks and tests the alert rules in deploy/prometheus).
# Idempotent: it does nothing when everything is present, and runs `apt-get update` at most once.
set -euo pipefail

packages=(liblua5.4-dev libssl-dev libsqlite3-dev libedit-dev libpq-dev pkg-config python3-venv)
if [ "${1:-}" = "--test" ]; then
    packages+=(chromium tmux postgresql openssl curl wrk lcov prometheus)
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    sudo=sudo
else
    sudo=
fi

echo "bootstrap: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}"; then
    $sudo apt-get update
    $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

# The Prometheus server the package installed starts (where services start at all): only its
# promtool is used, so the server is stopped and kept from starting again.
if [[ " ${missing[*]} " == *" prometheus "* ]] && command -v systemctl >/dev/null; then
    $sudo systemctl disable --now prometheus >/dev/null 2>&1 || true
fi
