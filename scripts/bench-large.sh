#!/usr/bin/env bash
# Large bodies on loopback against nginx: a 1 GiB download streamed and dropped, a 1 GiB download
# to a file and a 1 GiB upload from a file (PUT), through EndpointCurl, the URLSession client and
# the curl tool, each a process timed from spawn to exit: MB/s with ratios over the curl tool in
# the same run, CPU seconds per GiB and peak RSS (from wait4). Files on /dev/shm.
#
# Usage: scripts/bench-large.sh [options passed to TransportBenchmarks]
#        e.g. --rounds 3 (the default here)
# Environment: ENDPOINT_BENCH_SKIP_BUILD=1 to run an existing release build;
#              ENDPOINT_BENCH_LARGE_MIB=256 for a smaller body.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec "$ROOT/scripts/bench-transport.sh" --large --only large --rounds 3 "$@"
