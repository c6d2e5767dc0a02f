#!/usr/bin/env bash
# Times endpoint-openapi on a large document and reports its peak memory; with --typecheck, also
# times type-checking the generated source (whole module, one frontend) against the built
# EndpointCore and EndpointJSON; with --build, also times building the generated source as a
# SwiftPM library, from scratch and after changing one file; with --models-module, the models go
# to a module of their own (the generator's --models-module) and both steps build two modules.
#
#   scripts/bench-openapi.sh [--typecheck] [--build] [--models-module] [--yaml]
#                            [--operations N] [DOCUMENT.json|DOCUMENT.yaml]
#
# Without DOCUMENT it generates from a synthetic document of 1,000 operations and 3,000 schemas
# written by scripts/make-large-openapi.py, as JSON or, with --yaml, as the same document in
# YAML (read through libyaml). --operations N makes it N operations and 3×N schemas instead.
# Large real documents are not kept in the repository; get them from their publishers (YAML or
# JSON):
#   GitHub: https://github.com/github/rest-api-description
#           (descriptions/api.github.com/api.github.com.json, about 1,000 operations)
#   Stripe: https://github.com/stripe/openapi (openapi/spec3.json, thousands of schemas)
#
# --build writes the generated files into the one library target of a throwaway SwiftPM
# package that depends on this checkout's EndpointCore and EndpointJSON by path (no network),
# builds those two first, then times, each under /usr/bin/time -v: the debug build of the
# generated target (`swift build`), an incremental build after appending a static func to one
# namespace file (as a regenerated tag changes), and one after appending a static func to one
# model file. With --models-module the package has two targets, GeneratedModels (the models and
# the date-time support file) and Generated (the endpoints, which import it): the namespace
# step then recompiles the endpoints' module only, and --typecheck type-checks the models and
# then the endpoints against the models' module, one frontend each. Each build says how many of the generated files it compiled and which frontend
# jobs took longest, by compiler phase (-stats-output-dir). Other builds share the machine's
# cores, so the load average is printed before and after each. Runs of 1,000 operations take
# long on a loaded 2-core machine: --operations 250 builds a quarter of the document.
#
# It prints each construct the generator left out, by its JSON pointer, as the command warns.
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
build=false
models_module=false
yaml=false
document=""
operations_wanted=""
usage="usage: scripts/bench-openapi.sh [--typecheck] [--build] [--models-module] [--yaml]
       [--operations N] [DOCUMENT]"
while (($#)); do
  argument="$1"
  shift
  case "$argument" in
    --typecheck) typecheck=true ;;
    --build) build=true ;;
    --models-module) models_module=true ;;
    --yaml) yaml=true ;;
    --operations)
      [[ "${1:-}" =~ ^[1-9][0-9]*$ ]] || {
        echo "$usage" >&2
        exit 2
      }
      operations_wanted="$1"
      shift
      ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    -*)
      echo "$usage" >&2
      exit 2
      ;;
    *) document="$argument" ;;
  esac
done

[[ -x /usr/bin/time ]] || {
  echo "bench-openapi: error: /usr/bin/time is missing (apt-get install time)" >&2
  exit 1
}

if [[ -n "$operations_wanted" && -n "$document" ]]; then
  echo "bench-openapi: error: --operations sizes the synthetic document, not $document" >&2
  exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# SwiftPM's lock files for the throwaway package go to TMPDIR: keep them inside too.
mkdir "$work/tmp"
export TMPDIR="$work/tmp"
# Interrupted or terminated, exit through the EXIT trap so the directory goes too.
trap 'exit 130' INT
trap 'exit 143' TERM

echo "bench-openapi: building endpoint-openapi (release)"
swift build -c release --product endpoint-openapi > "$work/build.log" 2>&1 || {
  cat "$work/build.log" >&2
  exit 1
}
tool="$(swift build -c release --show-bin-path)/endpoint-openapi"

if [[ -z "$document" ]]; then
  document="$work/large.json"
  if $yaml; then document="$work/large.yaml"; fi
  sizes=()
  if [[ -n "$operations_wanted" ]]; then
    sizes=(--operations "$operations_wanted" --schemas "$((operations_wanted * 3))")
  fi
  python3 scripts/make-large-openapi.py "$document" "${sizes[@]}"
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
# The models' own directory, with --models-module; nothing is written there otherwise.
mkdir -p "$work/models"
generate_arguments=("$document" --output "$work/out")
if $models_module; then
  generate_arguments+=(--models-module GeneratedModels --models-output "$work/models")
fi
measure generate "$tool" generate "${generate_arguments[@]}"
measure "generate (unchanged)" "$tool" generate "${generate_arguments[@]}"
files="$(find "$work/out" "$work/models" -name '*.swift' | wc -l)"
lines="$(find "$work/out" "$work/models" -name '*.swift' -exec cat {} + | wc -l)"
warnings="$(grep -c 'warning:' "$work/time-generate.txt" || true)"
bytes="$(find "$work/out" "$work/models" -name '*.swift' -exec cat {} + | wc -c)"
echo "bench-openapi: wrote $files files, $lines lines, $((bytes / 1024)) KiB;" \
  "$warnings constructs left out"
# Each construct left out, by its JSON pointer.
grep 'warning:' "$work/time-generate.txt" |
  sed 's/^endpoint-openapi: warning: /bench-openapi:   /' || true

