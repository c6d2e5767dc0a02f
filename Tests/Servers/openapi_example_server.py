#!/usr/bin/env python3
"""A server that answers the operations of an OpenAPI document, for tests of generated endpoints.

Usage: openapi_example_server.py DOCUMENT.json [CONFIGURATION.json]

It listens on 127.0.0.1 on a free port, prints the port on its first line of output, and stops
when its standard input closes (so it never outlives the test that started it).

Each request is matched to an operation of the document by method and path template, and
checked against it: required path, query, header and cookie parameters, integer parameters,
date-times and days (`format: date-time`, `date`, RFC 3339, in parameters and JSON bodies),
path, header and cookie parameters read by their style and explode (see `styled`: `label`
`.a.b` / `.a,b`, `matrix` `;id=1;id=2` / `;id=1,2`, `simple` `k=v,k2=v2` / `k,v,k2,v2`, an
unexploded cookie `name=a,b`), each part percent-decoded (but a header's scalar, sent as it
is) and typed by its schema, a cookie refused when it holds what RFC 6265 does not allow in
one (but the style's `,`), a query's array or object in `form` not exploded split at its
`,`s as sent and then decoded, and a JSON request body against its schema (types, required
properties, additional properties, base64 (`format: byte`), enums, arrays, `allOf`, `oneOf`, `anyOf`, nullable); a multipart/form-data body
part by part (see `check_multipart`). A request that does not conform
gets 400 with a JSON object `{"error": reason}`; no operation, 404. A conforming request gets
the operation's first 2xx response (else its `default`, as 200), or the documented response a
`Prefer: code=404` field names (Prism's convention, for error bodies): the media type's
`example`, else the first of its `examples`, else a value made from the schema with every
property present. A query array in `spaceDelimited` or `pipeDelimited` is split at its ` ` or
`|`. A binary body (a media type that is not JSON, form or multipart) must be of a listed media
type and not empty; a binary answer is the media type's `example` text as UTF-8, in that type.

Pages: a response that documents a `Link` header, with an array example, is served one item a
page, the page number in the query item `page` (1 when absent); every page but the last links to
the next with `rel="next"`, the request's query kept, by an absolute URL when the header's
`example` links by one, else by a path. With a configuration (the generator's, second argument)
whose `pagination` is the cursor style, an operation it applies to answers with its example
object's first array one item a page, the page's `cursorField` the next page's cursor and its
`hasMoreField` true but on the last page, whose cursor names a page that does not exist (a
client that follows it is refused: only the has-more field ends the walk).

The last request is at GET /__last, every request at GET /__requests: each its method, path,
query, headers, body (as UTF-8, and `bytes`, as base64) and `parsed`: the path, header and cookie
parameters, and the query's delimited arrays, as read, by place and name
(`{"path": {"id": [1, 2]}}`).
"""

import base64
import json
import re
from datetime import datetime
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, parse_qsl, unquote, urlencode, urlsplit

DOCUMENT = None
PAGINATION = None
OPERATIONS = []
REQUESTS = []
LOCK = threading.Lock()
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
    problem = date_time_problem(value, schema, where)
    if problem:
        return problem
    if schema.get("format") == "byte" and isinstance(value, str):
        try:
            base64.b64decode(value, validate=True)
        except ValueError:
            return f"{where} is {value!r}, not base64"
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
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in properties:
                problem = check(item, properties[name], f"{where}.{name}", depth + 1)
            elif extra is False:
                problem = f"{where} has {name!r}, which its schema does not allow"
            else:
                problem = check(item, extra if isinstance(extra, dict) else {}, f"{where}.{name}",
                                depth + 1)
            if problem:
                return problem
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            problem = check(item, schema["items"], f"{where}[{index}]", depth + 1)
            if problem:
                return problem
    return None


class Refusal(Exception):
    """What is wrong with a parameter, for a 400."""


RFC3339 = {
    "date-time": re.compile(
        r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})"),
    "date": re.compile(r"\d{4}-\d{2}-\d{2}"),
}


def date_time_problem(value, schema, where):
    """What is wrong with a string of `format: date-time` or `date` (RFC 3339, a day that
    exists), or None."""
    form = schema.get("format")
    if form not in RFC3339 or not isinstance(value, str):
        return None
    if RFC3339[form].fullmatch(value):
        try:
            datetime.fromisoformat(value.upper().replace("Z", "+00:00"))
            return None
        except ValueError:
            pass
    return f"{where} is {value!r}, not an RFC 3339 {form}"


