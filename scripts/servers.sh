#!/usr/bin/env bash
# Starts and stops the loopback servers the transport tests talk to.
#
#   scripts/servers.sh start    install (once) and start httpbin, the fault server and the
#                               HTTPS servers
#   scripts/servers.sh stop     stop them (and their worker processes)
#   scripts/servers.sh status   say whether they run and print their environment
#
# `start` installs httpbin, gunicorn, Hypercorn and trustme into .venv (pinned in
# Tests/Servers/requirements.txt; skipped when already installed), starts httpbin under gunicorn
# and Tests/Servers/fault_server.py on free ports of 127.0.0.1, makes a throwaway certificate
# authority with a certificate for 127.0.0.1 and localhost (Tests/Servers/make_test_ca.py, into
# .test-servers/tls/), starts httpbin again under Hypercorn over TLS (HTTP/2 and HTTP/1.1, offered
# by ALPN) and Tests/Servers/tls_server.py (a listener capped at TLS 1.2 and one whose certificate
# names another host), waits until all answer (through TLS, trusting that authority) and writes
# .test-servers/env, which the tests read through these variables:
#
#   export ENDPOINT_HTTPBIN_URL=http://127.0.0.1:PORT
#   export ENDPOINT_HTTPBIN_ALT_URL=http://localhost:PORT   (same server, another origin)
#   export ENDPOINT_FAULT_URL=http://127.0.0.1:PORT2
#   export ENDPOINT_HTTPS_URL=https://127.0.0.1:PORT3       (httpbin over TLS, HTTP/2)
#   export ENDPOINT_HTTPS_ALT_URL=https://localhost:PORT3   (the same, reached by name)
#   export ENDPOINT_HTTPS_TLS12_URL=https://127.0.0.1:PORT4 (TLS 1.2 at most)
#   export ENDPOINT_HTTPS_WRONG_NAME_URL=https://127.0.0.1:PORT5 (certificate for another name)
#   export ENDPOINT_TEST_CA=/absolute/path/.test-servers/tls/ca.pem  (the authority to trust)
#   export ENDPOINT_HTTPS_MTLS_URL=https://127.0.0.1:PORT6  (requires a client certificate)
#   export ENDPOINT_TEST_TLS_DIR=/absolute/path/.test-servers/tls  (every file of make_test_ca.py:
#          client certificates, the second authority, the server's key pin)
#   export ENDPOINT_H2_CAPTURE_URL=https://127.0.0.1:PORT7  (Tests/Servers/h2_capture_server.py:
#          answers with the request as its HTTP/2 or HTTP/1.1 layer decoded it; h2 by ALPN)
#   export ENDPOINT_H2_CAPTURE_PLAIN_URL=http://127.0.0.1:PORT8  (the same, cleartext HTTP/1.1)
#
# Use them by hand with: scripts/servers.sh start && source .test-servers/env && swift test
# Everything listens on loopback only. PIDs and logs live in .test-servers/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
STATE="$ROOT/.test-servers"
REQUIREMENTS="$ROOT/Tests/Servers/requirements.txt"
FAULT_SERVER="$ROOT/Tests/Servers/fault_server.py"
MAKE_TEST_CA="$ROOT/Tests/Servers/make_test_ca.py"
TLS_SERVER="$ROOT/Tests/Servers/tls_server.py"
H2_CAPTURE_SERVER="$ROOT/Tests/Servers/h2_capture_server.py"
SERVERS=(httpbin fault https tls h2capture)
STAMP="$VENV/.endpoint-requirements.sha256"
READY_TIMEOUT="${ENDPOINT_SERVERS_TIMEOUT:-60}"

log() { printf 'servers: %s\n' "$*" >&2; }
die() {
  printf 'servers: error: %s\n' "$*" >&2
  exit 1
}

