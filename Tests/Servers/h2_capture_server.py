#!/usr/bin/env python3
"""A capture server that answers every request with what its HTTP layer decoded, as JSON.

Two listeners on the same code:

  tls    TLS with the certificate of make_test_ca.py; ALPN offers h2 and http/1.1
  plain  cleartext HTTP/1.1

Each request is answered 200 with a JSON body:

  {"version": "2" | "1.1",
   "method", "path" (with the query, as sent), "authority", "scheme",
   "pseudo": [[name, value], ...]  the HTTP/2 pseudo-header fields in order ([] for HTTP/1.1),
   "fields": [[name, value], ...]  every other field in order, duplicates kept, names as
                                   decoded (HTTP/1.1: as spelled on the wire),
   "bodyLength", "body" (base64)}

Names and values are decoded from bytes as Latin-1, so every byte is one character. Over
HTTP/2 the fields are those of the HEADERS block exactly as HPACK decoded them: the h2
package's inbound normalisation (which joins `cookie` fields and moves them last) is off. For
HTTP/1.1, "authority" is the Host field and "scheme" the listener's. A HEAD request gets no
body: the same JSON comes base64-encoded in its `x-capture` field instead. Any path answers;
GET /ready is the readiness probe.

Usage: h2_capture_server.py --host 127.0.0.1 --certs DIRECTORY --port-file PATH
Both listeners take a free port from the kernel; once both listen, PATH receives the lines
"tls PORT" and "plain PORT".
"""

import argparse
import asyncio
import base64
import json
import os
import ssl

import h2.config
import h2.connection
import h2.events
import h2.exceptions
import h11

READ_SIZE = 65536


def latin1(data):
    return data.decode("latin-1")


def answer(version, method, path, authority, scheme, pseudo, fields, body):
    """The JSON body describing one request."""
    return json.dumps(
        {
            "version": version,
            "method": latin1(method),
            "path": latin1(path),
            "authority": latin1(authority),
            "scheme": scheme,
            "pseudo": [[latin1(n), latin1(v)] for n, v in pseudo],
            "fields": [[latin1(n), latin1(v)] for n, v in fields],
            "bodyLength": len(body),
            "body": base64.b64encode(bytes(body)).decode("ascii"),
        }
    ).encode()


class H2Session:
    """One HTTP/2 connection: records each stream's head and body, answers when it ends."""

    def __init__(self, reader, writer):
        self.reader = reader
        self.writer = writer
        config = h2.config.H2Configuration(
            client_side=False, header_encoding=None, normalize_inbound_headers=False
        )
        self.connection = h2.connection.H2Connection(config=config)
        self.streams = {}
        self.pending = {}

    async def run(self):
        self.connection.initiate_connection()
        await self.flush()
        while True:
            data = await self.reader.read(READ_SIZE)
            if not data:
                return
            try:
                events = self.connection.receive_data(data)
            except h2.exceptions.ProtocolError:
                await self.flush()
                return
            for event in events:
                self.handle(event)
            await self.flush()

    def handle(self, event):
        if isinstance(event, h2.events.RequestReceived):
            self.streams[event.stream_id] = (list(event.headers), bytearray())
        elif isinstance(event, h2.events.DataReceived):
            if event.stream_id in self.streams:
                self.streams[event.stream_id][1].extend(event.data)
            self.connection.acknowledge_received_data(
                event.flow_controlled_length, event.stream_id
            )
        elif isinstance(event, h2.events.StreamEnded):
            if event.stream_id in self.streams:
                self.respond(event.stream_id)
        elif isinstance(event, h2.events.StreamReset):
            self.streams.pop(event.stream_id, None)
            self.pending.pop(event.stream_id, None)
        elif isinstance(event, h2.events.WindowUpdated):
            for stream_id in list(self.pending):
                self.send_pending(stream_id)

    def respond(self, stream_id):
        headers, body = self.streams.pop(stream_id)
        pseudo = [(n, v) for n, v in headers if n.startswith(b":")]
        fields = [(n, v) for n, v in headers if not n.startswith(b":")]
        values = dict(pseudo)
        method = values.get(b":method", b"")
        payload = answer(
            "2",
            method,
            values.get(b":path", b""),
            values.get(b":authority", b""),
            latin1(values.get(b":scheme", b"")),
            pseudo,
            fields,
            body,
        )
        head = [
            (b":status", b"200"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(payload)).encode()),
        ]
        if method == b"HEAD":
            head.append((b"x-capture", base64.b64encode(payload)))
            self.connection.send_headers(stream_id, head, end_stream=True)
            return
        self.connection.send_headers(stream_id, head)
        self.pending[stream_id] = payload
        self.send_pending(stream_id)

    def send_pending(self, stream_id):
        data = self.pending.get(stream_id, b"")
        while data:
            window = self.connection.local_flow_control_window(stream_id)
            size = min(window, self.connection.max_outbound_frame_size, len(data))
            if size <= 0:
                self.pending[stream_id] = data
                return
            self.connection.send_data(stream_id, data[:size])
            data = data[size:]
        self.pending.pop(stream_id, None)
        self.connection.end_stream(stream_id)

    async def flush(self):
        outgoing = self.connection.data_to_send()
        if outgoing:
            self.writer.write(outgoing)
            await self.writer.drain()


