#!/usr/bin/env python3
"""Writes a synthetic OpenAPI 3.1 document the size of the largest public ones.

    scripts/make-large-openapi.py OUTPUT.json [--operations N] [--schemas N] [--yaml]

With --yaml (or an OUTPUT ending in .yaml or .yml) the same document is written as YAML, in
block style as people write it (PyYAML, python3-yaml); it generates the same source.

By default 1,000 operations in 50 tags and 3,000 schemas: objects of eight to twelve
properties (strings, integers, nullable values, string enums, arrays, maps, references to other
schemas, nested objects), a fifth of them built with allOf, and string enums. Operations have
path, query and header parameters, JSON bodies and responses, and a few no-content responses.
The output is deterministic (a fixed seed), so two runs time the same document. Used by
scripts/bench-openapi.sh; real documents of this size are GitHub's REST description
(https://github.com/github/rest-api-description, descriptions/api.github.com/api.github.com.json)
and Stripe's (https://github.com/stripe/openapi, openapi/spec3.json).
"""
import argparse
import json
import random


def schema_name(index):
    return f"Resource{index:04d}"


def make_schemas(count, rng):
    schemas = {}
    for index in range(count):
        name = schema_name(index)
        if index % 10 == 9:
            schemas[name] = {
                "type": "string",
                "description": f"The state of a resource, kind {index}.",
                "enum": ["open", "closed", "in-progress", "archived"],
            }
            continue
        properties = {
            "id": {"type": "integer", "format": "int64"},
            "node_id": {"type": "string"},
            "name": {"type": "string", "description": "The display name."},
            "created_at": {"type": "string", "format": "date-time"},
            "description": {"type": ["string", "null"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
            "visibility": {"type": "string", "enum": ["public", "private", "internal"]},
        }
        for extra in range(rng.randint(0, 4)):
            # Earlier schemas only, as most documents are: a cycle of required properties
            # would be left out, and the document would measure less than it should.
            target = rng.randrange(index) if index else 0
            if extra % 2 == 0:
                properties[f"related_{extra}"] = {"$ref": f"#/components/schemas/{schema_name(target)}"}
            else:
                properties[f"items_{extra}"] = {
                    "type": "array",
                    "items": {"$ref": f"#/components/schemas/{schema_name(target)}"},
                }
        properties["owner"] = {
            "type": "object",
            "properties": {"login": {"type": "string"}, "id": {"type": "integer"}},
            "required": ["login"],
        }
        schema = {
            "type": "object",
            "description": f"Resource number {index}.",
            "required": ["id", "name"],
            "properties": properties,
        }
        if index % 5 == 0 and index > 0:
            schema = {
                "description": f"Resource number {index}, extending another.",
                "allOf": [{"$ref": f"#/components/schemas/{schema_name(index - 1 if (index - 1) % 10 != 9 else index - 2)}"}, schema],
            }
        schemas[name] = schema
    return schemas


def make_paths(count, schemas, rng):
    objects = [name for name, schema in schemas.items() if schema.get("type") != "string"]
    paths = {}
    tags = [f"area{tag:02d}" for tag in range(50)]
    operation = 0
    while operation < count:
        tag = tags[operation % len(tags)]
        resource = f"things{operation}"
        model = rng.choice(objects)
        collection = f"/{tag}/{{owner}}/{resource}"
        item = f"{collection}/{{id}}"
        owner = {"name": "owner", "in": "path", "required": True, "schema": {"type": "string"}}
        ident = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
        ref = {"$ref": f"#/components/schemas/{model}"}
        json_of = lambda schema: {"application/json": {"schema": schema}}
        paths[collection] = {
            "get": {
                "tags": [tag], "operationId": f"{tag}/list-{resource}",
                "summary": f"List {resource}",
                "parameters": [
                    owner,
                    {"name": "per_page", "in": "query", "schema": {"type": "integer"}},
                    {"name": "page", "in": "query", "schema": {"type": "integer"}},
                    {"name": "sort", "in": "query", "schema": {"type": "string", "enum": ["created", "updated"]}},
                    {"name": "X-Request-Id", "in": "header", "schema": {"type": "string"}},
                ],
                "responses": {"200": {"description": "OK", "content": json_of({"type": "array", "items": ref})}},
            },
            "post": {
                "tags": [tag], "operationId": f"{tag}/create-{resource}",
                "summary": f"Create one of {resource}",
                "parameters": [owner],
                "requestBody": {"required": True, "content": json_of(ref)},
                "responses": {"201": {"description": "Created", "content": json_of(ref)}},
            },
        }
        paths[item] = {
            "parameters": [owner, ident],
            "get": {
                "tags": [tag], "operationId": f"{tag}/get-{resource}",
                "responses": {"200": {"description": "OK", "content": json_of(ref)}},
            },
            "delete": {
                "tags": [tag], "operationId": f"{tag}/delete-{resource}",
                "responses": {"204": {"description": "Deleted"}},
            },
        }
        operation += 4
    return paths


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("output")
    parser.add_argument("--operations", type=int, default=1000)
    parser.add_argument("--schemas", type=int, default=3000)
    parser.add_argument("--yaml", action="store_true", help="write YAML instead of JSON")
    arguments = parser.parse_args()
    rng = random.Random(31)
    schemas = make_schemas(arguments.schemas, rng)
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Synthetic large API", "version": "1.0.0"},
        "paths": make_paths(arguments.operations, schemas, rng),
        "components": {"schemas": schemas},
    }
    as_yaml = arguments.yaml or arguments.output.endswith((".yaml", ".yml"))
    with open(arguments.output, "w", encoding="utf-8") as handle:
        if as_yaml:
            import yaml

            dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
            yaml.dump(document, handle, Dumper=dumper, sort_keys=False, width=100)
        else:
            json.dump(document, handle, indent=1)


if __name__ == "__main__":
    main()