install_venv() {
  local want
  want="$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)"
  if [[ -x "$VENV/bin/python" && -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
    return 0
  fi
  command -v python3 > /dev/null || die "python3 is required to run the test servers"
  # A venv left half made (no pip) by an earlier failure is made again.
  if [[ -x "$VENV/bin/python" ]] && ! "$VENV/bin/python" -m pip --version > /dev/null 2>&1; then
    rm -rf "$VENV"
  fi
  if [[ ! -x "$VENV/bin/python" ]]; then
    log "creating the Python virtual environment in .venv"
    local create_log
    create_log="$(mktemp)"
    if ! python3 -m venv "$VENV" > "$create_log" 2>&1; then
      # Debian's own python3 keeps venv in a separate package.
      if [[ "$(id -u)" == 0 ]] && command -v apt-get > /dev/null; then
        log "python3 -m venv failed; installing python3-venv with apt-get"
        rm -rf "$VENV"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq > /dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv > /dev/null
        python3 -m venv "$VENV" || die "python3 -m venv failed (see above)"
      else
        cat "$create_log" >&2
        die "python3 -m venv failed; install the python3-venv package"
      fi
    fi
    rm -f "$create_log"
  fi
  log "installing the test servers into .venv (pinned in Tests/Servers/requirements.txt)"
  "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input -q \
    -r "$REQUIREMENTS" || die "pip install -r Tests/Servers/requirements.txt failed"
  printf '%s\n' "$want" > "$STAMP"
}

# Prints the addresses `localhost` resolves to, one per line.
localhost_addresses() {
  "$VENV/bin/python" - << 'EOF'
import socket
seen = []
for info in socket.getaddrinfo("localhost", None, type=socket.SOCK_STREAM):
    if info[4][0] not in seen:
        seen.append(info[4][0])
print("\n".join(seen))
EOF
}

# Prints a port that is free on every address given as an argument.
free_port() {
  "$VENV/bin/python" - "$@" << 'EOF'
import socket, sys
addresses = sys.argv[1:]
for _ in range(50):
    first = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    first.bind((addresses[0], 0))
    port = first.getsockname()[1]
    held = [first]
    try:
        for address in addresses[1:]:
            family = socket.AF_INET6 if ":" in address else socket.AF_INET
            other = socket.socket(family, socket.SOCK_STREAM)
            held.append(other)
            other.bind((address, port))
        print(port)
        sys.exit(0)
    except OSError:
        continue
    finally:
        for sock in held:
            sock.close()
sys.exit("no free port found on " + ", ".join(addresses))
EOF
}

# Answers 0 when every URL given answers with HTTP 200. `https` URLs are verified against the
# certificate authority in $STATE/tls/ca.pem only.
all_answer() {
  "$VENV/bin/python" - "$STATE/tls/ca.pem" "$@" << 'EOF'
import ssl, sys, urllib.request
ca, urls = sys.argv[1], sys.argv[2:]
context = None
for url in urls:
    if url.startswith("https:") and context is None:
        context = ssl.create_default_context(cafile=ca)
    try:
        with urllib.request.urlopen(url, timeout=2, context=context) as response:
            if response.status != 200:
                sys.exit(1)
    except Exception:
        sys.exit(1)
EOF
}

is_running() {
  local pid="$1"
  [[ -n "$pid" && -d "/proc/$pid" ]] && ! grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2> /dev/null
}

# Prints the direct children of a process, read from /proc (procps may not be installed).
children_of() {
  local parent="$1" stat rest
  for stat in /proc/[0-9]*/stat; do
    read -r rest 2> /dev/null < "$stat" || continue
    rest="${rest##*) }"
    read -r _ ppid _ <<< "$rest"
    if [[ "$ppid" == "$parent" ]]; then
      stat="${stat#/proc/}"
      printf '%s\n' "${stat%/stat}"
    fi
  done
}

stop_pid() {
  local name="$1" pid="$2" pids child tries
  is_running "$pid" || return 0
  pids=("$pid")
  while read -r child; do
    [[ -n "$child" ]] && pids+=("$child")
  done < <(children_of "$pid")
  # The gunicorn master stops its own workers on SIGTERM; survivors get SIGKILL below.
  kill -TERM "$pid" 2> /dev/null || true
  for tries in $(seq 1 50); do
    local alive=0
    for child in "${pids[@]}"; do
      if is_running "$child"; then alive=1; fi
    done
    [[ "$alive" == 0 ]] && break
    sleep 0.1
  done
  for child in "${pids[@]}"; do
    if is_running "$child"; then
      log "$name ($child) ignored SIGTERM; sending SIGKILL"
      kill -KILL "$child" 2> /dev/null || true
    fi
  done
  # Reap, when this shell started it.
  wait "$pid" 2> /dev/null || true
}

cmd_stop() {
  local name pid_file
  # Finish stopping even when an interrupt arrives meanwhile (Ctrl-C reaches the whole group).
  trap '' INT TERM HUP
  for name in "${SERVERS[@]}"; do
    pid_file="$STATE/$name.pid"
    [[ -f "$pid_file" ]] || continue
    stop_pid "$name" "$(cat "$pid_file")"
    rm -f "$pid_file"
  done
  rm -rf "$STATE/env" "$STATE/fault.port" "$STATE/tls.ports" "$STATE/tls" "$STATE/h2capture.ports"
  trap - INT TERM HUP
  log "stopped"
}

show_failure() {
  printf 'servers: error: %s\n' "$*" >&2
  for name in "${SERVERS[@]}"; do
    if [[ -f "$STATE/$name.log" ]]; then
      printf -- '----- %s log (.test-servers/%s.log, last 40 lines) -----\n' "$name" "$name" >&2
      tail -n 40 "$STATE/$name.log" >&2
    fi
  done
  cmd_stop
  exit 1
}

# httpbin again under Hypercorn, over TLS: ALPN offers h2 and http/1.1. One process (-w 0)
# starts fastest; it runs the WSGI app on a thread pool, so concurrent requests still overlap.
# Arguments: Hypercorn's -b options.
start_https() {
  (cd "$STATE" && exec "$VENV/bin/hypercorn" "$@" -w 0 \
    --certfile "$STATE/tls/server-cert.pem" --keyfile "$STATE/tls/server-key.pem" \
    --keep-alive 30 --graceful-timeout 1 --log-level warning wsgi:httpbin:app) \
    < /dev/null > "$STATE/https.log" 2>&1 &
  echo $! > "$STATE/https.pid"
}

cmd_start() {
  install_venv
  cmd_stop 2> /dev/null
  mkdir -p "$STATE"

  # httpbin must answer on 127.0.0.1 and on every loopback address `localhost` resolves to
  # (127.0.0.1 here; ::1 first on some systems), since the tests use both as two origins.
  local binds=("127.0.0.1") address
  while read -r address; do
    case "$address" in
      127.0.0.1) ;;
      127.* | ::1) binds+=("$address") ;;
      *) die "localhost resolves to $address, which is not a loopback address" ;;
    esac
  done < <(localhost_addresses)

  # Two ports free on every address; both are chosen before either server binds its own.
  local httpbin_port https_port
  httpbin_port="$(free_port "${binds[@]}")" || die "could not find a free port for httpbin"
  https_port="$httpbin_port"
  while [[ "$https_port" == "$httpbin_port" ]]; do
    https_port="$(free_port "${binds[@]}")" || die "could not find a free port for HTTPS"
  done
  local httpbin_binds=() https_binds=()
  for address in "${binds[@]}"; do
    if [[ "$address" == *:* ]]; then address="[$address]"; fi
    httpbin_binds+=(-b "$address:$httpbin_port")
    https_binds+=(-b "$address:$https_port")
  done

  # gthread workers with many threads: parallel tests and /delay, /drip or slow uploads never
  # wait for a free worker.
  (cd "$STATE" && exec "$VENV/bin/gunicorn" "${httpbin_binds[@]}" \
    -k gthread -w 2 --threads 16 --keep-alive 30 --timeout 120 --graceful-timeout 2 \
    --no-control-socket --log-level warning httpbin:app) \
    < /dev/null > "$STATE/httpbin.log" 2>&1 &
  echo $! > "$STATE/httpbin.pid"

  "$VENV/bin/python" "$FAULT_SERVER" --host 127.0.0.1 --port 0 \
    --port-file "$STATE/fault.port" < /dev/null > "$STATE/fault.log" 2>&1 &
  echo $! > "$STATE/fault.pid"

  # A new certificate authority at every start: nothing outside this run ever trusts it.
  "$VENV/bin/python" "$MAKE_TEST_CA" "$STATE/tls" > "$STATE/tls.log" 2>&1 \
    || show_failure "making the test certificate authority failed: $(cat "$STATE/tls.log")"

  start_https "${https_binds[@]}"

  "$VENV/bin/python" "$TLS_SERVER" --host 127.0.0.1 --certs "$STATE/tls" \
    --port-file "$STATE/tls.ports" < /dev/null >> "$STATE/tls.log" 2>&1 &
  echo $! > "$STATE/tls.pid"

  "$VENV/bin/python" "$H2_CAPTURE_SERVER" --host 127.0.0.1 --certs "$STATE/tls" \
    --port-file "$STATE/h2capture.ports" < /dev/null > "$STATE/h2capture.log" 2>&1 &
  echo $! > "$STATE/h2capture.pid"

  local httpbin_url="http://127.0.0.1:$httpbin_port"
  local alt_url="http://localhost:$httpbin_port"
  local https_url="https://127.0.0.1:$https_port"
  local https_alt_url="https://localhost:$https_port"
  local fault_url="" tls12_url="" wrong_name_url="" mtls_url="" waited=0 name https_attempts=1
  local h2_capture_url="" h2_capture_plain_url=""
  while true; do
    # The HTTPS port was free when chosen, but a server binding port 0 in the meantime may have
    # been given it: Hypercorn then exits at once, and is started again on another port.
    if ! is_running "$(cat "$STATE/https.pid")" && ((https_attempts < 3)) \
      && grep -q "Address already in use" "$STATE/https.log"; then
      https_attempts=$((https_attempts + 1))
      https_port="$(free_port "${binds[@]}")" || die "could not find a free port for HTTPS"
      https_binds=()
      for address in "${binds[@]}"; do
        if [[ "$address" == *:* ]]; then address="[$address]"; fi
        https_binds+=(-b "$address:$https_port")
      done
      log "the HTTPS port was taken meanwhile; starting the HTTPS server on $https_port"
      start_https "${https_binds[@]}"
      https_url="https://127.0.0.1:$https_port"
      https_alt_url="https://localhost:$https_port"
    fi
    for name in "${SERVERS[@]}"; do
      is_running "$(cat "$STATE/$name.pid")" \
        || show_failure "the $name server exited during start-up"
    done
    if [[ -z "$fault_url" && -s "$STATE/fault.port" ]]; then
      fault_url="http://127.0.0.1:$(cat "$STATE/fault.port")"
    fi
    # tls_server.py writes its ports file whole, once both of its listeners listen.
    if [[ -z "$tls12_url" && -s "$STATE/tls.ports" ]]; then
      tls12_url="https://127.0.0.1:$(sed -n 's/^tls12 //p' "$STATE/tls.ports")"
      wrong_name_url="https://127.0.0.1:$(sed -n 's/^wrong-name //p' "$STATE/tls.ports")"
      mtls_url="https://127.0.0.1:$(sed -n 's/^mtls //p' "$STATE/tls.ports")"
    fi
    if [[ -z "$h2_capture_url" && -s "$STATE/h2capture.ports" ]]; then
      h2_capture_url="https://127.0.0.1:$(sed -n 's/^tls //p' "$STATE/h2capture.ports")"
      h2_capture_plain_url="http://127.0.0.1:$(sed -n 's/^plain //p' "$STATE/h2capture.ports")"
    fi
    if [[ -n "$fault_url" && -n "$tls12_url" && -n "$h2_capture_url" ]] \
      && all_answer "$httpbin_url/get" "$alt_url/get" "$fault_url/echo" \
        "$https_url/get" "$https_alt_url/get" "$tls12_url/ready" \
        "$h2_capture_url/ready" "$h2_capture_plain_url/ready"; then
      break
    fi
    if ((waited >= READY_TIMEOUT * 5)); then
      show_failure "servers did not answer within ${READY_TIMEOUT}s" \
        "($httpbin_url/get, $alt_url/get, ${fault_url:-fault server port unknown}/echo," \
        "$https_url/get, $https_alt_url/get, ${tls12_url:-TLS 1.2 server port unknown}/ready)"
    fi
    sleep 0.2
    waited=$((waited + 1))
  done

  cat > "$STATE/env" << EOF
