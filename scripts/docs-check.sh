#!/usr/bin/env bash
# Checks the documentation as readers see it: in a browser.
#
#   scripts/docs-check.sh [--build] [swift build flags...]
#
# Serves the static site that scripts/docs.sh exports (.build/docs/site) on 127.0.0.1 with
# python's http.server, stopped at the end, and loads the landing page, every article, every
# module page and the main types' pages in headless Chromium (scripts/docs_check.py, through
# the DevTools protocol). A page fails when it stays blank, when the console shows an error (the
# viewer's optional theme-settings.json aside) or when a code block is wider than its column.
#
# With --build it runs scripts/docs.sh first (the other arguments are its build flags).
# Installs Debian's `chromium` package with apt-get when no Chromium is found.
#
# A stage of scripts/test.sh, after the docs stage has exported the site: about a minute (a few
# seconds a page).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SITE=".build/docs/site"

if [[ "${1:-}" == "--build" ]]; then
  shift
  scripts/docs.sh "$@"
fi
[[ -f "$SITE/index.html" && -d "$SITE/data/documentation" ]] || {
  echo "docs check: error: no site in $SITE; run scripts/docs.sh (or pass --build)" >&2
  exit 1
}

CHROMIUM="$(command -v chromium || command -v chromium-browser || true)"
if [[ -z "$CHROMIUM" ]]; then
  echo "docs check: installing chromium with apt-get"
  if [[ "$(id -u)" == 0 ]]; then SUDO=(); else SUDO=(sudo); fi
  "${SUDO[@]}" apt-get install -y chromium > /dev/null ||
    { "${SUDO[@]}" apt-get update > /dev/null && "${SUDO[@]}" apt-get install -y chromium > /dev/null; }
  CHROMIUM="$(command -v chromium)"
fi

# A free port on loopback.
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
LOG="$(mktemp)"
python3 -m http.server --bind 127.0.0.1 --directory "$SITE" "$PORT" > "$LOG" 2>&1 &
SERVER=$!
stop_server() {
  kill "$SERVER" 2> /dev/null || true
  wait "$SERVER" 2> /dev/null || true
  rm -f "$LOG"
}
trap stop_server EXIT

for _ in $(seq 50); do
  if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/')" \
    2> /dev/null; then
    break
  fi
  kill -0 "$SERVER" 2> /dev/null || {
    echo "docs check: error: the web server did not start:" >&2
    cat "$LOG" >&2
    exit 1
  }
  sleep 0.1
done

# The site root redirects to the documentation.
python3 - "$PORT" <<'PY'
import sys, urllib.request
root = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/").read().decode()
if 'url=documentation/endpoint/' not in root:
    sys.exit("docs check: error: the site root does not redirect to documentation/endpoint/")
print("docs check: ok   / redirects to documentation/endpoint/")
PY

started=$SECONDS
python3 scripts/docs_check.py "$CHROMIUM" "http://127.0.0.1:$PORT" "$SITE"
echo "docs check: ok, every page renders ($((SECONDS - started)) s in Chromium)"
