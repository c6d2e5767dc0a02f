#!/usr/bin/env bash
# Large bodies on loopback against nginx: 1 GiB of random bytes downloaded streamed and dropped
# (plain HTTP/1.1, and HTTPS with HTTP/2), downloaded to a file, and uploaded from a file (PUT),
# through EndpointCurl, the URLSession client and the curl tool with the matching flags. Each
# run is a process timed from spawn to exit; rounds are interleaved, the order rotating. MB/s,
# the median of per-round ratios over the curl tool with their spread, CPU seconds per GiB and
# peak RSS (from wait4). Downloaded files go to /dev/shm, so no disk write-back lands inside a
# later run's time.
#
# Usage: scripts/bench-large.sh [options passed to TransportBenchmarks]
#        e.g. --rounds 3 (5 is the default here)
# Environment: ENDPOINT_BENCH_SKIP_BUILD=1 to run an existing release build;
#              ENDPOINT_BENCH_LARGE_MIB=256 for a smaller body.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec "$ROOT/scripts/bench-transport.sh" --tls --large --only large --rounds 5 "$@"
