#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer, then under ThreadSanitizer. Slow (a separate
# instrumented build each, and the tests run several times slower), so not part of the test
# command; run it before a release or after changing locks, buffers or the C target.
#
#   scripts/sanitizers.sh                 both, address first
#   scripts/sanitizers.sh address|thread  one of them; extra arguments go to swift test
#
# Starts the test servers as scripts/test.sh does (scripts/servers.sh, .test-servers/env) and
# stops them at the end, also on failure or interrupt. Each sanitizer builds in its own scratch
# directory (.build/asan, .build/tsan, the latter shared with scripts/tsan-curl.sh), so the
# normal build is not invalidated. The first report of either sanitizer fails the run; to see
# every ThreadSanitizer report of a run instead, set TSAN_OPTIONS=halt_on_error=0.
#
# The ThreadSanitizer build is compiled with -DENDPOINT_THREAD_SANITIZER: with it, the SDK's locks
# (Mutex.withVisibleLock in EndpointPrimitives) tell ThreadSanitizer when they are taken and given back,
# which it cannot see by itself in a contended Synchronization.Mutex on Linux. Without the flag
# they compile to plain Mutex.withLock.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

KINDS=(address thread)
if [[ $# -gt 0 ]]; then
  case "$1" in
    address | thread) KINDS=("$1") ;;
    *)
      echo "usage: scripts/sanitizers.sh [address|thread] [swift test arguments]" >&2
      exit 2
      ;;
  esac
  shift
fi

STARTED=0
cleanup() {
  if [[ "$STARTED" == 1 ]]; then scripts/servers.sh stop || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

STARTED=1
scripts/servers.sh start
set -a
# shellcheck source=/dev/null
source .test-servers/env
set +a

# AddressSanitizer: detect_leaks=0 because LeakSanitizer reports, at exit, what the Swift
# runtime and Foundation keep alive for the life of the process on purpose (metadata caches,
# the cooperative pool's threads, URLSession's shared state); use-after-free, overflows and
# double frees, what this run is for, are all still reported and fatal.
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:${ASAN_OPTIONS:-}"
# ThreadSanitizer: the suppressions of scripts/tsan-curl.supp, each justified there (Swift's
# own continuation code, which orders its accesses with atomics Thread Sanitizer cannot see);
# the SDK's own locks are announced to Thread Sanitizer (-DENDPOINT_THREAD_SANITIZER below) and
# everything they guard stays checked.
export TSAN_OPTIONS="halt_on_error=1:suppressions=$ROOT/scripts/tsan-curl.supp:${TSAN_OPTIONS:-}"
# The runtime's backtracer would start another process on a sanitizer report; the sanitizer's
# own report is the one wanted.
export SWIFT_BACKTRACE=enable=no

# Tests run one at a time (--no-parallel): many assert wall-clock bounds of a few seconds, set
# for uninstrumented code, and instrumented code runs 2 to 10 times slower; in parallel on a
# small machine they starve each other past those bounds.
# Skipped: bounds on resident memory, which AddressSanitizer breaks on purpose (it keeps up to
# 256 MiB of freed memory in its quarantine to catch use after free, plus shadow memory):
# BoundedMemoryTests under both sanitizers, and under AddressSanitizer also the abandoned-streams
# bound (whose probe process frees hundreds of MiB of abandoned bodies). All run uninstrumented
# in scripts/test.sh.
SKIP_THREAD='BoundedMemoryTests'
SKIP_ADDRESS="$SKIP_THREAD|manyAbandonedStreamsKeepMemoryFlat"

for kind in "${KINDS[@]}"; do
  short="${kind:0:1}san"
  FLAGS=()
  SKIP="$SKIP_ADDRESS"
  if [[ "$kind" == thread ]]; then
    FLAGS=(-Xswiftc -DENDPOINT_THREAD_SANITIZER)
    SKIP="$SKIP_THREAD"
  fi
  echo "==> swift test --sanitize=$kind (.build/$short)"
  start=$SECONDS
  swift test --disable-xctest --scratch-path ".build/$short" --sanitize="$kind" "${FLAGS[@]}" \
    --no-parallel --skip "$SKIP" "$@"
  echo "sanitizers: $kind ok in $((SECONDS - start))s, nothing reported"
done
echo "sanitizers: ok (${KINDS[*]})"
