#!/usr/bin/env bash
# Keeps the public API of the runtime products under review: API/public-api.txt lists it, and
# a change to it shows up as a diff of that file in the commit that makes it.
#
#   scripts/api.sh [check] [swift build flags...]    fail when the API differs from the file
#   scripts/api.sh update [swift build flags...]     rewrite API/public-api.txt
#   scripts/api.sh counts [--enforce]                the 1.0 figures against their targets
#
# check and update: `swift build --build-tests`, then `swift package dump-symbol-graph
# --emit-extension-block-symbols` (as scripts/docs.sh does; it omits symbols a module only
# re-exports), then scripts/api_listing.py turns the graphs of EndpointCore, EndpointJSON,
# EndpointTransport, EndpointTesting, EndpointCurl and EndpointDefaultClient into one sorted
# line per public or open symbol and per conformance (module, kind, path, declaration; what is
# left out and why is said there). EndpointOpenAPI, the OpenAPI generator's library, is a build
# tool that apps never link: it is neither listed nor counted. The graphs and the listing go to .build/api. check fails
# with a unified diff of the checked-in file against the new listing.
#
# counts reads API/public-api.txt and the sources and prints public types, typealiases, error
# types, Endpoint initialisers, `package` declarations in EndpointCore and public declaration
# lines, each beside its 1.0 target; it fails on a target only with --enforce.
#
# Build flags: with none, the project's own (-Xswiftc -warnings-as-errors), so a run after
# scripts/test.sh's build rebuilds nothing; other flags would recompile every module.
# The listing is made on Linux with Swift 6.3.1: another platform or toolchain has other
# symbols (URLSession's Apple-only API, compiler-inferred constraints), so check it there.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MODULES=(EndpointCore EndpointJSON EndpointTransport EndpointTesting EndpointCurl
  EndpointDefaultClient)
LISTING="API/public-api.txt"
OUT=".build/api"

mode="check"
case "${1:-}" in
  check | update | counts)
    mode="$1"
    shift
    ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
  -* | "") ;;
  *)
    echo "usage: scripts/api.sh [check|update|counts] [swift build flags... | --enforce]" >&2
    exit 2
    ;;
esac

if [[ "$mode" == counts ]]; then
  enforce=()
  for arg in "$@"; do
    case "$arg" in
      --enforce) enforce=(--enforce) ;;
      *)
        echo "usage: scripts/api.sh counts [--enforce]" >&2
        exit 2
        ;;
    esac
  done
  [[ -f "$LISTING" ]] || {
    echo "api: error: $LISTING is missing; run scripts/api.sh update and commit it" >&2
    exit 1
  }
  exec python3 scripts/api_listing.py counts "$LISTING" . "${MODULES[@]}" "${enforce[@]}"
fi

if [[ $# == 0 ]]; then
  set -- -Xswiftc -warnings-as-errors
fi

bin_path="$(swift build --show-bin-path "$@")"
dump_dir="$(dirname "$bin_path")/symbolgraph"
# A graph of an extension that no longer exists must not reach the listing.
rm -rf "$dump_dir" "$OUT"
mkdir -p "$OUT/symbol-graphs"

# dump-symbol-graph also extracts the test modules and fails when they are not built.
swift build --build-tests "$@"
echo "api: extracting symbol graphs"
swift package "$@" dump-symbol-graph --emit-extension-block-symbols > /dev/null
for module in "${MODULES[@]}"; do
  for graph in "$dump_dir/$module.symbols.json" "$dump_dir/$module@"*.symbols.json; do
    if [[ -f "$graph" ]]; then cp "$graph" "$OUT/symbol-graphs/"; fi
  done
done
python3 scripts/api_listing.py listing "$OUT/symbol-graphs" "${MODULES[@]}" > "$OUT/public-api.txt"

if [[ "$mode" == update ]]; then
  mkdir -p "$(dirname "$LISTING")"
  if cmp -s "$OUT/public-api.txt" "$LISTING"; then
    echo "api: $LISTING is up to date ($(wc -l < "$LISTING") lines)"
  else
    cp "$OUT/public-api.txt" "$LISTING"
    echo "api: rewrote $LISTING ($(wc -l < "$LISTING") lines); commit it with the change"
  fi
  exit 0
fi

[[ -f "$LISTING" ]] || {
  echo "api: error: $LISTING is missing; run scripts/api.sh update and commit the change" >&2
  exit 1
}
if ! diff -u --label "$LISTING (checked in)" --label "$LISTING (from the sources)" \
  "$LISTING" "$OUT/public-api.txt"; then
  echo >&2
  echo "api: error: the public API differs from $LISTING (- checked in, + now);" \
    "if the change is meant, run scripts/api.sh update and commit the change" >&2
  exit 1
fi
echo "api: ok, the public API matches $LISTING ($(wc -l < "$LISTING") lines)"
