#!/usr/bin/env bash
# EndpointCurl against the URLSession client, raw URLSession (`data(for:)` + JSONDecoder) and the
# curl command line tool, on loopback against nginx: req/s at 1, 8 and 64 in flight
# (interleaved rounds, medians), CPU µs and context switches per request, then 20,000 requests
# at 256 in flight through EndpointCurl in a child process (failures, RSS after each 2,000).
# First measures what nginx alone serves (wrk) as the loopback ceiling. About 3 minutes.
#
# Usage: scripts/bench-curl.sh [options passed to TransportBenchmarks, which override these]
#        e.g. --rounds 3 --window 1     a shorter run
#        scripts/bench-transport.sh --perf curl --in-flight 8 --seconds 10   profile EndpointCurl
# Environment: ENDPOINT_BENCH_SKIP_BUILD=1 to run an existing release build.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec "$ROOT/scripts/bench-transport.sh" --ceiling \
  --only curl,load --load-client curl --load-in-flight 256 --load 20000 --load-warmup 2000 \
  --rounds 7 --window 2 "$@"
