#!/usr/bin/env bash
# Runs the core benchmarks in release mode and prints the table: building an Endpoint and its
# HTTPRequest vs a hand-written URLComponents + URLRequest, and parsing a JSON body vs a status
# check plus a shared JSONDecoder, as ratios of medians.
#
# Usage: scripts/bench-core.sh [rounds] [calls-per-round]     (defaults: 61 rounds, 5000 calls)
#        scripts/bench-core.sh --profile build|parse [calls]   (Endpoint side only, for perf)
set -euo pipefail
cd "$(dirname "$0")/.."
swift run -c release CoreBenchmarks "$@"
