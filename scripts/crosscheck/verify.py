#!/usr/bin/env python3
"""Verify one App Store signed payload with Apple's App Store Server Library.

The StoreRules cross-check tests run this with the interpreter of <package root>/.venv (made by
setup.sh) to compare Apple's verdict with StoreRules' own verifier. It reads the compact JWS
from standard input and prints one JSON object on standard output:

    {"ok": true, "decoded": {...}}                       verified; the decoded payload
    {"ok": false, "status": "INVALID_APP_IDENTIFIER"}     Apple's VerificationStatus name
    {"ok": false, "status": "DECODING_ERROR", ...}        the library raised something else

Online checks are off (there is no network), so certificates are checked at the payload's
signedDate, and the library keeps its default strict X.509 checks.
"""

import argparse
import json
import sys

import cattrs
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding


def root_certificates(path):
    """Reads trusted roots from a PEM file (one or more certificates) or a DER file."""
    with open(path, "rb") as handle:
        data = handle.read()
    if b"-----BEGIN CERTIFICATE-----" in data:
        return [certificate.public_bytes(Encoding.DER) for certificate in x509.load_pem_x509_certificates(data)]
    return [data]


def without_nones(value):
    """Drops the unset fields that the library's models carry, for a readable result."""
    if isinstance(value, dict):
        return {key: without_nones(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [without_nones(item) for item in value]
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True, help="trusted root certificate file, PEM or DER")
    parser.add_argument("--bundle-id", required=True)
    parser.add_argument("--environment", required=True, choices=[environment.value for environment in Environment])
    parser.add_argument("--app-apple-id", type=int)
    parser.add_argument("--kind", required=True, choices=["transaction", "renewal", "notification"])
    arguments = parser.parse_args()

    verifier = SignedDataVerifier(
        root_certificates(arguments.root),
        False,
        Environment(arguments.environment),
        arguments.bundle_id,
        arguments.app_apple_id,
    )
    verify = {
        "transaction": verifier.verify_and_decode_signed_transaction,
        "renewal": verifier.verify_and_decode_renewal_info,
        "notification": verifier.verify_and_decode_notification,
    }[arguments.kind]
    signed = sys.stdin.read().strip()
    try:
        decoded = verify(signed)
    except VerificationException as error:
        result = {"ok": False, "status": error.status.name}
    except Exception as error:  # the library lets model-structuring errors escape unwrapped
        result = {"ok": False, "status": "DECODING_ERROR", "error": f"{type(error).__name__}: {error}"}
    else:
        result = {"ok": True, "decoded": without_nones(cattrs.unstructure(decoded))}
    json.dump(result, sys.stdout, default=str, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
