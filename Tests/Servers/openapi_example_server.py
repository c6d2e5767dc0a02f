#!/usr/bin/env python3
"""A server that answers the operations of an OpenAPI document, for tests of generated endpoints.

Usage: openapi_example_server.py DOCUMENT.json

It listens on 127.0.0.1 on a free port, prints the port on its first line of output, and stops
when its standard input closes (so it never outlives the test that started it).

Each request is matched to an operation of the document by method and path template, and
checked against it: required path, query and header parameters, integer parameters, and a JSON
request body against its schema (types, required properties, enums, arrays, `allOf`, `oneOf`,
`anyOf`, nullable); a multipart/form-data body part by part (see `check_multipart`). A request that does not conform gets 400 with a JSON object
`{"error": reason}`; no operation, 404. A conforming request gets the operation's first 2xx
response (else its `default`, as 200): the media type's `example`, else the first of its
`examples`, else a value made from the schema with every property present. The last request is
at GET /__last: its method, path, query, headers and body.
"""

import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

DOCUMENT = None
OPERATIONS = []
LAST = {}
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def resolve(node):
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 32:
        reference = node["$ref"]
        if not reference.startswith("#/"):
            raise ValueError(f"only local references are served: {reference}")
        target = DOCUMENT
        for token in reference[2:].split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            target = target[token]
        node = target
        seen += 1
    return node


def template_pattern(template):
    pattern = ""
    for piece in re.split(r"(\{[^}]+\})", template):
        if piece.startswith("{") and piece.endswith("}"):
            pattern += f"(?P<{re.sub(r'[^A-Za-z0-9_]', '_', piece[1:-1])}>[^/]+)"
        else:
            pattern += re.escape(piece)
    return re.compile("^" + pattern + "$")


def load(path):
    global DOCUMENT
    with open(path, encoding="utf-8") as handle:
        DOCUMENT = json.load(handle)
    for template, item in DOCUMENT.get("paths", {}).items():
        shared = item.get("parameters", [])
        for method in METHODS:
            if method not in item:
                continue
            operation = item[method]
            parameters = {}
            for parameter in shared + operation.get("parameters", []):
                parameter = resolve(parameter)
                parameters[(parameter["name"], parameter["in"])] = parameter
            OPERATIONS.append((method.upper(), template_pattern(template), operation, parameters))


def types_of(schema):
    kind = schema.get("type")
    if isinstance(kind, list):
        return kind
    types = [kind] if kind else []
    if schema.get("nullable"):
        types.append("null")
    return types


def check(value, schema, where, depth=0):
    """Returns what is wrong with `value` against `schema`, or None."""
    if depth > 64:
        return None
    schema = resolve(schema or {})
    if value is None:
        types = types_of(schema)
        if "null" in types or not types and not any(k in schema for k in ("allOf", "oneOf")):
            return None
        return f"{where} is null"
    for part in schema.get("allOf", []):
        problem = check(value, part, where, depth + 1)
        if problem:
            return problem
    for key in ("oneOf", "anyOf"):
        if key in schema:
            problems = [check(value, part, where, depth + 1) for part in schema[key]]
            if all(problems):
                return f"{where} matches none of {key}: " + "; ".join(problems)
    if "enum" in schema and value not in schema["enum"]:
        # Generated code keeps unknown values; the server only checks what a client sends.
        return f"{where} is {value!r}, not one of {schema['enum']}"
    types = [t for t in types_of(schema) if t != "null"]
    if types:
        names = {
            "object": dict, "array": list, "string": str, "boolean": bool,
            "integer": int, "number": (int, float),
        }
        fits = any(
            isinstance(value, names.get(t, object)) and not (t in ("integer", "number") and isinstance(value, bool))
            for t in types
        )
        if not fits:
            return f"{where} is {type(value).__name__}, not {'/'.join(types)}"
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                return f"{where} lacks the required property {name!r}"
        properties = schema.get("properties", {})
        for name, item in value.items():
            if name in properties:
                problem = check(item, properties[name], f"{where}.{name}", depth + 1)
                if problem:
                    return problem
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            problem = check(item, schema["items"], f"{where}[{index}]", depth + 1)
            if problem:
                return problem
    return None


