#!/usr/bin/env python3
"""The public API listing of the runtime products, and the figures scripts/api.sh prints.

    api_listing.py listing GRAPH_DIR MODULE...       the listing, sorted, on stdout
    api_listing.py counts LISTING ROOT MODULE... [--enforce]

`listing` reads the symbol graphs `swift package dump-symbol-graph
--emit-extension-block-symbols` wrote (MODULE.symbols.json and MODULE@Other.symbols.json) and
prints one line per public or open symbol and per conformance, fields separated by two spaces:

    EndpointCore  struct  Endpoint  struct Endpoint<Resource>
    EndpointJSON  init  Endpoint.init(json:url:body:headers:)  init<Body>(json method: …) where
        Body : Encodable  [extension where Resource == ()]      (one line in the listing)
    EndpointCore  conformance  HTTPMethod  Swift.Hashable

module (the one that declares it), kind, path, then the declaration as the compiler prints it.
A member of a constrained extension ends with the extension's constraints: the same path can
exist once per extension (`Endpoint.init(json:url:body:headers:)` for decodable resources and
for `Void`), and moving a member between a type and an unconstrained extension is no change. A deprecated
or unavailable symbol ends with `[deprecated *]` or `[unavailable *]` (`*`: every platform).

Left out, because they are not this package's API or change with the toolchain rather than
with the sources: symbols a module only re-exports (dump-symbol-graph already omits them),
members copied onto a type from a protocol's default implementation (`::SYNTHESIZED::`: `!=`,
`AsyncSequence.map`… whose number follows the standard library), and conformances to the
marker protocols a type has implicitly (Copyable, Escapable, and SendableMetatype, which
Sendable implies) with constraints to the first two (a generic type's conditional conformances
all carry `T : Copyable, T : Escapable`). No field holds a path, a line or a checksum, so the
listing is the same on every machine with the same toolchain and platform.

`counts` reads such a listing and the sources under ROOT/Sources and prints the 1.0 figures
against their targets; with --enforce it exits 1 when one is over its target.
"""

import json
import os
import re
import sys

IMPLICIT_CONSTRAINTS = {"Copyable", "Escapable"}
IMPLICIT_CONFORMANCES = IMPLICIT_CONSTRAINTS | {"SendableMetatype"}
# URLSession is in FoundationNetworking on Linux and in Foundation elsewhere: the listing names
# the module readers import on every platform, as scripts/docs.sh does for the documentation.
LINUX_ONLY_FOUNDATION = ("FoundationNetworking.", "FoundationEssentials.", "FoundationXML.")
SEP = "  "


def foundation_name(name):
    for prefix in LINUX_ONLY_FOUNDATION:
        if name.startswith(prefix):
            return "Foundation." + name[len(prefix) :]
    return name


def squeeze(text):
    return re.sub(r"\s+", " ", text).strip()


def constraint_text(constraints):
    parts = []
    for constraint in constraints or []:
        if constraint.get("rhs") in IMPLICIT_CONSTRAINTS:
            continue
        operator = "==" if constraint["kind"] == "sameType" else ":"
        parts.append(f"{constraint['lhs']} {operator} {constraint['rhs']}")
    return ", ".join(parts)


def load_graphs(graph_dir, modules):
    """(module, graph) for each module's own graph and its extension graphs, in name order."""
    graphs = []
    for name in sorted(os.listdir(graph_dir)):
        if not name.endswith(".symbols.json"):
            continue
        module = name[: -len(".symbols.json")].split("@", 1)[0]
        if module not in modules:
            continue
        with open(os.path.join(graph_dir, name), encoding="utf-8") as handle:
            graphs.append((module, json.load(handle)))
    missing = set(modules) - {module for module, _ in graphs}
    if missing:
        sys.exit(f"api: error: no symbol graph for {', '.join(sorted(missing))} in {graph_dir}")
    return graphs


