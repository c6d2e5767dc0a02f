#!/usr/bin/env bash
# Measures the URLSession transport against plain URLSession, on loopback, against nginx.
#
# Installs nginx from Debian if it is missing, writes its own configuration into a temporary
# working directory (127.0.0.1 on a free port, keep-alive, no access log, one worker, nothing
# under /etc touched), serves a ~300-byte JSON document and a 50 MB file, builds
# TransportBenchmarks in release mode and runs it: throughput and CPU per request of
# `client.call(endpoint)` vs `URLSession.data(for:)` + JSONDecoder (interleaved rounds, medians),
# peak RSS of a 50 MB download and stream, and a 20,000-request load run. nginx is stopped on
# exit, also on failure.
#
# Usage: scripts/bench-transport.sh [--ceiling] [--tls] [--large] [options passed to TransportBenchmarks; --help
#        lists them], e.g. --rounds 9 --window 2 --load 20000
#        --ceiling first measures what nginx alone serves on loopback with wrk (installed from
#        Debian when missing and possible), 1 thread, 1/8/64 connections, 3 s each.
#        scripts/bench-transport.sh --serve     only start nginx and wait (for profiling)
#        scripts/bench-transport.sh --perf CLIENT [options]   run `--profile CLIENT` under
#        `perf record -g` (linux-perf from Debian) and print where the time goes; perf.data is
#        kept in .build/perf-CLIENT.data. e.g. --perf curl --in-flight 8 --seconds 10
#        scripts/bench-transport.sh --tls --perf curl-h2 (or curl-tls) [options]: the same over
#        HTTP/2 (one connection) or HTTP/1.1 + TLS
#        scripts/bench-curl.sh runs the EndpointCurl comparison with this script.
#        --tls also serves the site over HTTPS (TLS 1.3, a throwaway CA and certificate made with
#        the openssl tool) on two more ports, HTTP/1.1 only and HTTP/2, and passes --tls-base,
#        --h2-base and --ca; /close/... closes the connection after each response on every
#        server, and the HTTP/1.1 one has no TLS session resumption (scripts/bench-https.sh).
#        --large also serves a 1 GiB file of random bytes (ENDPOINT_BENCH_LARGE_MIB to change its size)
#        and accepts PUT /upload.bin (WebDAV, stored on tmpfs), with a scratch directory on
#        /dev/shm, and passes --upload-file and --large-path (scripts/bench-large.sh).
# Environment: ENDPOINT_BENCH_SKIP_BUILD=1 to run an existing release build.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK=""
SHM=""
NGINX_PID=""

log() { printf 'bench-transport: %s\n' "$*" >&2; }
die() {
  printf 'bench-transport: error: %s\n' "$*" >&2
  exit 1
}

cleanup() {
  local status=$?
  if [[ -n "$NGINX_PID" ]] && kill -0 "$NGINX_PID" 2> /dev/null; then
    kill -TERM "$NGINX_PID" 2> /dev/null || true
    for _ in $(seq 50); do
      kill -0 "$NGINX_PID" 2> /dev/null || break
      sleep 0.1
    done
    kill -KILL "$NGINX_PID" 2> /dev/null || true
  fi
  if [[ -n "$SHM" && -d "$SHM" ]]; then
    rm -rf "$SHM"
  fi
  if [[ -n "$WORK" && -d "$WORK" ]]; then
    if [[ $status -ne 0 && -s "$WORK/error.log" ]]; then
      log "nginx error log:"
      tail -n 20 "$WORK/error.log" >&2 || true
    fi
    rm -rf "$WORK"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

nginx_binary() {
  command -v nginx 2> /dev/null && return 0
  [[ -x /usr/sbin/nginx ]] && echo /usr/sbin/nginx && return 0
  return 1
}

install_nginx() {
  nginx_binary > /dev/null && return 0
  [[ "$(id -u)" == 0 ]] || die "nginx is missing; install it (apt-get install nginx) or run as root"
  command -v apt-get > /dev/null || die "nginx is missing and apt-get is not available"
  export DEBIAN_FRONTEND=noninteractive
  log "installing nginx from Debian"
  # The package lists may be empty on a fresh machine: update once, then install.
  if ! apt-get install -y -qq nginx-light > /dev/null 2>&1 \
    && ! apt-get install -y -qq nginx > /dev/null 2>&1; then
    apt-get update -qq > /dev/null
    apt-get install -y -qq nginx-light > /dev/null 2>&1 \
      || apt-get install -y -qq nginx > /dev/null \
      || die "could not install nginx"
  fi
  # The package may start a system-wide nginx on port 80; this script needs none of it.
  if command -v service > /dev/null && [[ -f /run/nginx.pid ]]; then
    service nginx stop > /dev/null 2>&1 || true
  fi
  nginx_binary > /dev/null || die "nginx was installed but not found on PATH or in /usr/sbin"
}

install_debian_tool() {
  local tool=$1 package=$2
  command -v "$tool" > /dev/null && return 0
  [[ "$(id -u)" == 0 ]] && command -v apt-get > /dev/null || return 1
  log "installing $package from Debian"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" > /dev/null 2>&1 \
    || {
      apt-get update -qq > /dev/null 2>&1
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" > /dev/null 2>&1
    } || return 1
  command -v "$tool" > /dev/null
}