def multipart_parts(body, content_type):
    """The parts of a multipart body by name, each (content type, file name, bytes), or a
    string that says what is wrong with the body."""
    match = re.search(r'boundary=("?)([^";]+)\1', content_type or "")
    if not match:
        return "a multipart body without a boundary"
    chunks = body.split(b"--" + match.group(2).encode())
    if len(chunks) < 3 or chunks[0] or chunks[-1] != b"--\r\n":
        return "the multipart body does not start and end with its boundary"
    parts = {}
    for chunk in chunks[1:-1]:
        head, blank, data = chunk.partition(b"\r\n\r\n")
        if not head.startswith(b"\r\n") or not blank or not data.endswith(b"\r\n"):
            return "a part is not delimited by CRLF"
        headers = {}
        for line in head[2:].decode().split("\r\n"):
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        disposition = headers.get("content-disposition", "")
        name = re.search(r'; name="([^"]*)"', disposition)
        if not disposition.startswith("form-data;") or not name:
            return f"a part without a form-data name: {disposition!r}"
        filename = re.search(r'; filename="([^"]*)"', disposition)
        parts.setdefault(name.group(1), []).append(
            (headers.get("content-type"), filename and filename.group(1), data[:-2]))
    return parts


def check_multipart(body, content_type, media):
    """What is wrong with a multipart/form-data body, or None: each part is a property; required
    ones are present; `format: binary` parts are files of the `encoding` media type (else
    application/octet-stream); scalars are text, an array of scalars or of files a part per
    item; anything else one application/json part that matches the property's schema."""
    parts = multipart_parts(body, content_type)
    if isinstance(parts, str):
        return parts
    schema = resolve(media.get("schema", {}))
    properties = schema.get("properties", {})
    for key in schema.get("required", []):
        if key not in parts:
            return f"the required part {key!r} is missing"
    for key, values in parts.items():
        if key not in properties:
            return f"the part {key!r} is not a property of the body"
        prop = resolve(properties[key])
        item = resolve(prop.get("items", {})) if "array" in types_of(prop) else None
        each = item if item is not None and not {"object", "array"} & set(types_of(item)) else prop
        if each is prop and len(values) > 1:
            return f"the part {key!r} is sent {len(values)} times"
        for kind, filename, data in values:
            if each.get("format") == "binary":
                wanted = media.get("encoding", {}).get(key, {}).get(
                    "contentType", "application/octet-stream")
                if kind != wanted or filename is None:
                    return f"the part {key!r} is not a file of {wanted} ({kind}, {filename})"
            elif {"object", "array"} & set(types_of(each)):
                if kind != "application/json":
                    return f"the part {key!r} is in {kind}, not application/json"
                try:
                    value = json.loads(data)
                except ValueError as error:
                    return f"the part {key!r} is not JSON: {error}"
                problem = check(value, each, f"part {key}")
                if problem:
                    return problem
            elif kind is not None or filename is not None:
                return f"the part {key!r} is not a text field ({kind}, {filename})"
            elif "integer" in types_of(each) and not re.fullmatch(rb"-?\d+", data):
                return f"the part {key!r} is {data!r}, not an integer"
    return None