def listing(graph_dir, modules):
    graphs = load_graphs(graph_dir, modules)
    # Where each symbol of the runtime modules is declared, to name conformance targets and
    # sources the same way whichever graph mentions them.
    declared = {}
    for module, graph in graphs:
        for symbol in graph["symbols"]:
            if symbol["kind"]["identifier"] == "swift.extension":
                continue
            declared[symbol["identifier"]["precise"]] = (module, ".".join(symbol["pathComponents"]))

    def name_of(precise, fallback, module):
        if precise in declared:
            owner, path = declared[precise]
            return path if owner == module else f"{owner}.{path}"
        return foundation_name(fallback or precise)

    lines = set()
    for module, graph in graphs:
        extension_blocks = {}
        for symbol in graph["symbols"]:
            precise = symbol["identifier"]["precise"]
            kind = symbol["kind"]["identifier"].removeprefix("swift.")
            path = ".".join(symbol["pathComponents"])
            if kind == "extension":
                # A block only carries members and conformances; its type is outside the module.
                extended = symbol["swiftExtension"]["extendedModule"]
                extension_blocks[precise] = foundation_name(f"{extended}.{path}")
                continue
            if "::SYNTHESIZED::" in precise:
                continue
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            declaration = squeeze("".join(f["spelling"] for f in symbol["declarationFragments"]))
            line = SEP.join([module, kind, path, declaration])
            constraints = constraint_text(symbol.get("swiftExtension", {}).get("constraints"))
            if constraints:
                line += f"{SEP}[extension where {constraints}]"
            # Deprecating or retiring a symbol changes the API as much as removing it; the
            # platforms' `introduced` versions are left out (the standard library's, mostly).
            for availability in symbol.get("availability", []):
                if availability.get("isUnconditionallyUnavailable") or "obsoleted" in availability:
                    line += f"{SEP}[unavailable {availability.get('domain', '*')}]"
                elif "deprecated" in availability or availability.get(
                    "isUnconditionallyDeprecated"
                ):
                    line += f"{SEP}[deprecated {availability.get('domain', '*')}]"
            lines.add(line)
        for relationship in graph.get("relationships", []):
            if relationship["kind"] not in ("conformsTo", "inheritsFrom"):
                continue
            source = relationship["source"]
            if "::SYNTHESIZED::" in source:
                continue
            target = name_of(relationship["target"], relationship.get("targetFallback"), module)
            if target.rsplit(".", 1)[-1] in IMPLICIT_CONFORMANCES:
                continue
            if source in extension_blocks:
                source_name = extension_blocks[source]
            elif source in declared:
                source_name = name_of(source, None, module)
            else:
                continue
            kind = "conformance" if relationship["kind"] == "conformsTo" else "superclass"
            line = SEP.join([module, kind, source_name, target])
            constraints = constraint_text(relationship.get("swiftConstraints"))
            if constraints:
                line += f"{SEP}[where {constraints}]"
            lines.add(line)
    # The graph repeats the conformances a conditional one implies (`MiddlewareClient:
    # HTTPClient where Base: HTTPTransferClient`) even when the type has them unconditionally.
    print("# The public API of Endpoint's runtime products: one line per public or open symbol")
    print("# and per conformance (module, kind, path, declaration), made by scripts/api.sh update.")
    print("# scripts/api.sh check, a stage of scripts/test.sh, fails when the sources differ.")
    for line in sorted(lines):
        fields = line.split(SEP)
        if fields[1] == "conformance" and len(fields) == 5 and SEP.join(fields[:4]) in lines:
            continue
        print(line)


TYPE_KINDS = ("struct", "enum", "class", "actor", "protocol")
# A line that declares something with the `package` modifier: attributes and other modifiers
# may stand before or after it; `package(set)` (a setter's access) and `package import` do not
# declare anything of their own.
PACKAGE_DECLARATION = re.compile(
    r"^\s*(@\w+(\([^)]*\))?\s+)*(\w+(\(set\))?\s+)*package\s+(\w+(\(set\))?\s+)*"
    r"(func|var|let|init|struct|enum|class|actor|protocol|subscript|typealias|extension"
    r"|associatedtype)\b"
)
PUBLIC_LINE = re.compile(r"^\s*(public|open) ")


def swift_lines(directory):
    for base, _, files in sorted(os.walk(directory)):
        for name in sorted(files):
            if name.endswith(".swift"):
                with open(os.path.join(base, name), encoding="utf-8") as handle:
                    yield from handle


