#!/usr/bin/env bash
# Creates <package root>/.venv-gbstats with GrowthBook's statistics engine, gbstats 0.8.0, which
# the StoreStatistics parity tests run as the reference their figures must match. Safe to run
# again: an existing environment that already imports that version is left as it is.
set -euo pipefail

package_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$package_root/.venv-gbstats"
python="$venv/bin/python"
version_check='import importlib.metadata as m, gbstats.frequentist.tests; assert m.version("gbstats") == "0.8.0"'

if [[ -x "$python" ]] && "$python" -c "$version_check" 2>/dev/null; then
    echo "statistics: $venv is ready"
    exit 0
fi

python3 -m venv "$venv"
"$python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$python" -m pip install --quiet --disable-pip-version-check "gbstats==0.8.0"
"$python" -c "$version_check"
echo "statistics: installed gbstats 0.8.0 into $venv"
