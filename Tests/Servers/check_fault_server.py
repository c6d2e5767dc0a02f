#!/usr/bin/env python3
"""Checks every route of fault_server.py on the wire, with raw sockets.

Run by hand after changing the fault server (it is not part of the test command):

    python3 Tests/Servers/check_fault_server.py            # starts its own server
    python3 Tests/Servers/check_fault_server.py --url http://127.0.0.1:PORT

Exits non-zero and names the failing route when a behaviour is wrong.
"""

import argparse
import base64
import gzip
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from urllib.parse import urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))


def connect(address, timeout=10.0):
    sock = socket.create_connection(address, timeout=timeout)
    return sock


def send(address, raw, timeout=10.0):
    sock = connect(address, timeout)
    sock.sendall(raw)
    return sock


def get(path, extra=""):
    return f"GET {path} HTTP/1.1\r\nHost: test\r\n{extra}\r\n".encode("latin-1")


def read_head(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        piece = sock.recv(65536)
        if not piece:
            raise AssertionError(f"connection closed before the head ended: {data!r}")
        data += piece
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:]]
    return status, headers, rest


def header(headers, name):
    values = [value for key, value in headers if key.lower() == name.lower()]
    return values[0] if values else None


def read_all(sock, rest=b""):
    data = rest
    while True:
        piece = sock.recv(65536)
        if not piece:
            return data
        data += piece


def read_body(sock, headers, rest):
    length = int(header(headers, "Content-Length"))
    data = rest
    while len(data) < length:
        piece = sock.recv(65536)
        if not piece:
            raise AssertionError(f"body ended after {len(data)} of {length} bytes")
        data += piece
    return data[:length]


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def check_silent(address):
    sock = send(address, get("/silent"), timeout=1.5)
    try:
        sock.recv(1)
        raise AssertionError("/silent answered")
    except socket.timeout:
        pass
    finally:
        sock.close()


def check_stall(address):
    sock = send(address, get("/stall?after=10"), timeout=1.5)
    status, headers, rest = read_head(sock)
    expect(status == 200, f"/stall status {status}")
    expect(header(headers, "Content-Length") == "20", f"/stall headers {headers}")
    data = rest
    try:
        while True:
            piece = sock.recv(65536)
            expect(piece, "/stall closed early")
            data += piece
    except socket.timeout:
        pass
    sock.close()
    expect(data == b"s" * 10, f"/stall sent {data!r}")


def check_reset(address):
    sock = send(address, get("/reset"))
    try:
        data = sock.recv(1)
        raise AssertionError(f"/reset answered {data!r} instead of resetting")
    except ConnectionResetError:
        pass
    finally:
        sock.close()


def check_auth_challenge(address):
    sock = send(address, get("/auth-challenge", "Connection: close\r\n"))
    status, headers, rest = read_head(sock)
    body = read_body(sock, headers, rest)
    sock.close()
    expect(status == 401, f"/auth-challenge status {status}")
    expect(header(headers, "WWW-Authenticate") == 'Basic realm="endpoint"', f"{headers}")
    expect(json.loads(body)["error"] == "unauthorized", f"/auth-challenge body {body!r}")


def check_large(address):
    sock = send(address, get("/large?bytes=3000000", "Connection: close\r\n"))
    status, headers, rest = read_head(sock)
    body = read_all(sock, rest)
    sock.close()
    expect(status == 200 and header(headers, "Content-Length") == "3000000", f"{headers}")
    expect(len(body) == 3_000_000, f"/large sent {len(body)} bytes")
    sock = send(address, get("/large", "Connection: close\r\n"))
    status, headers, rest = read_head(sock)
    sock.close()
    expect(header(headers, "Content-Length") == "52428800", f"/large default {headers}")


def check_slow_body(address):
    sock = send(address, get("/slow-body?chunks=3&interval_ms=200", "Connection: close\r\n"))
    started = time.monotonic()
    status, headers, rest = read_head(sock)
    raw = read_all(sock, rest)
    elapsed = time.monotonic() - started
    sock.close()
    expect(header(headers, "Transfer-Encoding") == "chunked", f"{headers}")
    expected = b"8\r\nchunk-0\n\r\n8\r\nchunk-1\n\r\n8\r\nchunk-2\n\r\n0\r\n\r\n"
    expect(raw == expected, f"/slow-body sent {raw!r}")
    expect(elapsed >= 0.35, f"/slow-body took only {elapsed:.2f} s")