if $typecheck; then
  swift build --target EndpointJSON -Xswiftc -warnings-as-errors > "$work/build.log" 2>&1 || {
    cat "$work/build.log" >&2
    exit 1
  }
  modules="$(swift build --show-bin-path -Xswiftc -warnings-as-errors)/Modules"
  find "$work/out" -name '*.swift' > "$work/files.txt"
  if $models_module; then
    # The models first; then their module, for the endpoints to import, made without the
    # function bodies and not timed: type-checking them is the step measured.
    find "$work/models" -name '*.swift' > "$work/model-files.txt"
    measure "typecheck models" swiftc -typecheck -wmo -swift-version 6 -parse-as-library \
      -module-name GeneratedModels -I "$modules" "@$work/model-files.txt"
    mkdir -p "$work/modules"
    swiftc -emit-module -wmo -swift-version 6 -parse-as-library -module-name GeneratedModels \
      -I "$modules" -Xfrontend -experimental-skip-all-function-bodies \
      -emit-module-path "$work/modules/GeneratedModels.swiftmodule" "@$work/model-files.txt"
  fi
  # One frontend for the whole module: without -wmo each file's frontend parses every file.
  label=typecheck
  if $models_module; then label="typecheck endpoints"; fi
  measure "$label" swiftc -typecheck -wmo -swift-version 6 -parse-as-library \
    -module-name Generated -I "$modules" -I "$work/modules" "@$work/files.txt"
fi

if $build; then
  client="$work/client"
  mkdir -p "$client/Sources/Generated"
  cp -R "$work/out/." "$client/Sources/Generated/"
  # A path dependency's identity is its directory's name.
  identity="$(basename "$ROOT")"
  runtime=".product(name: \"EndpointCore\", package: \"$identity\"),
        .product(name: \"EndpointJSON\", package: \"$identity\"),"
  if $models_module; then
    mkdir -p "$client/Sources/GeneratedModels"
    cp -R "$work/models/." "$client/Sources/GeneratedModels/"
    models_target=".target(name: \"GeneratedModels\", dependencies: [$runtime]),"
    runtime="$runtime \"GeneratedModels\","
  fi
  cat > "$client/Package.swift" << EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "GeneratedClient",
  dependencies: [.package(path: "$ROOT")],
  targets: [
    ${models_target:-}
    .target(name: "Generated", dependencies: [$runtime]),
  ]
)
EOF
  stats="$work/stats"
  # The same flags for every build, or the incremental ones would start over.
  flags=(--package-path "$client" -Xswiftc -stats-output-dir -Xswiftc "$stats")

  build_step() {
    local label="$1"
    rm -rf "$stats"
    mkdir "$stats"
    echo "bench-openapi: load average $(cut -d' ' -f1-3 /proc/loadavg) before: $label"
    measure "$label" swift build -v "${flags[@]}" "${@:2}"
    echo "bench-openapi:   load average after $(cut -d' ' -f1-3 /proc/loadavg)"
    if [[ "$label" != dependencies ]]; then
      # With -v, SwiftPM prints each frontend job, and a job names the files it compiles.
      echo "bench-openapi:   $(grep -o -- "-primary-file [^ ]*/Sources/Generated[A-Za-z]*/[^ ]*" \
        "$work/out-$label.txt" | sort -u | wc -l) of $files generated files compiled"
    fi
    python3 - "$stats" << 'EOF'
import glob, json, re, sys

# One file per frontend job: named after the module and the job's first primary file, or
# "all" for the job that emits the module; times in seconds, by compiler phase.
jobs = []
for path in glob.glob(sys.argv[1] + "/*.json"):
    with open(path) as handle:
        stats = json.load(handle)
    phases = {key[len("time.swift."):-len(".wall")]: value for key, value in stats.items()
              if key.startswith("time.swift.") and key.endswith(".wall")
              and " " not in key and key != "time.swift.perform-sema.wall"}
    wall = max((v for k, v in stats.items() if k.startswith("time.") and k.endswith(".wall")),
               default=0)
    name = re.search(r"swift-frontend-(.+?)-(?:x86_64|aarch64|arm64)", path)
    name = name.group(1) if name else path.rsplit("/", 1)[-1]
    if name.endswith("-all"):
        name += " (emit-module)"
    jobs.append((wall, name, phases))
jobs.sort(reverse=True)
print(f"bench-openapi:   {len(jobs)} frontend jobs; the longest:")
for wall, name, phases in jobs[:3]:
    top = ", ".join(f"{k} {v:.1f}s" for k, v in sorted(phases.items(), key=lambda p: -p[1])[:3])
    print(f"bench-openapi:     {wall:6.1f}s {name}: {top}")
EOF
  }

  echo "bench-openapi: building EndpointCore and EndpointJSON for the generated client (debug)"
  build_step "dependencies" --target EndpointJSON
  build_step "build (debug)"
  namespace="$(find "$client/Sources/Generated" -maxdepth 1 -name '*.swift' | sort | head -1)"
  printf '\nextension %s {\n  static func benchTouched() -> Int { 1 }\n}\n' \
    "$(basename "$namespace" .swift)" >> "$namespace"
  build_step "namespace changed"
  echo "bench-openapi: changed $(basename "$namespace")"
  # The hundredth model, or the last of fewer: one that later models and operations may use.
  if $models_module; then
    model="$(find "$client/Sources/GeneratedModels" -maxdepth 1 -name '*.swift' | sort |
      sed -n '1,100p' | tail -1)"
  else
    model="$(find "$client/Sources/Generated" -path '*/Models/*.swift' | sort | sed -n '1,100p' |
      tail -1)"
  fi
  if [[ -n "$model" ]]; then
    printf '\nextension %s {\n  static func benchTouched() -> Int { 1 }\n}\n' \
      "$(basename "$model" .swift)" >> "$model"
    build_step "model changed"
    echo "bench-openapi: changed $(basename "$(dirname "$model")")/$(basename "$model")"
  fi
fi
