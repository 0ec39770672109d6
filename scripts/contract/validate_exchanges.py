#!/usr/bin/env python3
"""Validates recorded HTTP exchanges against an OpenAPI 3.1 document, with openapi-core.

    validate_exchanges.py OPENAPI.json EXCHANGES.jsonl [--no-auth] [--strict-requests] [--require-coverage]

Each line of EXCHANGES is one exchange:
    {"method": "GET", "path": "/v1/customers/ana", "query": {"k": "v"}, "request_headers": {...},
     "request_body": "<text or null>", "status": 200, "response_headers": {...}, "response_body": "<text>"}
(`query` values may be strings or lists of strings; `path` may carry its own `?query`, which is
merged in.)

The operation is found by method and path template, the path's segments percent-decoded as the
service decodes them. The request is validated (security, parameters, body), then the response
(status, headers, content type, body). A request the document calls invalid is a failure only when
the service accepted it (an answer under 400) or failed on it (5xx): a 4xx answer to an invalid
request is the service refusing it, as it should (`--strict-requests` reports those too).
Security checks that the scheme is sent (`Authorization: Bearer …` or, where allowed, `Basic …`),
never the key's value; `--no-auth` accepts requests without credentials (recordings of a service
run with `--insecure-no-auth`).

An exchange whose path no template matches must be answered 404 with the error body; one whose
path matches but not its method, 405 with the error body and an `Allow` header listing the
document's methods. These are not operations and count toward no coverage.

Prints one line per failure (`METHOD PATH STATUS: reason`), then `N exchanges, M failures, K
operations covered of T`, then the operations no exchange covered. Exits 1 when any exchange
failed (or a line cannot be read), or, with `--require-coverage`, when an operation other than a
HEAD has no exchange; else 0.
"""
import argparse
import json
import signal
import sys
import warnings
from urllib.parse import parse_qsl, unquote_to_bytes

from openapi_core import Config, OpenAPI
from openapi_core.datatypes import RequestParameters
from openapi_core.security.factories import SecurityProviderFactory
from openapi_core.security.providers import HttpProvider
from openapi_core.security.exceptions import SecurityProviderError
from werkzeug.datastructures import Headers, ImmutableMultiDict

METHODS = ["get", "head", "put", "post", "delete", "patch", "options", "trace"]


# ------------------------------------------------------------------------------------------
# Request and response objects (openapi-core's Request + SupportsPathPattern and Response protocols)

class ExchangeRequest:
    def __init__(self, host_url, method, path, path_pattern, path_params, query, headers, body):
        self.host_url = host_url
        self.method = method.lower()
        self.path = path
        self.path_pattern = path_pattern
        self.parameters = RequestParameters(
            path=path_params,
            query=ImmutableMultiDict(query),
            header=Headers(headers),
            cookie=ImmutableMultiDict(),
        )
        self.body = body
        # The service does not read Content-Type: a body is JSON whatever it says.
        self.content_type = "application/json"


class ExchangeResponse:
    def __init__(self, status, headers, body):
        self.status_code = status
        self.headers = Headers(headers)
        self.content_type = (self.headers.get("Content-Type") or "").lower()
        self.data = body


class LenientHttpProvider(HttpProvider):
    """Accepts a request without credentials (--no-auth); with them, still checks the scheme."""

    def __call__(self, parameters):
        if "Authorization" not in parameters.header:
            return None
        return super().__call__(parameters)


# ------------------------------------------------------------------------------------------
# Finding the operation

class PathDecodingError(Exception):
    pass


def decode_segment(segment):
    """A path segment percent-decoded as the service decodes it: strictly, no %00, no %2F, UTF-8."""
    i = 0
    while i < len(segment):
        if segment[i] == "%":
            pair = segment[i + 1:i + 3]
            if len(pair) != 2 or any(c not in "0123456789abcdefABCDEF" for c in pair):
                raise PathDecodingError(f"a '%' not followed by two hex digits in '{segment}'")
            if pair in ("00",) or pair.lower() == "2f":
                raise PathDecodingError(f"an escaped NUL or '/' in '{segment}'")
            i += 3
        else:
            i += 1
    try:
        return unquote_to_bytes(segment).decode("utf-8")
    except UnicodeDecodeError:
        raise PathDecodingError(f"escapes that are not UTF-8 in '{segment}'")