def check_status(address):
    sock = send(address, get("/status/429?retry_after=7", "Connection: close\r\n"))
    status, headers, rest = read_head(sock)
    body = read_body(sock, headers, rest)
    sock.close()
    expect(status == 429 and header(headers, "Retry-After") == "7", f"{status} {headers}")
    expect(json.loads(body) == {"status": 429}, f"/status body {body!r}")
    sock = send(address, get("/status/204", "Connection: close\r\n"))
    status, headers, rest = read_head(sock)
    expect(status == 204 and read_all(sock, rest) == b"", "/status/204 has a body")
    sock.close()


def check_flaky(address):
    key = f"check-{time.time()}"
    path = f"/flaky?key={key}&fail=2&status=503&retry_after=1"
    seen = []
    for _ in range(3):
        sock = send(address, get(path, "Connection: close\r\n"))
        status, headers, rest = read_head(sock)
        body = json.loads(read_body(sock, headers, rest))
        sock.close()
        seen.append((status, header(headers, "Retry-After"), body["attempts"]))
    expect(seen == [(503, "1", 1), (503, "1", 2), (200, None, 3)], f"/flaky gave {seen}")


def check_truncated(address):
    sock = send(address, get("/truncated"))
    status, headers, rest = read_head(sock)
    body = read_all(sock, rest)
    sock.close()
    expect(header(headers, "Content-Length") == "100", f"{headers}")
    expect(body == b"0123456789", f"/truncated sent {body!r}")


def check_echo(address):
    payload = b"\x00hello\xff"
    raw = (
        b"PUT /echo?a=1&b=%20x HTTP/1.1\r\nHost: test\r\nX-Case: One\r\nx-case: two\r\n"
        b"Content-Length: 7\r\n\r\n" + payload
    )
    sock = send(address, raw)
    status, headers, rest = read_head(sock)
    echo = json.loads(read_body(sock, headers, rest))
    # Same connection, chunked request body: keep-alive and chunk decoding.
    chunked = (
        b"POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n"
        b"Connection: close\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
    )
    sock.sendall(chunked)
    _, headers2, rest2 = read_head(sock)
    echo2 = json.loads(read_body(sock, headers2, rest2))
    sock.close()
    expect(echo["method"] == "PUT" and echo["path"] == "/echo", f"{echo}")
    expect(echo["query"] == "a=1&b=%20x", f"/echo query {echo['query']!r}")
    expect(["X-Case", "One"] in echo["headers"] and ["x-case", "two"] in echo["headers"], f"{echo}")
    expect(base64.b64decode(echo["body_base64"]) == payload, f"/echo body {echo}")
    expect(base64.b64decode(echo2["body_base64"]) == b"abcde", f"/echo chunked {echo2}")


def check_echo_proxy_target(address):
    sock = send(address, get("http://elsewhere.invalid/echo?x=1", "Connection: close\r\n"))
    _, headers, rest = read_head(sock)
    echo = json.loads(read_body(sock, headers, rest))
    sock.close()
    expect(echo["path"] == "/echo", f"{echo}")
    expect(echo["target"] == "http://elsewhere.invalid/echo?x=1", f"{echo}")


def check_framing(address):
    sock = send(address, get("/framing?version=HTTP/2&te=gzip,%20chunked&cl=10"))
    data = read_all(sock)
    sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    expect(lines[0] == "HTTP/2 200 OK", f"{lines}")
    expect("Transfer-Encoding: gzip, chunked" in lines and "Content-Length: 10" in lines, f"{lines}")
    expect(body == b"a\r\nframed-ok!\r\n0\r\n\r\n", f"{body!r}")
    sock = send(address, get("/framing?te=gzip"))
    data = read_all(sock)
    sock.close()
    expect(data.endswith(b"\r\n\r\nframed-ok!"), f"{data!r}")


