#!/usr/bin/env python3
"""A small HTTP/1.1 server for the transport behaviours httpbin cannot produce.

Standard library only. Every response is written by hand on the raw socket so the
bytes on the wire are exactly what the route promises (short bodies, stalls, resets,
stray framing headers, hand-made chunked encoding).

Routes (GET unless said):
  /silent                      reads the request, never answers (closes after 120 s)
  /stall?after=N               200, Content-Length 2N, sends N bytes then stalls (closes after 120 s)
  /reset                       reads the request, then resets the connection (RST, no response)
  /auth-challenge              401 + WWW-Authenticate: Basic realm="endpoint", JSON body
  /large?bytes=N               200, Content-Length N (default 52428800), N bytes streamed
  /pattern?bytes=N             200, Content-Length N, byte i is i % 251 (checks order and loss)
  /slow-body?chunks=N&interval_ms=M
                               chunked body: N chunks "chunk-i\\n" (i = 0..N-1) M ms apart
  /status/CODE?retry_after=V   that status, optional Retry-After header (any text)
  /flaky?key=K&fail=N&status=S&retry_after=V
                               first N requests for key K answer S (with Retry-After if
                               given), later ones 200 {"attempts": n}
  /truncated                   Content-Length 100, sends 10 bytes, closes
  /echo (any method)           200 JSON {"method","path","target","query",
                               "headers":[[name,value],...],"body_base64"} of exactly what
                               arrived ("target" as sent: absolute through a proxy)
  /sse                         text/event-stream with 3 events (id:, event:, multi-line data:)
  /headers-order               200 with X-Order: a, X-Order: b, X-Single: 1
  /no-content-length           204 with a stray Content-Length: 5 and no body
  /early?status=S&location=L&keep=1&framing=F&size=N&coding=gzip
                               (any method) answers S (default 413, with Location L if given)
                               right after the request head, without reading the body, then
                               drains and closes the connection; keep=1 sends no
                               Connection: close; framing=chunked sends the body chunked (two
                               chunks and a trailer field, with keep=1 no Connection: close),
                               framing=close with no length, ended by closing the sending side;
                               size=N: N bytes of x as the body; coding=gzip: that body
                               gzip-compressed with Content-Encoding: gzip
                               (a 204 or 304 has no body either way); with a framing, size=N
                               sends N bytes of "x" instead of the JSON (chunks of 64 KiB)
  /endless                     200, chunked, 16 KiB chunks for as long as the client reads
  /endless-redirect            302 to /echo whose chunked body of 16 KiB chunks never ends
  /redirect-chain?hops=N       302 to /redirect-chain?hops=N-1, until 0: 200 {"hops": 0}
  /cache?key=K&cc=C&etag=E&last_modified=L&vary=V&expires=S&fail_after=N&status=S&chunked=1
                               (any method) counts requests for key K; GET answers 200
                               {"key","count"} with the cache fields given (Cache-Control C,
                               ETag E, Last-Modified L, Vary V, Expires S seconds from now,
                               Date unless date=0), 304 when If-None-Match is E or If-Modified-Since
                               is L, or status S (default 503) from request N+1 on (S=drop: the
                               connection is closed without an answer); chunked=1 streams the
                               body; hop=1 adds Connection: X-Hop, X-Hop and Keep-Alive;
                               cookie=C adds Set-Cookie: C; Path=/; other methods answer 200
                               (Location: location)
  /cache-hits?key=K            200 {"count", "conditional", "methods"} for key K
  /cache-range?key=K&size=N&cc=C&etag=E
                               counts requests for key K as /cache does; N bytes (default 100,
                               byte i is i % 251) with ETag E (default "range-1") and
                               Cache-Control C: one byte range of Range (bytes=a-b, a-, -n) is
                               a 206 with Content-Range, one past the end a 416 with
                               Content-Range: bytes */N; several ranges, or an If-Range that is
                               not E, the whole 200
  /switching-protocols         101 Switching Protocols (Upgrade: websocket) to any request,
                               then raw bytes, then close
  /content-length?value=V&repeat=W
                               200 with Content-Length: V (as given, e.g. 0x5, +5, "1 0"),
                               and a second Content-Length: W when given; 10 body bytes, close
  /no-status                   answers bytes with no status line at all, then closes
  /bad-status                  a status line that cannot be read (HTTP/1.1 abc OK), then closes
  /chunked-trailer             200, chunked, with a trailer field after the last chunk
  /cut-head                    a response head cut off before its blank line, then close
  /gzip-body?size=N&coding=C&length=1&cut=1&corrupt=1
                               N bytes of text, gzip (or deflate) encoded
  /coded?body=NAME&length=1&cut=N&pause_ms=M
                               fixed bytes with content codings: several gzip members, bytes
                               after a member, stacked codings, br, zstd, a nested gzip bomb
  /framing?version=V&te=T&cl=N the 10-byte body "framed-ok!" under the status line
                               "V 200 OK" (default HTTP/1.1), with Transfer-Encoding T when
                               given (chunked when T ends in "chunked", else the raw bytes)
                               and Content-Length N when given; then close
  /transfer-coded?coding=C     200 "Transfer-Encoding: C, chunked" (C gzip, default, or any
                               token) with the 20-byte text "transfer-coded body!" coded by C
                               (gzip; another token leaves the bytes as they are), chunked
  /redirect?status=S&location=L (any method) status S (default 302) with one Location field
                               per location item given (none without), a JSON body

Usage: fault_server.py [--host 127.0.0.1] [--port 0] [--port-file PATH]
With --port 0 the kernel picks a free port; --port-file receives the chosen port once
the socket listens, so a caller never races another process for the port.
"""

