#!/usr/bin/env python3
"""Converts a Swagger 2.0 document (JSON) to OpenAPI 3.0, for endpoint-openapi, which reads
OpenAPI 3.0 and 3.1 only.

    scripts/swagger2-to-openapi3.py SWAGGER.json [OPENAPI.json]

Writes to standard output without OPENAPI.json. It converts what Swagger 2.0 documents use:
`definitions`, `parameters` and `responses` go to `components` (every local `$ref` rewritten);
an `in: body` parameter becomes a `requestBody` with a media type per `consumes`; `formData`
parameters a form or multipart body of one object (`type: file` a binary string); a response's
`schema` a `content` per `produces`; a non-body parameter's `type`, `format`, `items` and
`collectionFormat` its `schema`, `style` and `explode`; `host`, `basePath` and `schemes` the
`servers`; security definitions the security schemes; a schema's `discriminator` its 3.0 form
and `x-nullable` `nullable`. Descriptions, `operationId`, `tags` and `x-` extensions are kept.
An operation's own `schemes` are dropped (3.0 has no such key; without `host` there is no URL
to make of them).

What has no OpenAPI 3.0 equivalent (a `tsv` collection, arrays of arrays in a parameter, a
parameter both `body` and `formData` in one operation, ...) is an error on standard error,
naming where it is, and the exit status is 1; nothing is written then.
"""

import json
import sys

METHODS = ("get", "put", "post", "delete", "options", "head", "patch")
# collectionFormat -> (style, explode) by parameter location; multi is an exploded form.
STYLES = {
    "csv": {"query": ("form", False), "path": ("simple", False), "header": ("simple", False),
            "formData": ("form", False)},
    "ssv": {"query": ("spaceDelimited", False), "formData": ("spaceDelimited", False)},
    "pipes": {"query": ("pipeDelimited", False), "formData": ("pipeDelimited", False)},
    "multi": {"query": ("form", True), "formData": ("form", True)},
}
SCHEMA_KEYS = ("type", "format", "items", "enum", "default", "minimum", "maximum",
               "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern",
               "minItems", "maxItems", "uniqueItems", "multipleOf")


class Unconvertible(Exception):
    def __init__(self, where, message):
        super().__init__(f"{where}: {message}")


def pointer(*parts):
    return "#/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def ref(target):
    """A local reference rewritten to where OpenAPI 3.0 keeps it; others are left as they are."""
    for old, new in (("#/definitions/", "#/components/schemas/"),
                     ("#/parameters/", "#/components/parameters/"),
                     ("#/responses/", "#/components/responses/")):
        if target.startswith(old):
            return new + target[len(old):]
    return target


def schema(node, where):
    """A Swagger schema as an OpenAPI 3.0 schema: `$ref`s, `discriminator`, `x-nullable` and
    `type: file` rewritten, at every depth."""
    if isinstance(node, list):
        return [schema(item, f"{where}/{i}") for i, item in enumerate(node)]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str):
            out[key] = ref(value)
        elif key == "discriminator" and isinstance(value, str):
            out[key] = {"propertyName": value}
        elif key == "x-nullable":
            out["nullable"] = value
        elif key == "type" and value == "file":
            out.update(type="string", format="binary")
        elif key in ("properties", "definitions", "patternProperties"):
            out[key] = {name: schema(v, f"{where}/{key}/{name}") for name, v in value.items()}
        elif key.startswith("x-") or key in ("example", "enum", "default", "required"):
            out[key] = value
        else:
            out[key] = schema(value, f"{where}/{key}")
    return out


def items_schema(node, where):
    """The schema of a non-body parameter (or a header, or an item of either)."""
    out = {key: node[key] for key in SCHEMA_KEYS if key in node and key != "items"}
    if node.get("type") == "file":
        out.update(type="string", format="binary")
    if "items" in node:
        items = node["items"]
        if items.get("type") == "array":
            raise Unconvertible(f"{where}/items", "an array of arrays has no OpenAPI 3.0 style")
        out["items"] = items_schema(items, f"{where}/items")
    return out


def style(node, location, where):
    """The style and explode of a non-body parameter's collectionFormat (csv by default)."""
    if node.get("type") != "array":
        return {}
    collection = node.get("collectionFormat", "csv")
    chosen = STYLES.get(collection, {}).get(location)
    if chosen is None:
        raise Unconvertible(f"{where}/collectionFormat",
                            f"collectionFormat {collection} in {location} has no OpenAPI 3.0 style")
    return {"style": chosen[0], "explode": chosen[1]}


def extensions(node):
    return {key: value for key, value in node.items() if key.startswith("x-")}