def typed(text, schema, where):
    """`text` (already percent-decoded) as the scalar `schema` describes."""
    schema = resolve(schema or {})
    types = types_of(schema)
    if "integer" in types:
        if not re.fullmatch(r"-?\d+", text):
            raise Refusal(f"{where} is {text!r}, not an integer")
        value = int(text)
    elif "number" in types:
        try:
            value = float(text)
        except ValueError:
            raise Refusal(f"{where} is {text!r}, not a number") from None
    elif "boolean" in types:
        if text not in ("true", "false"):
            raise Refusal(f"{where} is {text!r}, not true or false")
        value = text == "true"
    else:
        value = text
    problem = date_time_problem(value, schema, where)
    if problem:
        raise Refusal(problem)
    if "enum" in schema and value not in schema["enum"]:
        raise Refusal(f"{where} is {value!r}, not one of {schema['enum']}")
    return value


def assignments(items, where):
    """`["k=v", ...]` as pairs."""
    pairs = []
    for item in items:
        key, equals, value = item.partition("=")
        if not equals:
            raise Refusal(f"{where} has {item!r} where key=value belongs")
        pairs.append((key, value))
    return pairs


def alternating(items, where):
    """`["k", "v", ...]` as pairs."""
    if len(items) % 2:
        raise Refusal(f"{where} has a key without a value: {items}")
    return list(zip(items[0::2], items[1::2]))


def styled(raw, parameter, schema, decode):
    """The value of a path, header or cookie parameter from its text as sent, by its style
    (`label`, `matrix`, `simple`; `form` for a cookie or query) and explode, each part decoded with
    `decode` and typed by its schema; raises `Refusal` when the text does not fit."""
    name, place = parameter["name"], parameter["in"]
    style = parameter.get("style", "form" if place in ("cookie", "query") else "simple")
    explode = parameter.get("explode", style == "form")
    where = f"the {place} parameter {name!r}"
    types = types_of(schema)
    kind = "array" if "array" in types else (
        "object" if "object" in types or "properties" in schema else "scalar")
    pairs = None
    if style == "label":
        if not raw.startswith("."):
            raise Refusal(f"{where} is {raw!r}, without the '.' of the label style")
        items = [raw[1:]] if kind == "scalar" else raw[1:].split("." if explode else ",")
        if kind == "object":
            pairs = (assignments if explode else alternating)(items, where)
    elif style == "matrix":
        if not raw.startswith(";"):
            raise Refusal(f"{where} is {raw!r}, without the ';' of the matrix style")
        segments = assignments(raw[1:].split(";"), where)
        if kind == "object" and explode:
            pairs = segments
        else:
            for key, _ in segments:
                if decode(key) != name:
                    raise Refusal(f"{where} is {raw!r}, which names {key!r}, not {name!r}")
            if kind == "array" and explode:
                items = [value for _, value in segments]
            elif len(segments) != 1:
                raise Refusal(f"{where} is {raw!r}, which names it {len(segments)} times")
            else:
                text = segments[0][1]
                items = [text] if kind == "scalar" else text.split(",")
                if kind == "object":
                    pairs = alternating(items, where)
    elif style == "simple" or (style == "form" and (kind == "scalar" or not explode)):
        items = [raw] if kind == "scalar" else raw.split(",")
        if kind == "object":
            pairs = (assignments if explode and style == "simple" else alternating)(items, where)
    else:
        raise Refusal(f"{where} is in the {style} style exploded, which this server does not read")
    if kind == "object":
        properties = schema.get("properties", {})
        value = {}
        for key, text in pairs:
            key = decode(key)
            if key not in properties:
                raise Refusal(
                    f"{where} has {key!r}, not one of its properties {sorted(properties)}")
            if key in value:
                raise Refusal(f"{where} has {key!r} twice")
            value[key] = typed(decode(text), properties[key], f"{where}'s {key!r}")
        for key in schema.get("required", []):
            if key not in value:
                raise Refusal(f"{where} lacks the required property {key!r}")
        return value
    if kind == "array":
        item = resolve(schema.get("items", {}))
        return [typed(decode(text), item, f"{where}[{index}]") for index, text in enumerate(items)]
    return typed(decode(items[0]), schema, where)