class Router:
    def __init__(self, document):
        self.templates = []  # (template, [segment or None for a parameter], [names], {method: operation})
        for template, item in document.get("paths", {}).items():
            parts = [p for p in template.split("/") if p]
            segments, names = [], []
            for part in parts:
                if part.startswith("{") and part.endswith("}"):
                    segments.append(None)
                    names.append(part[1:-1])
                else:
                    segments.append(part)
            operations = {m: item[m] for m in METHODS if m in item}
            self.templates.append((template, segments, names, operations))

    def operations(self):
        for template, _, _, operations in self.templates:
            for method, operation in operations.items():
                yield (method.upper(), template, operation.get("operationId", ""))

    def match(self, decoded_segments):
        """The templates whose segments match, each with its path parameters, in document order."""
        found = []
        for template, segments, names, operations in self.templates:
            if len(segments) != len(decoded_segments):
                continue
            values = []
            for want, have in zip(segments, decoded_segments):
                if want is None:
                    values.append(have)
                elif want != have:
                    break
            else:
                found.append((template, dict(zip(names, values)), operations))
        return found


# ------------------------------------------------------------------------------------------
# Reasons

def describe(error):
    """One line for an openapi-core error, with the schema errors under it."""
    details = []
    seen = set()
    current = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        for schema_error in getattr(current, "schema_errors", None) or []:
            where = "/".join(str(p) for p in schema_error.absolute_path)
            details.append(f"{'/' + where if where else '(root)'}: {schema_error.message}")
        current = current.__cause__ or current.__context__
    if details:
        more = f"; and {len(details) - 5} more" if len(details) > 5 else ""
        return f"{type(error).__name__}: " + "; ".join(details[:5]) + more
    text = str(error)
    name = type(error).__name__
    return text if text.startswith(name) else f"{name}: {text}"


def is_security_error(error):
    return "Security" in type(error).__name__


def error_body_problems(openapi_document, body_text, kind=None):
    """Why `body_text` is not the error body (of `kind`), or an empty list."""
    try:
        body = json.loads(body_text or "")
    except ValueError as e:
        return [f"the body is not JSON: {e}"]
    error = body.get("error") if isinstance(body, dict) else None
    if not (isinstance(body, dict) and set(body) == {"error"} and isinstance(error, dict)
            and set(error) == {"kind", "message"} and all(isinstance(error[k], str) for k in error)):
        return ["the body is not {\"error\": {\"kind\", \"message\"}}"]
    if kind and error["kind"] != kind:
        return [f"the error's kind is '{error['kind']}', not '{kind}'"]
    return []


