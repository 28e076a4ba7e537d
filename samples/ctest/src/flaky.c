/* Fails on its first run and passes once the marker file (argv[1]) exists. */
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  FILE *f = fopen(argv[1], "r");
  if (f) {
    fclose(f);
    printf("marker found: passing\n");
    return 0;
  }
  f = fopen(argv[1], "w");
  if (f) fclose(f);
  fprintf(stderr, "first attempt fails\n");
  return 1;
}