def counts(listing_path, root, modules, enforce):
    with open(listing_path, encoding="utf-8") as handle:
        rows = [
            line.rstrip("\n").split(SEP)
            for line in handle
            if line.strip() and not line.startswith("#")
        ]

    types = [row for row in rows if row[1] in TYPE_KINDS]
    by_kind = {kind: sum(1 for row in types if row[1] == kind) for kind in TYPE_KINDS}
    nested = sum(1 for row in types if "." in row[2])
    by_module = {module: sum(1 for row in types if row[0] == module) for module in modules}
    typealiases = sum(1 for row in rows if row[1] == "typealias")

    # Error types: a type conforming to Swift.Error, or to a protocol of these modules that
    # refines it (directly or through another). Names are qualified by module so that
    # same-named types of two modules stay apart; the listing writes a name of its own module
    # without the module (`CurlHTTPClient.ConnectionFailure`), any other with it.
    top_level = {(row[0], row[2]) for row in types if "." not in row[2]}

    def qualified(module, name):
        head = name.split(".", 1)[0]
        return f"{module}.{name}" if (module, head) in top_level else name

    conformances = {}
    for row in rows:
        if row[1] == "conformance":
            conformances.setdefault(qualified(row[0], row[2]), set()).add(qualified(row[0], row[3]))
    protocols = {qualified(row[0], row[2]) for row in rows if row[1] == "protocol"}
    error_protocols = {"Swift.Error"}
    while True:
        grown = error_protocols | {
            name for name in protocols if conformances.get(name, set()) & error_protocols
        }
        if grown == error_protocols:
            break
        error_protocols = grown
    concrete = {qualified(row[0], row[2]) for row in types if row[1] != "protocol"}
    error_types = [name for name in concrete if conformances.get(name, set()) & error_protocols]

    endpoint_inits = [
        row for row in rows if row[1] == "init" and row[2].startswith("Endpoint.init(")
    ]
    init_modules = {
        module: sum(1 for row in endpoint_inits if row[0] == module) for module in modules
    }

    package_lines = sum(
        1 for line in swift_lines(os.path.join(root, "Sources", "EndpointCore"))
        if PACKAGE_DECLARATION.match(line)
    )
    public_lines = sum(
        1 for module in modules for line in swift_lines(os.path.join(root, "Sources", module))
        if PUBLIC_LINE.match(line)
    )

    over = []

    def figure(label, value, target=None, detail=None):
        if target is None:
            verdict = "(no target)"
        elif value <= target:
            verdict = f"target <= {target}: within"
        else:
            verdict = f"target <= {target}: OVER by {value - target}"
            over.append(label)
        print(f"  {label:<40} {value:>5}   {verdict}")
        for text in detail or []:
            print(f"      {text}")

    def spread(table, zeros=False):
        return ", ".join(f"{key} {value}" for key, value in table.items() if value or zeros)

    print(f"api counts: {listing_path} and Sources/ of {', '.join(modules)}")
    figure(
        "public types", len(types), 75,
        [
            spread({("classes" if kind == "class" else f"{kind}s"): n
                    for kind, n in by_kind.items()}, zeros=True),
            f"nested types count like top-level ones: {nested} of the {len(types)} are nested "
            "in another type",
            spread(by_module),
        ],
    )
    figure("public typealiases", typealiases)
    figure(
        "public error types", len(error_types), 12,
        [
            "conforming to Error"
            + "".join(
                " or through " + ", ".join(refining)
                for refining in [sorted(p for p in error_protocols if p != "Swift.Error")]
                if refining
            ),
            ", ".join(sorted(error_types)),
        ],
    )
    figure("public Endpoint initialisers", len(endpoint_inits), 10, [spread(init_modules)])
    figure("package declarations in EndpointCore", package_lines, 10,
           ["lines of Sources/EndpointCore declaring something with the package modifier"])
    figure("public declaration lines", public_lines, None,
           ["lines of Sources/<module> starting with `public ` or `open `"])
    if over:
        print(f"api counts: over the 1.0 target: {', '.join(over)}")
        if enforce:
            return 1
    else:
        print("api counts: every figure is within its 1.0 target")
    return 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "listing":
        listing(argv[2], argv[3:])
        return 0
    if len(argv) >= 4 and argv[1] == "counts":
        enforce = "--enforce" in argv
        args = [arg for arg in argv[2:] if arg != "--enforce"]
        return counts(args[0], args[1], args[2:], enforce)
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
