// The reduction solver (core/search/reduction_solver.h) against a move replayer and
// a breadth-first search that share no code with it: its paths are legal and
// reach any goal on every shape 2x2 to 10x10, its hints never cycle, its
// lower bound is one, and it is optimal where the last region is the board.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <random>
#include <unordered_map>
#include <utility>
#include <vector>

#include "grid_search.h"
#include "search/reduction_solver.h"

using namespace eight;

namespace {

using Cells = std::vector<std::uint8_t>;

using test::blank_of;
using test::pack_cells;

// The board after `path`, or nullopt when a move leaves the board.
std::optional<Cells> replay(int rows, int cols, Cells b, const std::vector<Move>& path) {
  int e = blank_of(b);
  for (const Move m : path) {
    const int r = e / cols, c = e % cols;
    int e2 = -1;
    switch (m) {
      case Move::kUp:
        if (r > 0) e2 = e - cols;
        break;
      case Move::kDown:
        if (r + 1 < rows) e2 = e + cols;
        break;
      case Move::kLeft:
        if (c > 0) e2 = e - 1;
        break;
      case Move::kRight:
        if (c + 1 < cols) e2 = e + 1;
        break;
    }
    if (e2 < 0) return std::nullopt;
    std::swap(b[e], b[e2]);
    e = e2;
  }
  return b;
}

// Whether `start` can reach `goal`: the parity of the permutation taking one
// to the other is that of the blank's distance between them.
bool same_class(int cols, const Cells& start, const Cells& goal) {
  const int n = static_cast<int>(start.size());
  std::vector<int> home(n), perm(n);
  for (int c = 0; c < n; ++c) home[goal[c]] = c;
  for (int c = 0; c < n; ++c) perm[c] = home[start[c]];
  std::vector<bool> seen(n);
  int transpositions = 0;
  for (int c = 0; c < n; ++c) {
    for (int x = c, length = 0; !seen[x]; x = perm[x]) {
      seen[x] = true;
      if (length++ > 0) ++transpositions;
    }
  }
  const int a = blank_of(start), b = blank_of(goal);
  const int distance = std::abs(a / cols - b / cols) + std::abs(a % cols - b % cols);
  return transpositions % 2 == distance % 2;
}

// Manhattan distance plus linear conflicts of start towards goal: the
// core's one function (grid::manhattan_linear_conflict) on the two boards.
int md_lc(int rows, int cols, const Cells& start, const Cells& goal) {
  GridBoard a, b;
  a.shape = b.shape = Shape{static_cast<std::uint8_t>(rows), static_cast<std::uint8_t>(cols)};
  std::copy(start.begin(), start.end(), a.cells.begin());
  std::copy(goal.begin(), goal.end(), b.cells.begin());
  return grid::manhattan_linear_conflict(a, b);
}

// A uniformly random board of rows x cols (blank anywhere).
Cells random_cells(int rows, int cols, std::mt19937& rng) {
  Cells b(static_cast<std::size_t>(rows * cols));
  std::iota(b.begin(), b.end(), std::uint8_t{0});
  std::shuffle(b.begin(), b.end(), rng);
  return b;
}

// A uniformly random board that can reach `goal`: a shuffle, then two tiles
// swapped if it is in the other class.
Cells random_start(int rows, int cols, const Cells& goal, std::mt19937& rng) {
  Cells b = random_cells(rows, cols, rng);
  if (!same_class(cols, b, goal)) {
    const std::size_t x = b[0] != 0 ? 0 : 2, y = b[1] != 0 ? 1 : 2;
    std::swap(b[x], b[y]);
  }
  return b;
}

// Exact distances to `goal` of every board that reaches it, by breadth-first
// search (boards of up to 16 cells), keyed by test::pack_cells().
std::unordered_map<std::uint64_t, int> distances_to(int rows, int cols, const Cells& goal) {
  std::unordered_map<std::uint64_t, int> distance{{pack_cells(goal), 0}};
  std::vector<Cells> frontier{goal};
  for (int d = 1; !frontier.empty(); ++d) {
    std::vector<Cells> next;
    for (const Cells& b : frontier) {
      for (const Move m : kAllMoves) {
        std::optional<Cells> moved = replay(rows, cols, b, {m});
        if (moved && distance.emplace(pack_cells(*moved), d).second) next.push_back(*moved);
      }
    }
    frontier = std::move(next);
  }
  return distance;
}

// Follows first_move() from board to goal: each hint is a legal move, the
// measure (progress()) falls at every step and never holds the fallback's
// rank (bits 32 to 39; kFallbackRank in search/reduction_plan.cpp is 4, outside
// the measure's proof), and the walk ends at the goal with measure 0.
void check_hints_reach_goal(int rows, int cols, Cells board, const Cells& goal) {
  std::uint64_t measure = reduction::progress(rows, cols, board, goal);
  REQUIRE(((measure >> 32) & 0xFF) < 4);
  int steps = 0;
  while (const std::optional<Move> m = reduction::first_move(rows, cols, board, goal)) {
    const std::optional<Cells> next = replay(rows, cols, board, {*m});
    REQUIRE(next.has_value());
    board = *next;
    const std::uint64_t after = reduction::progress(rows, cols, board, goal);
    REQUIRE(after < measure);
    REQUIRE(((after >> 32) & 0xFF) < 4);
    measure = after;
    REQUIRE(++steps < 100000);
  }
  CHECK(board == goal);
  CHECK(measure == 0);
}

}  // namespace