def example_of(schema, depth=0):
    """A value for `schema`, every property present."""
    schema = resolve(schema or {})
    if "example" in schema:
        return schema["example"]
    if "examples" in schema and isinstance(schema["examples"], list) and schema["examples"]:
        return schema["examples"][0]
    if "enum" in schema:
        return schema["enum"][0]
    if depth > 6:
        return None
    if "allOf" in schema:
        merged = {}
        for part in schema["allOf"]:
            value = example_of(part, depth + 1)
            if isinstance(value, dict):
                merged.update(value)
        return merged
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return example_of(schema[key][0], depth + 1)
    types = [t for t in types_of(schema) if t != "null"]
    kind = types[0] if types else ("object" if "properties" in schema else None)
    if kind == "object":
        value = {name: example_of(item, depth + 1) for name, item in schema.get("properties", {}).items()}
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and extra:
            value["additional"] = example_of(extra, depth + 1)
        return value
    if kind == "array":
        return [example_of(schema.get("items", {}), depth + 1)]
    if kind == "integer":
        return 7
    if kind == "number":
        return 1.5
    if kind == "boolean":
        return True
    if kind == "string":
        return {
            "date-time": "2026-01-02T03:04:05Z",
            "date": "2026-01-02",
            "uuid": "00000000-0000-4000-8000-000000000000",
        }.get(schema.get("format"), "text")
    return "any"


def media_example(media):
    if "example" in media:
        return media["example"]
    examples = media.get("examples")
    if isinstance(examples, dict) and examples:
        first = resolve(next(iter(examples.values())))
        if "value" in first:
            return first["value"]
    return example_of(media.get("schema", {}))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def reply(self, status, value=None):
        body = b"" if value is None else json.dumps(value).encode()
        self.send_response(status)
        if value is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if parts.path == "/__last":
            return self.reply(200, LAST)
        LAST.clear()
        LAST.update({
            "method": self.command, "path": parts.path, "query": parts.query,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": body.decode("utf-8", "replace"),
        })
        query = parse_qs(parts.query, keep_blank_values=True)
        for method, pattern, operation, parameters in OPERATIONS:
            match = pattern.match(parts.path)
            if method != self.command or not match:
                continue
            problem = self.check_request(operation, parameters, match, query, body)
            if problem:
                return self.reply(400, {"error": problem})
            return self.answer(operation)
        return self.reply(404, {"error": f"no operation for {self.command} {parts.path}"})

    def check_request(self, operation, parameters, match, query, body):
        for (name, place), parameter in parameters.items():
            schema = resolve(parameter.get("schema", {}))
            if place == "path":
                key = re.sub(r"[^A-Za-z0-9_]", "_", name)
                values = [unquote(match.group(key))] if key in match.groupdict() else []
            elif place == "query":
                values = query.get(name, [])
            elif place == "header":
                values = [self.headers[name]] if name in self.headers else []
            else:
                continue
            if not values:
                if parameter.get("required"):
                    return f"the required {place} parameter {name!r} is missing"
                continue
            if "integer" in types_of(schema) and not all(re.fullmatch(r"-?\d+", v) for v in values):
                return f"the {place} parameter {name!r} is {values}, not an integer"
            if "enum" in schema and not all(v in map(str, schema["enum"]) for v in values):
                return f"the {place} parameter {name!r} is {values}, not one of {schema['enum']}"
        request_body = resolve(operation.get("requestBody", {}))
        if not body:
            if request_body.get("required"):
                return "the required request body is missing"
            return None
        content = request_body.get("content", {})
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        if kind not in content:
            return f"a body in {kind or 'no media type'} where the document lists {sorted(content)}"
        if kind.endswith("json"):
            try:
                value = json.loads(body)
            except ValueError as error:
                return f"the body is not JSON: {error}"
            return check(value, content[kind].get("schema", {}), "body")
        if kind == "multipart/form-data":
            return check_multipart(body, self.headers.get("Content-Type"), content[kind])
        return None

    def answer(self, operation):
        responses = operation.get("responses", {})
        chosen = next((code for code in responses if str(code).startswith("2")), None)
        status = int(chosen) if chosen else 200
        response = resolve(responses.get(chosen if chosen else "default", {}))
        content = response.get("content", {})
        media = content.get("application/json") or next(
            (value for key, value in content.items() if key.endswith("json")), None)
        if media is None or status == 204:
            return self.reply(status)
        return self.reply(status, media_example(media))

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = handle_any


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: openapi_example_server.py DOCUMENT.json")
    load(sys.argv[1])
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Stops when the test closes this process's standard input (or dies).
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
