#!/usr/bin/env bash
# Runs EndpointCurl's tests under Thread Sanitizer.
#
#   scripts/tsan-curl.sh
#
# Starts the test servers (scripts/servers.sh) unless ENDPOINT_HTTPBIN_URL is already set, runs
# `swift test --sanitize=thread --filter EndpointCurlTests` in its own build directory
# (.build/tsan, so the normal build is not invalidated), and stops the servers it started, also
# on failure. Any data race Thread Sanitizer reports fails the run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

STARTED=0
cleanup() {
  if [[ "$STARTED" == 1 ]]; then scripts/servers.sh stop || true; fi
}
trap cleanup EXIT

if [[ -z "${ENDPOINT_HTTPBIN_URL:-}" ]]; then
  STARTED=1
  scripts/servers.sh start
  set -a
  # shellcheck source=/dev/null
  source .test-servers/env
  set +a
fi

# halt_on_error: the first race fails the run instead of scrolling past. The suppressions cover
# Swift's own continuation code only (see the file).
export TSAN_OPTIONS="halt_on_error=1 suppressions=$ROOT/scripts/tsan-curl.supp ${TSAN_OPTIONS:-}"
# -DENDPOINT_THREAD_SANITIZER: the SDK's locks announce themselves (as in scripts/sanitizers.sh,
# which shares the build directory and these flags).
swift test --disable-xctest --scratch-path .build/tsan --sanitize=thread \
  -Xswiftc -DENDPOINT_THREAD_SANITIZER --filter EndpointCurlTests "$@"
echo "tsan-curl: ok, no data race reported"
