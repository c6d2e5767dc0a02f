#!/usr/bin/env bash
# Fails when a public type that stores a URL, an HTTPRequest, HTTPResponse, HTTPFields, HTTPBody
# or a credential escapes the secret sweeps: it lacks a redacting customMirror, or no sweep list
# names it, and scripts/redaction-coverage-exempt.txt gives no reason for it. Reads the sources
# only, so it runs in a second with no build.
#
#   scripts/check-redaction-coverage.sh [--list]   (--list: every such type and its sweep)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec python3 "$ROOT/scripts/check_redaction_coverage.py" "$@"
