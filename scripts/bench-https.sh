#!/usr/bin/env bash
# EndpointCurl against the curl tool over HTTPS on loopback (nginx, TLS 1.3, a throwaway CA):
# HTTP/1.1 + TLS (a connection per transfer in flight, both) and HTTP/2 (one connection,
# multiplexed, both) at 1, 8 and 64 in flight, decoding JSON and returning bytes, in req/s with
# ratios over the curl tool measured in the same run; then the cost of a new full TLS handshake
# (a new connection per request, HTTPS vs plain HTTP vs a reused connection).
#
# Usage: scripts/bench-https.sh [options passed to TransportBenchmarks, which override these]
#        e.g. --rounds 3 --window 1     a shorter run
# Environment: ENDPOINT_BENCH_SKIP_BUILD=1 to run an existing release build.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec "$ROOT/scripts/bench-transport.sh" --tls --only https --rounds 5 --window 2 "$@"