TEST_CASE("reduction: paths are legal and end at the goal on every shape 2x2 to 10x10") {
  std::mt19937 rng(20261203);
  for (int rows = 2; rows <= 10; ++rows) {
    for (int cols = 2; cols <= 10; ++cols) {
      CAPTURE(rows);
      CAPTURE(cols);
      for (int i = 0; i < 2; ++i) {
        const Cells goal = random_cells(rows, cols, rng);
        // Two boards a goal, one on large shapes (a 10x10 one takes 17 ms).
        for (int j = 0; j < (rows * cols <= 40 ? 2 : 1); ++j) {
          const Cells start = random_start(rows, cols, goal, rng);
          const std::vector<Move> path = reduction::solve(rows, cols, start, goal);
          const std::optional<Cells> end = replay(rows, cols, start, path);
          REQUIRE(end.has_value());
          CHECK(*end == goal);
          // The path is at least the lower bound, and starts with the hint.
          CHECK(static_cast<int>(path.size()) >= md_lc(rows, cols, start, goal));
          const std::optional<Move> hint = reduction::first_move(rows, cols, start, goal);
          REQUIRE(hint.has_value() == !path.empty());
          if (hint) CHECK(*hint == path.front());
        }
      }
    }
  }
  // No pair needed the phases' fallback (search/reduction_plan.cpp, plan_pair):
  // it asserts, and the sanitizer build runs this with asserts on.
}

TEST_CASE("reduction: the goal itself needs no move, no hint, and has progress 0") {
  std::mt19937 rng(7);
  for (const auto& rows_cols : {std::pair{2, 2}, {3, 3}, {4, 7}, {10, 10}}) {
    // (Not a structured binding: clang 14 cannot capture one, and CAPTURE
    // does.)
    const int rows = rows_cols.first;
    const int cols = rows_cols.second;
    const Cells goal = random_cells(rows, cols, rng);
    CHECK(reduction::solve(rows, cols, goal, goal).empty());
    CHECK_FALSE(reduction::first_move(rows, cols, goal, goal).has_value());
    CHECK(reduction::progress(rows, cols, goal, goal) == 0);
    CHECK(md_lc(rows, cols, goal, goal) == 0);
  }
}

TEST_CASE("reduction: following first_move reaches the goal and progress strictly decreases") {
  std::mt19937 rng(1077);
  // Every shape of up to 30 cells, and a few larger ones (one board each:
  // a hint costs a unit's search, and a 10x10 path is 1,800 moves).
  std::vector<std::pair<int, int>> shapes;
  for (int rows = 2; rows <= 10; ++rows) {
    for (int cols = 2; cols <= 10; ++cols) {
      if (rows * cols <= 30) shapes.emplace_back(rows, cols);
    }
  }
  shapes.insert(shapes.end(), {{6, 6}, {7, 9}, {10, 3}, {10, 10}});
  for (const auto& rows_cols : shapes) {
    // (Not a structured binding: clang 14 cannot capture one, and CAPTURE
    // does.)
    const int rows = rows_cols.first;
    const int cols = rows_cols.second;
    CAPTURE(rows);
    CAPTURE(cols);
    const Cells goal = random_cells(rows, cols, rng);
    check_hints_reach_goal(rows, cols, random_start(rows, cols, goal, rng), goal);
  }
}

