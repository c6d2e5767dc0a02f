#!/usr/bin/env python3
"""A small HTTP/1.1 server on a Unix domain socket, for the Unix-socket transport tests.

Standard library only. Answers every request with 200 and a JSON body
{"method", "path", "host", "body"}: what arrived over the socket. It removes the socket file
when it stops (SIGTERM) and exits by itself after --lifetime seconds, so a test run that dies
never leaves it behind.

Usage: unix_server.py --socket PATH [--lifetime SECONDS]
"""

import argparse
import json
import os
import signal
import socketserver
import sys
import threading
from http.server import BaseHTTPRequestHandler


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        payload = json.dumps(
            {
                "method": self.command,
                "path": self.path,
                "host": self.headers.get("Host"),
                "body": body,
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_PUT = do_DELETE = answer

    def address_string(self):
        return "unix"

    def log_message(self, format, *args):
        pass


class Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", required=True)
    parser.add_argument("--lifetime", type=float, default=300)
    arguments = parser.parse_args()
    if os.path.exists(arguments.socket):
        os.unlink(arguments.socket)
    server = Server(arguments.socket, Handler)

    def stop(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    # A parent may have started it with SIGTERM blocked (the mask is inherited).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    timer = threading.Timer(arguments.lifetime, stop)
    timer.daemon = True
    timer.start()
    print("listening", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
        try:
            os.unlink(arguments.socket)
        except OSError:
            pass
    sys.exit(0)


if __name__ == "__main__":
    main()
