/* The C API (include/eight/c.h) from C: answers, errors as values, every
 * handle freed. Compiled as C, so the header is checked as C too. The
 * answers' JSON against the tool's, board for board, is
 * tests/c_api/c_api_cli_test.py's. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, mkfifo, ftruncate, pwrite */

#include <eight/c.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_api_check.h"

int failures = 0;
int checks = 0;

/* The error of a call that must fail, or "" (and a failure) when it did not. */
char last_error[1024];
void take_error(char** err) {
  last_error[0] = '\0';
  CHECK(*err != NULL);
  if (*err != NULL) {
    snprintf(last_error, sizeof last_error, "%s", *err);
    eight_free(*err);
    *err = NULL;
  }
}

static void test_solve(eight_t* e) {
  char* err = NULL;
  eight_answer_t* a = eight_solve(e, NULL, "8 6 7 2 5 4 3 x 1", &err);
  CHECK(a != NULL && err == NULL);
  if (a == NULL) return;
  CHECK(eight_answer_solvable(a) == 1);
  CHECK(eight_answer_distance(a) == 31);
  CHECK(eight_answer_optimal(a) == 1);
  CHECK(eight_answer_lower_bound(a) == 31);
  CHECK(strcmp(eight_answer_method(a), "table") == 0);
  CHECK(strlen(eight_answer_path(a)) == 31);
  CHECK(strcmp(eight_answer_board(a), "867254301") == 0);
  CHECK(strcmp(eight_answer_goal(a), "123456780") == 0);
  CHECK(strncmp(eight_answer_json(a), "{\"board\":\"867254301\",\"goal\":\"123456780\"", 39) == 0);

  /* Its path is legal, reaches the goal and is optimal. */
  eight_check_t* c = eight_check(e, NULL, "867254301", eight_answer_path(a), &err);
  CHECK(c != NULL);
  if (c != NULL) {
    CHECK(eight_check_legal(c) == 1 && eight_check_reaches(c) == 1);
    CHECK(eight_check_optimal(c) == 1);
    eight_check_destroy(c);
  }
  eight_answer_destroy(a);

  /* The other class: an answer, not an error. */
  a = eight_solve(e, NULL, "213456780", &err);
  CHECK(a != NULL);
  if (a != NULL) {
    CHECK(eight_answer_solvable(a) == 0);
    CHECK(eight_answer_distance(a) == -1);
    CHECK(strstr(eight_answer_json(a), "\"solvable\":false") != NULL);
    eight_answer_destroy(a);
  }

  /* Another goal, and another shape named. */
  eight_options_t* o = eight_options_create();
  eight_options_set_goal(o, "123804765");
  a = eight_solve(e, o, "123804765", &err);
  CHECK(a != NULL && eight_answer_distance(a) == 0 && eight_answer_path(a)[0] == '\0');
  eight_answer_destroy(a);
  eight_options_set_goal(o, NULL);
  eight_options_set_shape(o, 2, 3);
  a = eight_solve(e, o, "123405", &err);
  CHECK(a != NULL && eight_answer_distance(a) == 1 && strcmp(eight_answer_path(a), "r") == 0);
  CHECK(a != NULL && strcmp(eight_answer_goal(a), "123/450") == 0);
  eight_answer_destroy(a);
  eight_options_destroy(o);

  /* A 5x5 board, one move from its goal: searched, optimal. */
  a = eight_solve(e, NULL, "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19,20/21,22,23,0,24",
                  &err);
  CHECK(a != NULL);
  if (a != NULL) {
    CHECK(eight_answer_distance(a) == 1 && eight_answer_optimal(a) == 1);
    CHECK(strcmp(eight_answer_method(a), "manhattan-search") == 0);
    eight_answer_destroy(a);
  }
}