export ENDPOINT_HTTPBIN_URL=$httpbin_url
export ENDPOINT_HTTPBIN_ALT_URL=$alt_url
export ENDPOINT_FAULT_URL=$fault_url
export ENDPOINT_HTTPS_URL=$https_url
export ENDPOINT_HTTPS_ALT_URL=$https_alt_url
export ENDPOINT_HTTPS_TLS12_URL=$tls12_url
export ENDPOINT_HTTPS_WRONG_NAME_URL=$wrong_name_url
export ENDPOINT_TEST_CA=$STATE/tls/ca.pem
export ENDPOINT_HTTPS_MTLS_URL=$mtls_url
export ENDPOINT_TEST_TLS_DIR=$STATE/tls
export ENDPOINT_H2_CAPTURE_URL=$h2_capture_url
export ENDPOINT_H2_CAPTURE_PLAIN_URL=$h2_capture_plain_url
EOF
  log "httpbin at $httpbin_url (also $alt_url), fault server at $fault_url"
  log "HTTPS httpbin at $https_url (also $https_alt_url), TLS 1.2 only at $tls12_url," \
    "wrong certificate name at $wrong_name_url, authority $STATE/tls/ca.pem"
  log "environment written to .test-servers/env"
}

cmd_status() {
  local name running=0
  for name in "${SERVERS[@]}"; do
    if [[ -f "$STATE/$name.pid" ]] && is_running "$(cat "$STATE/$name.pid")"; then
      echo "$name: running (pid $(cat "$STATE/$name.pid"))"
      running=$((running + 1))
    else
      echo "$name: not running"
    fi
  done
  [[ -f "$STATE/env" ]] && cat "$STATE/env"
  [[ "$running" == "${#SERVERS[@]}" ]]
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *)
    echo "usage: scripts/servers.sh start|stop|status" >&2
    exit 2
    ;;
esac
