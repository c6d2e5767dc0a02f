#!/usr/bin/env bash
# Checks the formatting of every Swift file against .swift-format, as the test command does.
#
#   scripts/lint.sh          report problems (swift format lint --strict); fails on any
#   scripts/lint.sh --fix    rewrite the files in place first (swift format -i), then check
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PATHS=(Package.swift Sources Tests Examples Tools Benchmarks Fuzz Plugins)

case "${1:-}" in
  --fix) swift format format --in-place --parallel --recursive "${PATHS[@]}" ;;
  "") ;;
  *)
    echo "usage: scripts/lint.sh [--fix]" >&2
    exit 2
    ;;
esac
swift format lint --strict --parallel --recursive "${PATHS[@]}"
echo "lint: ok"
