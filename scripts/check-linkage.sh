#!/usr/bin/env bash
# Proves that a program using only EndpointCore and EndpointJSON stays off full Foundation.
#
# Builds Tools/LinkageProbe (which imports only those two modules), runs it (it exercises them
# and exits non-zero on a wrong result), and fails when `ldd` shows that it links
# libFoundation.so, libFoundationNetworking.so, libFoundationInternationalization.so,
# libFoundationXML.so or any ICU library (lib_FoundationICU.so, libicu*). On failure it names
# the object files of the two modules (and of EndpointPrimitives, which they import) whose
# autolink entries ask for a forbidden library.
#
# Extra arguments go to `swift build` (scripts/test.sh passes its build flags so nothing is
# rebuilt).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

AUTOLINK='-l(Foundation|FoundationNetworking|FoundationInternationalization|FoundationXML|_FoundationICU|icu[a-z0-9]*)$'
FORBIDDEN='^(libFoundation\.so|libFoundationNetworking\.so|libFoundationInternationalization\.so|libFoundationXML\.so|lib_FoundationICU\.so|libicu)'

if ! command -v ldd > /dev/null; then
  echo "linkage: error: ldd is not installed (Debian package libc-bin)" >&2
  exit 1
fi

bin_dir="$(swift build --show-bin-path "$@")"
probe="$bin_dir/LinkageProbe"
# Always compile and link the probe afresh: an incremental build neither relinks when a source
# file of a dependency is deleted nor refreshes the probe's autolinked libraries when only a
# dependency's imports change, and a stale binary would hide (or invent) a forbidden library.
rm -f "$probe" "$bin_dir/LinkageProbe.build/"*.o
swift build --product LinkageProbe "$@"
[[ -x "$probe" ]] || {
  echo "linkage: error: $probe was not built" >&2
  exit 1
}

echo "linkage: running $probe"
"$probe"

libraries="$(ldd "$probe" | awk '{print $1}')"
forbidden="$(grep -E "$FORBIDDEN" <<< "$libraries" || true)"
if [[ -n "$forbidden" ]]; then
  echo "linkage: error: a program using only EndpointCore and EndpointJSON links:" >&2
  sed 's/^/  /' <<< "$forbidden" >&2
  echo "linkage: what asks for them:" >&2
  for module in EndpointPrimitives EndpointCore EndpointJSON; do
    # Autolink entries are recorded per module, so they tell which module pulls a library in.
    entries="$(for object in "$bin_dir/$module.build"/*.o; do
      readelf -p .swift1_autolink_entries "$object" 2> /dev/null || true
    done | grep -oE -- "$AUTOLINK" | sort -u | tr '\n' ' ' || true)"
    [[ -n "$entries" ]] && echo "  module $module autolinks: $entries" >&2
    # Imports of full Foundation that are not the `#else` branch of a FoundationEssentials check.
    for source in "Sources/$module"/*.swift; do
      awk -v file="$source" '
        /^[[:space:]]*$/ { next }
        /^[[:space:]]*(@_exported[[:space:]]+)?import[[:space:]]+(Foundation|FoundationNetworking|FoundationInternationalization|FoundationXML)[[:space:]]*$/ {
          if (previous !~ /^[[:space:]]*#else/) { printf "  %s:%d: %s\n", file, FNR, $0 }
        }
        { previous = $0 }
      ' "$source" >&2
    done
  done
  echo "linkage: import FoundationEssentials (not Foundation) in EndpointPrimitives," \
    "EndpointCore and EndpointJSON." >&2
  exit 1
fi

echo "linkage: ok, LinkageProbe links no Foundation, FoundationNetworking," \
  "FoundationInternationalization, FoundationXML or ICU library:"
sed 's/^/  /' <<< "$libraries"