static void test_errors(eight_t* e) {
  char* err = NULL;
  CHECK(eight_solve(e, NULL, "12345678", &err) == NULL);
  take_error(&err);
  CHECK(strcmp(last_error, "expected 9 cells, got 8") == 0);

  CHECK(eight_solve(e, NULL, NULL, &err) == NULL);
  take_error(&err);

  eight_options_t* o = eight_options_create();
  eight_options_set_goal(o, "123456789");
  CHECK(eight_solve(e, o, "867254301", &err) == NULL);
  take_error(&err);
  CHECK(strcmp(last_error, "bad goal: tile 9 at position 9 is out of range: tiles are 1 to 8") ==
        0);
  eight_options_set_goal(o, "123/450");
  CHECK(eight_solve(e, o, "867254301", &err) == NULL);
  take_error(&err);
  CHECK(strstr(last_error, "the board is 3x3 and the goal 2x3") != NULL);
  eight_options_set_goal(o, NULL);
  eight_options_set_shape(o, -1, 3);
  CHECK(eight_solve(e, o, "867254301", &err) == NULL);
  take_error(&err);
  eight_options_destroy(o);

  /* An error already there is freed, not leaked (valgrind and ASan see). */
  err = malloc(8);
  CHECK(eight_solve(e, NULL, "1", &err) == NULL);
  take_error(&err);

  /* 4x4 needs a table file's pattern databases: the in-memory tables say
   * so. */
  CHECK(eight_solve(e, NULL, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", &err) == NULL);
  take_error(&err);
  CHECK(strstr(last_error, "4x4") != NULL);

  CHECK(eight_open("/nonexistent/eight.tbl", &err) == NULL);
  take_error(&err);
  CHECK(strstr(last_error, "/nonexistent/eight.tbl") != NULL);

  /* A proof a budget cannot give is an error saying how far it got. */
  o = eight_options_create();
  eight_options_set_optimal_required(o, 1);
  eight_options_set_budget(o, 1000);
  CHECK(eight_solve(e, o, "24,23,22,21,20/19,18,17,16,15/14,13,12,11,10/9,8,7,6,5/4,3,2,1,0",
                    &err) == NULL);
  take_error(&err);
  CHECK(strstr(last_error, "budget of 1000 nodes") != NULL);
  eight_options_destroy(o);

  eight_close(NULL);
  eight_options_destroy(NULL);
  eight_answer_destroy(NULL);
}

static void test_hints(eight_t* e) {
  char* err = NULL;
  eight_moves_t* m = eight_hint(e, NULL, "867254301", &err);
  CHECK(m != NULL);
  if (m == NULL) return;
  CHECK(eight_moves_distance(m) == 31 && eight_moves_optimal(m) == 1);
  const size_t n = eight_moves_count(m);
  CHECK(n >= 2 && n <= 4);
  for (size_t i = 0; i < n; ++i) {
    const int d = eight_moves_next_distance(m, i);
    CHECK(d == 30 || d == 32);
    CHECK(eight_moves_is_optimal(m, i) == (d == 30));
    CHECK(strchr("udlr", eight_moves_letter(m, i)) != NULL);
    CHECK(eight_moves_tile(m, i) >= 1 && eight_moves_tile(m, i) <= 8);
    CHECK(strlen(eight_moves_next_board(m, i)) == 9);
  }
  CHECK(eight_moves_is_optimal(m, 0) == 1); /* best first */
  CHECK(strstr(eight_moves_json(m), "\"hints\":[") != NULL);
  /* Past the last move, every index up to SIZE_MAX: checked, nothing read. */
  for (size_t i = n; i < n + 1000; ++i) {
    const size_t at = i < n + 500 ? i : SIZE_MAX - (i - n - 500);
    CHECK(eight_moves_letter(m, at) == '\0' && eight_moves_tile(m, at) == -1 &&
          eight_moves_next_distance(m, at) == -1 && eight_moves_is_optimal(m, at) == 0 &&
          eight_moves_is_hint(m, at) == 0 && eight_moves_next_board(m, at) == NULL);
  }
  eight_moves_destroy(m);
}

static void test_boards(eight_t* e) {
  char* err = NULL;
  uint64_t counts[100] = {0};
  const int max = eight_histogram(e, NULL, counts, 100, &err);
  CHECK(max == 31);
  uint64_t total = 0;
  for (int d = 0; d <= max; ++d) total += counts[d];
  CHECK(total == 181440);
  CHECK(counts[0] == 1 && counts[31] == 2);

  eight_boards_t* b = eight_boards_at(e, NULL, 31, &err);
  CHECK(b != NULL && eight_boards_count(b) == 2);
  if (b != NULL) {
    int seen = 0;
    for (const char* s; (s = eight_boards_next(b)) != NULL;) {
      seen += strcmp(s, "867254301") == 0 || strcmp(s, "647850321") == 0;
    }
    CHECK(seen == 2);
    eight_boards_destroy(b);
  }
  b = eight_boards_at(e, NULL, 20, &err);
  CHECK(b != NULL && eight_boards_count(b) == counts[20]);
  eight_boards_destroy(b);
  CHECK(eight_boards_at(e, NULL, 32, &err) == NULL);
  take_error(&err);

  for (uint64_t seed = 1; seed <= 20; ++seed) {
    char* board = eight_random(e, NULL, 20, seed, &err);
    CHECK(board != NULL);
    if (board == NULL) continue;
    eight_answer_t* a = eight_solve(e, NULL, board, &err);
    CHECK(a != NULL && eight_answer_distance(a) == 20);
    eight_answer_destroy(a);
    eight_free(board);
  }
  char* any = eight_random(e, NULL, -1, 7, &err);
  CHECK(any != NULL);
  if (any != NULL) {
    eight_answer_t* a = eight_solve(e, NULL, any, &err);
    CHECK(a != NULL && eight_answer_solvable(a) == 1);
    eight_answer_destroy(a);
    eight_free(any);
  }
  eight_options_t* o = eight_options_create();
  eight_options_set_shape(o, 6, 6);
  char* big = eight_random(e, o, -1, 7, &err);
  CHECK(big != NULL && strchr(big, '/') != NULL);
  eight_free(big);
  CHECK(eight_histogram(e, o, counts, 100, &err) == -1);
  take_error(&err);
  eight_options_destroy(o);
}

/* Every 3x3 permutation in reading order (Heap's algorithm), 9 bytes each. */
static size_t all_permutations(uint8_t* out) {
  uint8_t p[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  int c[9] = {0};
  size_t n = 0;
  memcpy(out + 9 * n++, p, 9);
  for (int i = 1; i < 9;) {
    if (c[i] < i) {
      const int j = i % 2 == 0 ? 0 : c[i];
      const uint8_t t = p[j];
      p[j] = p[i];
      p[i] = t;
      memcpy(out + 9 * n++, p, 9);
      ++c[i];
      i = 1;
    } else {
      c[i++] = 0;
    }
  }
  return n;
}

static void test_distances(eight_t* e) {
  char* err = NULL;
  CHECK(eight_distance(e, NULL, "867254301", &err) == 31 && err == NULL);
  CHECK(eight_distance(e, NULL, "213456780", &err) == -1 && err == NULL);
  CHECK(eight_distance(e, NULL, "21345678", &err) == -2);
  take_error(&err);
  CHECK(strcmp(last_error, "expected 9 cells, got 8") == 0);

  /* All 362,880 boards at once: half the other class, the rest as the
   * histogram counts them, and each as eight_distance() says (every 997th
   * asked again one at a time). */
  uint8_t* cells = malloc(9 * 362880);
  int32_t* out = malloc(sizeof(int32_t) * 362880);
  CHECK(cells != NULL && out != NULL);
  if (cells == NULL || out == NULL) return;
  CHECK(all_permutations(cells) == 362880);
  CHECK(eight_distances(e, NULL, cells, 9, 362880, out, &err) == 0 && err == NULL);
  uint64_t counts[100] = {0}, seen[100] = {0};
  const int max = eight_histogram(e, NULL, counts, 100, &err);
  size_t other = 0;
  for (size_t i = 0; i < 362880; ++i) {
    if (out[i] < 0) {
      ++other;
    } else if (out[i] <= max) {
      ++seen[out[i]];
    }
  }
  CHECK(other == 181440);
  CHECK(memcmp(seen, counts, sizeof seen) == 0);
  for (size_t i = 0; i < 362880; i += 997) {
    char text[10];
    for (int k = 0; k < 9; ++k) text[k] = (char)('0' + cells[9 * i + k]);
    text[9] = '\0';
    CHECK(eight_distance(e, NULL, text, &err) == out[i]);
  }

  /* A bad board stops the call, named. */
  cells[9 * 5 + 1] = cells[9 * 5];
  CHECK(eight_distances(e, NULL, cells, 9, 10, out, &err) == -1);
  take_error(&err);
  CHECK(strcmp(last_error, "board 5: its cells are not the tiles 0 to 8, each once") == 0);
  CHECK(eight_distances(e, NULL, cells, 7, 1, out, &err) == -1);
  take_error(&err);

  /* Other shapes: named, or a square searched. */
  eight_options_t* o = eight_options_create();
  eight_options_set_shape(o, 2, 3);
  const uint8_t two_by_three[12] = {1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 0, 5};
  CHECK(eight_distances(e, o, two_by_three, 6, 2, out, &err) == 0);
  CHECK(out[0] == 0 && out[1] == 1);
  eight_options_destroy(o);
  uint8_t five[2 * 25];
  for (int k = 0; k < 25; ++k) five[k] = five[25 + k] = (uint8_t)((k + 1) % 25);
  five[25 + 23] = 0;
  five[25 + 24] = 24;
  CHECK(eight_distances(e, NULL, five, 25, 2, out, &err) == 0);
  CHECK(out[0] == 0 && out[1] == 1);
  free(cells);
  free(out);
}

static void test_check(eight_t* e) {
  char* err = NULL;
  eight_check_t* c = eight_check(e, NULL, "123456708", "d", &err);
  CHECK(c != NULL && eight_check_legal(c) == 0 && strstr(eight_check_why(c), "move 1") != NULL);
  eight_check_destroy(c);
  c = eight_check(e, NULL, "123456708", "x", &err);
  CHECK(c != NULL && eight_check_legal(c) == 0);
  eight_check_destroy(c);
  c = eight_check(e, NULL, "123456708", "l", &err);
  CHECK(c != NULL && eight_check_legal(c) == 1 && eight_check_reaches(c) == 0);
  eight_check_destroy(c);
  c = eight_check(e, NULL, "123456708", "rlr", &err);
  CHECK(c != NULL && eight_check_reaches(c) == 1 && eight_check_optimal(c) == 0);
  CHECK(c != NULL && strstr(eight_check_why(c), "3 moves where the distance is 1") != NULL);
  eight_check_destroy(c);
  c = eight_check(e, NULL, "123456708", "r", &err);
  CHECK(c != NULL && eight_check_optimal(c) == 1);
  eight_check_destroy(c);
}

/* Hostile and heavy input: text far past the parser's bound is refused
 * unread, a path of a million moves is walked to its verdict, and ten
 * thousand answers and option sets come and go (valgrind, ASan: none kept). */
static void test_hostile(eight_t* e) {
  char* err = NULL;
  const size_t long_text = 1000000;
  char* text = malloc(long_text + 1);
  char* path = malloc(long_text + 1);
  CHECK(text != NULL && path != NULL);
  if (text == NULL || path == NULL) return;
  memset(text, '1', long_text);
  text[long_text] = '\0';
  CHECK(eight_solve(e, NULL, text, &err) == NULL);
  take_error(&err);
  CHECK(strstr(last_error, "long") != NULL);
  CHECK(eight_distance(e, NULL,
                       "8\x01\xff"
                       "7254301",
                       &err) == -2);
  take_error(&err);
  for (size_t i = 0; i < long_text; i += 2) {
    path[i] = 'u';
    path[i + 1] = 'd';
  }
  path[long_text] = '\0';
  eight_check_t* c = eight_check(e, NULL, "123456780", path, &err);
  CHECK(c != NULL && eight_check_reaches(c) == 1 && eight_check_optimal(c) == 0);
  eight_check_destroy(c);
  path[long_text - 1] = 'x';
  c = eight_check(e, NULL, "123456780", path, &err);
  CHECK(c != NULL && eight_check_legal(c) == 0 &&
        strstr(eight_check_why(c), "move 1000000") != NULL);
  eight_check_destroy(c);
  free(text);
  free(path);
  for (int i = 0; i < 10000; ++i) {
    eight_options_t* o = eight_options_create();
    eight_options_set_goal(o, "123804765");
    eight_answer_t* a = eight_solve(e, o, "867254301", &err);
    CHECK(a != NULL);
    eight_answer_destroy(a);
    eight_options_destroy(o);
  }
}

/* eight_solve_lines: the paths of many boards, their distances, the first
 * bad board named. */
static void test_solve_lines(eight_t* e) {
  char* err = NULL;
  int32_t d[4] = {7, 7, 7, 7};
  char* paths = eight_solve_lines(e, NULL, "123456708\n867254301\n123456870\n123/450", d, &err);
  CHECK(paths != NULL && err == NULL);
  if (paths != NULL) {
    CHECK(strcmp(paths, "r\nruulddruuldldrrullurrdlldruurdd\n\n\n") == 0);
    CHECK(d[0] == 1 && d[1] == 31 && d[2] == -1 && d[3] == 0);
  }
  eight_free(paths);
  CHECK(eight_solve_lines(e, NULL, "123456708\n12345678\n867254301", NULL, &err) == NULL);
  take_error(&err);
  CHECK(strcmp(last_error, "board 2: expected 9 cells, got 8") == 0);
  CHECK(eight_solve_lines(e, NULL, "123456708\n", NULL, &err) == NULL); /* an empty last line */
  take_error(&err);
  CHECK(strncmp(last_error, "board 2: ", 9) == 0);
  CHECK(eight_solve_lines(e, NULL, NULL, NULL, &err) == NULL);
  take_error(&err);
  CHECK(strcmp(last_error, "no boards given") == 0);
}

/* A known path (eight_options_set_path): the answer on a tie, not when
 * longer; refused when bad, and by the questions about many boards or none. */
static void test_known_path(eight_t* e) {
  static const char* const own = "ruulddruuldldrrullurrdlldruurdd";
  static const char* const other = "uurdlldrrullurrdldluurddluurrdd"; /* optimal too */
  char* err = NULL;
  eight_options_t* o = eight_options_create();
  CHECK(o != NULL);
  if (o == NULL) return;
  eight_options_set_path(o, other);
  eight_answer_t* a = eight_solve(e, o, "867254301", &err);
  CHECK(a != NULL && err == NULL);
  if (a != NULL) {
    CHECK(strcmp(eight_answer_path(a), other) == 0);
    CHECK(eight_answer_distance(a) == 31 && eight_answer_optimal(a) == 1);
  }
  eight_answer_destroy(a);
  CHECK(eight_distance(e, o, "867254301", &err) == 31 && err == NULL);
  eight_moves_t* m = eight_hint(e, o, "867254301", &err);
  CHECK(m != NULL && eight_moves_distance(m) == 31);
  eight_moves_destroy(m);
  char longer[64];
  snprintf(longer, sizeof longer, "ud%s", own);
  eight_options_set_path(o, longer);
  a = eight_solve(e, o, "867254301", &err);
  CHECK(a != NULL && strcmp(eight_answer_path(a), own) == 0);
  eight_answer_destroy(a);
  /* Refused: a move short of the goal, a move off the board. */
  eight_options_set_path(o, "ruulddruuldldrrullurrdlldruurd");
  CHECK(eight_solve(e, o, "867254301", &err) == NULL);
  take_error(&err);
  CHECK(strncmp(last_error, "the known path is no path from the board to the goal", 52) == 0);
  eight_options_set_path(o, "d");
  CHECK(eight_hint(e, o, "867254301", &err) == NULL);
  take_error(&err);
  CHECK(strstr(last_error, "known path") != NULL);
  /* Many boards or none. */
  eight_options_set_path(o, own);
  CHECK(eight_solve_lines(e, o, "867254301", NULL, &err) == NULL);
  take_error(&err);
  CHECK(strstr(last_error, "known path") != NULL);
  char* board = eight_random(e, o, 20, 1, &err);
  CHECK(board == NULL);
  eight_free(board);
  take_error(&err);
  CHECK(strstr(last_error, "known path") != NULL);
  /* NULL clears it. */
  eight_options_set_path(o, NULL);
  a = eight_solve(e, o, "867254301", &err);
  CHECK(a != NULL && strcmp(eight_answer_path(a), own) == 0);
  eight_answer_destroy(a);
  eight_options_destroy(o);
}

/* eight_build_shapes: a shape and its transpose alone; the errors. */
static void test_build_shapes(void) {
  char* err = NULL;
  eight_t* e = eight_build_shapes("2x3,2x4", &err);
  CHECK(e != NULL && err == NULL);
  if (e != NULL) {
    CHECK(eight_distance(e, NULL, "123/450", &err) == 0 && err == NULL);
    CHECK(eight_distance(e, NULL, "12/34/50", &err) == 0 && err == NULL); /* 3x2, the transpose */
    CHECK(eight_distance(e, NULL, "1234/5670", &err) == 0 && err == NULL);
    CHECK(eight_distance(e, NULL, "867254301", &err) == -2);
    take_error(&err);
    CHECK(strstr(last_error, "not 3x3 ones") != NULL);
    eight_close(e);
  }
  e = eight_build_shapes("4x4", &err);
  CHECK(e == NULL);
  take_error(&err);
  CHECK(strcmp(last_error,
               "eight builds in memory the shapes up to 10 cells (2x2, 2x3, 3x2, 2x4, 4x2, 3x3, "
               "2x5, 5x2), not 4x4: open a table file") == 0);
  e = eight_build_shapes("2x3,3x2", &err);
  CHECK(e == NULL);
  take_error(&err);
  CHECK(strstr(last_error, "shape 3x2 is named twice") != NULL);
  e = eight_build_shapes("3x3,", &err);
  CHECK(e == NULL);
  take_error(&err);
  e = eight_build_shapes("three", &err);
  CHECK(e == NULL);
  take_error(&err);
  /* NULL and "" are every shape, as eight_build. */
  e = eight_build_shapes("", &err);
  CHECK(e != NULL && eight_distance(e, NULL, "12345/67890", &err) == 0);
  eight_close(e);
}

/* The whole of file `path`, malloc'd (the caller frees it), its length in
 * *size; NULL, counted as a failed check, when it cannot be read. */
static uint8_t* read_file_bytes(const char* path, long* size) {
  FILE* f = fopen(path, "rb");
  CHECK(f != NULL);
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  *size = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* bytes = malloc((size_t)*size);
  const int read_all = bytes != NULL && fread(bytes, 1, (size_t)*size, f) == (size_t)*size;
  CHECK(read_all);
  fclose(f);
  if (!read_all) {
    free(bytes);
    return NULL;
  }
  return bytes;
}

/* eight_open_bytes: a table file's bytes, copied and checked. */
static void test_open_bytes(const char* path) {
  char* err = NULL;
  long size = 0;
  uint8_t* bytes = read_file_bytes(path, &size);
  if (bytes == NULL) return;
  eight_t* e = eight_open_bytes(bytes, (size_t)size, "downloaded.tbl", &err);
  CHECK(e != NULL && err == NULL);
  /* The bytes are copied: the caller's may go at once. */
  memset(bytes, 0, (size_t)size);
  if (e != NULL) {
    CHECK(eight_distance(e, NULL, "867254301", &err) == 31);
    CHECK(eight_distance(e, NULL, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", &err) == 1);
    eight_close(e);
  }
  free(bytes);
  e = eight_open_bytes(NULL, 0, NULL, &err);
  CHECK(e == NULL);
  take_error(&err);
  CHECK(strstr(last_error, "in memory") != NULL);
  const uint8_t junk[64] = {'n', 'o', 't'};
  e = eight_open_bytes(junk, sizeof junk, "junk.tbl", &err);
  CHECK(e == NULL);
  take_error(&err);
  CHECK(strstr(last_error, "junk.tbl") != NULL);
  e = eight_open_bytes(NULL, 5, NULL, &err);
  CHECK(e == NULL);
  take_error(&err);
  CHECK(strcmp(last_error, "no table bytes given") == 0);
}

/* Issue 41, finding 5: a table file changed after eight_open (truncated,
 * zeroed, other bytes copied over; many times) changes no answer and
 * raises no SIGBUS (a mapping of the file did both). A FIFO is refused at
 * once (it blocked for ever). */
static void test_file_changed_after_open(const char* path) {
  char* err = NULL;
  long size = 0;
  uint8_t* bytes = read_file_bytes(path, &size);
  if (bytes == NULL) return;
  char dir[] = "/tmp/eight-c-api-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char copy[64];
  snprintf(copy, sizeof copy, "%s/eight.tbl", dir);
  int fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  CHECK(fd >= 0 && write(fd, bytes, (size_t)size) == (ssize_t)size);
  close(fd);
  eight_t* e = eight_open(copy, &err);
  CHECK(e != NULL && err == NULL);
  uint8_t* zeros = calloc((size_t)size, 1);
  int right = 0;
  for (int round = 0; e != NULL && round < 30; ++round) {
    fd = open(copy, O_WRONLY);
    CHECK(fd >= 0);
    switch (round % 3) {
      case 0: /* truncated to a tenth of it, or less */
        CHECK(ftruncate(fd, (off_t)(size / 10 * (round % 10) / 10)) == 0);
        break;
      case 1: /* zeroed in place */
        CHECK(pwrite(fd, zeros, (size_t)size, 0) == (ssize_t)size);
        break;
      default: /* `cp` of other bytes: truncated, then written */
        CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, "not a table\n", 12, 0) == 12);
        break;
    }
    close(fd);
    /* The 3x3 answer from the full sections, the 4x4 one from the pattern
     * databases: pages all over the table, read after the change. */
    eight_answer_t* a = eight_solve(e, NULL, "867254301", &err);
    const int ok3 = a != NULL && eight_answer_distance(a) == 31 && strlen(eight_answer_path(a)) == 31;
    eight_answer_destroy(a);
    const int d4 = eight_distance(e, NULL, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", &err);
    CHECK(ok3);
    CHECK(d4 == 1);
    right += ok3 && d4 == 1;
    if (err != NULL) take_error(&err);
    /* Sound again for the next change. */
    fd = open(copy, O_WRONLY | O_TRUNC);
    CHECK(fd >= 0 && write(fd, bytes, (size_t)size) == (ssize_t)size);
    close(fd);
  }
  CHECK(right == 30);
  eight_close(e);
  /* Damaged at open: refused with the reason, not answered. */
  fd = open(copy, O_WRONLY);
  CHECK(fd >= 0 && pwrite(fd, zeros, 64, 0) == 64);
  close(fd);
  e = eight_open(copy, &err);
  CHECK(e == NULL);
  take_error(&err);
  CHECK(strstr(last_error, "bad magic") != NULL);
  unlink(copy);
  /* A FIFO: refused at once, named. */
  char fifo[64];
  snprintf(fifo, sizeof fifo, "%s/fifo.tbl", dir);
  CHECK(mkfifo(fifo, 0600) == 0);
  for (int i = 0; i < 100; ++i) {
    e = eight_open(fifo, &err);
    CHECK(e == NULL);
    take_error(&err);
  }
  CHECK(strstr(last_error, "fifo.tbl: not a regular file (a FIFO)") != NULL);
  unlink(fifo);
  rmdir(dir);
  free(zeros);
  free(bytes);
}

int main(int argc, char** argv) {
  char* err = NULL;
  eight_t* e = eight_build(&err);
  CHECK(e != NULL && err == NULL);
  if (e == NULL) {
    fprintf(stderr, "eight_build: %s\n", err);
    return 1;
  }
  test_solve(e);
  test_errors(e);
  test_hints(e);
  test_boards(e);
  test_check(e);
  test_distances(e);
  test_hostile(e);
  test_solve_lines(e);
  test_known_path(e);
  test_shapes(e); /* c_api_shapes_test.c */
  eight_close(e);
  test_build_shapes();
  if (argc > 1) {
    test_open_bytes(argv[1]);
    test_file_changed_after_open(argv[1]);
    /* A table file: its 4x4 pattern databases answer 4x4. */
    e = eight_open(argv[1], &err);
    CHECK(e != NULL);
    if (e != NULL) {
      eight_answer_t* a = eight_solve(e, NULL, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", &err);
      CHECK(a != NULL && eight_answer_distance(a) == 1 &&
            strcmp(eight_answer_method(a), "pattern-search") == 0);
      eight_answer_destroy(a);
      eight_close(e);
    }
  }
  printf("%d checks, %d failed\n", checks, failures);
  return failures == 0 && checks > 0 ? 0 : 1;
}
