#!/usr/bin/env bash
# The main job: the Backyard Birds journey. A bird watcher meets the shop and the Backyard
# Birds Pass through the local test store, and at each step the policy decides what shows.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh
swift build --product storerules >/dev/null
exec .build/debug/storerules run Examples/BackyardBirds "$@"