def check_cache_range(address):
    def fetch(extra):
        sock = send(address, get("/cache-range?key=check-range&size=20", extra))
        status, headers, rest = read_head(sock)
        body = read_body(sock, headers, rest)
        sock.close()
        return status, headers, body

    whole = bytes(range(20))
    status, headers, body = fetch("Range: bytes=5-9\r\n")
    expect(status == 206 and body == whole[5:10], f"/cache-range 5-9: {status} {body!r}")
    expect(header(headers, "Content-Range") == "bytes 5-9/20", f"{headers}")
    expect(header(headers, "ETag") == '"range-1"', f"{headers}")
    status, headers, body = fetch("Range: bytes=-3\r\n")
    expect(status == 206 and body == whole[17:], f"/cache-range -3: {status} {body!r}")
    status, headers, body = fetch("Range: bytes=15-\r\n")
    expect(header(headers, "Content-Range") == "bytes 15-19/20", f"{headers}")
    for extra in ["Range: bytes=0-1, 3-4\r\n", "Range: bytes=0-1\r\nIf-Range: \"x\"\r\n", ""]:
        status, headers, body = fetch(extra)
        expect(status == 200 and body == whole, f"/cache-range {extra!r}: {status}")
    status, headers, body = fetch('Range: bytes=0-1\r\nIf-Range: "range-1"\r\n')
    expect(status == 206 and body == whole[:2], f"/cache-range If-Range: {status}")
    status, headers, body = fetch("Range: bytes=20-\r\n")
    expect(status == 416 and header(headers, "Content-Range") == "bytes */20", f"{headers}")
    sock = send(address, get("/cache-hits?key=check-range"))
    status, headers, rest = read_head(sock)
    record = json.loads(read_body(sock, headers, rest))
    sock.close()
    expect(record["count"] == 8 and record["conditional"] == 2, f"/cache-hits {record}")


def check_transfer_coded(address):
    for coding, decode in [("gzip", gzip.decompress), ("endpoint-test", lambda data: data)]:
        sock = send(address, get(f"/transfer-coded?coding={coding}"))
        status, headers, rest = read_head(sock)
        expect(status == 200, f"/transfer-coded {coding} status {status}")
        expect(header(headers, "Transfer-Encoding") == f"{coding}, chunked", f"{headers}")
        data = rest
        while not data.endswith(b"0\r\n\r\n"):
            piece = sock.recv(65536)
            expect(piece, f"/transfer-coded {coding} closed early: {data!r}")
            data += piece
        sock.close()
        body, data = b"", data
        while True:
            size_line, _, data = data.partition(b"\r\n")
            size = int(size_line, 16)
            if size == 0:
                break
            body, data = body + data[:size], data[size + 2:]
        expect(decode(body) == b"transfer-coded body!", f"/transfer-coded {coding}: {body!r}")


def check_early(address):
    for keep, closes in (("0", True), ("1", False)):
        raw = (f"POST /early?status=200&keep={keep} HTTP/1.1\r\nHost: test\r\n"
               "Content-Length: 100\r\n\r\n").encode("latin-1")
        sock = send(address, raw)
        status, headers, rest = read_head(sock)
        body = read_body(sock, headers, rest)
        sock.close()
        expect(status == 200 and json.loads(body) == {"early": 200}, f"{status} {body!r}")
        expect((header(headers, "Connection") == "close") == closes, f"keep={keep}: {headers}")


def check_early_coded(address):
    """/early?coding=gzip: a gzip body of `size` bytes of x, with Content-Length."""
    raw = (b"POST /early?status=200&keep=1&coding=gzip&size=100000 HTTP/1.1\r\nHost: test\r\n"
           b"Content-Length: 100\r\n\r\n")
    sock = send(address, raw)
    status, headers, rest = read_head(sock)
    expect(status == 200 and header(headers, "Content-Encoding") == "gzip", f"{headers}")
    length = int(header(headers, "Content-Length"))
    data = rest
    while len(data) < length:
        piece = sock.recv(65536)
        expect(piece, f"the body ended after {len(data)} of {length} bytes")
        data += piece
    sock.close()
    expect(gzip.decompress(data[:length]) == b"x" * 100000, "not 100000 bytes of x")


