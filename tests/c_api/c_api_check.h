/* What the C API test's files share (c_api_test.c, c_api_shapes_test.c):
 * the CHECK macro and its counts, and the last error taken. */
#ifndef EIGHT_C_API_CHECK_H_
#define EIGHT_C_API_CHECK_H_

#include <eight/c.h>
#include <stdio.h>

extern int failures;
extern int checks;

#define CHECK(cond)                                                            \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

/* The error of a call that must fail, in last_error, or "" (and a failure)
 * when it did not; *err freed and set to NULL. */
extern char last_error[1024];
void take_error(char** err);

/* c_api_shapes_test.c: the options' shapes (issue 41). */
void test_shapes(eight_t* e);

#endif /* EIGHT_C_API_CHECK_H_ */
