#!/usr/bin/env bash
# Runs the S3 example against moto's S3 on loopback, over both transports.
#
#   scripts/s3-example.sh [swift build flags...]
#
# 1. installs moto into .venv (pinned in Examples/s3-requirements.txt; skipped when the stamp
#    .venv/.endpoint-s3-requirements.sha256 matches the file), making .venv if there is none
# 2. builds S3Example (extra arguments are build flags, so scripts/test.sh reuses its build)
# 3. checks that a bad argument and missing credentials are refused (exit status 64)
# 4. starts Examples/s3_server.py on a free port of 127.0.0.1: moto, checking every signature,
#    with an IAM access key made at start-up, handed to the example through AWS_ACCESS_KEY_ID
#    and AWS_SECRET_ACCESS_KEY
# 5. runs the example with the default client, then with --urlsession, both with
#    --server-slows-down (the server answers 503 SlowDown for the retry step); each must exit 0,
#    report all its steps passed and skip none
# 6. stops the server, also on failure or interrupt
#
# Nothing leaves loopback: the example talks only to the URL the server printed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

VENV="$ROOT/.venv"
REQUIREMENTS="$ROOT/Examples/s3-requirements.txt"
STAMP="$VENV/.endpoint-s3-requirements.sha256"
BUILD_FLAGS=("$@")

log() { printf 's3 example: %s\n' "$*" >&2; }
die() {
  printf 's3 example: error: %s\n' "$*" >&2
  exit 1
}

install_moto() {
  local want
  want="$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)"
  if [[ -x "$VENV/bin/python" && -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
    return 0
  fi
  command -v python3 > /dev/null || die "python3 is required to run the S3 server"
  if [[ ! -x "$VENV/bin/python" ]]; then
    log "creating the Python virtual environment in .venv"
    python3 -m venv "$VENV" || die "python3 -m venv failed; install the python3-venv package"
  fi
  log "installing moto into .venv (pinned in Examples/s3-requirements.txt)"
  "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input -q \
    -r "$REQUIREMENTS" || die "pip install -r Examples/s3-requirements.txt failed"
  printf '%s\n' "$want" > "$STAMP"
}

SERVER_PID=""
SCRATCH="$(mktemp -d)"
cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2> /dev/null; then
    kill -TERM "$SERVER_PID" 2> /dev/null || true
    wait "$SERVER_PID" 2> /dev/null || true
  fi
  rm -rf "$SCRATCH"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

install_moto

swift build --product S3Example "${BUILD_FLAGS[@]}"
bin="$(swift build --show-bin-path "${BUILD_FLAGS[@]}")/S3Example"

# Bad input is refused with the usage (exit 64, EX_USAGE) before anything is sent.
usage_status=0
"$bin" --endpoint not-a-url > /dev/null 2> "$SCRATCH/usage.err" || usage_status=$?
if [[ "$usage_status" != 64 ]] || ! grep -q '^Usage: swift run S3Example' "$SCRATCH/usage.err"; then
  cat "$SCRATCH/usage.err" >&2
  die "a bad --endpoint: expected exit status 64 and the usage, got $usage_status"
fi
usage_status=0
env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY "$bin" --endpoint http://127.0.0.1:9 \
  > /dev/null 2> "$SCRATCH/usage.err" || usage_status=$?
if [[ "$usage_status" != 64 ]] || ! grep -q 'no credentials' "$SCRATCH/usage.err"; then
  cat "$SCRATCH/usage.err" >&2
  die "no credentials: expected exit status 64 and a message, got $usage_status"
fi

# Port 0: the OS picks a free port; the server prints its URL and keys once it listens.
"$VENV/bin/python" Examples/s3_server.py 0 > "$SCRATCH/server.out" 2> "$SCRATCH/server.err" &
SERVER_PID=$!
waited=0
until [[ -s "$SCRATCH/server.out" ]]; do
  kill -0 "$SERVER_PID" 2> /dev/null || {
    cat "$SCRATCH/server.err" >&2
    die "Examples/s3_server.py exited before listening"
  }
  ((waited++ < 300)) || die "Examples/s3_server.py did not start within 30 s"
  sleep 0.1
done
read -r url key_id secret < "$SCRATCH/server.out"
log "moto's S3 at $url"

run() {
  local name="$1"
  shift
  local status=0
  AWS_ACCESS_KEY_ID="$key_id" AWS_SECRET_ACCESS_KEY="$secret" \
    "$bin" --endpoint "$url" --server-slows-down "$@" > "$SCRATCH/$name.out" 2>&1 || status=$?
  # Every step runs here: a skipped one fails the run.
  if [[ "$status" != 0 ]] || ! grep -q '^All [0-9]* steps passed\.$' "$SCRATCH/$name.out" \
    || grep -q '^skipped' "$SCRATCH/$name.out"; then
    cat "$SCRATCH/$name.out"
    echo "----- server log (last 40 lines) -----"
    tail -n 40 "$SCRATCH/server.err"
    die "the $name run failed (exit status $status)"
  fi
  log "$name: $(tail -n 1 "$SCRATCH/$name.out")"
}

run "default client"
run "URLSession" --urlsession
log "both runs passed"
