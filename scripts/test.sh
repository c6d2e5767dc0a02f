#!/usr/bin/env bash
# The test command: everything CI checks, in order, stopping at the first failure.
#
#   scripts/test.sh
#
# 1. format lint   scripts/lint.sh: swift format lint --strict over every Swift directory
# 1b. redaction coverage scripts/check-redaction-coverage.sh (sources only, no build): every
#                  public type that stores a URL, a request, a response, fields, a body or a
#                  credential has a redacting mirror and a secret sweep entry, or a reason in
#                  scripts/redaction-coverage-exempt.txt
# 1c. yaml abi     scripts/check-openapi-yaml-abi.sh: the OpenAPI generator's hand-declared
#                  libyaml layouts match <yaml.h> (installs libyaml-dev, and with it the
#                  libyaml-0-2 the YAML tests load, with apt-get if needed)
# 2. build         swift build --build-tests -Xswiftc -warnings-as-errors
# 2b. api          scripts/api.sh check: the public API of the runtime products, from their
#                  symbol graphs, matches API/public-api.txt (else a diff and how to update it)
# 2c. api counts   scripts/api.sh counts --enforce: public types, error types, Endpoint
#                  initialisers and `package` declarations in EndpointCore beside their 1.0
#                  targets; a figure over its target fails the stage
# 3. tests         starts httpbin and the fault server (scripts/servers.sh), runs swift test
#                  (the stress suites each on their own afterwards), stops the servers (also on
#                  failure or interrupt). ENDPOINT_REQUIRE_SERVERS=1 makes a wire suite that finds
#                  no servers fail instead of skip. The tests run with TMPDIR in a directory of
#                  their own, and the stage fails, listing them, if they leave anything in it
# 4. example       runs EndpointExample on its in-memory fake backend, then over URLSession against
#                  Examples/todo_server.py on a free port (stopped afterwards, also on failure)
# 4b. s3 example  scripts/s3-example.sh: installs moto into .venv, starts it on a free port of
#                  127.0.0.1 (checking every SigV4 signature), runs S3Example over the default
#                  client and over URLSession, stops moto (also on failure)
# 5. linkage       scripts/check-linkage.sh: EndpointCore + EndpointJSON link no Foundation or ICU
# 5b. curl constants scripts/check-curl-constants.sh: EndpointCurl's hand-declared libcurl constants
#                  match libcurl's headers (installs libcurl4-openssl-dev with apt-get if needed)
# 6. doc samples   scripts/check-doc-samples.sh: every Swift sample of the articles and README
#                  type-checks against the built modules
# 7. docs          scripts/docs.sh: DocC with --warnings-as-errors
# 7b. docs in a browser scripts/docs-check.sh: the exported site in headless Chromium (installs
#                  Debian's chromium with apt-get if needed): no blank page, console error,
#                  overflowing code block or sidebar without a guide
# 8. fuzz smoke    scripts/fuzz.sh 4: every libFuzzer target of Fuzz/ for 4 s from its seeds
#                  (the instrumented build is kept in .build/fuzz); any crash fails
#
# Not here because they take long: scripts/fuzz.sh with a longer time, scripts/sanitizers.sh,
# scripts/check-openapi-plugins.sh (builds a package that uses the OpenAPI plugins: 1-2 min).
#
# It installs what it needs itself (the servers' Python virtual environment in .venv), so it
# runs as is on a fresh machine with Swift 6.3.1 and python3.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# The same flags for every Swift step, so no step rebuilds what an earlier one built.
BUILD_FLAGS=(-Xswiftc -warnings-as-errors)

STAGE_NAMES=()
STAGE_TIMES=()
STAGE_RESULTS=()
STARTED=$SECONDS
SERVERS_STARTED=0

summary() {
  local index
  echo
  echo "test.sh summary"
  for index in "${!STAGE_NAMES[@]}"; do
    printf '  %-12s %-6s %5ss\n' "${STAGE_NAMES[$index]}" "${STAGE_RESULTS[$index]}" \
      "${STAGE_TIMES[$index]}"
  done
  printf '  %-12s %-6s %5ss\n' "total" "" "$((SECONDS - STARTED))"
}

stop_servers() {
  if [[ "$SERVERS_STARTED" == 1 ]] || compgen -G ".test-servers/*.pid" > /dev/null; then
    if scripts/servers.sh stop; then
      SERVERS_STARTED=0
    else
      echo "test.sh: warning: stopping the test servers failed" >&2
    fi
  fi
}

