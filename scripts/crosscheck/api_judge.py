"""Drives the local store's App Store Server API with Apple's own Python client.

Every endpoint the client has for the API the store serves is called, each page followed,
each filter used, each documented error provoked; every signed item answered is verified with
Apple's SignedDataVerifier against the store's root. What was observed is printed as one JSON
object, for the test that set the store up to compare with what it knows.

    .venv/bin/python scripts/crosscheck/api_judge.py scenario.json

scenario.json: {"base_url", "issuer_id", "key_id", "private_key_path", "bundle_id",
"root_pem_path", "subscription", "subscription_product", "group", "renewal", "consumables": [...],
"order_id", "now_ms"}; now_ms is the store's time, which its clock may have moved ahead of the wall clock.
"""

import json
import sys
import uuid

from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.RefundPreference import RefundPreference
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier


def client(scenario, key_pem=None):
    made = AppStoreServerAPIClient(key_pem or open(scenario["private_key_path"], "rb").read(), scenario["key_id"],
                                   scenario["issuer_id"], scenario["bundle_id"], Environment.SANDBOX)
    made._base_url = scenario["base_url"]
    return made


def foreign_key():
    """A P-256 key the store never made, under the store's key id: its tokens must be refused."""
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())


def error_of(call):
    try:
        call()
    except APIException as error:
        return {"status": error.http_status_code, "code": error.raw_api_error,
                "name": error.api_error.name if error.api_error is not None else None}
    return None


