#!/usr/bin/env bash
# The first request of a process, on loopback against nginx: process start to first response,
# timed from spawn to exit, medians of interleaved runs, ratios over the curl tool fetching the
# same ~300-byte document once.
#
# Contenders: a C program that opens libcurl with dlopen and makes the same request (the control
# that tells the cost of loading libcurl at run time from the Swift runtime's); two tiny
# executables compiled here from the release build's objects, one making a
# CurlHTTPClient (libcurl opened with dlopen at that point) and one a URLSessionHTTPClient, each
# fetching the document once (and each run with no argument: exit at once, its floor), and the
# curl one again with the Swift runtime linked statically (`-static-stdlib`); and
# TransportBenchmarks in the same child modes (a large executable that links Foundation and
# FoundationNetworking, and so libcurl, at start).
#
# Usage: scripts/bench-first-request.sh [options passed to TransportBenchmarks]
#        e.g. --first-runs 11     fewer runs (default 21)
# Environment: ENDPOINT_BENCH_SKIP_BUILD=1 to use an existing release build.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if [[ "${ENDPOINT_BENCH_SKIP_BUILD:-}" != 1 ]]; then
  echo "bench-first-request: building TransportBenchmarks (release)" >&2
  swift build -c release --product TransportBenchmarks > /dev/null
fi
RELEASE="$(swift build -c release --show-bin-path)"
OUT="$ROOT/.build/first-request"
mkdir -p "$OUT"

write_program() {
  local module=$1 client=$2
  cat << SWIFT
// The first request of a process: one client, one GET of the URL given, exit.
// No argument: exit at once (the floor of this executable).
import EndpointCore
import $module
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

if CommandLine.arguments.count > 1, let url = URL(string: CommandLine.arguments[1]) {
  let client = $client
  let data = try await client.call(Endpoint<Data>(.get, url: url, parser: .data))
  exit(data.isEmpty ? 1 : 0)
}
SWIFT
}

# Compiled from the objects of the release build: only the modules each one needs (both
# transports run on the kernel, EndpointKernel; every module on EndpointPrimitives).
compile() {
  local name=$1 module=$2 client=$3
  shift 3
  mkdir -p "$OUT/$name"
  write_program "$module" "$client" > "$OUT/$name/main.swift"
  swiftc -O "$OUT/$name/main.swift" -module-name "$name" -I "$RELEASE/Modules" \
    -Xcc -fmodule-map-file="$ROOT/Sources/CCurl/include/module.modulemap" \
    "$RELEASE/EndpointPrimitives.build/"*.o "$RELEASE/EndpointCore.build/"*.o \
    "$RELEASE/EndpointKernel.build/"*.o "$@" -o "$OUT/$name/$name" \
    || {
      echo "bench-first-request: could not compile $name" >&2
      exit 1
    }
}
compile TinyCurl EndpointCurl "try CurlHTTPClient()" \
  "$RELEASE/EndpointCurl.build/"*.o "$RELEASE/CCurl.build/"*.o
# The same with the Swift runtime linked in (`swift build --static-swift-stdlib`): the process
# no longer loads and binds a dozen Swift libraries at start. The linker's warning about mktemp
# in Foundation's static library is not ours.
compile TinyCurlStatic EndpointCurl "try CurlHTTPClient()" \
  "$RELEASE/EndpointCurl.build/"*.o "$RELEASE/CCurl.build/"*.o -static-stdlib 2> /dev/null
compile TinyURLSession EndpointTransport "URLSessionHTTPClient()" \
  "$RELEASE/EndpointTransport.build/"*.o

# The control: a C process that opens libcurl with dlopen as EndpointCurl does and makes the
# same request, so loading libcurl at run time and the Swift runtime are told apart.
cc -O2 -o "$OUT/first-request-c" "$ROOT/Benchmarks/FirstRequestC/first-request.c" \
  || {
    echo "bench-first-request: could not compile the C control" >&2
    exit 1
  }

ENDPOINT_BENCH_SKIP_BUILD=1 exec "$ROOT/scripts/bench-transport.sh" --only first \
  --first-executable "C, libcurl opened with dlopen=$OUT/first-request-c" \
  --first-executable "EndpointCurl, tiny executable=$OUT/TinyCurl/TinyCurl" \
  --first-executable "EndpointCurl, tiny executable, static Swift runtime=$OUT/TinyCurlStatic/TinyCurlStatic" \
  --first-executable "URLSession client, tiny executable=$OUT/TinyURLSession/TinyURLSession" \
  "$@"
