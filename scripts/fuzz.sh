#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ and runs each for a while; fails if any finds a crash.
#
#   scripts/fuzz.sh [seconds] [target...]     default: 60 seconds each, every target
#
# Each target is one harness, Fuzz/<Target>Fuzzer.swift, compiled with Fuzz/Support/*.swift and
# linked against EndpointCore and the helpers below it, EndpointPrimitives (and EndpointTesting,
# or EndpointCurl's HeadParser.swift, with the transport kernel EndpointKernel they import,
# where it needs them; the YAML target, the OpenAPI generator's module and its libyaml loader),
# all instrumented with
# `-sanitize=fuzzer,address` and built with `-enable-testing` so the harness reaches internal
# types (the parsers are internal). Builds go to .build/fuzz and are redone only when a source
# is newer. Each run starts from the committed seeds,
# Fuzz/corpus/<Target>/, and keeps what it learns in .build/fuzz/corpus/<Target>/ for the next
# run. Crashes, and inputs that break a harness's invariants, are written to
# .build/fuzz/crashes/<Target>-crash-… (the directory is printed); logs to .build/fuzz/logs.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SECONDS_EACH="${1:-60}"
[[ "$SECONDS_EACH" =~ ^[0-9]+$ ]] || {
  echo "usage: scripts/fuzz.sh [seconds] [target...]" >&2
  exit 2
}
shift $(($# > 0 ? 1 : 0))
TARGETS=("$@")
if [[ ${#TARGETS[@]} == 0 ]]; then
  TARGETS=(HeadParser Lines ServerSentEvents URLPath URLRedaction HTTPFields Multipart RetryAfter Fixture
    ContentDecoder YAML)
fi

OUT="$ROOT/.build/fuzz"
CRASHES="$OUT/crashes"
mkdir -p "$OUT/primitives" "$OUT/core" "$OUT/kernel" "$OUT/testing" "$OUT/openapi" "$OUT/bin" \
  "$OUT/logs" "$CRASHES"

# Swift 6 mode and warnings as errors, as the package builds; lld, because gold warns about
# the sanitizer runtime's local symbols.
SWIFTC=(swiftc -swift-version 6 -warnings-as-errors -package-name endpoint -O -g
  -sanitize=fuzzer,address -use-ld=lld)

# Whether $1 is missing or older than any of the other files.
stale() {
  local output="$1"
  shift
  [[ ! -e "$output" ]] && return 0
  [[ -n "$(find "$@" -newer "$output" -print -quit)" ]]
}

# A module as one object file plus its .swiftmodule: build_module Name dir [flags] sources...
build_module() {
  local name="$1" dir="$2" sources=()
  shift 2
  for argument in "$@"; do
    if [[ "$argument" == *.swift ]]; then sources+=("$argument"); fi
  done
  if stale "$dir/$name.o" "${sources[@]}"; then
    echo "fuzz: building $name (instrumented)"
    "${SWIFTC[@]}" -parse-as-library -enable-testing -wmo -c -module-name "$name" \
      -I "$OUT/primitives" -I "$OUT/core" -I "$OUT/kernel" \
      -emit-module -emit-module-path "$dir/$name.swiftmodule" \
      "$@" -o "$dir/$name.o"
  fi
}

# A C file as an instrumented object: build_c output source flags...
build_c() {
  local output="$1" source="$2"
  shift 2
  if stale "$output" "$source"; then
    echo "fuzz: building $(basename "$source") (instrumented)"
    mkdir -p "$(dirname "$output")"
    clang -O1 -g -fsanitize=fuzzer-no-link,address "$@" -c "$source" -o "$output"
  fi
}

mapfile -t PRIMITIVES_SOURCES < <(find Sources/EndpointPrimitives -name '*.swift' | sort)
mapfile -t CORE_SOURCES < <(find Sources/EndpointCore -name '*.swift' | sort)
mapfile -t KERNEL_SOURCES < <(find Sources/EndpointKernel -name '*.swift' | sort)
mapfile -t TESTING_SOURCES < <(find Sources/EndpointTesting -name '*.swift' | sort)
mapfile -t OPENAPI_SOURCES < <(find Sources/EndpointOpenAPI -name '*.swift' | sort)
mapfile -t SUPPORT < <(find Fuzz/Support -name '*.swift' | sort)

build_module EndpointPrimitives "$OUT/primitives" "${PRIMITIVES_SOURCES[@]}"
build_module EndpointCore "$OUT/core" "${CORE_SOURCES[@]}"

# The ContentDecoder harness compares with zlib linked directly: its headers and the -lz link
# name come from zlib1g-dev, installed with apt-get (non-interactively) when missing.
ensure_zlib() {
  [[ -f /usr/include/zlib.h ]] && return 0
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then sudo=(sudo -n); fi
  echo "fuzz: installing zlib1g-dev (zlib's headers, for the ContentDecoder harness)"
  export DEBIAN_FRONTEND=noninteractive
  if ! "${sudo[@]}" apt-get install -y -q --no-install-recommends zlib1g-dev > /dev/null; then
    "${sudo[@]}" apt-get update -q > /dev/null
    "${sudo[@]}" apt-get install -y -q --no-install-recommends zlib1g-dev > /dev/null
  fi
  [[ -f /usr/include/zlib.h ]] || {
    echo "fuzz: error: <zlib.h> still not found after installing zlib1g-dev" >&2
    exit 1
  }
}

build_target() {
  local target="$1" harness="Fuzz/$1Fuzzer.swift" sources=() flags=()
  local objects=("$OUT/primitives/EndpointPrimitives.o" "$OUT/core/EndpointCore.o")
  [[ -f "$harness" ]] || {
    echo "fuzz: no harness $harness" >&2
    return 1
  }
  case "$target" in
    # HeadParser is internal to EndpointCurl: its file (with the module's re-export of
    # EndpointCore, which it relies on) joins the harness's module.
    HeadParser)
      build_module EndpointKernel "$OUT/kernel" "${KERNEL_SOURCES[@]}"
      sources=(Sources/EndpointCurl/HeadParser.swift Sources/EndpointCurl/Exports.swift)
      objects+=("$OUT/kernel/EndpointKernel.o")
      ;;
    # ContentDecoder is internal to EndpointCurl and calls its C decoder (CCurlDecoder.c);
    # the harness checks it against zlib linked directly (Fuzz/Reference).
    ContentDecoder)
      ensure_zlib
      build_module EndpointKernel "$OUT/kernel" "${KERNEL_SOURCES[@]}"
      sources=(Sources/EndpointCurl/ContentDecoder.swift Sources/EndpointCurl/Exports.swift)
      build_c "$OUT/c/CCurlDecoder.o" Sources/CCurl/CCurlDecoder.c -I Sources/CCurl/include
      build_c "$OUT/c/ZlibReference.o" Fuzz/Reference/ZlibReference.c -I Fuzz/Reference/include
      objects+=("$OUT/kernel/EndpointKernel.o" "$OUT/c/CCurlDecoder.o" "$OUT/c/ZlibReference.o")
      flags=(-I Sources/CCurl/include -I Fuzz/Reference/include -lz)
      ;;
    # The OpenAPI generator's YAML reader, with its libyaml loader (CYAML.c), whole: the
    # generator imports no SDK module.
    YAML)
      build_c "$OUT/c/CYAML.o" Sources/CYAML/CYAML.c -I Sources/CYAML/include
      build_module EndpointOpenAPI "$OUT/openapi" -I Sources/CYAML/include "${OPENAPI_SOURCES[@]}"
      objects+=("$OUT/c/CYAML.o" "$OUT/openapi/EndpointOpenAPI.o")
      flags=(-I "$OUT/openapi" -I Sources/CYAML/include)
      ;;
    Fixture)
      build_module EndpointKernel "$OUT/kernel" "${KERNEL_SOURCES[@]}"
      objects+=("$OUT/kernel/EndpointKernel.o")
      build_module EndpointTesting "$OUT/testing" "${TESTING_SOURCES[@]}"
      flags=(-I "$OUT/testing")
      objects+=("$OUT/testing/EndpointTesting.o")
      ;;
  esac
  if stale "$OUT/bin/$target" "$harness" "${SUPPORT[@]}" "${sources[@]}" "${objects[@]}"; then
    echo "fuzz: building $target"
    "${SWIFTC[@]}" -parse-as-library -module-name "Fuzz$target" -I "$OUT/primitives" \
      -I "$OUT/core" -I "$OUT/kernel" "${flags[@]}" \
      "$harness" "${SUPPORT[@]}" "${sources[@]}" "${objects[@]}" -o "$OUT/bin/$target"
  fi
}

for target in "${TARGETS[@]}"; do build_target "$target"; done

echo "fuzz: crashes go to $CRASHES"
FAILED=()
for target in "${TARGETS[@]}"; do
  mkdir -p "$OUT/corpus/$target"
  log="$OUT/logs/$target.log"
  echo "fuzz: $target for ${SECONDS_EACH}s"
  # -timeout: an input that takes 10 s is a hang, reported like a crash. Leak detection is off:
  # the Swift runtime keeps metadata and task allocations alive on purpose, and LeakSanitizer
  # reports them at exit as leaks.
  status=0
  # SWIFT_BACKTRACE: the runtime's backtracer would hold the log open after a crash.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$OUT/bin/$target" \
    -max_total_time="$SECONDS_EACH" -timeout=10 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$CRASHES/$target-" "$OUT/corpus/$target" "Fuzz/corpus/$target" \
    > "$log" 2>&1 || status=$?
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  if [[ "$status" != 0 ]]; then
    FAILED+=("$target")
    grep -E 'invariant broken|Fatal error|ERROR:|artifact_prefix|Test unit written' "$log" | head -n 8 >&2 || true
    echo "fuzz: $target FAILED (exit status $status, ${runs:-?} runs); log: $log" >&2
  else
    echo "fuzz: $target ok, ${runs:-?} runs"
  fi
done

if [[ ${#FAILED[@]} != 0 ]]; then
  echo "fuzz: FAILED: ${FAILED[*]}; inputs in $CRASHES" >&2
  exit 1
fi
echo "fuzz: ok, no crash in ${#TARGETS[@]} targets"