def check_early_framed(address):
    """/early?framing=chunked|close: the end of the answer is in its framing only."""
    for query, framing in (("framing=chunked&keep=1", "chunked"),
                           ("framing=chunked", "chunked"), ("framing=close", "close")):
        raw = (f"POST /early?status=200&{query} HTTP/1.1\r\nHost: test\r\n"
               "Content-Length: 100\r\n\r\n").encode("latin-1")
        sock = send(address, raw)
        status, headers, rest = read_head(sock)
        expect(status == 200 and header(headers, "Content-Length") is None, f"{query}: {headers}")
        if framing == "chunked":
            expect(header(headers, "Transfer-Encoding") == "chunked", f"{query}: {headers}")
            expect((header(headers, "Connection") == "close") == ("keep" not in query),
                   f"{query}: {headers}")
            data = rest
            while not data.endswith(b"0\r\nX-Early: done\r\n\r\n"):
                piece = sock.recv(65536)
                expect(piece, f"{query}: the chunked body ended after {data!r}")
                data += piece
            body, position = b"", 0
            while True:
                line_end = data.index(b"\r\n", position)
                size = int(data[position:line_end], 16)
                if size == 0:
                    break
                body += data[line_end + 2:line_end + 2 + size]
                position = line_end + 4 + size
        else:
            # The server closes its sending side while it still reads the request body.
            body = read_all(sock, rest)
            sock.sendall(b"x" * 100)
        sock.close()
        expect(json.loads(body) == {"early": 200}, f"{query}: {body!r}")
    sock = send(address, b"POST /early?status=200&framing=chunked&size=200000 HTTP/1.1\r\n"
                b"Host: test\r\nContent-Length: 100\r\n\r\n")
    _, _, rest = read_head(sock)
    data = rest
    while not data.endswith(b"0\r\nX-Early: done\r\n\r\n"):
        piece = sock.recv(65536)
        expect(piece, "size=200000: the chunked body ended early")
        data += piece
    sock.close()
    expect(data.count(b"x") == 200000, f"size=200000: {data.count(b'x')} bytes of x")


def check_redirect(address):
    sock = send(address, get("/redirect?status=301&location=/a&location=/b"))
    status, headers, rest = read_head(sock)
    read_body(sock, headers, rest)
    sock.sendall(get("/redirect", "Connection: close\r\n"))
    status2, headers2, _ = read_head(sock)
    sock.close()
    locations = [value for key, value in headers if key.lower() == "location"]
    expect(status == 301 and locations == ["/a", "/b"], f"{status} {headers}")
    expect(status2 == 302 and header(headers2, "Location") is None, f"{status2} {headers2}")


def check_echo_expect_continue(address):
    raw = b"POST /echo HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"
    sock = send(address, raw)
    status, _, rest = read_head(sock)
    expect(status == 100, f"/echo with Expect got {status}")
    sock.sendall(b"ok")
    status, headers, rest = read_head(sock) if not rest else read_head_from(sock, rest)
    echo = json.loads(read_body(sock, headers, rest))
    sock.close()
    expect(base64.b64decode(echo["body_base64"]) == b"ok", f"{echo}")


def read_head_from(sock, data):
    class Prefixed:
        def __init__(self):
            self.pending = data

        def recv(self, size):
            if self.pending:
                piece, self.pending = self.pending, b""
                return piece
            return sock.recv(size)

    return read_head(Prefixed())


def check_sse(address):
    sock = send(address, get("/sse", "Connection: close\r\n"))
    status, headers, rest = read_head(sock)
    body = read_body(sock, headers, rest).decode()
    sock.close()
    expect(header(headers, "Content-Type") == "text/event-stream", f"{headers}")
    events = [block for block in body.split("\n\n") if block]
    expect(len(events) == 3, f"/sse events {events}")
    expect("data: line one\ndata: line two" in body and "event: multi" in body, body)


def check_headers_order(address):
    sock = send(address, get("/headers-order", "Connection: close\r\n"))
    _, headers, _ = read_head(sock)
    sock.close()
    names = [(k, v) for k, v in headers if k.startswith("X-")]
    expect(names == [("X-Order", "a"), ("X-Order", "b"), ("X-Single", "1")], f"{headers}")


