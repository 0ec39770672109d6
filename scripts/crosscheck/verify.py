#!/usr/bin/env python3
"""Verify App Store signed payloads with Apple's App Store Server Library.

The StoreRules cross-check tests run this with the interpreter of <package root>/.venv (made by
setup.sh) to compare Apple's verdict with StoreRules' own verifier.

One payload: pass the configuration as options and the compact JWS on standard input:

    verify.py --root root.pem --bundle-id com.example --environment Sandbox \\
              [--app-apple-id 1234] --kind transaction < signed.jws

Many payloads (one interpreter start): `verify.py --batch`, then one JSON object per line on
standard input, with the keys root, bundleId, environment, appAppleId (optional), kind and jws.

Each payload gives one JSON object on its own line of standard output:

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

KINDS = ["transaction", "renewal", "notification"]


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


def verify(root, bundle_id, environment, app_apple_id, kind, jws):
    """Verifies one payload and returns the result object."""
    verifier = SignedDataVerifier(root_certificates(root), False, Environment(environment), bundle_id, app_apple_id)
    method = {
        "transaction": verifier.verify_and_decode_signed_transaction,
        "renewal": verifier.verify_and_decode_renewal_info,
        "notification": verifier.verify_and_decode_notification,
    }[kind]
    try:
        decoded = method(jws.strip())
    except VerificationException as error:
        return {"ok": False, "status": error.status.name}
    except Exception as error:  # the library lets model-structuring errors escape unwrapped
        return {"ok": False, "status": "DECODING_ERROR", "error": f"{type(error).__name__}: {error}"}
    return {"ok": True, "decoded": without_nones(cattrs.unstructure(decoded))}


def emit(result):
    json.dump(result, sys.stdout, default=str, sort_keys=True)
    sys.stdout.write("\n")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", action="store_true", help="read one JSON request per line")
    parser.add_argument("--root", help="trusted root certificate file, PEM or DER")
    parser.add_argument("--bundle-id")
    parser.add_argument("--environment", choices=[environment.value for environment in Environment])
    parser.add_argument("--app-apple-id", type=int)
    parser.add_argument("--kind", choices=KINDS)
    arguments = parser.parse_args()

    if arguments.batch:
        for line in sys.stdin:
            if line.strip():
                request = json.loads(line)
                emit(verify(request["root"], request["bundleId"], request["environment"],
                            request.get("appAppleId"), request["kind"], request["jws"]))
        return
    missing = [name for name in ("root", "bundle_id", "environment", "kind") if getattr(arguments, name) is None]
    if missing:
        parser.error("missing " + ", ".join("--" + name.replace("_", "-") for name in missing))
    emit(verify(arguments.root, arguments.bundle_id, arguments.environment, arguments.app_apple_id,
                arguments.kind, sys.stdin.read()))


if __name__ == "__main__":
    main()
