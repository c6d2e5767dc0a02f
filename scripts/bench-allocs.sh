#!/usr/bin/env bash
# Heap allocations per request of EndpointCurl, the URLSession client and raw URLSession, one
# request at a time against nginx on loopback (the ~300-byte JSON document, decoded and as
# bytes). Compiles scripts/alloc-counter.c with cc into .build/alloc-counter.so, preloads it into
# TransportBenchmarks alone (LD_PRELOAD; nginx and the build are not affected) and runs
# `--allocations`: every allocating call of the process, on every thread, per request.
#
# Usage: scripts/bench-allocs.sh [options passed to TransportBenchmarks]
#        e.g. --rounds 3 (the default here) --requests 2000 (the default)
# Environment: ENDPOINT_BENCH_SKIP_BUILD=1 to run an existing release build.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v cc > /dev/null || {
  echo "bench-allocs: error: cc is missing (Debian package gcc)" >&2
  exit 1
}
mkdir -p "$ROOT/.build"
cc -O2 -shared -fPIC -Wall -Wextra -Werror -o "$ROOT/.build/alloc-counter.so" \
  "$ROOT/scripts/alloc-counter.c"
export ENDPOINT_BENCH_PRELOAD="$ROOT/.build/alloc-counter.so"
exec "$ROOT/scripts/bench-transport.sh" --allocations --rounds 3 "$@"
