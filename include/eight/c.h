/* eight's C API, for every language that can call C (the leveldb way:
 * include/leveldb/c.h). It asks what the `eight` tool asks, for every
 * shape from 2x2 to 10x10, through the same core, so every answer is the
 * one `eight` and `eight-server` give; eight_answer_json() and
 * eight_moves_json() are their JSON, byte for byte.
 *
 * Conventions:
 *   - Handles are opaque. What eight_X_create/eight_open/eight_build/
 *     eight_solve/... returns is the caller's, freed by the matching
 *     eight_X_destroy (eight_close for an eight_t); destroying NULL does
 *     nothing. Strings an accessor returns live as long as their handle.
 *     Strings returned as `char*` are the caller's, freed by eight_free().
 *   - Errors: every function that can fail takes `char** errptr`. On
 *     failure it returns NULL (or -1) and sets *errptr to a message that
 *     says what was wrong, the same message the `eight` tool prints (free
 *     it with eight_free()); *errptr is freed first if it is not NULL, and
 *     left alone on success. errptr must not be NULL. No C++ exception
 *     crosses this boundary: an allocation that fails is an error too.
 *   - Booleans are unsigned char, 0 or 1.
 *
 * Thread safety: an eight_t is immutable once opened: any number of threads
 * may ask it questions at once. Options, answers and iterators are plain
 * values: one thread at a time each (share an options handle read-only
 * while no thread changes it).
 */
#ifndef EIGHT_C_H_
#define EIGHT_C_H_

#include <stddef.h>
#include <stdint.h>

/* Every function below is exported from libeight-c.so, whose other symbols
 * (the C++ core it is built on) are hidden. */
#if defined(__GNUC__)
#define EIGHT_C_EXPORT __attribute__((visibility("default")))
#else
#define EIGHT_C_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct eight_t eight_t;
typedef struct eight_options_t eight_options_t;
typedef struct eight_answer_t eight_answer_t;
typedef struct eight_moves_t eight_moves_t;
typedef struct eight_boards_t eight_boards_t;
typedef struct eight_check_t eight_check_t;

/* Frees a string this API returned as char* (messages, boards). */
EIGHT_C_EXPORT void eight_free(void* ptr);

/* ---------------------------------------------------------------- tables */

/* Opens a table file, or every *.tbl file of a folder (as `eight --table`
 * and `--tables`), checking each file's checksum. */
EIGHT_C_EXPORT eight_t* eight_open(const char* path, char** errptr);
/* Builds the tables of every table shape up to 10 cells in memory (the
 * sections of 3x3, 2x2, 2x3, 2x4, 2x5 and their transposes that
 * eight-tablegen writes first): no file, no disk. The shapes of 12 cells and
 * 4x4 need a table file (eight_open()); the shapes past 12 cells other than
 * 4x4 are answered by search either way. */
EIGHT_C_EXPORT eight_t* eight_build(char** errptr);
/* The same for some of those shapes: `shapes` names them, comma-separated
 * ("3x3", "2x3,2x4"; a shape brings its transpose); NULL or "" for all.
 * A shape past 10 cells, or one named twice, is an error. */
EIGHT_C_EXPORT eight_t* eight_build_shapes(const char* shapes, char** errptr);
/* A table file's bytes (a downloaded eight.tbl, a table linked into the
 * program), copied: the caller's buffer may go at once. Checked as
 * eight_open() checks a file; `name` (NULL: "in memory") names it in
 * messages. */
EIGHT_C_EXPORT eight_t* eight_open_bytes(const uint8_t* bytes, size_t size, const char* name,
                                         char** errptr);
EIGHT_C_EXPORT void eight_close(eight_t* e);

/* --------------------------------------------------------------- options */

