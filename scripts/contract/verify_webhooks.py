#!/usr/bin/env python3
"""Verifies StoreRules' outgoing event deliveries with the Standard Webhooks reference library.

Reads JSON lines on standard input, each one delivery as a receiver got it: "secret" (whsec_…),
"webhook-id", "webhook-timestamp", "webhook-signature" and "body". Each must verify with
`standardwebhooks.Webhook(secret).verify`, and its body must be a JSON object with "type",
"timestamp" and "data" whose "id" is the webhook-id. Each must also fail verification when its
body is changed by one byte, when it is checked with another secret, and when it is re-signed
with its own secret at a timestamp ten minutes old. Prints one JSON summary line; exits 1 when
any delivery does not behave so.
"""
import json
import secrets
import sys
from datetime import datetime, timedelta, timezone

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def refused(webhook, body, headers):
    try:
        webhook.verify(body, headers)
    except WebhookVerificationError:
        return True
    return False


def main():
    problems, verified, refusals = [], 0, 0
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
    print(json.dumps({"verified": verified, "refused": refusals, "problems": problems}))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