on_exit() {
  local status=$?
  trap - EXIT INT TERM
  stop_servers
  exit "$status"
}
on_signal() {
  echo "test.sh: interrupted" >&2
  exit 130
}
trap on_exit EXIT
trap on_signal INT TERM

# Runs one stage; on failure prints which one and the summary, then exits.
stage() {
  local name="$1" status start
  shift
  STAGE_NAMES+=("$name")
  echo
  echo "==> $name"
  start=$SECONDS
  set +e
  # A subshell with -e: a failing command inside a stage function stops that stage.
  (
    set -e
    "$@"
  )
  status=$?
  set -e
  STAGE_TIMES+=("$((SECONDS - start))")
  if [[ "$status" != 0 ]]; then
    STAGE_RESULTS+=("FAILED")
    summary
    echo
    echo "test.sh: FAILED at stage '$name' (exit status $status); see the output above." >&2
    exit "$status"
  fi
  STAGE_RESULTS+=("ok")
}

check_tools() {
  command -v swift > /dev/null || {
    echo "test.sh: error: swift is not on PATH (Swift 6.3.1 is required)" >&2
    return 1
  }
  command -v python3 > /dev/null || {
    echo "test.sh: error: python3 is required for the test servers" >&2
    return 1
  }
  swift --version 2>&1 | head -n 1
}

build() {
  swift build --build-tests "${BUILD_FLAGS[@]}"
}

# What was left in `directory`, one path a line, less what the Swift tools leave in any TMPDIR
# they run in: the Swift driver's TemporaryDirectory.* holding only .keep-directory (every
# `swift` command makes some) and SwiftPM's lock files, named after what they lock
# (_root_.swiftpm.lock).
leftover_files() {
  local directory="$1" entry name
  while IFS= read -r -d '' entry; do
    name="${entry##*/}"
    if [[ -d "$entry" && "$name" == TemporaryDirectory.* \
      && "$(ls -A "$entry")" == ".keep-directory" ]]; then
      continue
    fi
    [[ -f "$entry" && "$name" == _*.lock ]] && continue
    find "$entry" | head -n 5
  done < <(find "$directory" -mindepth 1 -maxdepth 1 -print0)
}

run_tests() {
  # Tests read the servers' addresses from .test-servers/env through the environment.
  set -a
  # shellcheck source=/dev/null
  source .test-servers/env
  set +a
  # Without it a wire suite that finds no servers is skipped, which here would pass unseen.
  export ENDPOINT_REQUIRE_SERVERS=1
  # Foundation's temporaryDirectory follows TMPDIR: every file a test (or the SDK under test)
  # leaves behind lands here, and fails the stage. Not local: the trap runs after return.
  TESTS_TMPDIR="$(mktemp -d)"
  # This stage runs in its own subshell: its trap removes the directory however the stage ends.
  trap 'rm -rf "$TESTS_TMPDIR"' EXIT
  trap 'exit 130' INT TERM
  export TMPDIR="$TESTS_TMPDIR"
  # Swift Testing only: --disable-xctest keeps an empty XCTest run out of the output.
  # The stress suites flood both cores on purpose (child processes streaming endless bodies,
  # thousands of racing cancellations); each runs on its own after the rest, so their load
  # never stands in for a timing fault of another test. BoundedMemoryTests bounds the resident
  # memory of the whole test process, so it runs alone too: other tests' memory is not its own.
  local stress=(WedgeTests CancellationRaceTests BoundedMemoryTests)
  local skip
  skip="$(IFS='|'; echo "${stress[*]}")"
  # --skip-build: the build stage built it, and a compile here would leave the Swift driver's
  # working files in the tests' TMPDIR.
  swift test --disable-xctest "${BUILD_FLAGS[@]}" --skip-build --skip "$skip"
  local suite
  for suite in "${stress[@]}"; do
    echo "tests: stress suite $suite on its own"
    swift test --disable-xctest "${BUILD_FLAGS[@]}" --skip-build --filter "$suite"
  done
  local leftovers
  leftovers="$(leftover_files "$TESTS_TMPDIR")"
  if [[ -n "$leftovers" ]]; then
    echo "tests: the tests left files in their temporary directory (TMPDIR); each test must" \
      "remove what it makes (withTemporaryDirectory in Tests/EndpointTestSupport):" >&2
    echo "${leftovers//"$TESTS_TMPDIR/"/  }" >&2
    return 1
  fi
  echo "tests: nothing left in the temporary directory"
}

