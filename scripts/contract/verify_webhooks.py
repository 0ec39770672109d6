#!/usr/bin/env python3
"""Verifies StoreRules' outgoing event deliveries with the Standard Webhooks reference library.

    verify_webhooks.py [--contract OPENAPI_JSON] < deliveries.jsonl

Reads JSON lines on standard input, each one delivery as a receiver got it: "secret" (whsec_…),
"webhook-id", "webhook-timestamp", "webhook-signature" and "body". Each must verify with
`standardwebhooks.Webhook(secret).verify`, and its body must be a JSON object with "type",
"timestamp" and "data" whose "id" is the webhook-id. Each must also fail verification when its
body is changed by one byte, when it is checked with another secret, and when it is re-signed
with its own secret at a timestamp ten minutes old. With --contract, each body must also be
what the OpenAPI document's `webhooks` entry of its type says (JSON Schema 2020-12). Prints one
JSON summary line; exits 1 when any delivery does not behave so.
"""
import argparse
import json
import secrets
import sys
from datetime import datetime, timedelta, timezone

from jsonschema import Draft202012Validator
from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def refused(webhook, body, headers):
    try:
        webhook.verify(body, headers)
    except WebhookVerificationError:
        return True
    return False


def contract_validators(path):
    """A validator per event type, from the document's `webhooks`, its components beside each schema."""
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    validators = {}
    for name, item in document.get("webhooks", {}).items():
        schema = dict(item["post"]["requestBody"]["content"]["application/json"]["schema"])
        schema["components"] = document["components"]
        validators[name] = Draft202012Validator(schema)
    return validators


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--contract")
    arguments = parser.parse_args()
    validators = contract_validators(arguments.contract) if arguments.contract else None
    problems, verified, refusals, conforming = [], 0, 0, 0
    other = Webhook("whsec_" + __import__("base64").b64encode(secrets.token_bytes(32)).decode())
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        delivery = json.loads(line)
        webhook = Webhook(delivery["secret"])
        headers = {name: delivery[name] for name in ("webhook-id", "webhook-timestamp", "webhook-signature")}
        body = delivery["body"]
        try:
            payload = webhook.verify(body, headers)
            verified += 1
        except Exception as error:  # noqa: BLE001 - any failure is reported as such
            problems.append(f"delivery {number} ({headers['webhook-id']}) does not verify: {error!r}")
            continue
        if not (isinstance(payload, dict) and {"type", "timestamp", "data"} <= payload.keys()
                and payload["data"].get("id") == headers["webhook-id"]):
            problems.append(f"delivery {number}: the body is not an event envelope whose data.id is the webhook-id")
        elif validators is not None:
            validator = validators.get(payload["type"])
            errors = [] if validator is None else sorted(validator.iter_errors(payload), key=str)
            if validator is None:
                problems.append(f"delivery {number}: the contract has no webhook {payload['type']}")
            elif errors:
                problems.append(f"delivery {number} ({payload['type']}): {errors[0].message} at {list(errors[0].absolute_path)}")
            else:
                conforming += 1
        tampered = body[:-1] + ("]" if body[-1] != "]" else "}")
        old = datetime.now(tz=timezone.utc) - timedelta(minutes=10)
        old_headers = dict(headers, **{"webhook-timestamp": str(int(old.timestamp())),
                                       "webhook-signature": webhook.sign(headers["webhook-id"], old, body)})
        for name, check in (("a changed body", lambda: refused(webhook, tampered, headers)),
                            ("another secret", lambda: refused(other, body, headers)),
                            ("a ten-minute-old timestamp", lambda: refused(webhook, body, old_headers))):
            if check():
                refusals += 1
            else:
                problems.append(f"delivery {number}: {name} still verifies")
    print(json.dumps({"verified": verified, "refused": refusals, "conforming": conforming, "problems": problems}))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
