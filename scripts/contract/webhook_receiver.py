#!/usr/bin/env python3
"""A receiver of StoreRules' outgoing events built on the Standard Webhooks reference library.

    webhook_receiver.py SECRET_FILE OUT [--port PORT]

Listens on 127.0.0.1 (PORT, or a free one), prints "listening PORT" once it does, and answers
each POST: a delivery that `standardwebhooks.Webhook(secret).verify` accepts is answered 204 and
appended to OUT as a JSON line {"id", "type", "customer", "sequence"}; any other is answered 400
and appended with "refused" and the reason. Runs until killed.
"""
import argparse
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("secret_file")
    parser.add_argument("out")
    parser.add_argument("--port", type=int, default=0)
    arguments = parser.parse_args()
    with open(arguments.secret_file, encoding="utf-8") as file:
        webhook = Webhook(file.read().strip())

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode("utf-8")
            headers = {name.lower(): value for name, value in self.headers.items()}
            try:
                event = webhook.verify(body, headers)
                line = {"id": headers["webhook-id"], "type": event["type"], "customer": event["data"]["customer"],
                        "sequence": event["data"]["sequence"]}
                status = 204
            except Exception as error:  # noqa: BLE001 - every refusal is recorded
                line = {"id": headers.get("webhook-id"), "refused": repr(error)}
                status = 400
            with open(arguments.out, "a", encoding="utf-8") as out:
                out.write(json.dumps(line) + "\n")
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    print(f"listening {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
