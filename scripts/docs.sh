#!/usr/bin/env bash
# Builds the documentation offline, treating every DocC warning as an error.
#
#   scripts/docs.sh [swift build flags...]
#
# 1. `swift build --build-tests` (extra arguments are passed on, so with scripts/test.sh's flags
#    nothing is rebuilt), then `swift package dump-symbol-graph --emit-extension-block-symbols`
#    writes one symbol graph per module, without the symbols a module only re-exports.
# 2. The graphs of the library modules (and their extension graphs, `Module@Other`) are
#    copied to .build/docs/symbol-graphs.
#    An extension of a type from one of Foundation's Linux-only modules (`URLSession` is in
#    FoundationNetworking there) is filed under Foundation, the module readers import on every
#    platform: the graph `EndpointTransport@FoundationNetworking` becomes
#    `EndpointTransport@Foundation`, its `extendedModule` fields renamed.
#    scripts/docs_lint.py then fails on an abstract that ends in a colon or a path of this
#    repository (`scripts/…`, `Benchmarks/…`) in the catalog or a doc comment.
# 3. `docc convert Docs/Endpoint.docc --warnings-as-errors` makes ONE combined archive,
#    .build/docs/Endpoint.doccarchive: the catalog's root page (Endpoint.md, a technology root)
#    curates the module pages and the articles. Module pages (Modules/EndpointCore.md, a
#    `# ``EndpointCore`` ` page) and type extension files (Extensions/, `# ``EndpointCore/Endpoint`` `)
#    add overviews, task groups and links back to the articles.
# 4. The archive is transformed for static hosting (docc's default), and copied to
#    .build/docs/site with an index.html at the root that redirects to the documentation, so any
#    static web server can serve the directory as is: `python3 -m http.server -d .build/docs/site`.
#    scripts/docs-check.sh serves it and loads the pages in headless Chromium.
#
# Why one combined archive: DocC in Swift 6.3.1 resolves module-qualified links between modules
# (``EndpointCore/Endpoint`` from EndpointJSON) only when all modules are converted together; a
# per-module archive with `--dependency` rejects them. Extension block symbols keep an
# extension's members in the module that declares them, so inside EndpointJSON links to its own
# symbols stay short (``JSONValue``) even in `extension Endpoint`.
#
# Link rules for doc comments that follow from this:
#   - a symbol of the same module: ``JSONValue``, ``Endpoint/request()``;
#   - a symbol of another module: prefix the module, ``EndpointCore/Endpoint``;
#   - an article: <doc:GettingStarted>;
#   - in the articles of Docs/Endpoint.docc every symbol link names its module, since a bare
#     ``Endpoint`` there means the root page of the catalog;
#   - the URLSession extension is ``EndpointTransport/Foundation/URLSession`` (see 2.).
#
# Why module pages and type extension files work in one catalog: the combined archive knows
# every module, so `# ``EndpointCore`` ` extends the module's page and `# ``EndpointCore/Endpoint`` `
# the type's, offline and with --warnings-as-errors; a link that no longer resolves fails the
# build. A module page curates its guides under "Guides", which also puts them in that module's
# sidebar: from any reference page, a guide is one click away.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MODULES=(EndpointCore EndpointJSON EndpointTransport EndpointTesting EndpointCurl EndpointDefaultClient)
CATALOG="Docs/Endpoint.docc"
OUT=".build/docs"
GRAPHS="$OUT/symbol-graphs"
ARCHIVE="$OUT/Endpoint.doccarchive"
SITE="$OUT/site"

DOCC="$(command -v docc || true)"
if [[ -z "$DOCC" ]]; then
  # docc ships beside swift in the toolchain even when it is not on PATH.
  DOCC="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi
[[ -x "$DOCC" ]] || {
  echo "docs: error: docc not found (it ships with the Swift toolchain)" >&2
  exit 1
}

bin_path="$(swift build --show-bin-path "$@")"
dump_dir="$(dirname "$bin_path")/symbolgraph"
# Graphs of modules or extensions that no longer exist must not reach DocC.
rm -rf "$dump_dir" "$GRAPHS" "$ARCHIVE" "$SITE"
mkdir -p "$GRAPHS"

# dump-symbol-graph also extracts the test modules and fails when they are not built; after
# scripts/test.sh's build this is a no-op.
swift build --build-tests "$@"
echo "docs: extracting symbol graphs"
swift package "$@" dump-symbol-graph --emit-extension-block-symbols

for module in "${MODULES[@]}"; do
  [[ -f "$dump_dir/$module.symbols.json" ]] || {
    echo "docs: error: no symbol graph for $module in $dump_dir" >&2
    exit 1
  }
  cp "$dump_dir/$module.symbols.json" "$GRAPHS/"
  for extension in "$dump_dir/$module@"*.symbols.json; do
    [[ -f "$extension" ]] && cp "$extension" "$GRAPHS/"
  done
done

# Linux-only Foundation modules are filed as Foundation (see 2. above).
python3 - "$GRAPHS" <<'PY'
import glob, json, os, sys

LINUX_ONLY = {"FoundationNetworking", "FoundationEssentials", "FoundationXML"}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*@*.symbols.json"))):
    module, extended = os.path.basename(path)[: -len(".symbols.json")].split("@", 1)
    if extended not in LINUX_ONLY:
        continue
    with open(path, encoding="utf-8") as handle:
        graph = json.load(handle)
    for symbol in graph["symbols"]:
        extension = symbol.get("swiftExtension", {})
        if extension.get("extendedModule") in LINUX_ONLY:
            extension["extendedModule"] = "Foundation"
    for relationship in graph.get("relationships", []):
        fallback = relationship.get("targetFallback", "")
        head, _, rest = fallback.partition(".")
        if head in LINUX_ONLY and rest:
            relationship["targetFallback"] = "Foundation." + rest
    target = os.path.join(sys.argv[1], f"{module}@Foundation.symbols.json")
    if os.path.exists(target):
        with open(target, encoding="utf-8") as handle:
            existing = json.load(handle)
        existing["symbols"] += graph["symbols"]
        existing["relationships"] = existing.get("relationships", []) + graph.get(
            "relationships", []
        )
        graph = existing
    with open(target, "w", encoding="utf-8") as handle:
        json.dump(graph, handle)
    os.remove(path)
PY

# Reader-facing text: no abstract ending in a colon, no path of this repository.
python3 scripts/docs_lint.py "$CATALOG" "$GRAPHS"

echo "docs: docc convert $CATALOG ($(ls "$GRAPHS" | tr '\n' ' '))"
"$DOCC" convert "$CATALOG" \
  --additional-symbol-graph-dir "$GRAPHS" \
  --fallback-display-name Endpoint \
  --fallback-bundle-identifier Endpoint \
  --warnings-as-errors \
  --output-path "$ARCHIVE"

# docc transforms the archive for static hosting by default; the site is that archive with a
# root page that sends readers to the documentation.
[[ -f "$ARCHIVE/documentation/endpoint/index.html" ]] || {
  echo "docs: error: $ARCHIVE is not transformed for static hosting" >&2
  exit 1
}
cp -R "$ARCHIVE" "$SITE"
cat > "$SITE/index.html" <<'HTML'
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Endpoint documentation</title>
<meta http-equiv="refresh" content="0; url=documentation/endpoint/">
<link rel="canonical" href="documentation/endpoint/">
</head>
<body>
<p><a href="documentation/endpoint/">Endpoint documentation</a></p>
</body>
</html>
HTML

echo "docs: ok, $ARCHIVE; static site in $SITE"
