#!/usr/bin/env bash
# The Backyard Birds example: its catalog, its policy tests, and the policy's decisions for
# customers at each step of their journey.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh
swift build --product storerules
exec .build/debug/storerules demo Examples/BackyardBirds "$@"
