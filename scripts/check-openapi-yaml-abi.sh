#!/usr/bin/env bash
# Checks the libyaml layouts and constants that Sources/CYAML declares by hand against libyaml's
# real header.
#
#   scripts/check-openapi-yaml-abi.sh
#
# The OpenAPI generator builds without libyaml's header (libyaml is opened with dlopen at run
# time), so the event and parser layouts in Sources/CYAML/CYAML.c are copies. This script
# installs the header (libyaml-dev, with apt-get; it brings libyaml-0-2, the library the
# generator's YAML tests load) when it is missing, then compiles CYAML.c
# beside <yaml.h> with static_asserts that every field the reader touches has libyaml's offset,
# that the parser fits its storage and that the event constants match.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

CC_BIN="${CC:-cc}"
have_header() { echo '#include <yaml.h>' | "$CC_BIN" -E -x c - > /dev/null 2>&1; }
if ! have_header; then
  SUDO=()
  [[ "$(id -u)" == 0 ]] || SUDO=(sudo -n)
  echo "yaml abi: installing libyaml-dev (and so libyaml-0-2, which the tests load)"
  export DEBIAN_FRONTEND=noninteractive
  if ! "${SUDO[@]}" apt-get install -y -q --no-install-recommends libyaml-dev > /dev/null; then
    "${SUDO[@]}" apt-get update -q > /dev/null
    "${SUDO[@]}" apt-get install -y -q --no-install-recommends libyaml-dev > /dev/null
  fi
  have_header || {
    echo "yaml abi: error: <yaml.h> still not found after installing libyaml-dev" >&2
    exit 1
  }
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/check.c" << 'C'
#include <assert.h>
#include <stddef.h>
#include <yaml.h>
#include "CYAML.c"

#define SAME_OFFSET(mine, theirs, field) \
  static_assert(offsetof(mine, field) == offsetof(theirs, field), #field)
SAME_OFFSET(cyaml_raw_event, yaml_event_t, type);
SAME_OFFSET(cyaml_raw_event, yaml_event_t, data.alias.anchor);
SAME_OFFSET(cyaml_raw_event, yaml_event_t, data.scalar.anchor);
SAME_OFFSET(cyaml_raw_event, yaml_event_t, data.scalar.tag);
SAME_OFFSET(cyaml_raw_event, yaml_event_t, data.scalar.value);
SAME_OFFSET(cyaml_raw_event, yaml_event_t, data.scalar.length);
SAME_OFFSET(cyaml_raw_event, yaml_event_t, data.scalar.style);
SAME_OFFSET(cyaml_raw_event, yaml_event_t, data.sequence_start.anchor);
SAME_OFFSET(cyaml_raw_event, yaml_event_t, data.sequence_start.tag);
SAME_OFFSET(cyaml_raw_event, yaml_event_t, data.mapping_start.anchor);
SAME_OFFSET(cyaml_raw_event, yaml_event_t, data.mapping_start.tag);
SAME_OFFSET(cyaml_raw_event, yaml_event_t, start_mark.line);
SAME_OFFSET(cyaml_raw_event, yaml_event_t, start_mark.column);
static_assert(sizeof(cyaml_raw_event) == sizeof(yaml_event_t), "yaml_event_t size");
SAME_OFFSET(cyaml_raw_parser_head, yaml_parser_t, problem);
SAME_OFFSET(cyaml_raw_parser_head, yaml_parser_t, problem_mark.line);
SAME_OFFSET(cyaml_raw_parser_head, yaml_parser_t, problem_mark.column);
SAME_OFFSET(cyaml_raw_parser_head, yaml_parser_t, context);
SAME_OFFSET(cyaml_raw_parser_head, yaml_parser_t, context_mark.line);
SAME_OFFSET(cyaml_raw_parser_head, yaml_parser_t, context_mark.column);
static_assert(sizeof(yaml_parser_t) <= CYAML_PARSER_STORAGE, "yaml_parser_t size");
static_assert(CYAML_STREAM_START_EVENT == YAML_STREAM_START_EVENT, "stream start");
static_assert(CYAML_STREAM_END_EVENT == YAML_STREAM_END_EVENT, "stream end");
static_assert(CYAML_DOCUMENT_START_EVENT == YAML_DOCUMENT_START_EVENT, "document start");
static_assert(CYAML_DOCUMENT_END_EVENT == YAML_DOCUMENT_END_EVENT, "document end");
static_assert(CYAML_ALIAS_EVENT == YAML_ALIAS_EVENT, "alias");
static_assert(CYAML_SCALAR_EVENT == YAML_SCALAR_EVENT, "scalar");
static_assert(CYAML_SEQUENCE_START_EVENT == YAML_SEQUENCE_START_EVENT, "sequence start");
static_assert(CYAML_SEQUENCE_END_EVENT == YAML_SEQUENCE_END_EVENT, "sequence end");
static_assert(CYAML_MAPPING_START_EVENT == YAML_MAPPING_START_EVENT, "mapping start");
static_assert(CYAML_MAPPING_END_EVENT == YAML_MAPPING_END_EVENT, "mapping end");
static_assert(CYAML_PLAIN_SCALAR_STYLE == YAML_PLAIN_SCALAR_STYLE, "plain style");
C
"$CC_BIN" -std=c11 -fsyntax-only -Wall -Werror -ISources/CYAML -ISources/CYAML/include \
  "$work/check.c"
echo "yaml abi: Sources/CYAML matches <yaml.h>"
