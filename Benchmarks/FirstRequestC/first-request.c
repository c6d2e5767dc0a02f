// The first request of a C process that opens libcurl with dlopen, as EndpointCurl does: the
// control for scripts/bench-first-request.sh. It separates what loading libcurl at run time
// costs from what the Swift runtime costs. One GET of the URL given, the body dropped, exit 0
// on a 2xx; no argument: exit at once (the floor of a C process).
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

typedef void CURL;
// The option and info numbers of curl.h (stable across libcurl's ABI version 4).
enum { OPT_URL = 10002, OPT_WRITEFUNCTION = 20011, INFO_RESPONSE_CODE = 0x200002 };
enum { GLOBAL_DEFAULT = 3 };

static size_t drop(char *data, size_t size, size_t count, void *context) {
  (void)data;
  (void)context;
  return size * count;
}

int main(int argc, char **argv) {
  if (argc < 2) return 0;
  void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "first-request: %s\n", dlerror());
    return 2;
  }
  int (*global_init)(long) = (int (*)(long))dlsym(library, "curl_global_init");
  CURL *(*easy_init)(void) = (CURL * (*)(void)) dlsym(library, "curl_easy_init");
  int (*setopt)(CURL *, int, ...) = (int (*)(CURL *, int, ...))dlsym(library, "curl_easy_setopt");
  int (*perform)(CURL *) = (int (*)(CURL *))dlsym(library, "curl_easy_perform");
  int (*getinfo)(CURL *, int, ...) = (int (*)(CURL *, int, ...))dlsym(library, "curl_easy_getinfo");
  if (!global_init || !easy_init || !setopt || !perform || !getinfo) return 2;
  if (global_init(GLOBAL_DEFAULT) != 0) return 2;
  CURL *easy = easy_init();
  if (easy == NULL) return 2;
  setopt(easy, OPT_URL, argv[1]);
  setopt(easy, OPT_WRITEFUNCTION, drop);
  if (perform(easy) != 0) return 1;
  long status = 0;
  getinfo(easy, INFO_RESPONSE_CODE, &status);
  return status >= 200 && status < 300 ? 0 : 1;
}
