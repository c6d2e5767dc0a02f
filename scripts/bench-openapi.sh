#!/usr/bin/env bash
# Times endpoint-openapi on a large document and reports its peak memory; with --typecheck, also
# times type-checking the generated source (whole module, one frontend) against the built
# EndpointCore and EndpointJSON.
#
#   scripts/bench-openapi.sh [--typecheck] [--yaml] [DOCUMENT.json|DOCUMENT.yaml]
#
# Without DOCUMENT it generates from a synthetic document of 1,000 operations and 3,000 schemas
# written by scripts/make-large-openapi.py, as JSON or, with --yaml, as the same document in
# YAML (read through libyaml). Large real documents are not kept in the repository; get them
# from their publishers (YAML or JSON):
#   GitHub: https://github.com/github/rest-api-description
#           (descriptions/api.github.com/api.github.com.json, about 1,000 operations)
#   Stripe: https://github.com/stripe/openapi (openapi/spec3.json, thousands of schemas)
#
# The command is built in release mode (`swift build -c release --product endpoint-openapi`)
# and run once under /usr/bin/time -v into an empty directory, then once more into the same
# directory (nothing changes, nothing is written). Everything goes to a temporary directory,
# removed at the end. The targets of the issue that asked for the generator: under 10 s and
# under 1 GiB for the largest real documents, on this 2-core machine.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

typecheck=false
yaml=false
document=""
for argument in "$@"; do
  case "$argument" in
    --typecheck) typecheck=true ;;
    --yaml) yaml=true ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    -*)
      echo "usage: scripts/bench-openapi.sh [--typecheck] [--yaml] [DOCUMENT]" >&2
      exit 2
      ;;
    *) document="$argument" ;;
  esac
done

[[ -x /usr/bin/time ]] || {
  echo "bench-openapi: error: /usr/bin/time is missing (apt-get install time)" >&2
  exit 1
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "bench-openapi: building endpoint-openapi (release)"
swift build -c release --product endpoint-openapi > "$work/build.log" 2>&1 || {
  cat "$work/build.log" >&2
  exit 1
}
tool="$(swift build -c release --show-bin-path)/endpoint-openapi"

if [[ -z "$document" ]]; then
  document="$work/large.json"
  if $yaml; then document="$work/large.yaml"; fi
  python3 scripts/make-large-openapi.py "$document"
fi
operations_schemas="$(python3 -c '
import json, sys
if sys.argv[1].endswith((".yaml", ".yml")):
    import yaml
    d = yaml.load(open(sys.argv[1]), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
else:
    d = json.load(open(sys.argv[1]))
methods = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
ops = sum(1 for item in d.get("paths", {}).values() for key in item if key in methods)
print(ops, len(d.get("components", {}).get("schemas", {})))' "$document")"
read -r operations schemas <<< "$operations_schemas"
size_kb=$(( $(stat -c %s "$document") / 1024 ))

measure() {
  local label="$1" log="$work/time-$1.txt"
  shift
  /usr/bin/time -v "$@" > "$work/out-$label.txt" 2> "$log" || {
    cat "$log" >&2
    exit 1
  }
  local wall cpu_user cpu_system rss
  wall="$(grep 'Elapsed (wall clock)' "$log" | awk '{print $NF}')"
  cpu_user="$(grep 'User time' "$log" | awk '{print $NF}')"
  cpu_system="$(grep 'System time' "$log" | awk '{print $NF}')"
  rss="$(grep 'Maximum resident' "$log" | awk '{print $NF}')"
  printf 'bench-openapi: %-22s wall %s  cpu %ss user + %ss system  peak RSS %d MiB\n' \
    "$label" "$wall" "$cpu_user" "$cpu_system" "$((rss / 1024))"
}

echo "bench-openapi: $(basename "$document"): ${size_kb} KiB, $operations operations," \
  "$schemas schemas; load average $(cut -d' ' -f1-3 /proc/loadavg)"
measure generate "$tool" generate "$document" --output "$work/out"
measure "generate (unchanged)" "$tool" generate "$document" --output "$work/out"
files="$(find "$work/out" -name '*.swift' | wc -l)"
lines="$(find "$work/out" -name '*.swift' -exec cat {} + | wc -l)"
warnings="$(grep -c 'warning:' "$work/time-generate.txt" || true)"
echo "bench-openapi: wrote $files files, $lines lines; $warnings constructs left out"

if $typecheck; then
  swift build --target EndpointJSON -Xswiftc -warnings-as-errors > "$work/build.log" 2>&1 || {
    cat "$work/build.log" >&2
    exit 1
  }
  modules="$(swift build --show-bin-path -Xswiftc -warnings-as-errors)/Modules"
  find "$work/out" -name '*.swift' > "$work/files.txt"
  # One frontend for the whole module: without -wmo each file's frontend parses every file.
  measure typecheck swiftc -typecheck -wmo -swift-version 6 -parse-as-library \
    -module-name Generated -I "$modules" "@$work/files.txt"
fi
