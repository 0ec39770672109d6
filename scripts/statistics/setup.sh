#!/usr/bin/env bash
# Creates <package root>/.venv-gbstats with GrowthBook's statistics engine, gbstats 0.8.0, which
# the StoreStatistics parity tests run as the reference their figures must match. Safe to run
# again: an existing environment that already imports that version is left as it is.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/../python-venv.sh" statistics .venv-gbstats \
    'import importlib.metadata as m, gbstats.frequentist.tests; assert m.version("gbstats") == "0.8.0"' "gbstats==0.8.0"
