#!/usr/bin/env bash
# Creates <package root>/.venv with Apple's App Store Server Library for Python, which the
# signed-data cross-check tests run as a second, independent verifier. Safe to run again:
# an existing environment that already imports the library is left as it is.
set -euo pipefail

package_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$package_root/.venv"
python="$venv/bin/python"

if [[ -x "$python" ]] && "$python" -c "import appstoreserverlibrary.signed_data_verifier" 2>/dev/null; then
    echo "crosscheck: $venv is ready"
    exit 0
fi

python3 -m venv "$venv"
"$python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$python" -m pip install --quiet --disable-pip-version-check app-store-server-library
"$python" -c "import appstoreserverlibrary.signed_data_verifier"
echo "crosscheck: installed app-store-server-library into $venv"