# What nginx alone serves: the ceiling of every client on this loopback.
measure_ceiling() {
  if ! install_debian_tool wrk wrk; then
    log "wrk is not available: no loopback ceiling measured"
    return 0
  fi
  local line="nginx alone on loopback (wrk, 1 thread, 3 s per run):"
  local connections rate
  for connections in 1 8 64; do
    rate="$(wrk -t1 -c"$connections" -d3s "$BASE_URL/doc.json" 2> /dev/null \
      | awk '/^Requests\/sec:/ { printf "%.0f", $2 }')"
    line+=" $connections connections ${rate:-?} req/s;"
  done
  echo "${line%;}"
}

free_port() {
  if command -v python3 > /dev/null; then
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
    return
  fi
  local port
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then
      echo "$port"
      return
    fi
  done
  die "no free port found"
}

write_site() {
  mkdir -p "$WORK/www" "$WORK/temp"
  # About 300 bytes, the shape of a typical REST resource.
  cat > "$WORK/www/doc.json" << 'JSON'
{"id":1296269,"login":"octocat","name":"The Octocat","company":"GitHub","blog":"https://github.blog","location":"San Francisco","email":"octocat@example.com","bio":"A cat that codes.","public_repos":8,"followers":9001,"following":9,"site_admin":false,"created_at":"2011-01-25T18:44:36Z","updated_at":"2024-05-01T10:00:00Z"}
JSON
  head -c 52428800 /dev/zero > "$WORK/www/large.bin"
  if [[ $LARGE == 1 ]]; then
    SHM="$(mktemp -d -p /dev/shm endpoint-bench.XXXXXX)"
    mkdir -p "$SHM/body" "$SHM/put" "$SHM/scratch"
    chmod 777 "$SHM" "$SHM/body" "$SHM/put" "$SHM/scratch"
    # Random bytes, as a real large body: nothing compresses, and the file is read from memory.
    head -c "${ENDPOINT_BENCH_LARGE_MIB:-1024}M" /dev/urandom > "$WORK/www/large-1g.bin"
    chmod 644 "$WORK/www/large-1g.bin"
    LARGE_ARGUMENTS=(--large-path large-1g.bin --upload-file "$WORK/www/large-1g.bin"
      --scratch "$SHM/scratch")
  fi
}

