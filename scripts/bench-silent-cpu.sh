#!/usr/bin/env bash
# What waiting on a silent server costs in CPU: the curl client, the URLSession client and a bare
# URLSession (the baseline), each sending one request with a 10 s limit to a server on 127.0.0.1
# that accepts the connection and never answers (Benchmarks/SilentServerCPU). The server is
# started here and stopped however the script ends.
#
#   scripts/bench-silent-cpu.sh [--wait SECONDS]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

swift build -c release --product SilentServerCPU > /dev/null
BIN="$(swift build -c release --show-bin-path)/SilentServerCPU"

PORT_FILE="$(mktemp)"
python3 - "$PORT_FILE" <<'PY' &
import socket, sys, time
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(16)
with open(sys.argv[1], "w") as f:
    f.write(str(server.getsockname()[1]))
held = []
while True:
    connection, _ = server.accept()
    held.append(connection)  # kept open, never read from or answered
PY
SERVER=$!
cleanup() {
  kill "$SERVER" 2> /dev/null || true
  wait "$SERVER" 2> /dev/null || true
  rm -f "$PORT_FILE"
}
trap cleanup EXIT

for _ in $(seq 50); do
  [[ -s "$PORT_FILE" ]] && break
  sleep 0.1
done
PORT="$(cat "$PORT_FILE")"
"$BIN" --url "http://127.0.0.1:$PORT/never" "$@"
