// Hand-declared libyaml event API, loaded at run time with dlopen/dlsym.
//
// No libyaml header is needed to build this target and nothing is linked against libyaml:
// cyaml_load() opens the shared library and resolves the few functions the reader calls. The
// layouts declared in CYAML.c are copies of libyaml's ABI (stable since 0.1);
// scripts/check-openapi-yaml-abi.sh compiles them beside <yaml.h> and static_asserts that they
// match.
#ifndef CYAML_H
#define CYAML_H

#include <stddef.h>

// The names tried in turn: Debian's and most distributions' soname first, then Homebrew's
// library, which is not on the default search path of macOS.
#if defined(__APPLE__)
#define CYAML_LIBRARY_NAMES \
  "libyaml-0.2.dylib:/opt/homebrew/lib/libyaml-0.2.dylib:/usr/local/lib/libyaml-0.2.dylib"
#else
#define CYAML_LIBRARY_NAMES "libyaml-0.so.2:libyaml.so"
#endif

// yaml_event_type_t
#define CYAML_STREAM_START_EVENT 1
#define CYAML_STREAM_END_EVENT 2
#define CYAML_DOCUMENT_START_EVENT 3
#define CYAML_DOCUMENT_END_EVENT 4
#define CYAML_ALIAS_EVENT 5
#define CYAML_SCALAR_EVENT 6
#define CYAML_SEQUENCE_START_EVENT 7
#define CYAML_SEQUENCE_END_EVENT 8
#define CYAML_MAPPING_START_EVENT 9
#define CYAML_MAPPING_END_EVENT 10

// yaml_scalar_style_t
#define CYAML_PLAIN_SCALAR_STYLE 1

// One event as the reader needs it. The strings belong to the parser and stay valid until the
// next call of cyaml_parser_next or cyaml_parser_free; any of them may be NULL.
typedef struct cyaml_event {
  int type;
  const char *anchor;
  const char *tag;
  const char *value;
  size_t length;
  // The scalar's style (CYAML_PLAIN_SCALAR_STYLE, quoted, literal, folded).
  int style;
  // Where the event starts, from 0.
  size_t line;
  size_t column;
} cyaml_event;

typedef struct cyaml_parser cyaml_parser;

// Opens the first of the colon-separated `library_names` that loads and resolves every
// function. On failure returns nonzero and writes a sentence naming what was tried into
// `error`. With `install` nonzero and success, the library becomes the one the parser calls
// (only the first successful install counts); otherwise it is closed again.
int cyaml_load(const char *library_names, int install, char *error, size_t error_size);
// The installed library's version ("0.2.5"), "" before one is installed.
const char *cyaml_version(void);

// A parser over `length` bytes at `input` (UTF-8, or UTF-16 with a byte order mark), which
// must outlive it; NULL when no library is installed or memory ran out.
cyaml_parser *cyaml_parser_new(const unsigned char *input, size_t length);
// Reads the next event into `event`: 1 on success, 0 on a syntax error (see
// cyaml_parser_error).
int cyaml_parser_next(cyaml_parser *parser, cyaml_event *event);
// Why the last cyaml_parser_next failed. Lines and columns count from 0; `context` (what was
// being read, such as "while parsing a block mapping", and where it started) may be NULL.
typedef struct cyaml_error {
  const char *problem;
  size_t line;
  size_t column;
  const char *context;
  size_t context_line;
  size_t context_column;
} cyaml_error;
void cyaml_parser_error(const cyaml_parser *parser, cyaml_error *error);
void cyaml_parser_free(cyaml_parser *parser);

#endif
