#include "CYAML.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libyaml's ABI, as yaml.h 0.1 to 0.2.5 declares it (checked by
// scripts/check-openapi-yaml-abi.sh).
typedef struct cyaml_mark {
  size_t index;
  size_t line;
  size_t column;
} cyaml_mark;

typedef struct cyaml_raw_event {
  int type;
  union {
    struct {
      int encoding;
    } stream_start;
    struct {
      void *version_directive;
      struct {
        void *start;
        void *end;
      } tag_directives;
      int implicit;
    } document_start;
    struct {
      int implicit;
    } document_end;
    struct {
      unsigned char *anchor;
    } alias;
    struct {
      unsigned char *anchor;
      unsigned char *tag;
      unsigned char *value;
      size_t length;
      int plain_implicit;
      int quoted_implicit;
      int style;
    } scalar;
    struct {
      unsigned char *anchor;
      unsigned char *tag;
      int implicit;
      int style;
    } sequence_start;
    struct {
      unsigned char *anchor;
      unsigned char *tag;
      int implicit;
      int style;
    } mapping_start;
  } data;
  cyaml_mark start_mark;
  cyaml_mark end_mark;
} cyaml_raw_event;

// The leading fields of yaml_parser_t; the rest is private to libyaml.
typedef struct cyaml_raw_parser_head {
  int error;
  const char *problem;
  size_t problem_offset;
  int problem_value;
  cyaml_mark problem_mark;
  const char *context;
  cyaml_mark context_mark;
} cyaml_raw_parser_head;

// yaml_parser_t is 480 bytes in 0.2.5 on 64-bit platforms; room for it to grow.
#define CYAML_PARSER_STORAGE 4096

struct cyaml_parser {
  union {
    cyaml_raw_parser_head head;
    unsigned char storage[CYAML_PARSER_STORAGE];
    long double alignment;
  } raw;
  cyaml_raw_event event;
  int has_event;
};

typedef struct cyaml_api {
  const char *(*get_version_string)(void);
  int (*parser_initialize)(void *parser);
  void (*parser_delete)(void *parser);
  void (*parser_set_input_string)(void *parser, const unsigned char *input, size_t size);
  int (*parser_parse)(void *parser, cyaml_raw_event *event);
  void (*event_delete)(cyaml_raw_event *event);
} cyaml_api;

static cyaml_api api;
static int installed = 0;

static int resolve(void *handle, const char *name, cyaml_api *candidate, char *missing,
                   size_t size) {
#define CYAML_RESOLVE(field, symbol)                                   \
  do {                                                                 \
    *(void **)(&candidate->field) = dlsym(handle, symbol);             \
    if (candidate->field == NULL) {                                    \
      snprintf(missing, size, "%s has no %s", name, symbol);           \
      return 1;                                                        \
    }                                                                  \
  } while (0)
  CYAML_RESOLVE(get_version_string, "yaml_get_version_string");
  CYAML_RESOLVE(parser_initialize, "yaml_parser_initialize");
  CYAML_RESOLVE(parser_delete, "yaml_parser_delete");
  CYAML_RESOLVE(parser_set_input_string, "yaml_parser_set_input_string");
  CYAML_RESOLVE(parser_parse, "yaml_parser_parse");
  CYAML_RESOLVE(event_delete, "yaml_event_delete");
#undef CYAML_RESOLVE
  return 0;
}

int cyaml_load(const char *library_names, int install, char *error, size_t error_size) {
  char names[1024];
  snprintf(names, sizeof(names), "%s", library_names);
  size_t used = 0;
  error[0] = '\0';
  char *next = names;
  while (next != NULL && *next != '\0') {
    char *name = next;
    next = strchr(next, ':');
    if (next != NULL) *next++ = '\0';
    void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    char reason[512];
    if (handle == NULL) {
      const char *text = dlerror();
      snprintf(reason, sizeof(reason), "%s", text ? text : "not found");
    } else {
      cyaml_api candidate;
      memset(&candidate, 0, sizeof(candidate));
      if (resolve(handle, name, &candidate, reason, sizeof(reason)) == 0) {
        if (install && !installed) {
          api = candidate;
          installed = 1;
        } else {
          // A probe, or a second load: dlopen counts references, so this never unloads the
          // installed library.
          dlclose(handle);
        }
        return 0;
      }
      dlclose(handle);
    }
    if (used < error_size) {
      int written = snprintf(error + used, error_size - used, "%s%s", used ? "; " : "", reason);
      if (written > 0) used += (size_t)written;
    }
  }
  return 1;
}

const char *cyaml_version(void) { return installed ? api.get_version_string() : ""; }

cyaml_parser *cyaml_parser_new(const unsigned char *input, size_t length) {
  if (!installed) return NULL;
  cyaml_parser *parser = calloc(1, sizeof(cyaml_parser));
  if (parser == NULL) return NULL;
  if (!api.parser_initialize(&parser->raw)) {
    free(parser);
    return NULL;
  }
  api.parser_set_input_string(&parser->raw, input, length);
  return parser;
}

int cyaml_parser_next(cyaml_parser *parser, cyaml_event *event) {
  if (parser->has_event) {
    api.event_delete(&parser->event);
    parser->has_event = 0;
  }
  if (!api.parser_parse(&parser->raw, &parser->event)) return 0;
  parser->has_event = 1;
  const cyaml_raw_event *raw = &parser->event;
  memset(event, 0, sizeof(*event));
  event->type = raw->type;
  event->line = raw->start_mark.line;
  event->column = raw->start_mark.column;
  switch (raw->type) {
    case CYAML_ALIAS_EVENT:
      event->anchor = (const char *)raw->data.alias.anchor;
      break;
    case CYAML_SCALAR_EVENT:
      event->anchor = (const char *)raw->data.scalar.anchor;
      event->tag = (const char *)raw->data.scalar.tag;
      event->value = (const char *)raw->data.scalar.value;
      event->length = raw->data.scalar.length;
      event->style = raw->data.scalar.style;
      break;
    case CYAML_SEQUENCE_START_EVENT:
      event->anchor = (const char *)raw->data.sequence_start.anchor;
      event->tag = (const char *)raw->data.sequence_start.tag;
      break;
    case CYAML_MAPPING_START_EVENT:
      event->anchor = (const char *)raw->data.mapping_start.anchor;
      event->tag = (const char *)raw->data.mapping_start.tag;
      break;
    default:
      break;
  }
  return 1;
}

void cyaml_parser_error(const cyaml_parser *parser, cyaml_error *error) {
  const cyaml_raw_parser_head *head = &parser->raw.head;
  error->problem = head->problem;
  error->line = head->problem_mark.line;
  error->column = head->problem_mark.column;
  error->context = head->context;
  error->context_line = head->context_mark.line;
  error->context_column = head->context_mark.column;
}

void cyaml_parser_free(cyaml_parser *parser) {
  if (parser == NULL) return;
  if (parser->has_event) api.event_delete(&parser->event);
  api.parser_delete(&parser->raw);
  free(parser);
}
