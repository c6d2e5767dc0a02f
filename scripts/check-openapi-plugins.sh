#!/usr/bin/env bash
# Builds Tests/OpenAPIPluginFixture, a package that uses the OpenAPI generator's two SwiftPM
# plugins as an app would, and runs it.
#
#   scripts/check-openapi-plugins.sh
#
# The fixture depends on `../Endpoint`: this script lays a copy of the package's files (those
# git knows, committed or not) under that name beside a copy of the fixture, in
# .build/openapi-plugins (kept, so a second run rebuilds only what changed). Then:
#   1. `swift package --allow-writing-to-package-directory generate-endpoints --target
#      PetsChecked`: the command plugin writes Sources/PetsChecked/Generated from the target's
#      openapi.yaml and endpoint-openapi.json;
#   2. `swift build`: the build-tool plugin generates PetsAPI's endpoints from its openapi.yaml
#      at build time, and everything compiles with warnings as errors;
#   3. `swift run PluginFixtureCheck`: calls an endpoint of each through a StubClient.
# The first run builds EndpointCore, EndpointJSON, EndpointTesting and the generator from
# scratch: several minutes on a 2-core machine, which is why this is a script and not a test.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

WORK="$ROOT/.build/openapi-plugins"
# The package as git sees it (tracked and untracked, not ignored), the fixture left out; tar
# keeps the files' dates, so the fixture's build (its .build, kept) recompiles what changed.
rm -rf "$WORK/Endpoint" "$WORK/Fixture/Sources" "$WORK/Fixture/Package.swift"
mkdir -p "$WORK/Endpoint" "$WORK/Fixture"
git ls-files -co --exclude-standard | grep -v '^Tests/OpenAPIPluginFixture/' \
  | tar -cf - -T - | tar -xf - -C "$WORK/Endpoint"
# The fixture's files are dated now (-m): SwiftPM notices the files the command plugin adds
# only when their folders' dates move forward.
(cd Tests/OpenAPIPluginFixture && git ls-files -co --exclude-standard . | tar -cf - -T -) \
  | tar -xmf - -C "$WORK/Fixture"

cd "$WORK/Fixture"
echo "openapi plugins: the command plugin (generate-endpoints --target PetsChecked)"
swift package --allow-writing-to-package-directory generate-endpoints --target PetsChecked
[[ -f Sources/PetsChecked/Generated/CheckedPets.swift ]] || {
  echo "openapi plugins: error: generate-endpoints wrote no Sources/PetsChecked/Generated" >&2
  exit 1
}
echo "openapi plugins: the build-tool plugin (swift build)"
swift build -Xswiftc -warnings-as-errors
generated="$(find .build -name GeneratedEndpoints.swift -path '*PetsAPI*' | head -n 1)"
[[ -n "$generated" ]] || {
  echo "openapi plugins: error: the build-tool plugin wrote no GeneratedEndpoints.swift" >&2
  exit 1
}
echo "openapi plugins: $generated, $(wc -l < "$generated") lines"
swift run -Xswiftc -warnings-as-errors PluginFixtureCheck
echo "openapi plugins: ok"