/* How a question is asked; the defaults are the tool's. */
EIGHT_C_EXPORT eight_options_t* eight_options_create(void);
EIGHT_C_EXPORT void eight_options_destroy(eight_options_t* o);
/* The goal, in any notation (NULL, the default: the standard goal of the
 * board's shape, blank last). The goal's errors are the question's. */
EIGHT_C_EXPORT void eight_options_set_goal(eight_options_t* o, const char* goal);
/* The shape of every board and goal text (`--shape RxC`); 0, 0 (the
 * default) for none: rows or the cell count give it. Rows and columns are
 * 2 to 10 (the shapes eight answers); any other pair is refused: this
 * returns -1 (0 when the shape is set), and every question asked with these
 * options then fails with a message naming the shape ("eight answers no
 * 16x16 boards: the shapes have rows and columns from 2 to 10"), which
 * eight_options_error() gives at once, until a good shape or 0, 0 is set. */
EIGHT_C_EXPORT int eight_options_set_shape(eight_options_t* o, int rows, int cols);
/* Why every question asked with these options would fail (a shape refused
 * by eight_options_set_shape), or NULL when they are sound. The string
 * lives until the options change or are destroyed. */
EIGHT_C_EXPORT const char* eight_options_error(const eight_options_t* o);
/* Nodes a search may expand (`--budget`; default 50,000,000, at most
 * 500,000,000): a question that needs more is an error saying how far the
 * search got. 0 is the default. Under 1,000,000, a 2x7, 3x5 or 2x8
 * question whose pattern databases are not built yet is searched without
 * them rather than build them (seconds on 2x8). */
EIGHT_C_EXPORT void eight_options_set_budget(eight_options_t* o, uint64_t nodes);
/* 1: an answer must be proven optimal or it is an error (`--optimal
 * required`); 0 (default): a bounded answer where no proof is found. */
EIGHT_C_EXPORT void eight_options_set_optimal_required(eight_options_t* o, unsigned char required);
/* 1: eight_answer_json() lists the board after each move (`--boards`). */
EIGHT_C_EXPORT void eight_options_set_boards(eight_options_t* o, unsigned char boards);
/* 1: the fast answers (`--fast`, HTTP's fast=1): where no answer is proven
 * optimal (boards past 16 cells), the quicker, longer paths of before issue 39
 * (on 5x5 the beam search over Manhattan distance and linear conflicts,
 * without the pattern databases it builds otherwise); `optimal` and
 * `lower_bound` stay as honest. Answers that are exact or proven optimal
 * do not change. 0 (default): the shorter answers. (A setter of its own:
 * the options are opaque, so it came without breaking a program built
 * before it.) */
EIGHT_C_EXPORT void eight_options_set_fast(eight_options_t* o, unsigned char fast);
/* A path the caller already holds from the board asked about to the goal
 * (letters u d l r, either case: the rest of the path an earlier answer
 * showed, a continuation), or NULL (the default) for none; the text is
 * copied. eight_solve(), eight_distance() and eight_hint() then answer
 * with the shorter of their own path and this one, this one on a tie, so
 * that a caller following hints keeps one path and the distance it shows
 * never goes up (HTTP's path=, `--path`; docs/answers.md#hints). Checked
 * with the board, before any search: one that is not a path from the
 * board to the goal, or is longer than 20,000 moves, is refused, the
 * message naming the move ("the known path is no path from the board to
 * the goal: ..."). eight_check() checks it too and answers as without it;
 * a question about many boards or none (eight_solve_lines,
 * eight_distances, eight_random, eight_histogram, eight_boards_at) with
 * one is refused. */
EIGHT_C_EXPORT void eight_options_set_path(eight_options_t* o, const char* path);

/* ----------------------------------------------------------------- solve */

/* The answer for `board`: its distance and a path (optimal, or bounded
 * with a proven lower bound). A board that cannot reach the goal is an
 * answer (solvable 0), not an error. */
EIGHT_C_EXPORT eight_answer_t* eight_solve(const eight_t* e, const eight_options_t* o,
                                           const char* board, char** errptr);
