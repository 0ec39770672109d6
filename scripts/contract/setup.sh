#!/usr/bin/env bash
# Creates <package root>/.venv-contract with the judges of the service's contract:
# openapi-spec-validator (the document is OpenAPI 3.1), openapi-core (each recorded request
# and answer of the route tests is what the document says) and standardwebhooks (each outgoing
# event delivery verifies as the Standard Webhooks specification says), at versions that work together.
# Safe to run again: an environment that already imports both is left as it is.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/../python-venv.sh" contract .venv-contract \
    "import openapi_spec_validator, openapi_core, standardwebhooks" "openapi-core==0.23.1" "openapi-spec-validator==0.8.5" \
    "standardwebhooks==1.3.0"