def parameter(node, where):
    """A query, path, header or formData parameter as an OpenAPI 3.0 parameter."""
    location = node["in"]
    if node.get("type") == "file" and location != "formData":
        raise Unconvertible(where, f"a file parameter in {location}")
    out = {"name": node["name"], "in": location}
    for key in ("description", "required", "allowEmptyValue"):
        if key in node:
            out[key] = node[key]
    out.update(style(node, location, where))
    out["schema"] = items_schema(node, where)
    out.update(extensions(node))
    return out


def media_types(types, fallback):
    return list(types) if types else [fallback]


def form_body(parameters, consumes, where):
    """The formData parameters as one object, urlencoded or multipart as `consumes` says."""
    properties, required, encoding = {}, [], {}
    for node, at in parameters:
        converted = parameter(node, at)
        properties[node["name"]] = dict(converted["schema"],
                                        **({"description": node["description"]}
                                           if "description" in node else {}))
        if node.get("required"):
            required.append(node["name"])
        if "style" in converted:
            encoding[node["name"]] = {"style": converted["style"], "explode": converted["explode"]}
    body = {"type": "object", "properties": properties}
    if required:
        body["required"] = required
    has_file = any(node.get("type") == "file" for node, _ in parameters)
    forms = [t for t in consumes
             if t.split(";")[0].strip() in ("multipart/form-data",
                                            "application/x-www-form-urlencoded")]
    if not forms:
        forms = ["multipart/form-data" if has_file else "application/x-www-form-urlencoded"]
    if has_file and "multipart/form-data" not in forms:
        raise Unconvertible(where, "a file parameter in a body that is not multipart/form-data")
    content = {}
    for media in forms:
        content[media] = {"schema": body}
        if encoding:
            content[media]["encoding"] = encoding
    return {"content": content, "required": bool(required)}


def body(node, consumes):
    out = {}
    if "description" in node:
        out["description"] = node["description"]
    item = schema(node.get("schema", {}), "")
    out["content"] = {media: {"schema": item}
                      for media in media_types(consumes, "application/json")}
    if node.get("required"):
        out["required"] = True
    out.update(extensions(node))
    out["x-codegen-request-body-name"] = node["name"]
    return out


def response(node, produces, where):
    if "$ref" in node:
        return {"$ref": ref(node["$ref"])}
    out = {"description": node.get("description", "")}
    if "headers" in node:
        out["headers"] = {}
        for name, header in node["headers"].items():
            converted = {"schema": items_schema(header, f"{where}/headers/{name}")}
            if "description" in header:
                converted["description"] = header["description"]
            converted.update(style(header, "header", f"{where}/headers/{name}"))
            out["headers"][name] = converted
    if "schema" in node:
        item = schema(node["schema"], f"{where}/schema")
        examples = node.get("examples", {})
        out["content"] = {}
        for media in media_types(produces, "application/json"):
            out["content"][media] = {"schema": item}
            if media in examples:
                out["content"][media]["example"] = examples[media]
    out.update(extensions(node))
    return out


def operation(node, inherited, document, where):
    """An operation, with its path's parameters `inherited` (those it does not override)."""
    consumes = node.get("consumes", document.get("consumes", []))
    produces = node.get("produces", document.get("produces", []))
    own = [(p, f"{where}/parameters/{i}") for i, p in enumerate(node.get("parameters", []))]
    names = {(resolve(p, document)["name"], resolve(p, document)["in"]) for p, _ in own}
    listed = own + [(p, at) for p, at in inherited
                    if (resolve(p, document)["name"], resolve(p, document)["in"]) not in names]
    out = {}
    for key in ("tags", "summary", "description", "externalDocs", "operationId", "deprecated"):
        if key in node:
            out[key] = node[key]
    parameters, bodies, forms = [], [], []
    for item, at in listed:
        resolved = resolve(item, document)
        if resolved["in"] == "body":
            bodies.append((item, resolved))
        elif resolved["in"] == "formData":
            forms.append((resolved, at))
        elif "$ref" in item:
            parameters.append({"$ref": ref(item["$ref"])})
        else:
            parameters.append(parameter(item, at))
    if parameters:
        out["parameters"] = parameters
    if len(bodies) > 1 or (bodies and forms):
        raise Unconvertible(where, "more than one body (body and formData parameters)")
    if bodies:
        item, resolved = bodies[0]
        if "$ref" in item and not node.get("consumes"):
            out["requestBody"] = {"$ref": "#/components/requestBodies/"
                                  + item["$ref"].rsplit("/", 1)[-1]}
        else:
            out["requestBody"] = body(resolved, consumes)
    elif forms:
        out["requestBody"] = form_body(forms, consumes, where)
    out["responses"] = {code: response(r, produces, f"{where}/responses/{code}")
                        for code, r in node.get("responses", {}).items()}
    for key in ("security",):
        if key in node:
            out[key] = node[key]
    out.update(extensions(node))
    return out


