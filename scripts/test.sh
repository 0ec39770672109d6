#!/usr/bin/env bash
# Installs what is needed, then runs the whole StoreRules test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh
if [ -x scripts/crosscheck/setup.sh ]; then
    scripts/crosscheck/setup.sh
fi

swift build --build-tests
swift test --skip-build --parallel