EIGHT_C_EXPORT void eight_answer_destroy(eight_answer_t* a);
EIGHT_C_EXPORT unsigned char eight_answer_solvable(const eight_answer_t* a);
/* The distance; for an answer not proven optimal, its path's length; -1
 * when the board cannot reach the goal. */
EIGHT_C_EXPORT int eight_answer_distance(const eight_answer_t* a);
EIGHT_C_EXPORT unsigned char eight_answer_optimal(const eight_answer_t* a);
/* A proven lower bound on the distance (the distance when optimal). */
EIGHT_C_EXPORT int eight_answer_lower_bound(const eight_answer_t* a);
/* "table", "pattern-search", "manhattan-search", "beam-search" or
 * "reduction": what found the answer. */
EIGHT_C_EXPORT const char* eight_answer_method(const eight_answer_t* a);
/* The blank's moves as letters u d l r, e.g. "ulldr". */
EIGHT_C_EXPORT const char* eight_answer_path(const eight_answer_t* a);
/* The board and the goal in canonical form ("867254301", "123/450"). */
EIGHT_C_EXPORT const char* eight_answer_board(const eight_answer_t* a);
EIGHT_C_EXPORT const char* eight_answer_goal(const eight_answer_t* a);
/* Exactly `eight solve --format json` (and GET /solve) for this board.
 * Made at the first call (so an answer whose JSON is never asked for does
 * not pay for it); NULL only if memory ran out then. */
EIGHT_C_EXPORT const char* eight_answer_json(const eight_answer_t* a);

/* The paths of many boards at once, as `eight solve --format moves` reads
 * lines: `boards` holds one board a line ('\n' between them, none after
 * the last), each asked as eight_solve() asks it. Returns their paths
 * (letters u d l r), one a line ending in '\n', in the boards' order: an
 * empty line for a board on its goal or one that cannot reach it. When
 * `distances` is not NULL it has room for an int32_t a board: distances[i]
 * is board i's, -1 when it cannot reach the goal. The caller frees the
 * paths (eight_free). NULL on an error, *errptr naming the first bad board
 * ("board 3: expected 9 cells, got 8"). One call for many boards: what a
 * binding whose every call costs (JavaScript) solves a batch with. */
EIGHT_C_EXPORT char* eight_solve_lines(const eight_t* e, const eight_options_t* o,
                                       const char* boards, int32_t* distances, char** errptr);

/* The distance alone (eight_answer_distance without the path): -1 when the
 * board cannot reach the goal, -2 on an error (*errptr set). */
EIGHT_C_EXPORT int eight_distance(const eight_t* e, const eight_options_t* o, const char* board,
                                  char** errptr);
/* The distances of `count` boards at once, each given as its cells in
 * reading order (0 the blank), `cells_per_board` bytes a board, all of one
 * shape: the options' shape, else the goal's, else the square of that many
 * cells (3x3 for 9). out[i] is board i's distance, -1 when it cannot reach
 * the goal. Returns 0, or -1 on an error (*errptr set, naming the first bad
 * board; out then holds the distances before it). The goal is framed once:
 * a 3x3 board takes a table lookup, no text. */
EIGHT_C_EXPORT int eight_distances(const eight_t* e, const eight_options_t* o, const uint8_t* cells,
                                   size_t cells_per_board, size_t count, int32_t* out,
                                   char** errptr);

/* ----------------------------------------------------------------- hints */

/* Every legal move from `board` with its next board's distance, best first
 * (`eight hint`). */
EIGHT_C_EXPORT eight_moves_t* eight_hint(const eight_t* e, const eight_options_t* o,
                                         const char* board, char** errptr);
