#!/usr/bin/env bash
# Runs scripts/bench-openapi.sh on a real public API description of several MB: Kubernetes's
# own (v1.13: 4.2 MB of Swagger 2.0, 515 paths, 881 definitions), which Debian ships as test
# data in the package golang-k8s-kube-openapi-dev. It downloads the package with apt-get into a
# temporary directory, converts the document to OpenAPI 3.0 with
# scripts/swagger2-to-openapi3.py, and hands it to scripts/bench-openapi.sh: generation under
# /usr/bin/time -v (wall, CPU, peak RSS), the generator's warnings (each construct left out,
# with its JSON pointer), and with --build the debug build of the output in a throwaway
# package and an incremental build after one namespace file and one model file changed.
#
#   scripts/bench-openapi-kubernetes.sh [--v1.14] [bench-openapi.sh options: --build,
#                                        --typecheck, --models-module]
#
# --v1.14 takes the package's other large document instead (the aggregated v1.14 API, 3.1 MB).
# --yaml hands the generator the same document written as YAML (4.3 MB; needs PyYAML, Debian's
# python3-yaml), so the YAML reader is measured on a real document too.
# Needs apt-get (network for the package, nothing else) and dpkg-deb. Everything it makes goes
# to temporary directories, removed on exit.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
package_root="usr/share/gocode/src/k8s.io/kube-openapi"
source_path="$package_root/pkg/schemaconv/testdata/swagger.json"
forwarded=()
yaml=0
for argument in "$@"; do
  case "$argument" in
    --v1.14) source_path="$package_root/test/integration/testdata/aggregator/openapi.json" ;;
    --yaml) yaml=1 ;;
    --build | --typecheck | --models-module) forwarded+=("$argument") ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "usage: scripts/bench-openapi-kubernetes.sh [--v1.14] [--yaml] [--build]" \
        "[--typecheck] [--models-module]" >&2
      exit 2
      ;;
  esac
done

for tool in apt-get dpkg-deb python3; do
  command -v "$tool" > /dev/null || {
    echo "bench-openapi-kubernetes: error: $tool is missing" >&2
    exit 1
  }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "bench-openapi-kubernetes: downloading golang-k8s-kube-openapi-dev"
# apt-get download writes to the current directory; _apt must be able to write there.
chmod 0777 "$work"
(cd "$work" && apt-get download -q golang-k8s-kube-openapi-dev > download.log 2>&1) || {
  cat "$work/download.log" >&2
  exit 1
}
dpkg-deb -x "$work"/golang-k8s-kube-openapi-dev_*.deb "$work/package"
swagger="$work/package/$source_path"
echo "bench-openapi-kubernetes: $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["info"]["title"], d["info"]["version"] + ": Swagger", d["swagger"] + ",",
      len(d["paths"]), "paths,", len(d.get("definitions", {})), "definitions")' "$swagger")"
python3 "$ROOT/scripts/swagger2-to-openapi3.py" "$swagger" "$work/kubernetes.json"
document="$work/kubernetes.json"
if [[ "$yaml" == 1 ]]; then
  python3 -c 'import yaml' 2> /dev/null || {
    echo "bench-openapi-kubernetes: error: --yaml needs PyYAML (apt-get install python3-yaml)" >&2
    exit 1
  }
  document="$work/kubernetes.yaml"
  python3 -c '
import json, sys, yaml
with open(sys.argv[2], "w") as out:
    yaml.safe_dump(json.load(open(sys.argv[1])), out, sort_keys=False, width=1000)' \
    "$work/kubernetes.json" "$document"
fi
"$ROOT/scripts/bench-openapi.sh" "${forwarded[@]}" "$document"
