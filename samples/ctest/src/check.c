/* One small test program for the CTest sample; the first argument picks what it does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "pass";
  if (strcmp(mode, "pass") == 0) return 0;
  if (strcmp(mode, "fail") == 0) {
    fprintf(stderr, "expected 5, got 4\n");
    return 1;
  }
  if (strcmp(mode, "skip") == 0) {
    printf("not implemented yet: skipping\n");
    return 77; /* SKIP_RETURN_CODE */
  }
  if (strcmp(mode, "hang") == 0) {
    sleep(5); /* TIMEOUT 1 stops it */
    return 0;
  }
  if (strcmp(mode, "stdout") == 0) {
    printf("hello from stdout\n");
    return 0;
  }
  if (strcmp(mode, "abort") == 0) {
    fprintf(stderr, "about to abort\n");
    abort(); /* a crash, not a failed check */
  }
  if (strcmp(mode, "small") == 0) {
    int n = argc > 2 ? atoi(argv[2]) : 0;
    if (n < 3) return 0;
    fprintf(stderr, "%d is not small\n", n);
    return 1;
  }
  fprintf(stderr, "unknown mode %s\n", mode);
  return 2;
}
