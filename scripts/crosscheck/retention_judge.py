"""Judges one Retention Messaging exchange with Apple's own Python library.

The local store signed a real-time request and StoreRules answered it. Apple's
SignedDataVerifier verifies and decodes the request against the store's root, the library's
RealtimeResponseBody model reads the answer, and a promotional offer's V2 signature is checked
with PyJWT against the public half of the key that should have signed it. What was observed is
printed as one JSON object.

    .venv/bin/python scripts/crosscheck/retention_judge.py exchange.json

exchange.json: {"signed_payload", "root_pem_path", "bundle_id", "app_apple_id", "answer",
"private_key_path", "key_id", "issuer_id"}.
"""

import json
import sys

import jwt
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding, load_pem_private_key

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier


def main():
    exchange = json.load(open(sys.argv[1]))
    root = x509.load_pem_x509_certificate(open(exchange["root_pem_path"], "rb").read())
    der = root.public_bytes(Encoding.DER)
    verifier = SignedDataVerifier([der], False, Environment.SANDBOX, exchange["bundle_id"], exchange.get("app_apple_id"))
    request = verifier.verify_and_decode_realtime_request(exchange["signed_payload"])
    report = {
        "request": {
            "originalTransactionId": request.originalTransactionId, "appAppleId": request.appAppleId,
            "productId": request.productId, "userLocale": request.userLocale,
            "requestIdentifier": str(request.requestIdentifier) if request.requestIdentifier else None,
            "signedDate": request.signedDate, "environment": request.environment.value if request.environment else None,
        }
    }
    answer = _get_cattrs_converter(RealtimeResponseBody).structure(exchange["answer"], RealtimeResponseBody)
    fields = [name for name in ("message", "alternateProduct", "promotionalOffer", "advancedCommerceInfo") if getattr(answer, name) is not None]
    report["answer_fields"] = fields
    if answer.alternateProduct is not None:
        report["alternate_product"] = answer.alternateProduct.productId
        report["message"] = str(answer.alternateProduct.messageIdentifier)
    if answer.message is not None:
        report["message"] = str(answer.message.messageIdentifier)
    if answer.promotionalOffer is not None:
        offer = answer.promotionalOffer
        report["message"] = str(offer.messageIdentifier)
        key = load_pem_private_key(open(exchange["private_key_path"], "rb").read(), password=None).public_key()
        header = jwt.get_unverified_header(offer.promotionalOfferSignatureV2)
        claims = jwt.decode(offer.promotionalOfferSignatureV2, key, algorithms=["ES256"], audience="promotional-offer",
                            issuer=exchange["issuer_id"])
        report["offer_header"] = header
        report["offer_claims"] = claims
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
