#!/usr/bin/env bash
# Type-checks every Swift code sample of the documentation against the built modules.
#
#   scripts/check-doc-samples.sh [swift build flags...]
#
# Covers the ```swift blocks of the catalog's Markdown files (Docs/Endpoint.docc, its module pages
# and type extension files included) and README.md. Blocks marked
# ```swift-other (other libraries' code) or ```swift-fragment (a piece that cannot stand alone,
# such as a Package.swift excerpt) are not Swift to the checker and are skipped.
#
# scripts/doc_samples.py writes one Swift file per Markdown file into .build/doc-samples:
# declarations at file scope, each block's statements wrapped in their own `func sample_N()`.
# Each is type-checked together with its prelude, Docs/Samples/<Name>.swift, which declares the
# names the samples assume (a base URL, a User type, a token...). Diagnostics point at the
# Markdown file and line. Extra arguments are the build flags of scripts/test.sh, so the
# modules come from the same build.
#
# Package.swift samples (a block that imports PackageDescription, or one of only `.package(...)`
# dependencies) are type-checked against the toolchain's PackageDescription instead.
#
# It also fails when a line of a Swift or plain code block is wider than 80 columns, in these
# files or in a `///` doc comment of Sources/: a wider line is cut off in the rendered page.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

OUT=".build/doc-samples"
PRELUDES="Docs/Samples"
mapfile -t SOURCES < <(find Docs/Endpoint.docc -name '*.md' | sort)
SOURCES+=(README.md)
COLUMNS_MAX=80
LIBRARIES=(EndpointCore EndpointJSON EndpointTransport EndpointTesting EndpointCurl EndpointDefaultClient)

build_args=()
for library in "${LIBRARIES[@]}"; do build_args+=(--target "$library"); done
# A no-op after scripts/test.sh's build stage; builds the modules when run on its own.
swift build "$@" "${build_args[@]}" > /dev/null
modules="$(swift build --show-bin-path "$@")/Modules"
[[ -f "$modules/EndpointCore.swiftmodule" ]] || {
  echo "doc samples: error: no EndpointCore.swiftmodule in $modules" >&2
  exit 1
}

echo "doc samples: checking that code blocks fit in $COLUMNS_MAX columns"
mapfile -t SWIFT_SOURCES < <(find Sources -name '*.swift' | sort)
python3 scripts/doc_samples.py --check-width "$COLUMNS_MAX" "${SOURCES[@]}" "${SWIFT_SOURCES[@]}" || {
  echo "doc samples: FAILED: the lines above are wider than $COLUMNS_MAX columns" >&2
  exit 1
}

# PackageDescription, for the Package.swift samples.
MANIFEST_API="$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift/pm/ManifestAPI"
[[ -f "$MANIFEST_API/PackageDescription.swiftmodule" ]] || {
  echo "doc samples: error: no PackageDescription.swiftmodule in $MANIFEST_API" >&2
  exit 1
}

rm -rf "$OUT"
mkdir -p "$OUT/logs"
python3 scripts/doc_samples.py "$OUT" "${SOURCES[@]}" > "$OUT/index.tsv"

check() {
  local name="$1" file="$2" kind="$3" prelude=()
  if [[ "$kind" == manifest ]]; then
    swiftc -typecheck -swift-version 6 -package-description-version 6.0 -I "$MANIFEST_API" \
      "$file" > "$OUT/logs/$name.log" 2>&1
    return
  fi
  [[ -f "$PRELUDES/$name.swift" ]] && prelude=("$PRELUDES/$name.swift")
  # EndpointCurl's module needs its C module (Sources/CCurl) to load.
  swiftc -typecheck -swift-version 6 -parse-as-library -module-name "DocSamples$name" \
    -I "$modules" -I Sources/CCurl/include "${prelude[@]}" "$file" > "$OUT/logs/$name.log" 2>&1
}

# Two at a time: each swiftc takes about a second and the machine is shared.
failed=()
pids=()
names=()
while IFS=$'\t' read -r name count file kind; do
  check "$name" "$file" "$kind" &
  pids+=($!)
  names+=("$name ($count blocks)")
  if ((${#pids[@]} == 2)); then
    wait "${pids[0]}" || failed+=("${names[0]}")
    pids=("${pids[1]}")
    names=("${names[1]}")
  fi
done < "$OUT/index.tsv"
for index in "${!pids[@]}"; do
  wait "${pids[$index]}" || failed+=("${names[$index]}")
done

while IFS=$'\t' read -r name count _ _; do
  echo "doc samples: $name: $count blocks"
done < "$OUT/index.tsv"
if ((${#failed[@]} > 0)); then
  for entry in "${failed[@]}"; do
    name="${entry%% *}"
    echo
    echo "doc samples: $entry do not type-check:" >&2
    grep -E 'error:' -A3 "$OUT/logs/$name.log" >&2 || cat "$OUT/logs/$name.log" >&2
  done
  echo >&2
  echo "doc samples: FAILED: ${failed[*]} (generated sources in $OUT)" >&2
  exit 1
fi
echo "doc samples: ok, every sample type-checks"
