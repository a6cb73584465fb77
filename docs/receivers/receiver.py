"""A webhook receiver for the Waste Operations API, in Python 3 with the standard library only.

It verifies Service-Signature as docs/webhook-signatures.md specifies, answers 2xx at once, and
dedupes on the event id (deliveries are retried, so an event can arrive twice).

    WEBHOOK_SECRET=whsec_... PORT=4242 python3 receiver.py
"""
import hashlib
import hmac
import json
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 300
MAX_BODY_BYTES = 1024 * 1024


def signature_problem(body, header, secret, now=None):
    """Why a delivery does not verify, or None when it does. body is the raw bytes, as received."""
    if not header:
        return "no Service-Signature header"
    timestamp = None
    signatures = []
    for part in header.split(","):
        name, _, value = part.strip().partition("=")
        if name == "t" and re.fullmatch(r"[0-9]{1,15}", value):
            timestamp = value
        elif name == "v1" and re.fullmatch(r"[0-9a-f]{64}", value):
            signatures.append(value)
        # Any other element (a future v2) is ignored.
    if timestamp is None:
        return "no t=<unix seconds> in Service-Signature"
    if not signatures:
        return "no v1=<64 lowercase hex digits> in Service-Signature"
    age = (int(time.time()) if now is None else now) - int(timestamp)
    if age < 0:
        return "t is in the future"
    if age >= TOLERANCE_SECONDS:
        return f"t is {age} seconds old"
    # The key is the whole secret, whsec_ included, as UTF-8; the text is "<t>." then the body's bytes.
    expected = hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + body, hashlib.sha256).hexdigest()
    matched = False
    for signature in signatures:
        # Constant time: how long the comparison takes says nothing of where the strings differ.
        matched = hmac.compare_digest(signature, expected) or matched
    return None if matched else "no v1 matches the body and secret"


# Event ids already handled. In production: a table with a unique key, kept longer than the retries last.
seen = set()
seen_lock = threading.Lock()


def handle(event):
    # The work goes here, after the answer: the sender waits for the 2xx, not for the work.
    print(f"verified {event['type']} {event['id']}", flush=True)


def receiver_for(secret):
    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY_BYTES:
                self.answer(413, "body too large")
                return
            body = self.rfile.read(length)  # the raw bytes: a re-serialized JSON would not verify
            problem = signature_problem(body, self.headers.get("Service-Signature"), secret)
            if problem is not None:
                print(f"refused: {problem}", flush=True)
                self.answer(400, problem)
                return
            try:
                event = json.loads(body)
            except ValueError:
                self.answer(400, "not JSON")
                return
            with seen_lock:
                duplicate = event["id"] in seen
                seen.add(event["id"])
            self.answer(200, "duplicate" if duplicate else "ok")
            if duplicate:
                print(f"duplicate {event['type']} {event['id']}", flush=True)
            else:
                handle(event)

        def answer(self, status, text):
            payload = f"{text}\n".encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()

        def log_message(self, format, *args):
            pass  # one line per delivery is printed above

    return Receiver


if __name__ == "__main__":
    secret = os.environ.get("WEBHOOK_SECRET", "")
    if not secret.startswith("whsec_"):
        sys.exit("Set WEBHOOK_SECRET to your endpoint's whsec_ signing secret.")
    host = os.environ.get("HOST", "127.0.0.1")
    server = ThreadingHTTPServer((host, int(os.environ.get("PORT", "4242"))), receiver_for(secret))
    print(f"receiver listening on http://{host}:{server.server_address[1]}/", flush=True)
    server.serve_forever()