import argparse
import base64
import functools
import gzip
import json
import os
import select
import socket
import socketserver
import struct
import sys
import threading
import time
import zlib
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

# How long /silent and /stall hold a connection before closing it.
HOLD_SECONDS = 120.0
# Idle time after which a keep-alive connection is closed.
KEEP_ALIVE_SECONDS = 30.0
MAX_HEAD_BYTES = 64 * 1024
MAX_BODY_BYTES = 256 * 1024 * 1024
DEFAULT_LARGE_BYTES = 52_428_800

_flaky_lock = threading.Lock()
_flaky_counts = {}
_cache_lock = threading.Lock()
_cache_records = {}


class BadRequest(Exception):
    """The request could not be parsed; answered with 400."""


class ClientGone(Exception):
    """The peer closed the connection."""


class Request:
    def __init__(self, method, target, version, headers, body):
        self.method = method
        self.target = target
        self.version = version
        # Ordered list of (name, value) exactly as received (original case).
        self.headers = headers
        self.body = body
        parts = urlsplit(target)
        self.path = parts.path
        self.query = parts.query
        self.params = parse_qs(parts.query, keep_blank_values=True)

    def header(self, name):
        lowered = name.lower()
        for key, value in self.headers:
            if key.lower() == lowered:
                return value
        return None

    def param(self, name, default=None):
        values = self.params.get(name)
        return values[0] if values else default

    def int_param(self, name, default):
        raw = self.param(name)
        if raw is None or raw == "":
            return default
        try:
            return int(raw)
        except ValueError:
            raise BadRequest(f"query item {name!r} must be an integer, got {raw!r}")

    def wants_close(self):
        connection = (self.header("Connection") or "").lower()
        if self.version == "HTTP/1.0":
            return "keep-alive" not in connection
        return "close" in connection