def cookies(header):
    """The cookies of a `Cookie` field by name, as sent, or raises `Refusal`."""
    found = {}
    for pair in (header or "").split(";"):
        if not pair.strip():
            continue
        name, equals, value = pair.strip().partition("=")
        if not equals:
            raise Refusal(f"the cookie {pair.strip()!r} has no '='")
        # RFC 6265's cookie-octet: visible ASCII but `"` `,` `;` `\`; the `,` that the `form`
        # style puts between an array's or object's values is let through.
        wrong = next((c for c in value if not "!" <= c <= "~" or c in '";\\'), None)
        if wrong is not None:
            raise Refusal(f"the cookie {name!r} holds {wrong!r}, which a cookie value cannot")
        if name in found:
            raise Refusal(f"the cookie {name!r} is sent twice")
        found[name] = value
    return found


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

    def reply(self, status, value=None, headers=()):
        body = b"" if value is None else json.dumps(value).encode()
        self.send_response(status)
        if value is not None:
            self.send_header("Content-Type", "application/json")
        for name, text in headers:
            self.send_header(name, text)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with LOCK:
            if parts.path == "/__last":
                return self.reply(200, REQUESTS[-1] if REQUESTS else {})
            if parts.path == "/__requests":
                return self.reply(200, REQUESTS)
            record = {
                "method": self.command, "path": parts.path, "query": parts.query,
                "headers": {name.lower(): value for name, value in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
                "bytes": base64.b64encode(body).decode(), "parsed": {},
            }
            REQUESTS.append(record)
        query = parse_qs(parts.query, keep_blank_values=True)
        for method, pattern, operation, parameters in OPERATIONS:
            match = pattern.match(parts.path)
            if method != self.command or not match:
                continue
            try:
                problem = self.check_request(
                    operation, parameters, match, query, body, record["parsed"], parts.query)
            except Refusal as refusal:
                problem = str(refusal)
            if problem:
                return self.reply(400, {"error": problem})
            return self.answer(operation, parameters, query)
        return self.reply(404, {"error": f"no operation for {self.command} {parts.path}"})

    def check_request(self, operation, parameters, match, query, body, parsed, raw_query):
        sent_cookies = cookies(self.headers.get("Cookie"))
        for (name, place), parameter in parameters.items():
            schema = resolve(parameter.get("schema", {}))
            if place == "path":
                key = re.sub(r"[^A-Za-z0-9_]", "_", name)
                values = [match.group(key)] if key in match.groupdict() else []
            elif place == "query":
                values = query.get(name, [])
                if values and parameter.get("style", "form") == "form" and (
                        parameter.get("explode") is False) and (
                        {"array", "object"} & set(types_of(schema)) or "properties" in schema):
                    # Split where the query has a `,` as it is, then each value decoded: a
                    # value's own `,` is `%2C` (RFC 6570).
                    pairs = (pair.partition("=") for pair in raw_query.split("&"))
                    raw = next(text for key, _, text in pairs if unquote(key) == name)
                    parsed.setdefault(place, {})[name] = styled(raw, parameter, schema, unquote)
                    continue
                delimiter = {"spaceDelimited": " ", "pipeDelimited": "|"}.get(parameter.get("style"))
                if values and delimiter and "array" in types_of(schema):
                    item = resolve(schema.get("items", {}))
                    where = f"the query parameter {name!r}"
                    parsed.setdefault(place, {})[name] = [
                        typed(text, item, f"{where}[{index}]")
                        for index, text in enumerate(values[-1].split(delimiter))]
                    continue
            elif place == "header":
                values = [self.headers[name]] if name in self.headers else []
            else:
                values = [sent_cookies[name]] if name in sent_cookies else []
            if not values:
                if parameter.get("required"):
                    return f"the required {place} parameter {name!r} is missing"
                continue
            if place != "query":
                # Path segments and cookies are percent-encoded, and so are the values of a
                # header's array or object (RFC 6570); a scalar header is sent as it is.
                scalar = not {"array", "object"} & set(types_of(schema)) and (
                    "properties" not in schema)
                decode = (lambda text: text) if place == "header" and scalar else unquote
                parsed.setdefault(place, {})[name] = styled(values[0], parameter, schema, decode)
                continue
            if "integer" in types_of(schema) and not all(re.fullmatch(r"-?\d+", v) for v in values):
                return f"the {place} parameter {name!r} is {values}, not an integer"
            if "enum" in schema and not all(v in map(str, schema["enum"]) for v in values):
                return f"the {place} parameter {name!r} is {values}, not one of {schema['enum']}"
            for value in values:
                problem = date_time_problem(value, schema, f"the {place} parameter {name!r}")
                if problem:
                    return problem
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
        # Form bodies are not checked here; a binary one only by its media type, and not empty.
        return None

    def answer(self, operation, parameters, query):
        responses = operation.get("responses", {})
        chosen = next((code for code in responses if str(code).startswith("2")), None)
        preferred = re.fullmatch(r"\s*code=(\d{3})\s*", self.headers.get("Prefer") or "")
        if preferred and preferred.group(1) in responses:
            chosen = preferred.group(1)
        status = int(chosen) if chosen else 200
        response = resolve(responses.get(chosen if chosen else "default", {}))
        content = response.get("content", {})
        media = content.get("application/json") or next(
            (value for key, value in content.items() if key.endswith("json")), None)
        if media is None and content and status != 204:
            kind, binary = next(iter(content.items()))
            data = str(binary.get("example", "")).encode()
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return None
        if media is None or status == 204:
            return self.reply(status)
        value = media_example(media)
        link = next(
            (resolve(header) for name, header in response.get("headers", {}).items()
             if name.lower() == "link"), None)
        if link is not None and isinstance(value, list):
            return self.answer_linked_page(status, value, link, query)
        cursor = self.cursor_pagination(operation, parameters)
        if cursor is not None and isinstance(value, dict):
            return self.answer_cursor_page(status, value, cursor, query)
        return self.reply(status, value)

    def answer_linked_page(self, status, items, link, query):
        """Page `page` of `items`, one item a page, linking to the next."""
        text = query.get("page", ["1"])[-1]
        if not re.fullmatch(r"\d+", text) or not 1 <= int(text) <= len(items):
            return self.reply(400, {"error": f"there is no page {text!r} of {len(items)}"})
        page = int(text)
        headers = []
        if page < len(items):
            kept = [(k, v) for k, v in parse_qsl(urlsplit(self.path).query) if k != "page"]
            target = urlsplit(self.path).path + "?" + urlencode(kept + [("page", page + 1)])
            if re.match(r"\s*<[A-Za-z][A-Za-z0-9+.-]*:", str(link.get("example", ""))):
                host, port = self.server.server_address[:2]
                target = f"http://{host}:{port}{target}"
            headers.append(("Link", f'<{target}>; rel="next"'))
        return self.reply(status, [items[page - 1]], headers)

    def cursor_pagination(self, operation, parameters):
        """The configuration's cursor pagination when it applies to `operation`, else None."""
        if not PAGINATION or PAGINATION.get("style") != "cursor":
            return None
        listed = PAGINATION.get("operations")
        if listed is not None and operation.get("operationId") not in listed:
            return None
        if (PAGINATION.get("cursorParameter"), "query") not in parameters:
            return None
        return PAGINATION

    def answer_cursor_page(self, status, example, pagination, query):
        """The page a cursor names of the example's first array, one item a page."""
        key = next((name for name, value in example.items() if isinstance(value, list)), None)
        if key is None:
            return self.reply(status, example)
        items = example[key]

        def token(page):
            # Characters a query must escape, so a cursor sent as it was read arrives intact.
            return f"page {page}/{len(items)}+"

        sent = query.get(pagination["cursorParameter"], [None])[-1]
        pages = {token(page): page for page in range(2, len(items) + 1)}
        if sent is not None and sent not in pages:
            return self.reply(400, {"error": f"the cursor {sent!r} names no page"})
        page = pages.get(sent, 1)
        value = dict(example)
        value[key] = [items[page - 1]]
        value[pagination["cursorField"]] = token(page + 1)
        if pagination.get("hasMoreField"):
            value[pagination["hasMoreField"]] = page < len(items)
        return self.reply(status, value)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = handle_any


def main():
    global PAGINATION
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: openapi_example_server.py DOCUMENT.json [CONFIGURATION.json]")
    load(sys.argv[1])
    if len(sys.argv) == 3:
        with open(sys.argv[2], encoding="utf-8") as handle:
            PAGINATION = json.load(handle).get("pagination")
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Stops when the test closes this process's standard input (or dies).
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