# A certificate authority and a certificate for 127.0.0.1 and localhost, valid two days.
make_certificates() {
  command -v openssl > /dev/null || die "openssl is missing (Debian package openssl)"
  local dir="$WORK/tls"
  mkdir -p "$dir"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj "/CN=Endpoint benchmark CA" -keyout "$dir/ca.key" -out "$dir/ca.pem" \
    > /dev/null 2>&1 || die "openssl could not make the CA"
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -subj "/CN=localhost" -keyout "$dir/server.key" -out "$dir/server.csr" \
    > /dev/null 2>&1 || die "openssl could not make the key"
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' \
    > "$dir/server.ext"
  openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" \
    -CAcreateserial -days 2 -extfile "$dir/server.ext" -out "$dir/server.pem" \
    > /dev/null 2>&1 || die "openssl could not sign the certificate"
  chmod 644 "$dir"/*
}

large_locations() {
  [[ $LARGE == 1 ]] || return 0
  cat << CONF
    location = /upload.bin {
      client_max_body_size 0;
      dav_methods PUT;
      client_body_temp_path $SHM/body;
      root $SHM/put;
    }
CONF
}

tls_servers() {
  [[ $TLS == 1 ]] || return 0
  cat << CONF
  ssl_certificate $WORK/tls/server.pem;
  ssl_certificate_key $WORK/tls/server.key;
  ssl_protocols TLSv1.3;
  server {
    listen 127.0.0.1:$TLS_PORT ssl;
    server_name localhost;
    root $WORK/www;
    # Every new connection a full handshake.
    ssl_session_tickets off;
    ssl_session_cache off;
    location /close/ {
      keepalive_timeout 0;
      alias $WORK/www/;
    }
  }
  server {
    listen 127.0.0.1:$H2_PORT ssl http2;
    server_name localhost;
    root $WORK/www;
    http2_max_concurrent_streams 256;
  }
CONF
}

write_config() {
  local port=$1
  cat > "$WORK/nginx.conf" << CONF
worker_processes 1;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/error.log warn;
events {
  worker_connections 1024;
}
http {
  access_log off;
  client_body_temp_path $WORK/temp/body;
  proxy_temp_path $WORK/temp/proxy;
  fastcgi_temp_path $WORK/temp/fastcgi;
  uwsgi_temp_path $WORK/temp/uwsgi;
  scgi_temp_path $WORK/temp/scgi;
  types {
    application/json json;
    application/octet-stream bin;
  }
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 300s;
  keepalive_requests 10000000;
  etag off;
  server {
    listen 127.0.0.1:$port;
    server_name localhost;
    root $WORK/www;
    location /close/ {
      keepalive_timeout 0;
      alias $WORK/www/;
    }
$(large_locations)
  }
$(tls_servers)
}
CONF
}

start_nginx() {
  local binary port
  binary="$(nginx_binary)"
  port="$(free_port)"
  if [[ $TLS == 1 ]]; then
    TLS_PORT="$(free_port)"
    H2_PORT="$(free_port)"
    make_certificates
  fi
  write_config "$port"
  "$binary" -t -q -p "$WORK" -c "$WORK/nginx.conf" -e "$WORK/error.log" \
    || die "nginx rejected the configuration"
  "$binary" -p "$WORK" -c "$WORK/nginx.conf" -e "$WORK/error.log" &
  NGINX_PID=$!
  BASE_URL="http://127.0.0.1:$port"
  for _ in $(seq 100); do
    if curl -fsS -o /dev/null "$BASE_URL/doc.json" 2> /dev/null; then
      log "nginx $("$binary" -v 2>&1 | sed 's/.*\///') serving $BASE_URL (pid $NGINX_PID)"
      if [[ $TLS == 1 ]]; then
        TLS_ARGUMENTS=(--tls-base "https://127.0.0.1:$TLS_PORT" --h2-base "https://127.0.0.1:$H2_PORT"
          --ca "$WORK/tls/ca.pem")
        curl -fsS --http2 --cacert "$WORK/tls/ca.pem" -o /dev/null "https://127.0.0.1:$H2_PORT/doc.json" \
          || die "nginx does not answer over HTTPS"
        log "HTTPS: ${TLS_ARGUMENTS[*]}"
      fi
      return 0
    fi
    kill -0 "$NGINX_PID" 2> /dev/null || die "nginx exited at start"
    sleep 0.1
  done
  die "nginx did not answer on $BASE_URL"
}

CEILING=0
TLS=0
LARGE=0
LARGE_ARGUMENTS=()
TLS_PORT=""
H2_PORT=""
TLS_ARGUMENTS=()
PERF_CLIENT=""
if [[ "${1:-}" == "--ceiling" ]]; then
  CEILING=1
  shift
fi
if [[ "${1:-}" == "--tls" ]]; then
  TLS=1
  shift
fi
if [[ "${1:-}" == "--large" ]]; then
  LARGE=1
  shift
fi
if [[ "${1:-}" == "--perf" ]]; then
  [[ $# -ge 2 ]] || die "--perf needs a client name (e.g. curl, sdk, raw)"
  PERF_CLIENT=$2
  shift 2
  install_debian_tool perf linux-perf || die "perf is missing (Debian package linux-perf)"
fi

install_nginx
WORK="$(mktemp -d -t endpoint-bench.XXXXXX)"
# nginx's worker drops to an unprivileged user when started as root: it must read the site.
chmod 755 "$WORK"
write_site
start_nginx

if [[ "${1:-}" == "--serve" ]]; then
  log "serving $BASE_URL/doc.json and $BASE_URL/large.bin; Ctrl-C stops nginx"
  echo "ENDPOINT_BENCH_URL=$BASE_URL ${TLS_ARGUMENTS[*]}"
  wait "$NGINX_PID"
  exit 0
fi

cd "$ROOT"
if [[ "${ENDPOINT_BENCH_SKIP_BUILD:-}" != 1 ]]; then
  log "building TransportBenchmarks (release)"
  swift build -c release --product TransportBenchmarks > "$WORK/build.log" 2>&1 \
    || {
      tail -n 40 "$WORK/build.log" >&2
      die "build failed"
    }
fi
BIN="$(swift build -c release --show-bin-path)/TransportBenchmarks"
[[ -x "$BIN" ]] || die "no release build at $BIN"

log "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ -n "$PERF_CLIENT" ]]; then
  OUT="$ROOT/.build/perf-$PERF_CLIENT.data"
  perf record -g -o "$OUT" -- "$BIN" --base "$BASE_URL" --scratch "$WORK" "${TLS_ARGUMENTS[@]}" \
    --profile "$PERF_CLIENT" "$@"
  perf report -i "$OUT" --stdio --no-children --sort comm,dso -g none 2> /dev/null \
    | grep -v '^#' | grep -v '^$' | head -n 12
  if command -v python3 > /dev/null && command -v llvm-symbolizer > /dev/null; then
    perf script -i "$OUT" -F comm,ip,sym,dso 2> /dev/null > "$WORK/perf.txt"
    python3 - "$WORK/perf.txt" "$BIN" "$ROOT/" << 'PY'
# Where each thread's time goes: by system call, and by line of Sources/ on the stack
# (inclusive, inlined frames counted; time in libcurl and libc charged to the lines that called).
import collections, json, re, subprocess, sys
path, binary, root = sys.argv[1:4]
samples, current = [], None
for line in open(path):
    if not line.strip():
        current = None
    elif not line.startswith("\t"):
        current = (line.rsplit(None, 1)[0].strip(), [])
        samples.append(current)
    elif current is not None:
        match = re.match(r"\s*([0-9a-f]+) (.*) \((.*)\)$", line.rstrip())
        if match:
            current[1].append((int(match.group(1), 16), match.group(2), match.group(3)))
ours = sorted({ip for _, frames in samples for ip, _, dso in frames if dso == binary})
answer = subprocess.run(
    ["llvm-symbolizer", "--obj=" + binary, "--inlining", "--output-style=JSON"],
    input="\n".join(hex(ip - 1) for ip in ours), capture_output=True, text=True).stdout
lines = {}
for ip, text in zip(ours, answer.strip().split("\n")):
    lines[ip] = [f"{entry['FileName'].replace(root, '')}:{entry['Line']}"
                 for entry in json.loads(text).get("Symbol", []) if entry.get("FileName")]
threads = collections.Counter(name for name, _ in samples)
for thread, count in threads.most_common(2):
    calls, spots = collections.Counter(), collections.Counter()
    for name, frames in samples:
        if name != thread:
            continue
        kernel = frames and "kernel" in frames[0][2]
        if kernel:
            entry = next((f[1] for f in frames if f[1].startswith("__x64_sys_")), "interrupt/softirq")
            caller = next((f[1].split("@")[0] for f in frames if "kernel" not in f[2]), "?")
            calls[f"{entry} <- {caller}"] += 1
        seen = set()
        for ip, _, dso in frames:
            for spot in lines.get(ip, []):
                if spot.startswith("Sources/") and spot not in seen:
                    seen.add(spot)
                    spots[spot] += 1
    print(f"\nthread {thread}: {100 * count / len(samples):.1f}% of samples; its kernel time:")
    for call, hits in calls.most_common(8):
        print(f"  {100 * hits / count:5.1f}%  {call}")
    print("  inclusive by line of Sources/ (stacks through libcurl are cut; lower bounds):")
    for spot, hits in spots.most_common(25):
        if 100 * hits / count >= 0.5:
            print(f"  {100 * hits / count:5.1f}%  {spot}")
PY
  fi
  log "perf data: $OUT (perf report -i $OUT)"
  exit 0
fi
if [[ $CEILING == 1 ]]; then
  log "loopback ceiling: wrk against nginx alone"
  measure_ceiling
fi
# ENDPOINT_BENCH_PRELOAD: a library preloaded into the benchmark alone (scripts/bench-allocs.sh).
PRELOAD=()
if [[ -n "${ENDPOINT_BENCH_PRELOAD:-}" ]]; then
  PRELOAD=(env "LD_PRELOAD=$ENDPOINT_BENCH_PRELOAD")
fi
"${PRELOAD[@]}" "$BIN" --base "$BASE_URL" --scratch "$WORK" "${TLS_ARGUMENTS[@]}" "${LARGE_ARGUMENTS[@]}" "$@"