class Connection:
    """Buffered reads over a socket, so one connection can carry several requests."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def _fill(self, timeout=None):
        if timeout is not None:
            ready, _, _ = select.select([self.sock], [], [], timeout)
            if not ready:
                raise ClientGone("idle")
        data = self.sock.recv(65536)
        if not data:
            raise ClientGone("closed")
        self.buffer += data

    def read_until(self, marker, limit, timeout=None):
        while marker not in self.buffer:
            if len(self.buffer) > limit:
                raise BadRequest("request head too large")
            self._fill(timeout)
        index = self.buffer.index(marker) + len(marker)
        data, self.buffer = self.buffer[:index], self.buffer[index:]
        return data

    def read_exactly(self, count):
        while len(self.buffer) < count:
            self._fill()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def read_request(self):
        head = self.read_until(b"\r\n\r\n", MAX_HEAD_BYTES, timeout=KEEP_ALIVE_SECONDS)
        lines = head[:-4].split(b"\r\n")
        try:
            method, target, version = lines[0].decode("latin-1").split(" ", 2)
        except ValueError:
            raise BadRequest("malformed request line")
        headers = []
        for line in lines[1:]:
            name, sep, value = line.decode("latin-1").partition(":")
            if not sep or not name or name != name.strip():
                raise BadRequest(f"malformed header line {line!r}")
            headers.append((name, value.strip(" \t")))
        request = Request(method, target, version, headers, b"")
        if request.path == "/early":
            # Answered before the body is read: the body stays on the socket.
            return request
        if (request.header("Expect") or "").lower() == "100-continue":
            # Clients that wait for this (libcurl for bodies over 1 MiB) would otherwise
            # pause a second before sending the body.
            self.sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
        encoding = (request.header("Transfer-Encoding") or "").lower()
        if "chunked" in encoding:
            request.body = self._read_chunked()
        else:
            length = request.header("Content-Length")
            if length is not None:
                try:
                    size = int(length)
                except ValueError:
                    raise BadRequest(f"invalid Content-Length {length!r}")
                if size < 0 or size > MAX_BODY_BYTES:
                    raise BadRequest(f"unsupported Content-Length {size}")
                request.body = self.read_exactly(size)
        return request

    def _read_chunked(self):
        body = bytearray()
        while True:
            line = self.read_until(b"\r\n", MAX_HEAD_BYTES)
            size_text = line[:-2].split(b";", 1)[0].strip()
            try:
                size = int(size_text, 16)
            except ValueError:
                raise BadRequest(f"invalid chunk size {size_text!r}")
            if size == 0:
                # Trailers end with an empty line.
                while self.read_until(b"\r\n", MAX_HEAD_BYTES) != b"\r\n":
                    pass
                return bytes(body)
            body += self.read_exactly(size)
            if len(body) > MAX_BODY_BYTES:
                raise BadRequest("chunked body too large")
            self.read_exactly(2)

    def wait_for_close(self, seconds):
        """Holds the connection open until the peer closes it or `seconds` pass."""
        deadline = time.monotonic() + seconds
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            ready, _, _ = select.select([self.sock], [], [], remaining)
            if ready:
                try:
                    if not self.sock.recv(65536):
                        return
                except OSError:
                    return


def reason(code):
    try:
        return HTTPStatus(code).phrase
    except ValueError:
        return "Status"


def head_bytes(code, headers):
    lines = [f"HTTP/1.1 {code} {reason(code)}"]
    lines += [f"{name}: {value}" for name, value in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def send_response(conn, code, body=b"", content_type="application/json", extra=(), close=False):
    headers = list(extra)
    if code not in (204, 304) and not (100 <= code < 200):
        headers.append(("Content-Type", content_type))
        headers.append(("Content-Length", str(len(body))))
    else:
        body = b""
    if close:
        headers.append(("Connection", "close"))
    conn.sock.sendall(head_bytes(code, headers) + body)
    return not close


def json_bytes(value):
    return json.dumps(value).encode("utf-8")


# Each route returns True to keep the connection alive, False to close it.


def route_silent(conn, request):
    conn.wait_for_close(HOLD_SECONDS)
    return False


def route_stall(conn, request):
    after = request.int_param("after", 1024)
    if after < 0:
        raise BadRequest("query item 'after' must not be negative")
    head = head_bytes(
        200, [("Content-Type", "application/octet-stream"), ("Content-Length", str(2 * after))]
    )
    conn.sock.sendall(head + b"s" * after)
    conn.wait_for_close(HOLD_SECONDS)
    return False


def route_reset(conn, request):
    # SO_LINGER with a zero timeout makes close() send RST instead of FIN.
    conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.sock.close()
    return False


def route_auth_challenge(conn, request):
    body = json_bytes({"error": "unauthorized", "message": "credentials required"})
    return send_response(
        conn, 401, body, extra=[("WWW-Authenticate", 'Basic realm="endpoint"')]
    )


def route_large(conn, request):
    total = request.int_param("bytes", DEFAULT_LARGE_BYTES)
    if total < 0:
        raise BadRequest("query item 'bytes' must not be negative")
    head = head_bytes(
        200, [("Content-Type", "application/octet-stream"), ("Content-Length", str(total))]
    )
    conn.sock.sendall(head)
    block = b"L" * 65536
    remaining = total
    while remaining > 0:
        piece = block if remaining >= len(block) else block[:remaining]
        conn.sock.sendall(piece)
        remaining -= len(piece)
    return True


def route_pattern(conn, request):
    total = request.int_param("bytes", 1048576)
    if total < 0:
        raise BadRequest("query item 'bytes' must not be negative")
    head = head_bytes(
        200, [("Content-Type", "application/octet-stream"), ("Content-Length", str(total))]
    )
    conn.sock.sendall(head)
    # 251 is prime, so no power-of-two piece boundary lines up with the pattern.
    block = bytes(i % 251 for i in range(251 * 256))
    sent = 0
    while sent < total:
        start = sent % 251
        piece = block[start : start + min(len(block) - start, total - sent)]
        conn.sock.sendall(piece)
        sent += len(piece)
    return True


def route_slow_body(conn, request):
    chunks = request.int_param("chunks", 5)
    interval_ms = request.int_param("interval_ms", 100)
    if chunks < 0 or interval_ms < 0:
        raise BadRequest("query items 'chunks' and 'interval_ms' must not be negative")
    head = head_bytes(
        200,
        [("Content-Type", "text/plain; charset=utf-8"), ("Transfer-Encoding", "chunked")],
    )
    conn.sock.sendall(head)
    for index in range(chunks):
        if index > 0:
            time.sleep(interval_ms / 1000.0)
        data = f"chunk-{index}\n".encode("ascii")
        conn.sock.sendall(b"%x\r\n" % len(data) + data + b"\r\n")
    conn.sock.sendall(b"0\r\n\r\n")
    return True


def parse_status(text):
    try:
        code = int(text)
    except ValueError:
        raise BadRequest(f"status must be an integer, got {text!r}")
    if not 200 <= code <= 599:
        raise BadRequest(f"status must be between 200 and 599, got {code}")
    return code


def route_status(conn, request):
    code = parse_status(request.path[len("/status/"):])
    extra = []
    retry_after = request.param("retry_after")
    if retry_after is not None:
        extra.append(("Retry-After", retry_after))
    return send_response(conn, code, json_bytes({"status": code}), extra=extra)


def route_flaky(conn, request):
    key = request.param("key", "")
    fail = request.int_param("fail", 1)
    code = parse_status(request.param("status", "503"))
    with _flaky_lock:
        attempts = _flaky_counts.get(key, 0) + 1
        _flaky_counts[key] = attempts
    if attempts <= fail:
        extra = []
        retry_after = request.param("retry_after")
        if retry_after is not None:
            extra.append(("Retry-After", retry_after))
        body = json_bytes({"attempts": attempts, "status": code})
        return send_response(conn, code, body, extra=extra)
    return send_response(conn, 200, json_bytes({"attempts": attempts}))


def route_truncated(conn, request):
    head = head_bytes(
        200, [("Content-Type", "application/octet-stream"), ("Content-Length", "100")]
    )
    conn.sock.sendall(head + b"0123456789")
    return False


def route_echo(conn, request):
    body = json_bytes(
        {
            "method": request.method,
            "path": request.path,
            "target": request.target,
            "query": request.query,
            "headers": [[name, value] for name, value in request.headers],
            "body_base64": base64.b64encode(request.body).decode("ascii"),
        }
    )
    # A HEAD request gets the head only, with the length of the body a GET would get.
    if request.method == "HEAD":
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        conn.sock.sendall(head_bytes(200, headers))
        return True
    return send_response(conn, 200, body)


SSE_BODY = (
    "id: 1\n"
    "event: greeting\n"
    "data: hello\n"
    "\n"
    "id: 2\n"
    "event: multi\n"
    "data: line one\n"
    "data: line two\n"
    "\n"
    "id: 3\n"
    "data: {\"done\": true}\n"
    "\n"
).encode("utf-8")


def route_sse(conn, request):
    return send_response(
        conn, 200, SSE_BODY, content_type="text/event-stream", extra=[("Cache-Control", "no-cache")]
    )


def route_headers_order(conn, request):
    extra = [("X-Order", "a"), ("X-Order", "b"), ("X-Single", "1")]
    return send_response(conn, 200, json_bytes({"ok": True}), extra=extra)


def route_no_content_length(conn, request):
    conn.sock.sendall(head_bytes(204, [("Content-Length", "5")]))
    return True


def route_early(conn, request):
    code = request.int_param("status", 413)
    extra = []
    location = request.param("location")
    if location:
        extra.append(("Location", location))
    # keep=1 leaves out Connection: close, as a server streaming back while it reads does.
    keep = request.param("keep") == "1"
    framing = request.param("framing")
    if request.param("coding") == "gzip" and code not in (204, 304):
        # A content-coded answer: `size` bytes of x, gzip-compressed, so the client decodes
        # far more than the wire carries.
        size = request.int_param("size", 0)
        body = gzip.compress(b"x" * size if size > 0 else json_bytes({"early": code}), mtime=0)
        extra.append(("Content-Encoding", "gzip"))
        if framing in ("chunked", "close"):
            send_early_framed(conn, code, body, extra, framing, keep)
        else:
            send_response(conn, code, body, extra=extra, close=not keep)
    elif framing in ("chunked", "close") and code not in (204, 304):
        size = request.int_param("size", 0)
        body = b"x" * size if size > 0 else json_bytes({"early": code})
        send_early_framed(conn, code, body, extra, framing, keep)
    else:
        send_response(conn, code, json_bytes({"early": code}), extra=extra, close=not keep)
    # Reads what the client still sends until it gives up, so the close is not a reset.
    conn.wait_for_close(30)
    return False


def send_endless(conn, status, fields, fill):
    """A chunked head, then 16 KiB chunks of `fill` until the client goes away."""
    conn.sock.sendall(head_bytes(status, fields + [("Transfer-Encoding", "chunked")]))
    chunk = b"%x\r\n" % 16384 + fill * 16384 + b"\r\n"
    while True:
        conn.sock.sendall(chunk)


def route_endless(conn, request):
    send_endless(conn, 200, [("Content-Type", "application/octet-stream")], b"e")


def route_endless_redirect(conn, request):
    send_endless(conn, 302, [("Location", "/echo")], b"r")


def route_redirect_chain(conn, request):
    hops = request.int_param("hops", 3)
    if hops <= 0:
        return send_response(conn, 200, json_bytes({"hops": 0}))
    location = f"/redirect-chain?hops={hops - 1}"
    body = json_bytes({"hops": hops})
    return send_response(conn, 302, body, extra=[("Location", location)])


def route_switching_protocols(conn, request):
    head = head_bytes(101, [("Upgrade", "websocket"), ("Connection", "Upgrade")])
    conn.sock.sendall(head + b"\x81\x05hello" * 4)
    return False


def route_content_length(conn, request):
    headers = [("Content-Type", "text/plain"), ("Content-Length", request.param("value", "10"))]
    second = request.param("repeat")
    if second is not None:
        headers.append(("Content-Length", second))
    headers.append(("Connection", "close"))
    conn.sock.sendall(head_bytes(200, headers) + b"0123456789")
    return False


def route_no_status(conn, request):
    conn.sock.sendall(b"hello, no status line here\n")
    return False


def route_bad_status(conn, request):
    raw = b"HTTP/1.1 abc OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
    conn.sock.sendall(raw)
    return False


def route_chunked_trailer(conn, request):
    head = head_bytes(
        200, [("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")]
    )
    conn.sock.sendall(head + b"5\r\nhello\r\n0\r\nX-Checksum: abc\r\n\r\n")
    return True


def route_cut_head(conn, request):
    conn.sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n")
    return False


def send_early_framed(conn, code, body, extra, framing, keep):
    """An early answer whose end the client finds only in the body's framing: chunked (the body
    in two chunks, the second after a pause so the client sees the first alone, then the last
    chunk and a trailer field), or delimited by the close of the sending side (no length)."""
    headers = list(extra) + [("Content-Type", "application/json")]
    if framing == "chunked":
        headers.append(("Transfer-Encoding", "chunked"))
        if not keep:
            headers.append(("Connection", "close"))
        half = len(body) // 2
        conn.sock.sendall(head_bytes(code, headers) + b"%x\r\n%s\r\n" % (half, body[:half]))
        time.sleep(0.05)
        for start in range(half, len(body), 65536):
            piece = body[start:start + 65536]
            conn.sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
        conn.sock.sendall(b"0\r\nX-Early: done\r\n\r\n")
    else:
        headers.append(("Connection", "close"))
        conn.sock.sendall(head_bytes(code, headers) + body)
        conn.sock.shutdown(socket.SHUT_WR)


def route_framing(conn, request):
    body = b"framed-ok!"
    version = request.param("version", "HTTP/1.1")
    headers = [("Content-Type", "text/plain")]
    te = request.param("te")
    if te is not None:
        headers.append(("Transfer-Encoding", te))
    if request.param("cl") is not None:
        headers.append(("Content-Length", request.param("cl")))
    headers.append(("Connection", "close"))
    if te is not None and te.replace(" ", "").lower().endswith("chunked"):
        body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    lines = [f"{version} 200 OK"] + [f"{name}: {value}" for name, value in headers]
    conn.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
    return False


TRANSFER_CODED_TEXT = b"transfer-coded body!"


def route_transfer_coded(conn, request):
    """A transfer coding before chunked (RFC 9112 §6.1): the text gzip-coded, or as it is under
    a coding no client knows, then chunked, in two chunks."""
    coding = request.param("coding", "gzip")
    data = gzipped(TRANSFER_CODED_TEXT) if coding == "gzip" else TRANSFER_CODED_TEXT
    headers = [("Content-Type", "text/plain"), ("Transfer-Encoding", f"{coding}, chunked")]
    middle = len(data) // 2
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece)
                      for piece in (data[:middle], data[middle:]))
    conn.sock.sendall(head_bytes(200, headers) + chunks + b"0\r\n\r\n")
    return True


def route_redirect(conn, request):
    code = request.int_param("status", 302)
    extra = [("Location", value) for value in request.params.get("location", [])]
    return send_response(conn, code, json_bytes({"redirect": code}), extra=extra)


# Pagination: 10 items (0..9) served three ways, each page also saying which page it is.
PAGED_ITEMS = list(range(10))


def route_pages_link(conn, request):
    """`?page=N&size=S`: the next page in awkward but valid Link fields (RFC 8288): a relative
    target, several links in one field and across two fields, quoted parameters holding commas
    and semicolons, `rel` with several relations. `delay_ms` delays pages after the first."""
    page = request.int_param("page", 1)
    size = request.int_param("size", 3)
    if page < 1 or size < 1:
        raise BadRequest("query items 'page' and 'size' must be at least 1")
    delay_ms = request.int_param("delay_ms", 0)
    if page > 1 and delay_ms > 0:
        time.sleep(delay_ms / 1000.0)
    start = (page - 1) * size
    items = PAGED_ITEMS[start:start + size]
    extra = [
        ("Link", '<https://docs.example/pagination>; rel="help"; title="a, b; c"'),
    ]
    links = [f'</pages/link?page=1&size={size}>; rel="first"']
    if start + size < len(PAGED_ITEMS):
        suffix = f"&delay_ms={delay_ms}" if delay_ms else ""
        links.append(f'<link?page={page + 1}&size={size}{suffix}>; title="next, please"; rel="next last-seen"')
    extra.append(("Link", ", ".join(links)))
    return send_response(conn, 200, json_bytes({"page": page, "items": items}), extra=extra)


def route_pages_cursor(conn, request):
    """`?after=X&limit=L`: items after X; the body names the next cursor (`null` at the end)."""
    after = request.int_param("after", -1)
    limit = request.int_param("limit", 4)
    items = [item for item in PAGED_ITEMS if item > after][:limit]
    more = bool(items) and items[-1] < PAGED_ITEMS[-1]
    cursor = str(items[-1]) if more else None
    return send_response(conn, 200, json_bytes({"items": items, "next": cursor}))


def route_pages_number(conn, request):
    """`?page=N&per_page=S`: numbered pages with the total in the body."""
    page = request.int_param("page", 1)
    per_page = request.int_param("per_page", 4)
    if page < 1 or per_page < 1:
        raise BadRequest("query items 'page' and 'per_page' must be at least 1")
    start = (page - 1) * per_page
    body = {"page": page, "items": PAGED_ITEMS[start:start + per_page], "total": len(PAGED_ITEMS)}
    return send_response(conn, 200, json_bytes(body))


@functools.lru_cache(maxsize=16)
def compressed_text(size, coding):
    """`size` bytes of text and their encoding, made once per size: compressing holds the
    interpreter's lock, and other requests must not wait for it again and again."""
    text = (b"endpoint gzip body " * (size // 19 + 1))[:size]
    return zlib.compress(text) if coding == "deflate" else gzip.compress(text)


def route_gzip_body(conn, request):
    """`?size=N` bytes of text, gzip-encoded. `length=1` declares the encoded length, else the
    body is delimited by closing the connection; `cut=1` sends only the first half of the
    encoded bytes; `corrupt=1` spoils the checksum at the end; `coding=deflate` uses zlib's wrapper."""
    size = request.int_param("size", 100000)
    if size < 0:
        raise BadRequest("query item 'size' must not be negative")
    if size > 8_000_000:
        raise BadRequest("query item 'size' must be at most 8000000")
    coding = "deflate" if request.param("coding") == "deflate" else "gzip"
    data = compressed_text(size, coding)
    if request.param("cut") == "1":
        data = data[: len(data) // 2]
    if request.param("corrupt") == "1":
        # The checksum at the end no longer matches the data.
        data = data[:-8] + bytes(b ^ 0x5A for b in data[-8:-4]) + data[-4:]
    headers = [("Content-Type", "text/plain"), ("Content-Encoding", coding)]
    if request.param("length") == "1":
        headers.append(("Content-Length", str(len(data))))
        conn.sock.sendall(head_bytes(200, headers) + data)
        return True
    headers.append(("Connection", "close"))
    conn.sock.sendall(head_bytes(200, headers) + data)
    return False


# Compressed once with libbrotlienc and libzstd (the standard library has neither):
# "endpoint br body " and "endpoint zstd body " 200 times each, and two zstd frames of
# "first frame, " and "second frame".
BR_BYTES = base64.b64decode("G0cNiBypU5+7USlW5pYgZHn1Jleb/BYcXccTABAN")
ZSTD_BYTES = base64.b64decode("KLUv/WDYDd0AAJhlbmRwb2ludCB6c3RkIGJvZHkgAQCFbf4MAw==")
ZSTD_FRAMES = base64.b64decode("KLUv/SANaQAAZmlyc3QgZnJhbWUsIA==") + base64.b64decode(
    "KLUv/SAMYQAAc2Vjb25kIGZyYW1l")
# 1 GiB of zeros, gzip-compressed (level 9, mtime 0), then gzip-compressed again: 1,827 bytes.
GZIP_BOMB = base64.b64decode(
    "H4sIAAAAAAACA+3coW5TcRyG4XataCY2JqYQ4yZIZkiKAYvYFGIhmZlAottkoDDcCRguABR3AHO7gGViWVALpe1N"
    "LDnv85j/0T/55eQ9+jwbbexMbn6Mx+uP5Zd/X29nuyMAAABg4JZXl5PNGDB6tvr96s0pAAAAMHTv9vem21Hg4ezp"
    "S+cAAACAwfv04vjJ9g+Bu8X7qXMAAADA4B3+vZ5vt4Bfq+8HJ+4BAAAAg/dHMAAAAABSBAMAAACgRTAAAAAAWgQD"
    "AAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAAACBGMAAAAABaBAMA"
    "AACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAA"
    "ACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAA"
    "oEUwAAAAAFoEAwAAACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAg"
    "RjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAAACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBF"
    "MAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAAACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYw"
    "AAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAAACBGMAAAAABaBAMAAACgRTAA"
    "AAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAAACBGMAAA"
    "AABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAA"
    "AFoEAwAAACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAA"
    "WgQDAAAAoEUwAAAAAFoEAwAAACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABa"
    "BAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAAACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoE"
    "AwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAAACBGMAAAAABaBAMAAACgRTAAAAAAWgQD"
    "AAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAAACBGMAAAAABaBAMA"
    "AACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAA"
    "ACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAA"
    "oEUwAAAAAFoEAwAAACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAg"
    "RjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAAACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBF"
    "MAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAAACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYw"
    "AAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAAACBGMAAAAABaBAMAAACgRTAA"
    "AAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAAAFoEAwAAACBGMAAA"
    "AABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAAWgQDAAAAoEUwAAAA"
    "AFoEAwAAACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABaBAMAAAAgRjAAAAAA"
    "WgQDAAAAoEUwAAAAAFoEAwAAACBGMAAAAABaBAMAAACgRTAAAAAAWgQDAAAAIEYwAAAAAFoEAwAAAKBFMAAAAABa"
    "BAMAAAAgRjAAAAAAWi7292abLeDj/eLD69Eje/7t5/nb9Tv/D9RnhczI7A8A"
)

def gzipped(data, times=1):
    for _ in range(times):
        data = gzip.compress(data, mtime=0)
    return data


@functools.lru_cache(maxsize=None)
def coded_body(name):
    """The `Content-Encoding` and the bytes of `/coded?body=NAME`."""
    text = b"endpoint coded body " * 500
    bodies = {
        "members": ("gzip", gzipped(b"first member, ") + gzipped(b"second member")),
        "empty-member": ("gzip", gzipped(b"") + gzipped(b"after an empty member")),
        "trailing": ("gzip", gzipped(b"one member") + b"not a gzip member"),
        "trailing-zeros": ("gzip", gzipped(b"one member") + bytes(8)),
        "deflate-trailing": ("deflate", zlib.compress(b"one stream") + b"more"),
        "gzip-gzip": ("gzip, gzip", gzipped(text, 2)),
        "deflate-gzip": ("deflate, gzip", gzipped(zlib.compress(text))),
        "gzip-x5": ("gzip, gzip, gzip, gzip, gzip", gzipped(text, 5)),
        "gzip-x6": ("gzip, gzip, gzip, gzip, gzip, gzip", gzipped(text, 6)),
        "unknown": ("endpoint-test", text),
        "unknown-gzip": ("endpoint-test, gzip", gzipped(text)),
        "br": ("br", BR_BYTES),
        "zstd": ("zstd", ZSTD_BYTES),
        "zstd-frames": ("zstd", ZSTD_FRAMES),
        "zstd-trailing": ("zstd", ZSTD_BYTES + b"not a frame"),
        "br-trailing": ("br", BR_BYTES + b"more"),
        "br-gzip": ("br, gzip", gzipped(BR_BYTES)),
        "bomb": ("gzip, gzip", GZIP_BOMB),
    }
    if name not in bodies:
        raise BadRequest(f"query item 'body' must be one of {', '.join(sorted(bodies))}")
    return bodies[name]


def route_coded(conn, request):
    """`?body=NAME`: a body with content codings, exactly as `coded_body` makes it (several
    gzip members, trailing bytes, stacked codings, br, zstd, a nested gzip bomb). `length=1`
    declares the encoded length, else the body is delimited by closing the connection;
    `cut=N` leaves out its last N bytes; `pause_ms=M` sends the last `pause_bytes` bytes
    (default 4) M ms after the rest, so they reach the client in a later read."""
    coding, data = coded_body(request.param("body", ""))
    cut = request.int_param("cut", 0)
    if cut > 0:
        data = data[:-cut]
    headers = [("Content-Type", "application/octet-stream"), ("Content-Encoding", coding)]
    keep = request.param("length") == "1"
    if keep:
        headers.append(("Content-Length", str(len(data))))
    else:
        headers.append(("Connection", "close"))
    pause = request.int_param("pause_ms", 0)
    split = len(data) - request.int_param("pause_bytes", 4) if pause > 0 else len(data)
    conn.sock.sendall(head_bytes(200, headers) + data[:split])
    if split < len(data):
        time.sleep(pause / 1000)
        conn.sock.sendall(data[split:])
    return keep


def http_date(seconds):
    return time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(seconds))


def route_cache(conn, request):
    key = request.param("key", "")
    conditional = request.header("If-None-Match") or request.header("If-Modified-Since")
    with _cache_lock:
        record = _cache_records.setdefault(key, {"count": 0, "conditional": 0, "methods": []})
        record["count"] += 1
        record["methods"].append(request.method)
        if conditional:
            record["conditional"] += 1
        count = record["count"]
    if request.method not in ("GET", "HEAD"):
        extra = []
        if request.param("location"):
            extra.append(("Location", request.param("location")))
        return send_response(conn, 200, json_bytes({"key": key}), extra=extra)
    fail_after = request.int_param("fail_after", 0)
    if fail_after and count > fail_after:
        if request.param("status") == "drop":
            return False
        code = parse_status(request.param("status", "503"))
        return send_response(conn, code, json_bytes({"status": code}))
    now = time.time()
    extra = [] if request.param("date") == "0" else [("Date", http_date(now))]
    for name, param in (("Cache-Control", "cc"), ("ETag", "etag"),
                        ("Last-Modified", "last_modified"), ("Vary", "vary")):
        if request.param(param) is not None:
            extra.append((name, request.param(param)))
    if request.param("expires") is not None:
        extra.append(("Expires", http_date(now + request.int_param("expires", 0))))
    if request.param("hop") == "1":
        extra += [("Connection", "X-Hop"), ("X-Hop", "1"), ("Keep-Alive", "timeout=5")]
    if request.param("cookie") is not None:
        extra.append(("Set-Cookie", request.param("cookie") + "; Path=/"))
    etag = request.param("etag")
    modified = request.param("last_modified")
    if (etag and request.header("If-None-Match") == etag) or (
            not etag and modified and request.header("If-Modified-Since") == modified):
        return send_response(conn, 304, extra=extra)
    body = json_bytes({"key": key, "count": count})
    if request.param("chunked") != "1":
        if request.method == "HEAD":
            head = extra + [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
            conn.sock.sendall(head_bytes(200, head))
            return True
        return send_response(conn, 200, body, extra=extra)
    head = extra + [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")]
    conn.sock.sendall(head_bytes(200, head))
    if request.method != "HEAD":
        for piece in (body[:5], body[5:]):
            conn.sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
        conn.sock.sendall(b"0\r\n\r\n")
    return True


def requested_range(value, size):
    """The (first, last) bytes of one `bytes=` range of `value`, None when it is not one
    range that can be read, "unsatisfiable" when it starts past the end."""
    unit, _, spec = (value or "").strip().partition("=")
    if unit.strip().lower() != "bytes" or "," in spec:
        return None
    first, dash, last = spec.strip().partition("-")
    if not dash or not (first + last).isdigit():
        return None
    if not first:
        suffix = int(last)
        return (max(0, size - suffix), size - 1) if suffix > 0 else "unsatisfiable"
    start = int(first)
    end = min(int(last), size - 1) if last else size - 1
    if start >= size:
        return "unsatisfiable"
    return (start, end) if start <= end else None


def route_cache_range(conn, request):
    """A representation that answers Range requests as a server does, counted like /cache."""
    key = request.param("key", "")
    with _cache_lock:
        record = _cache_records.setdefault(key, {"count": 0, "conditional": 0, "methods": []})
        record["count"] += 1
        record["methods"].append(request.method)
        if request.header("If-Range"):
            record["conditional"] += 1
    size = request.int_param("size", 100)
    if not 0 < size <= 1_000_000:
        raise BadRequest("query item 'size' must be between 1 and 1000000")
    body = bytes(i % 251 for i in range(size))
    etag = request.param("etag", '"range-1"')
    extra = [("Date", http_date(time.time())), ("ETag", etag), ("Accept-Ranges", "bytes")]
    if request.param("cc") is not None:
        extra.append(("Cache-Control", request.param("cc")))
    if_range = request.header("If-Range")
    wanted = requested_range(request.header("Range"), size)
    if wanted is None or (if_range is not None and if_range != etag):
        return send_response(conn, 200, body, "application/octet-stream", extra)
    if wanted == "unsatisfiable":
        extra.append(("Content-Range", f"bytes */{size}"))
        return send_response(conn, 416, b"", "application/octet-stream", extra)
    first, last = wanted
    extra.append(("Content-Range", f"bytes {first}-{last}/{size}"))
    return send_response(conn, 206, body[first:last + 1], "application/octet-stream", extra)


def route_cache_hits(conn, request):
    with _cache_lock:
        record = dict(_cache_records.get(request.param("key", ""),
                                         {"count": 0, "conditional": 0, "methods": []}))
    return send_response(conn, 200, json_bytes(record))


ROUTES = {
    "/silent": route_silent,
    "/stall": route_stall,
    "/reset": route_reset,
    "/auth-challenge": route_auth_challenge,
    "/large": route_large,
    "/pattern": route_pattern,
    "/slow-body": route_slow_body,
    "/flaky": route_flaky,
    "/truncated": route_truncated,
    "/echo": route_echo,
    "/sse": route_sse,
    "/headers-order": route_headers_order,
    "/no-content-length": route_no_content_length,
    "/early": route_early,
    "/endless": route_endless,
    "/endless-redirect": route_endless_redirect,
    "/redirect-chain": route_redirect_chain,
    "/switching-protocols": route_switching_protocols,
    "/content-length": route_content_length,
    "/no-status": route_no_status,
    "/bad-status": route_bad_status,
    "/chunked-trailer": route_chunked_trailer,
    "/cut-head": route_cut_head,
    "/framing": route_framing,
    "/redirect": route_redirect,
    "/transfer-coded": route_transfer_coded,
    "/pages/link": route_pages_link,
    "/pages/cursor": route_pages_cursor,
    "/pages/number": route_pages_number,
    "/gzip-body": route_gzip_body,
    "/coded": route_coded,
    "/cache": route_cache,
    "/cache-hits": route_cache_hits,
    "/cache-range": route_cache_range,
}


def dispatch(conn, request):
    if request.path.startswith("/status/"):
        return route_status(conn, request)
    handler = ROUTES.get(request.path)
    if handler is None:
        body = json_bytes({"error": "not found", "path": request.path})
        return send_response(conn, 404, body)
    return handler(conn, request)


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        conn = Connection(self.request)
        try:
            while True:
                try:
                    request = conn.read_request()
                except BadRequest as error:
                    send_response(conn, 400, json_bytes({"error": str(error)}), close=True)
                    return
                try:
                    keep = dispatch(conn, request)
                except BadRequest as error:
                    send_response(conn, 400, json_bytes({"error": str(error)}), close=True)
                    return
                if not keep or request.wants_close():
                    return
        except (ClientGone, ConnectionError, TimeoutError, OSError):
            # The client went away (aborted transfer, cancelled task): nothing to answer.
            return


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address, family):
        self.address_family = family
        super().__init__(address, Handler)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file")
    args = parser.parse_args()
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    server = Server((args.host, args.port), family)
    port = server.server_address[1]
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as handle:
            handle.write(f"{port}\n")
        # Rename so a reader never sees a half-written file.
        os.replace(args.port_file + ".tmp", args.port_file)
    print(f"fault server listening on {args.host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    sys.exit(main())