# ------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("openapi")
    parser.add_argument("exchanges")
    parser.add_argument("--no-auth", action="store_true",
                        help="accept requests without credentials (a service run with --insecure-no-auth)")
    parser.add_argument("--strict-requests", action="store_true",
                        help="report invalid requests whatever the service answered")
    parser.add_argument("--require-coverage", action="store_true",
                        help="fail when an operation other than a HEAD has no exchange")
    args = parser.parse_args()
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    # allowEmptyValue (`?trace=`) is deprecated in OpenAPI 3.1, and openapi-core says so on each use.
    warnings.filterwarnings("ignore", category=DeprecationWarning)

    with open(args.openapi, encoding="utf-8") as f:
        document = json.load(f)
    factory = SecurityProviderFactory()
    if args.no_auth:
        factory.PROVIDERS = dict(factory.PROVIDERS, http=LenientHttpProvider)
    openapi = OpenAPI.from_dict(document, config=Config(security_provider_factory=factory))
    servers = document.get("servers") or [{"url": "http://localhost"}]
    host_url = servers[0]["url"].rstrip("/")
    router = Router(document)

    total = failures = 0
    covered = set()

    def fail(method, path, status, reason):
        nonlocal failures
        failures += 1
        print(f"{method} {path} {status}: {reason}")

    with open(args.exchanges, encoding="utf-8") as f:
        lines = f.readlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        total += 1
        try:
            exchange = json.loads(line)
            method = str(exchange["method"]).upper()
            raw_path = str(exchange["path"])
            status = int(exchange["status"])
        except (ValueError, KeyError, TypeError) as e:
            fail("?", f"(line {number})", "?", f"not an exchange: {e}")
            continue
        # The path as the request line carries it: a leading "//" is an empty segment here,
        # not the start of a host, as urlsplit would read it.
        path, _, raw_query = raw_path.partition("?")
        query = []
        for name, value in (exchange.get("query") or {}).items():
            for item in (value if isinstance(value, list) else [value]):
                query.append((name, "" if item is None else str(item)))
        query += parse_qsl(raw_query, keep_blank_values=True)
        request_headers = exchange.get("request_headers") or {}
        response_headers = exchange.get("response_headers") or {}
        request_text = exchange.get("request_body")
        response_text = exchange.get("response_body")
        label = path

        # The path, decoded as the service decodes it.
        segments = path.split("/")[1:] if path != "/" else []
        if not path.startswith("/") or any(s == "" for s in segments):
            problems = ([] if status == 400 else [f"a path with an empty segment is answered 400, not {status}"])
            problems += error_body_problems(document, response_text, "bad_request")
            if problems:
                fail(method, label, status, "; ".join(problems))
            continue
        try:
            decoded = [decode_segment(s) for s in segments]
        except PathDecodingError as e:
            problems = ([] if status == 400 else [f"{e}: answered 400, not {status}"])
            problems += error_body_problems(document, response_text, "bad_request")
            if problems:
                fail(method, label, status, "; ".join(problems))
            continue

        matches = router.match(decoded)
        if not matches:
            problems = [] if status == 404 else [f"no operation has this path (expected 404 not_found, not {status})"]
            problems += error_body_problems(document, response_text, "not_found")
            if problems:
                fail(method, label, status, "; ".join(problems))
            continue
        chosen = next(((t, p, ops) for t, p, ops in matches if method.lower() in ops), None)
        if chosen is None:
            methods = set()
            for _, _, ops in matches:
                methods.update(m.upper() for m in ops)
            expected_allow = ", ".join(sorted(methods))
            problems = [] if status == 405 else [f"no {method} operation for this path (expected 405, not {status})"]
            allow = Headers(response_headers).get("Allow")
            if status == 405 and allow is not None and allow != expected_allow:
                problems.append(f"Allow is '{allow}', the document has '{expected_allow}'")
            elif status == 405 and allow is None:
                problems.append("a 405 without Allow")
            problems += error_body_problems(document, response_text, "method_not_allowed")
            if problems:
                fail(method, label, status, "; ".join(problems))
            continue
        template, path_params, operations = chosen
        operation_id = operations[method.lower()].get("operationId", template)
        covered.add((method, template))

        body = None
        if request_text is not None and str(request_text).strip():
            body = str(request_text).encode("utf-8")
        request = ExchangeRequest(host_url, method, path, template, path_params, query, request_headers, body)
        response = ExchangeResponse(status, response_headers,
                                    b"" if response_text is None else str(response_text).encode("utf-8"))

        request_errors = list(openapi.iter_request_errors(request))
        refused = 400 <= status < 500
        if request_errors and (args.strict_requests or not refused):
            for error in request_errors:
                fail(method, label, status, f"[{operation_id}] request: " + describe(error))
        response_errors = list(openapi.iter_response_errors(request, response))
        for error in response_errors:
            fail(method, label, status, f"[{operation_id}] response: " + describe(error))
        if method == "HEAD" and response.data:
            fail(method, label, status, f"[{operation_id}] response: a HEAD answer with a body")

    all_operations = list(router.operations())
    uncovered = [(m, t, o) for m, t, o in all_operations if (m, t) not in covered]
    print(f"{total} exchanges, {failures} failures, {len(all_operations) - len(uncovered)} operations covered "
          f"of {len(all_operations)}")
    if uncovered:
        print("not covered:")
        for method, template, operation_id in uncovered:
            print(f"  {method} {template} ({operation_id})")
    missing = [operation for operation in uncovered if operation[0] != "HEAD"]
    if args.require_coverage and missing:
        print(f"{len(missing)} operations other than HEAD have no exchange; each needs a test that makes a request of it")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