def check_no_content_length(address):
    sock = send(address, get("/no-content-length"), timeout=2)
    status, headers, rest = read_head(sock)
    expect(status == 204 and header(headers, "Content-Length") == "5", f"{headers}")
    # Keep-alive stays on: nothing more must arrive for this request.
    sock.sendall(get("/status/200", "Connection: close\r\n"))
    status2, _, _ = read_head_from(sock, rest) if rest else read_head(sock)
    sock.close()
    expect(status2 == 200, "/no-content-length sent body bytes")


def check_coded(address):
    def fetch(query):
        sock = send(address, get(f"/coded?{query}"))
        status, headers, rest = read_head(sock)
        body = read_all(sock, rest)
        sock.close()
        expect(status == 200, f"/coded?{query} gave {status}")
        return header(headers, "Content-Encoding"), body

    coding, body = fetch("body=members")
    expect(coding == "gzip", f"members: {coding}")
    expect(gzip.decompress(body) == b"first member, second member", f"members: {body!r}")
    coding, body = fetch("body=gzip-gzip")
    expect(coding == "gzip, gzip", f"gzip-gzip: {coding}")
    expect(gzip.decompress(gzip.decompress(body)).startswith(b"endpoint coded body "), "gzip-gzip")
    coding, body = fetch("body=bomb")
    expect(coding == "gzip, gzip" and len(body) == 1827, f"bomb: {coding}, {len(body)} bytes")
    expect(gzip.decompress(body)[:2] == b"\x1f\x8b", "bomb: the inner layer is not gzip")
    _, whole = fetch("body=zstd")
    _, cut = fetch("body=zstd&cut=5")
    expect(whole[:4] == b"\x28\xb5\x2f\xfd" and cut == whole[:-5], "zstd, cut")
    sock = send(address, get("/coded?body=br&length=1&pause_ms=50"))
    status, headers, rest = read_head(sock)
    body = read_body(sock, headers, rest)
    sock.close()
    expect(header(headers, "Content-Encoding") == "br" and len(body) == 30, f"br: {headers}")


def check_not_found_and_bad_input(address):
    sock = send(address, get("/nope", "Connection: close\r\n"))
    status, _, _ = read_head(sock)
    sock.close()
    expect(status == 404, f"unknown route gave {status}")
    sock = send(address, get("/large?bytes=abc", "Connection: close\r\n"))
    status, headers, rest = read_head(sock)
    body = read_body(sock, headers, rest)
    sock.close()
    expect(status == 400 and b"bytes" in body, f"bad query gave {status} {body!r}")


CHECKS = [
    check_silent,
    check_stall,
    check_reset,
    check_auth_challenge,
    check_large,
    check_slow_body,
    check_status,
    check_flaky,
    check_truncated,
    check_echo,
    check_echo_expect_continue,
    check_sse,
    check_headers_order,
    check_no_content_length,
    check_coded,
    check_not_found_and_bad_input,
    check_echo_proxy_target,
    check_framing,
    check_redirect,
    check_early,
    check_cache_range,
    check_transfer_coded,
    check_early_framed,
    check_early_coded,
]


def main():
    parser = argparse.ArgumentParser(description="check the fault server on the wire")
    parser.add_argument("--url")
    args = parser.parse_args()
    process = None
    if args.url:
        parts = urlsplit(args.url)
        address = (parts.hostname, parts.port)
    else:
        port_file = os.path.join(tempfile.mkdtemp(), "port")
        process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "fault_server.py"), "--port-file", port_file],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            if os.path.exists(port_file):
                break
            time.sleep(0.05)
        with open(port_file) as handle:
            address = ("127.0.0.1", int(handle.read()))
    failures = 0
    try:
        for check in CHECKS:
            name = check.__name__[len("check_"):]
            try:
                check(address)
                print(f"ok    {name}")
            except Exception as error:  # noqa: BLE001 - report every failing route
                failures += 1
                print(f"FAIL  {name}: {error!r}")
    finally:
        if process:
            process.terminate()
            process.wait()
    print(f"{len(CHECKS) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