EIGHT_C_EXPORT void eight_moves_destroy(eight_moves_t* m);
/* The board's own distance (as eight_answer_distance). */
EIGHT_C_EXPORT int eight_moves_distance(const eight_moves_t* m);
EIGHT_C_EXPORT unsigned char eight_moves_optimal(const eight_moves_t* m);
/* 2 to 4. The accessors below take i < eight_moves_count(m); past it they
 * give '\0', -1, 0 or NULL (checked: no index reads past the moves). */
EIGHT_C_EXPORT size_t eight_moves_count(const eight_moves_t* m);
EIGHT_C_EXPORT char eight_moves_letter(const eight_moves_t* m, size_t i); /* u d l r */
EIGHT_C_EXPORT int eight_moves_tile(const eight_moves_t* m, size_t i);    /* the tile it slides */
EIGHT_C_EXPORT int eight_moves_next_distance(const eight_moves_t* m, size_t i);
EIGHT_C_EXPORT unsigned char eight_moves_is_optimal(const eight_moves_t* m,
                                                    size_t i); /* one closer, proven */
EIGHT_C_EXPORT unsigned char eight_moves_is_hint(const eight_moves_t* m,
                                                 size_t i); /* first of the best path */
EIGHT_C_EXPORT const char* eight_moves_next_board(const eight_moves_t* m, size_t i);
/* Exactly `eight hint --format json` (and GET /hint) for this board. */
EIGHT_C_EXPORT const char* eight_moves_json(const eight_moves_t* m);

/* ---------------------------------------------------------------- boards */

/* A random board of the goal's shape (the options' goal, else the standard
 * goal of the options' shape, else 3x3) that reaches the goal, from `seed`:
 * exactly `distance` moves away, or uniformly random among all when
 * distance is -1 (`eight random`). The caller frees it (eight_free). */
EIGHT_C_EXPORT char* eight_random(const eight_t* e, const eight_options_t* o, int distance,
                                  uint64_t seed, char** errptr);
/* How many boards are at each distance from the goal (as for
 * eight_random): counts[d] for d < n, the rest left alone. Returns the
 * farthest distance, or -1 on error (a shape whose distances are not
 * tabulated). */
EIGHT_C_EXPORT int eight_histogram(const eight_t* e, const eight_options_t* o, uint64_t* counts,
                                   size_t n, char** errptr);
/* Every board exactly `distance` moves from the goal, each once, in a fixed
 * order: for the shapes whose tables hold every distance (up to 10 cells). */
EIGHT_C_EXPORT eight_boards_t* eight_boards_at(const eight_t* e, const eight_options_t* o,
                                               int distance, char** errptr);
EIGHT_C_EXPORT void eight_boards_destroy(eight_boards_t* b);
EIGHT_C_EXPORT size_t eight_boards_count(const eight_boards_t* b);
/* The next board, or NULL after the last; valid until the next call. */
EIGHT_C_EXPORT const char* eight_boards_next(eight_boards_t* b);

/* ----------------------------------------------------------------- check */

/* Whether `path` (letters u d l r) is legal from `board`, ends on the goal,
 * and is optimal: eight_check_why() says which move failed, or how far the
 * path is from optimal. */
EIGHT_C_EXPORT eight_check_t* eight_check(const eight_t* e, const eight_options_t* o,
                                          const char* board, const char* path, char** errptr);
EIGHT_C_EXPORT void eight_check_destroy(eight_check_t* c);
EIGHT_C_EXPORT unsigned char eight_check_legal(
    const eight_check_t* c); /* every move stays on the board */
EIGHT_C_EXPORT unsigned char eight_check_reaches(
    const eight_check_t* c); /* legal and ends on the goal */
/* 1: reaches the goal in the distance; 0: reaches it in more moves, or does
 * not reach it; -1: reaches it, and no search within the budget proved
 * whether a shorter path exists (boards past 16 cells, mostly). */
EIGHT_C_EXPORT int eight_check_optimal(const eight_check_t* c);
EIGHT_C_EXPORT const char* eight_check_why(const eight_check_t* c);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* EIGHT_C_H_ */