async def serve_http11(reader, writer, scheme):
    """HTTP/1.1 with h11: the fields as spelled on the wire, in order."""
    connection = h11.Connection(h11.SERVER)
    request = None
    body = bytearray()
    while True:
        try:
            event = connection.next_event()
        except h11.RemoteProtocolError:
            return
        if event is h11.NEED_DATA:
            data = await reader.read(READ_SIZE)
            connection.receive_data(data)
            if not data and connection.their_state is not h11.SEND_BODY:
                return
            continue
        if isinstance(event, h11.Request):
            request = event
            body = bytearray()
        elif isinstance(event, h11.Data):
            body.extend(event.data)
        elif isinstance(event, h11.EndOfMessage):
            fields = list(request.headers.raw_items())
            host = next((v for n, v in fields if n.lower() == b"host"), b"")
            payload = answer(
                "1.1", request.method, request.target, host, scheme, [], fields, body
            )
            headers = [
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(payload))),
            ]
            if request.method == b"HEAD":
                headers.append(("X-Capture", base64.b64encode(payload)))
            head = h11.Response(status_code=200, headers=headers)
            outgoing = connection.send(head)
            if request.method != b"HEAD":
                outgoing += connection.send(h11.Data(data=payload))
            outgoing += connection.send(h11.EndOfMessage())
            writer.write(outgoing)
            await writer.drain()
            if connection.our_state is h11.MUST_CLOSE:
                return
            connection.start_next_cycle()
        elif isinstance(event, h11.ConnectionClosed):
            return


async def handle(reader, writer, scheme):
    try:
        ssl_object = writer.get_extra_info("ssl_object")
        protocol = ssl_object.selected_alpn_protocol() if ssl_object else None
        if protocol == "h2":
            await H2Session(reader, writer).run()
        else:
            await serve_http11(reader, writer, scheme)
    except (
        ConnectionError,
        ssl.SSLError,
        asyncio.IncompleteReadError,
        h2.exceptions.H2Error,
        h11.ProtocolError,
    ):
        pass
    finally:
        writer.close()


def tls_context(certs):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(
        os.path.join(certs, "server-cert.pem"), os.path.join(certs, "server-key.pem")
    )
    context.set_alpn_protocols(["h2", "http/1.1"])
    return context


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--certs", required=True)
    parser.add_argument("--port-file", required=True)
    arguments = parser.parse_args()

    tls = await asyncio.start_server(
        lambda r, w: handle(r, w, "https"),
        arguments.host,
        0,
        ssl=tls_context(arguments.certs),
    )
    plain = await asyncio.start_server(lambda r, w: handle(r, w, "http"), arguments.host, 0)
    lines = [
        f"tls {tls.sockets[0].getsockname()[1]}\n",
        f"plain {plain.sockets[0].getsockname()[1]}\n",
    ]
    # Written whole under another name first, so a reader never sees half the file.
    partial = arguments.port_file + ".partial"
    with open(partial, "w") as file:
        file.writelines(lines)
    os.replace(partial, arguments.port_file)
    await asyncio.gather(tls.serve_forever(), plain.serve_forever())


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
