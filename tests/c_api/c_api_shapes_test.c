/* The C API's options under every shape a caller can set (issue 41), from
 * C: part of c_api_test (c_api_test.c's main calls test_shapes). */
#include <eight/c.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c_api_check.h"

/* Issue 41: a shape past 10x10 set in the options sized the goal built for
 * it, a 10x10 board's 100 cells: 255x255 and 16x16 wrote past them (SIGSEGV
 * from Python), 1x200 put stack bytes in the message. Every pair from -3 to
 * 260 (and the ints' edges) is set; each one eight does not answer is
 * refused where it is set and by every question, with the message naming
 * it; each one it answers is answered. */
static int refuses_everywhere(eight_t* e, eight_options_t* o, const char* expected) {
  char* err = NULL;
  int refused = 0;
  uint64_t counts[8];
  int32_t out[1];
  const uint8_t cells[9] = {8, 6, 7, 2, 5, 4, 3, 0, 1};
  /* Each question, and whether it failed with the message. */
#define REFUSED(call)                             \
  do {                                            \
    call;                                         \
    take_error(&err);                             \
    refused += strcmp(last_error, expected) == 0; \
  } while (0)
  REFUSED(CHECK(eight_solve(e, o, "867254301", &err) == NULL));
  REFUSED(CHECK(eight_solve_lines(e, o, "867254301", NULL, &err) == NULL));
  REFUSED(CHECK(eight_distance(e, o, "867254301", &err) == -2));
  REFUSED(CHECK(eight_distances(e, o, cells, 9, 1, out, &err) == -1));
  REFUSED(CHECK(eight_hint(e, o, "867254301", &err) == NULL));
  REFUSED(CHECK(eight_random(e, o, -1, 1, &err) == NULL));
  REFUSED(CHECK(eight_random(e, o, 3, 1, &err) == NULL));
  REFUSED(CHECK(eight_histogram(e, o, counts, 8, &err) == -1));
  REFUSED(CHECK(eight_boards_at(e, o, 3, &err) == NULL));
  REFUSED(CHECK(eight_check(e, o, "867254301", "r", &err) == NULL));
#undef REFUSED
  return refused;
}

void test_shapes(eight_t* e) {
  char* err = NULL;
  char expected[128];
  eight_options_t* o = eight_options_create();
  /* The replays, exactly. */
  CHECK(eight_options_set_shape(o, 255, 255) == -1);
  CHECK(strcmp(eight_options_error(o),
               "eight answers no 255x255 boards: the shapes have rows and columns from 2 to 10") ==
        0);
  CHECK(eight_random(e, o, -1, 7, &err) == NULL);
  take_error(&err);
  CHECK(strcmp(last_error, eight_options_error(o)) == 0);
  CHECK(eight_options_set_shape(o, 16, 16) == -1);
  CHECK(eight_boards_at(e, o, 3, &err) == NULL);
  take_error(&err);
  CHECK(strcmp(last_error,
               "eight answers no 16x16 boards: the shapes have rows and columns from 2 to 10") ==
        0);
  CHECK(eight_options_set_shape(o, 1, 200) == -1);
  uint64_t counts[64];
  CHECK(eight_histogram(e, o, counts, 64, &err) == -1);
  take_error(&err);
  CHECK(strcmp(last_error,
               "eight answers no 1x200 boards: the shapes have rows and columns from 2 to 10") ==
        0);

  /* Many times over. */
  int sides[280];
  int n = 0;
  for (int side = -3; side <= 260; ++side) sides[n++] = side;
  sides[n++] = 2147483647;
  sides[n++] = -2147483647 - 1;
  int answered = 0;
  int refused = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const int rows = sides[i];
      const int cols = sides[j];
      const int good = rows >= 2 && rows <= 10 && cols >= 2 && cols <= 10;
      if (rows == 0 && cols == 0) continue; /* no shape */
      CHECK(eight_options_set_shape(o, rows, cols) == (good ? 0 : -1));
      CHECK((eight_options_error(o) == NULL) == good);
      if (good) {
        /* (4x4 and the 12-cell shapes need a table file: not these.) */
        char* board = eight_random(e, o, -1, (uint64_t)(rows * cols), &err);
        if (board == NULL) take_error(&err);
        CHECK(board != NULL || strstr(last_error, "generates them") != NULL);
        eight_free(board);
        ++answered;
      } else if (rows == sides[0] || rows == 16 || rows == 255 || i % 37 == 0) {
        /* Every question, for a sample of the rows (all 280 x 280 x 10
         * would take long); eight_random for the rest. */
        snprintf(expected, sizeof expected,
                 "eight answers no %dx%d boards: the shapes have rows and columns from 2 to 10",
                 rows, cols);
        CHECK(strcmp(eight_options_error(o), expected) == 0);
        CHECK(refuses_everywhere(e, o, expected) == 10);
        ++refused;
      } else {
        CHECK(eight_random(e, o, -1, 1, &err) == NULL);
        take_error(&err);
        ++refused;
      }
    }
  }
  CHECK(answered == 81 && refused == n * n - 81 - 1);
  /* A good shape, or none, after a bad one asks again. */
  CHECK(eight_options_set_shape(o, 300, 3) == -1);
  CHECK(eight_options_set_shape(o, 0, 0) == 0 && eight_options_error(o) == NULL);
  CHECK(eight_distance(e, o, "867254301", &err) == 31);
  CHECK(eight_options_set_shape(o, -5, 3) == -1);
  CHECK(eight_options_set_shape(o, 3, 3) == 0);
  CHECK(eight_distance(e, o, "867254301", &err) == 31);
  eight_options_destroy(o);

  /* A path's byte that is no letter is quoted escaped: 'é' alone is no text
   * (Python raised UnicodeDecodeError reading the message). */
  eight_check_t* c = eight_check(e, NULL, "123456708", "\xc3\xa9", &err);
  CHECK(c != NULL && strcmp(eight_check_why(c), "move 1 is '\\xC3', not one of u d l r") == 0);
  eight_check_destroy(c);
}
