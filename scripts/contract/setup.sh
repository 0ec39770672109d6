#!/usr/bin/env bash
# Creates <package root>/.venv-contract with the judges of the service's contract:
# openapi-spec-validator (the document is OpenAPI 3.1) and openapi-core (each recorded request
# and answer of the route tests is what the document says). Test tooling only. Safe to run
# again: an environment that already imports both is left as it is.
set -euo pipefail

package_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$package_root/.venv-contract"
python="$venv/bin/python"

if [[ -x "$python" ]] && "$python" -c "import openapi_spec_validator, openapi_core" 2>/dev/null; then
    echo "contract: $venv is ready"
    exit 0
fi

python3 -m venv "$venv"
"$python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$python" -m pip install --quiet --disable-pip-version-check "openapi-core==0.23.1" "openapi-spec-validator==0.8.5"
"$python" -c "import openapi_spec_validator, openapi_core"
echo "contract: installed openapi-spec-validator and openapi-core into $venv"
