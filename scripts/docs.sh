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
# 3. `docc convert Docs/Endpoint.docc --warnings-as-errors` makes ONE combined archive,
#    .build/docs/Endpoint.doccarchive: the catalog's root page (Endpoint.md, a technology root)
#    curates the four module pages and the articles.
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
#     ``Endpoint`` there means the root page of the catalog.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MODULES=(EndpointCore EndpointJSON EndpointTransport EndpointTesting EndpointCurl EndpointDefaultClient)
CATALOG="Docs/Endpoint.docc"
OUT=".build/docs"
GRAPHS="$OUT/symbol-graphs"
ARCHIVE="$OUT/Endpoint.doccarchive"

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
rm -rf "$dump_dir" "$GRAPHS" "$ARCHIVE"
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

echo "docs: docc convert $CATALOG ($(ls "$GRAPHS" | tr '\n' ' '))"
"$DOCC" convert "$CATALOG" \
  --additional-symbol-graph-dir "$GRAPHS" \
  --fallback-display-name Endpoint \
  --fallback-bundle-identifier Endpoint \
  --warnings-as-errors \
  --output-path "$ARCHIVE"

echo "docs: ok, $ARCHIVE"