def resolve(node, document):
    """A parameter, or the one of `#/parameters` its `$ref` names."""
    target = node.get("$ref")
    if target is None:
        return node
    if not target.startswith("#/parameters/"):
        raise Unconvertible(target, "a parameter $ref outside #/parameters")
    name = target[len("#/parameters/"):]
    if name not in document.get("parameters", {}):
        raise Unconvertible(target, "the parameter it names does not exist")
    return document["parameters"][name]


def security_scheme(node, where):
    kind = node.get("type")
    out = {key: node[key] for key in ("description",) if key in node}
    if kind == "basic":
        out.update(type="http", scheme="basic")
    elif kind == "apiKey":
        out.update(type="apiKey", name=node["name"], **{"in": node["in"]})
    elif kind == "oauth2":
        flow = {"implicit": "implicit", "password": "password",
                "application": "clientCredentials", "accessCode": "authorizationCode"}
        if node.get("flow") not in flow:
            raise Unconvertible(where, f"an oauth2 flow {node.get('flow')!r}")
        converted = {"scopes": node.get("scopes", {})}
        for key in ("authorizationUrl", "tokenUrl"):
            if key in node:
                converted[key] = node[key]
        out.update(type="oauth2", flows={flow[node["flow"]]: converted})
    else:
        raise Unconvertible(where, f"a security scheme of type {kind!r}")
    out.update(extensions(node))
    return out


def servers(document):
    base = document.get("basePath", "")
    host = document.get("host")
    if host is None:
        return [{"url": base or "/"}]
    return [{"url": f"{scheme}://{host}{base}"} for scheme in document.get("schemes", ["https"])]


def convert(document):
    if not isinstance(document, dict) or document.get("swagger") != "2.0":
        found = document.get("openapi") or document.get("swagger") \
            if isinstance(document, dict) else None
        raise Unconvertible("#/swagger", f"not a Swagger 2.0 document (found {found!r})")
    out = {"openapi": "3.0.3"}
    for key in ("info",):
        out[key] = document.get(key, {})
    out["servers"] = servers(document)
    for key in ("tags", "externalDocs", "security"):
        if key in document:
            out[key] = document[key]
    out.update(extensions(document))
    out["paths"] = {}
    for path, item in document.get("paths", {}).items():
        where = pointer("paths", path)
        if "$ref" in item:
            raise Unconvertible(where, "a path item $ref")
        converted = extensions(item)
        inherited = [(p, f"{where}/parameters/{i}")
                     for i, p in enumerate(item.get("parameters", []))]
        # Path-level bodies go to each operation; the others stay at the path level.
        shared = [(p, at) for p, at in inherited
                  if resolve(p, document)["in"] not in ("body", "formData")]
        if shared:
            converted["parameters"] = [{"$ref": ref(p["$ref"])} if "$ref" in p else parameter(p, at)
                                       for p, at in shared]
        for method in METHODS:
            if method in item:
                bodies = [(p, at) for p, at in inherited if (p, at) not in shared]
                converted[method] = operation(item[method], bodies, document, f"{where}/{method}")
        out["paths"][path] = converted
    components = {}
    if "definitions" in document:
        components["schemas"] = {name: schema(node, pointer("definitions", name))
                                 for name, node in document["definitions"].items()}
    for name, node in document.get("parameters", {}).items():
        at = pointer("parameters", name)
        if node["in"] == "body":
            components.setdefault("requestBodies", {})[name] = body(node, document.get("consumes"))
        elif node["in"] != "formData":  # formData parameters are written into each body
            components.setdefault("parameters", {})[name] = parameter(node, at)
    if "responses" in document:
        components["responses"] = {
            name: response(node, document.get("produces"), pointer("responses", name))
            for name, node in document["responses"].items()}
    if "securityDefinitions" in document:
        components["securitySchemes"] = {
            name: security_scheme(node, pointer("securityDefinitions", name))
            for name, node in document["securityDefinitions"].items()}
    if components:
        out["components"] = components
    return out


def main(arguments):
    if len(arguments) not in (1, 2):
        print("usage: swagger2-to-openapi3.py SWAGGER.json [OPENAPI.json]", file=sys.stderr)
        return 2
    try:
        with open(arguments[0]) as handle:
            converted = convert(json.load(handle))
    except (OSError, json.JSONDecodeError) as error:
        print(f"swagger2-to-openapi3: error: {arguments[0]}: {error}", file=sys.stderr)
        return 1
    except Unconvertible as error:
        print(f"swagger2-to-openapi3: error: cannot convert {error}", file=sys.stderr)
        return 1
    except (KeyError, TypeError, AttributeError) as error:
        print(f"swagger2-to-openapi3: error: not a valid Swagger 2.0 document ({error!r})",
              file=sys.stderr)
        return 1
    text = json.dumps(converted, indent=1, ensure_ascii=False) + "\n"
    if len(arguments) == 2:
        with open(arguments[1], "w") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
