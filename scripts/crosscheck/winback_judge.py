"""Judges the local store's win-back offers with Apple's own Python library.

Apple's AppStoreServerAPIClient asks the store's App Store Server API for a lapsed
subscription's statuses and for a transaction that redeemed a win-back offer; Apple's
SignedDataVerifier verifies and decodes the renewal info and the transaction against the
store's root. What was observed is printed as one JSON object.

    .venv/bin/python scripts/crosscheck/winback_judge.py scenario.json

scenario.json: {"base_url", "issuer_id", "key_id", "private_key_path", "bundle_id",
"root_pem_path", "lapsed", "redeemed"}: the original transaction id of a lapsed subscription,
and the id of a transaction that redeemed a win-back offer.
"""

import json
import sys

from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding

from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier


def main():
    scenario = json.load(open(sys.argv[1]))
    key = open(scenario["private_key_path"], "rb").read()
    api = AppStoreServerAPIClient(key, scenario["key_id"], scenario["issuer_id"], scenario["bundle_id"], Environment.SANDBOX)
    api._base_url = scenario["base_url"]
    root = x509.load_pem_x509_certificate(open(scenario["root_pem_path"], "rb").read()).public_bytes(Encoding.DER)
    verifier = SignedDataVerifier([root], False, Environment.SANDBOX, scenario["bundle_id"])

    statuses = api.get_all_subscription_statuses(scenario["lapsed"])
    last = statuses.data[0].lastTransactions[0]
    renewal = verifier.verify_and_decode_renewal_info(last.signedRenewalInfo)
    redeemed = verifier.verify_and_decode_signed_transaction(api.get_transaction_info(scenario["redeemed"]).signedTransactionInfo)
    print(json.dumps({
        "lapsed_status": last.status.value if last.status else None,
        "eligible_win_back_offer_ids": renewal.eligibleWinBackOfferIds,
        "redeemed_offer_type": redeemed.offerType.name if redeemed.offerType else None,
        "redeemed_offer_identifier": redeemed.offerIdentifier,
        "redeemed_offer_discount_type": redeemed.offerDiscountType.name if redeemed.offerDiscountType else None,
    }, sort_keys=True))


main()