# The README's first command, both ways: offline, and against the example's local server.
run_example() {
  local bin base_url="" waited=0
  # Not local: the EXIT trap runs after this function has returned.
  EXAMPLE_SERVER_PID=""
  swift build --product EndpointExample "${BUILD_FLAGS[@]}"
  bin="$(swift build --show-bin-path "${BUILD_FLAGS[@]}")/EndpointExample"
  EXAMPLE_SCRATCH="$(mktemp -d)"
  local scratch="$EXAMPLE_SCRATCH"
  # This stage runs in its own subshell: its trap stops the server however the stage ends.
  trap 'if [[ -n "$EXAMPLE_SERVER_PID" ]]; then kill "$EXAMPLE_SERVER_PID" 2> /dev/null || true; fi
    rm -rf "$EXAMPLE_SCRATCH"' EXIT
  trap 'exit 130' INT TERM

  echo "example: no arguments (in-memory fake backend)"
  "$bin" > "$scratch/fake.out"
  grep -q '^All [0-9]* steps passed\.$' "$scratch/fake.out" || {
    cat "$scratch/fake.out"
    echo "example: the fake-backend run did not report all steps passed" >&2
    return 1
  }

  echo "example: a bad argument is refused with a usage message"
  local status=0
  "$bin" --base-url not-a-url > /dev/null 2> "$scratch/usage.err" || status=$?
  [[ "$status" == 64 ]] && grep -q '^Usage: swift run EndpointExample' "$scratch/usage.err" || {
    cat "$scratch/usage.err"
    echo "example: expected exit status 64 and the usage, got $status" >&2
    return 1
  }

  echo "example: --base-url against Examples/todo_server.py"
  python3 Examples/todo_server.py 0 > "$scratch/server.out" 2> "$scratch/server.err" &
  EXAMPLE_SERVER_PID=$!
  # The server prints its address first; port 0 lets the OS pick a free port.
  until base_url="$(sed -n 's/^listening on //p' "$scratch/server.out")" && [[ -n "$base_url" ]]; do
    kill -0 "$EXAMPLE_SERVER_PID" 2> /dev/null || {
      cat "$scratch/server.err" >&2
      echo "example: todo_server.py exited before listening" >&2
      return 1
    }
    ((waited++ < 100)) || {
      echo "example: todo_server.py did not start within 10 s" >&2
      return 1
    }
    sleep 0.1
  done
  "$bin" --base-url "$base_url" > "$scratch/server-run.out" || {
    cat "$scratch/server-run.out" "$scratch/server.err"
    echo "example: the run against $base_url failed" >&2
    return 1
  }
  grep -q '^All [0-9]* steps passed\.$' "$scratch/server-run.out" || {
    cat "$scratch/server-run.out"
    echo "example: the run against $base_url did not report all steps passed" >&2
    return 1
  }
  echo "example: both runs passed ($(tail -n 1 "$scratch/fake.out"))"
}

check_tools
stage "format lint" scripts/lint.sh
stage "redaction coverage" scripts/check-redaction-coverage.sh
stage "yaml abi" scripts/check-openapi-yaml-abi.sh
stage "build" build
stage "api" scripts/api.sh check "${BUILD_FLAGS[@]}"
stage "api counts" scripts/api.sh counts --enforce
# Marked as started before the attempt, so the EXIT trap stops whatever did start.
SERVERS_STARTED=1
stage "servers" scripts/servers.sh start
stage "tests" run_tests
stop_servers
stage "example" run_example
stage "s3 example" scripts/s3-example.sh "${BUILD_FLAGS[@]}"
stage "linkage" scripts/check-linkage.sh "${BUILD_FLAGS[@]}"
stage "curl constants" scripts/check-curl-constants.sh
stage "doc samples" scripts/check-doc-samples.sh "${BUILD_FLAGS[@]}"
stage "docs" scripts/docs.sh "${BUILD_FLAGS[@]}"
stage "docs in a browser" scripts/docs-check.sh
stage "fuzz smoke" scripts/fuzz.sh 4

summary
echo
echo "test.sh: all stages passed"
