#!/usr/bin/env bash
# The one way the test tooling's Python judges are installed, each in a virtual environment of
# its own under the package root:
#
#   scripts/python-venv.sh LABEL VENV CHECK PACKAGE...
#
# creates <package root>/VENV and installs the PACKAGEs (pinned as each judge needs) unless the
# environment already passes CHECK, a line of Python that fails without them; then runs CHECK
# to prove the install. LABEL starts the line it prints. Test tooling only: nothing at run time.
set -euo pipefail

label=$1 venv_name=$2 check=$3
shift 3
package_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$package_root/$venv_name"
python="$venv/bin/python"

if [[ -x "$python" ]] && "$python" -c "$check" 2>/dev/null; then
    echo "$label: $venv is ready"
    exit 0
fi

python3 -m venv "$venv"
"$python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$python" -m pip install --quiet --disable-pip-version-check "$@"
"$python" -c "$check"
echo "$label: installed $* into $venv"
