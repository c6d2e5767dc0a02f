#!/usr/bin/env python3
"""Small HTTPS listeners for the TLS cases the main HTTPS server cannot produce.

Standard library only. Each answers any GET with 200 and a JSON body
{"listener", "path", "tls_version", "client"} over HTTP/1.1 (ALPN offers http/1.1 only), where
"client" is the common name of the client's certificate, or null. GET /seen/TOKEN answers
{"seen": true} when a request whose path contained TOKEN reached the listener before, else
{"seen": false}: a test proves with it that a refused request never reached the server.
GET /status-line?version=V answers `V 200 ` (a status and one space, as libcurl writes the head
of an HTTP/2 stream) with a 10-byte body "framed-ok!", raw, on its HTTP/1.1 connection, then
closes it: a client must not take it for HTTP/2 because of its status line.

  tls12       a certificate for 127.0.0.1, ::1 and localhost, but TLS 1.2 at most: a client
              that requires TLS 1.3 fails the handshake
  wrong-name  TLS 1.2 or 1.3, but a certificate for elsewhere.invalid only (from the same
              authority): a client reaching it as 127.0.0.1 fails the host-name check
  mtls        the certificate for 127.0.0.1, TLS 1.2 or 1.3, and a client certificate issued
              by the test authority required (mutual TLS): the handshake fails without one or
              with one from another authority

Usage: tls_server.py --host 127.0.0.1 --certs DIRECTORY --port-file PATH
DIRECTORY holds the files of make_test_ca.py. Both listeners take a free port from the
kernel; once all listen, PATH receives the lines "tls12 PORT", "wrong-name PORT" and
"mtls PORT".
"""

import argparse
import json
import os
import ssl
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread

# A client that connects and never finishes the handshake does not hold a thread for long.
HANDSHAKE_SECONDS = 10.0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.path.startswith("/status-line"):
            answer_with_status_line(self)
            return
        if self.path.startswith("/seen/"):
            token = self.path[len("/seen/"):]
            body = json.dumps({"seen": any(token in path for path in SEEN_PATHS)}).encode()
        else:
            SEEN_PATHS.append(self.path)
            body = json.dumps(
                {
                    "listener": self.server.listener_name,
                    "path": self.path,
                    "tls_version": self.connection.version(),
                    "client": client_name(self.connection.getpeercert()),
                }
            ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


def answer_with_status_line(handler):
    """/status-line?version=V: `V 200 ` and ten framed bytes, then the connection closes."""
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(handler.path).query)
    version = query.get("version", ["HTTP/1.1"])[0]
    head = f"{version} 200 \r\nContent-Length: 10\r\nConnection: close\r\n\r\n"
    handler.wfile.write(head.encode("latin-1") + b"framed-ok!")
    handler.wfile.flush()
    handler.close_connection = True


# The paths of every request received, over all listeners (appending to a list is atomic).
SEEN_PATHS = []


def client_name(certificate):
    """The common name of a client certificate (as getpeercert() gives it), or None."""
    for entry in (certificate or {}).get("subject", ()):
        for key, value in entry:
            if key == "commonName":
                return value
    return None


class TLSServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, listener_name, context):
        super().__init__(address, Handler)
        self.listener_name = listener_name
        self.context = context

    def finish_request(self, request, client_address):
        # The handshake runs on the connection's own thread, not on the accepting one, so a
        # client that fails it (the point of these listeners) never blocks the others.
        request.settimeout(HANDSHAKE_SECONDS)
        try:
            tls = self.context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError) as error:
            print(f"{self.listener_name}: handshake from {client_address[0]} failed: {error}",
                  file=sys.stderr, flush=True)
            return
        tls.settimeout(None)
        try:
            super().finish_request(tls, client_address)
        finally:
            try:
                tls.close()
            except OSError:
                pass

    def handle_error(self, request, client_address):
        error = sys.exc_info()[1]
        print(f"{self.listener_name}: {client_address[0]}: {error!r}", file=sys.stderr, flush=True)


def context(certs, name, maximum_version=None, client_authority=None):
    result = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    if client_authority is not None:
        result.verify_mode = ssl.CERT_REQUIRED
        result.load_verify_locations(os.path.join(certs, client_authority))
    result.minimum_version = ssl.TLSVersion.TLSv1_2
    if maximum_version is not None:
        result.maximum_version = maximum_version
    result.set_alpn_protocols(["http/1.1"])
    result.load_cert_chain(
        os.path.join(certs, name + "-cert.pem"), os.path.join(certs, name + "-key.pem")
    )
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--certs", required=True)
    parser.add_argument("--port-file", required=True)
    arguments = parser.parse_args()

    servers = [
        TLSServer(
            (arguments.host, 0), "tls12", context(arguments.certs, "server", ssl.TLSVersion.TLSv1_2)
        ),
        TLSServer((arguments.host, 0), "wrong-name", context(arguments.certs, "wrong-name")),
        TLSServer(
            (arguments.host, 0),
            "mtls",
            context(arguments.certs, "server", client_authority="ca.pem"),
        ),
    ]
    lines = [f"{server.listener_name} {server.server_address[1]}\n" for server in servers]
    # Written whole under another name first, so a reader never sees half the file.
    partial = arguments.port_file + ".partial"
    with open(partial, "w") as file:
        file.writelines(lines)
    os.replace(partial, arguments.port_file)

    threads = [Thread(target=server.serve_forever, daemon=True) for server in servers]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