TEST_CASE(
    "reduction: MD+LC is admissible, and boards the last region covers are solved optimally") {
  std::mt19937 rng(31);
  // Shapes that are a last region by themselves (at most 3x3, or 2x4): the
  // solver's path is their exact distance there.
  for (const auto& rows_cols : {std::pair{2, 2}, {2, 3}, {3, 2}, {3, 3}, {2, 4}, {4, 2}}) {
    // (Not a structured binding: clang 14 cannot capture one, and CAPTURE
    // does.)
    const int rows = rows_cols.first;
    const int cols = rows_cols.second;
    CAPTURE(rows);
    CAPTURE(cols);
    // Two goals, one on 3x3, whose search is the slowest part of this file.
    for (int g = rows * cols == 9 ? 1 : 0; g < 2; ++g) {
      const Cells goal = random_cells(rows, cols, rng);
      const std::unordered_map<std::uint64_t, int> distance = distances_to(rows, cols, goal);
      for (int i = 0; i < 200; ++i) {
        const Cells start = random_start(rows, cols, goal, rng);
        const int exact = distance.at(pack_cells(start));
        CHECK(md_lc(rows, cols, start, goal) <= exact);
        CHECK(static_cast<int>(reduction::solve(rows, cols, start, goal).size()) == exact);
      }
    }
  }
  // The bound alone on more boards of each small shape, every board of 2x3.
  const Cells goal{1, 2, 3, 4, 5, 0};
  for (const auto& [key, exact] : distances_to(2, 3, goal)) {
    Cells start(6);
    for (int c = 0; c < 6; ++c) {
      start[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(key >> (4 * c) & 15);
    }
    CHECK(md_lc(2, 3, start, goal) <= exact);
  }
}

// Found by solving 40 random boards of every shape with asserts on (before
// the fix, a release build fell back to the whole region's search, rank 4 of
// progress(), outside its proof): on these 5x10 boards, one as given and one
// turned half a turn (solve() plans both ways), a pair's first tile was on the
// cell beside its line's first placed cell at the region's edge, outside the
// pair's window, and its second tile beside it in the window: the first
// could leave only with the blank shut in behind it, so no phase found a
// path. Hints from both ways must reach the goal without the fallback.
TEST_CASE(
    "reduction: a pair's first tile is never shut in beside its line's first cell (5x10 boards, "
    "replayed)") {
  const std::vector<std::pair<Cells, Cells>> boards = {
      {{8,  37, 2,  22, 26, 3,  16, 20, 46, 1,  40, 47, 23, 36, 29, 43, 6,
        19, 44, 33, 7,  45, 4,  15, 39, 48, 0,  28, 24, 38, 49, 34, 25, 32,
        9,  17, 35, 31, 5,  12, 42, 18, 13, 27, 30, 41, 11, 10, 14, 21},
       {7,  0,  32, 14, 39, 37, 15, 46, 38, 20, 40, 18, 8,  29, 25, 27, 10,
        28, 19, 1,  49, 22, 36, 26, 35, 42, 5,  24, 6,  33, 45, 47, 9,  41,
        23, 3,  2,  17, 16, 31, 13, 43, 4,  48, 30, 34, 11, 21, 44, 12}},
      {{42, 41, 4,  45, 5,  15, 30, 32, 33, 39, 12, 16, 6,  49, 9,  20, 7,
        1,  37, 43, 21, 48, 3,  31, 26, 19, 44, 8,  35, 13, 10, 38, 14, 2,
        0,  25, 22, 40, 11, 28, 27, 17, 46, 34, 36, 47, 24, 18, 23, 29},
       {48, 6,  41, 12, 16, 45, 17, 46, 40, 15, 10, 11, 18, 5,  21, 19, 42,
        47, 33, 8,  14, 31, 3,  43, 23, 37, 28, 9,  27, 7,  25, 1,  24, 20,
        13, 39, 38, 4,  32, 2,  44, 35, 0,  22, 49, 36, 34, 30, 29, 26}},
  };
  const auto turned = [](Cells c) {
    std::reverse(c.begin(), c.end());
    return c;
  };
  for (const auto& [start, goal] : boards) {
    REQUIRE(same_class(10, start, goal));
    const std::vector<Move> path = reduction::solve(5, 10, start, goal);
    const std::optional<Cells> end = replay(5, 10, start, path);
    REQUIRE(end.has_value());
    CHECK(*end == goal);
    check_hints_reach_goal(5, 10, start, goal);
    check_hints_reach_goal(5, 10, turned(start), turned(goal));
  }
}
