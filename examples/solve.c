/* solve: eight's C API (include/eight/c.h) from a C program of your own.
 *
 *   solve [TABLE] < BOARDS
 *
 * reads one board a line, in any notation `eight` reads, and writes one line
 * for each: the answer as JSON, exactly what `eight solve --format json`
 * prints for it. TABLE is a table file or a folder of them; without it, the
 * tables of every shape up to 10 cells are built in memory first. A board
 * that is refused (a bad board, a search past its budget) is written to
 * stderr as "solve: BOARD: why", and the exit status is then 1.
 *
 * Built against an install of eight:
 *
 *   cc solve.c $(pkg-config --cflags --libs eight-c) -o solve
 */
#include <eight/c.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  char* err = NULL;
  eight_t* e = argc > 1 ? eight_open(argv[1], &err) : eight_build(&err);
  if (e == NULL) {
    fprintf(stderr, "solve: %s\n", err);
    eight_free(err);
    return 2;
  }
  int status = 0;
  char line[4096];
  while (fgets(line, sizeof line, stdin) != NULL) {
    line[strcspn(line, "\r\n")] = '\0';
    eight_answer_t* a = eight_solve(e, NULL, line, &err);
    if (a == NULL) {
      fprintf(stderr, "solve: %s: %s\n", line, err);
      eight_free(err);
      err = NULL;
      status = 1;
      continue;
    }
    puts(eight_answer_json(a));
    eight_answer_destroy(a);
  }
  eight_close(e);
  return status;
}