def main():
    scenario = json.load(open(sys.argv[1]))
    root = x509.load_pem_x509_certificate(open(scenario["root_pem_path"], "rb").read()).public_bytes(Encoding.DER)
    verifier = SignedDataVerifier([root], False, Environment.SANDBOX, scenario["bundle_id"])
    api = client(scenario)
    report = {}
    subscription = scenario["subscription"]
    consumables = scenario["consumables"]
    anyone = consumables[0]

    def transaction_ids(signed):
        return [verifier.verify_and_decode_signed_transaction(jws).transactionId for jws in signed]

    def history(request, version=GetTransactionHistoryVersion.V2):
        pages, revision = [], None
        while True:
            page = api.get_transaction_history(anyone, revision, request, version)
            pages.append(transaction_ids(page.signedTransactions))
            revision = page.revision
            if not page.hasMore:
                return pages, revision

    info = api.get_transaction_info(subscription)
    report["info"] = verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo).productId

    report["history_pages"], last_revision = history(TransactionHistoryRequest())
    report["history_v1_pages"], _ = history(TransactionHistoryRequest(), GetTransactionHistoryVersion.V1)
    report["history_since_last"] = transaction_ids(
        api.get_transaction_history(anyone, last_revision, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2).signedTransactions)
    report["history_filtered"], _ = history(TransactionHistoryRequest(
        productIds=["pellet.box", "nectar.cup"], productTypes=[ProductType.CONSUMABLE, ProductType.NON_CONSUMABLE],
        sort=Order.DESCENDING, inAppOwnershipType=InAppOwnershipType.PURCHASED,
        startDate=scenario["now_ms"] - 86_400_000, endDate=scenario["now_ms"] + 86_400_000))
    report["history_revoked"], _ = history(TransactionHistoryRequest(revoked=True))
    report["history_not_revoked_subscriptions"], _ = history(TransactionHistoryRequest(
        revoked=False, productTypes=[ProductType.AUTO_RENEWABLE], subscriptionGroupIdentifiers=[scenario["group"]]))

    statuses = api.get_all_subscription_statuses(anyone, [Status.ACTIVE])
    report["statuses"] = [
        {"group": group.subscriptionGroupIdentifier,
         "items": [{"status": item.rawStatus, "original": item.originalTransactionId,
                    "renews_to": verifier.verify_and_decode_renewal_info(item.signedRenewalInfo).autoRenewProductId,
                    "product": verifier.verify_and_decode_signed_transaction(item.signedTransactionInfo).productId}
                   for item in group.lastTransactions]}
        for group in statuses.data]
    report["statuses_expired"] = len(api.get_all_subscription_statuses(anyone, [Status.EXPIRED, Status.REVOKED]).data)

    refunds = api.get_refund_history(anyone, None)
    report["refunds"] = transaction_ids(refunds.signedTransactions)

    order = api.look_up_order_id(scenario["order_id"])
    report["order"] = {"status": order.rawStatus, "transactions": transaction_ids(order.signedTransactions)}
    report["order_unknown"] = api.look_up_order_id("AAAAAAAAAA").rawStatus

    information = ConsumptionRequest(
        customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED,
        consumptionPercentage=50_000, refundPreference=RefundPreference.GRANT_PRORATED)
    data = ConsumptionRequestV1(customerConsented=True, sampleContentProvided=True)
    api.send_consumption_information(consumables[1], information)
    api.send_consumption_data(consumables[2], data)
    # The bodies exactly as the client put them on the wire.
    report["consumption_sent"] = [api._get_request_json(information), api._get_request_json(data)]

    def renewal_expires():
        return verifier.verify_and_decode_signed_transaction(
            api.get_transaction_info(scenario["renewal"]).signedTransactionInfo).expiresDate

    expires_before = renewal_expires()
    extended = api.extend_subscription_renewal_date(subscription, ExtendRenewalDateRequest(
        extendByDays=5, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier="judge-outage"))
    report["extended"] = {"success": extended.success, "original": extended.originalTransactionId,
                          "effective": extended.effectiveDate, "expires_before": expires_before, "expires": renewal_expires()}
    mass = api.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
        extendByDays=1, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier="judge-mass",
        productId=scenario["subscription_product"]))
    mass_status = api.get_status_of_subscription_renewal_date_extensions(mass.requestIdentifier, scenario["subscription_product"])
    report["mass"] = {"complete": mass_status.complete, "succeeded": mass_status.succeededCount, "failed": mass_status.failedCount,
                      "expires": renewal_expires()}

    token = str(uuid.uuid4())
    api.set_app_account_token(subscription, UpdateAppAccountTokenRequest(appAccountToken=token.upper()))
    renewal = api.get_all_subscription_statuses(anyone).data[0].lastTransactions[0].signedRenewalInfo
    report["app_account_token"] = verifier.verify_and_decode_renewal_info(renewal).appAccountToken == token

    test = api.request_test_notification()
    test_status = api.get_test_notification_status(test.testNotificationToken)
    report["test_notification"] = verifier.verify_and_decode_notification(test_status.signedPayload).rawNotificationType
    report["test_notification_attempts"] = [attempt.rawSendAttemptResult for attempt in test_status.sendAttempts]

    window = NotificationHistoryRequest(startDate=scenario["now_ms"] - 86_400_000 * 60, endDate=scenario["now_ms"] + 86_400_000 * 30)
    pages, token_ = [], None
    while True:
        page = api.get_notification_history(token_, window)
        pages.append([verifier.verify_and_decode_notification(item.signedPayload).rawNotificationType for item in page.notificationHistory])
        token_ = page.paginationToken
        if not page.hasMore:
            break
    report["notification_pages"] = pages
    report["notifications_of_type"] = len(api.get_notification_history(None, NotificationHistoryRequest(
        startDate=window.startDate, endDate=window.endDate, notificationType=NotificationTypeV2.SUBSCRIBED)).notificationHistory)
    report["notifications_only_failures"] = len(api.get_notification_history(None, NotificationHistoryRequest(
        startDate=window.startDate, endDate=window.endDate, transactionId=subscription, onlyFailures=True)).notificationHistory)

    app = api.get_app_transaction_info(anyone)
    report["app_transaction"] = verifier.verify_and_decode_app_transaction(app.signedAppTransactionInfo).bundleId

    report["errors"] = {
        "unknown_transaction": error_of(lambda: api.get_transaction_info("999")),
        "malformed_transaction": error_of(lambda: api.get_transaction_info("abc")),
        "bad_revision": error_of(lambda: api.get_transaction_history(anyone, "nonsense", TransactionHistoryRequest(),
                                                                     GetTransactionHistoryVersion.V2)),
        "unknown_subscription": error_of(lambda: api.extend_subscription_renewal_date("999", ExtendRenewalDateRequest(
            extendByDays=1, extendReasonCode=ExtendReasonCode.UNDECLARED, requestIdentifier="judge-unknown"))),
        "too_many_days": error_of(lambda: api.extend_subscription_renewal_date(subscription, ExtendRenewalDateRequest(
            extendByDays=91, extendReasonCode=ExtendReasonCode.UNDECLARED, requestIdentifier="judge-long"))),
        "both_filters": error_of(lambda: api.get_notification_history(None, NotificationHistoryRequest(
            startDate=window.startDate, endDate=window.endDate, notificationType=NotificationTypeV2.TEST, transactionId=anyone))),
        "start_after_end": error_of(lambda: api.get_notification_history(None, NotificationHistoryRequest(
            startDate=window.endDate, endDate=window.startDate))),
        "bad_pagination_token": error_of(lambda: api.get_notification_history("nonsense", window)),
        "unknown_test_notification": error_of(lambda: api.get_test_notification_status("nonsense")),
        "unknown_mass_extension": error_of(lambda: api.get_status_of_subscription_renewal_date_extensions(
            "never", scenario["subscription_product"])),
        "bad_app_account_token": error_of(lambda: api.set_app_account_token(
            subscription, UpdateAppAccountTokenRequest(appAccountToken="not-a-uuid"))),
        "not_original": error_of(lambda: api.set_app_account_token(
            scenario["renewal"], UpdateAppAccountTokenRequest(appAccountToken=str(uuid.uuid4())))),
        "wrong_consumption": error_of(lambda: api.send_consumption_information(consumables[1], ConsumptionRequest(
            customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED,
            consumptionPercentage=200_000))),
        "foreign_key": error_of(lambda: client(scenario, foreign_key()).get_transaction_info(anyone)),
    }
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
