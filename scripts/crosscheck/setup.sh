#!/usr/bin/env bash
# Creates <package root>/.venv with Apple's App Store Server Library for Python, which the
# signed-data cross-check tests run as a second, independent verifier. Safe to run again:
# an existing environment that already imports the library is left as it is.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/../python-venv.sh" crosscheck .venv \
    "import appstoreserverlibrary.signed_data_verifier" app-store-server-library
