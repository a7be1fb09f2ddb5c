// The 12-cell tables (eight-tablegen --shape 3x4 / 2x6): written, opened
// the way the server opens them, and answered. Each takes about a minute of
// CPU and 600 MB to write, so these run only with EIGHT_TEST_12_CELLS=1
// (CI's longer checks) and are reported skipped otherwise.
#include <doctest/doctest.h>

#include <cstdlib>
#include <numeric>
#include <string>

#include "eight/any_rank.h"
#include "eight/random.h"
#include "eight/solver.h"
#include "eight/table.h"
#include "eight/tablegen.h"
#include "support.h"

using namespace eight;

namespace {

// Solves `count` uniformly random boards of `shape` (both classes) for
// goal `goal_text` and checks every path is legal, ends at the goal and is
// as long as the distance; returns how many were solvable.
int solve_random_boards(const Table& table, Shape shape, const std::string& goal_text, int count,
                        std::uint64_t seed) {
  const Board goal = test::board(goal_text, shape);
  const auto frame = table.frame(goal);
  REQUIRE_MESSAGE(frame.ok(), (frame.ok() ? "" : frame.error().message));
  Rng rng(seed);
  int solvable = 0;
  for (int i = 0; i < count; ++i) {
    Board b;
    b.shape = shape;
    unrank_cells(shape, static_cast<std::uint32_t>(rng.below(positions(shape))),
                 static_cast<int>(rng.below(2)), std::span(b.cells).first(12));
    const auto s = table.solver().solve(b, *frame, true);
    REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
    if (!s->solvable) continue;
    ++solvable;
    REQUIRE(s->length == s->distance);
    Board cur = b;
    for (const Move m : s->path()) {
      const auto next = apply_move(cur, m);
      REQUIRE(next.has_value());
      cur = *next;
    }
    REQUIRE(cur == goal);
    CHECK(table.solver().distance(b, *frame) == s->distance);
  }
  return solvable;
}

}  // namespace

TEST_CASE(
    "the 12-cell tables: 3x4 (and 4x3) and 2x6 (and 6x2) files are written, open at the "
    "server's check, and answer random boards with legal optimal-length paths "
    "(EIGHT_TEST_12_CELLS=1)" *
    doctest::skip(!test::twelve_cells_asked())) {
  test::TempDir dir;
  {
    const std::string path = dir.file("eight-3x4.tbl");
    REQUIRE(write_table(path, kSections3x4).ok());
    const auto table = Table::open(path, Check::kFull);
    REQUIRE(table.ok());
    const auto& view = (*table)->view();
    REQUIRE(view.section_count() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
      const auto h = view.histogram(i);
      CHECK(std::accumulate(h.begin(), h.end(), std::uint64_t{0}) == 239500800u);
    }
    // From a corner: OEIS A090166, 53 moves at most, 18 positions that far.
    CHECK(view.section(0).max_distance == 53);
    CHECK(view.histogram(0)[53] == 18);
    // The farthest boards are found, and are 53 moves away.
    const auto frame = (*table)->frame(standard_goal(Shape{3, 4}));
    REQUIRE(frame.ok());
    const auto hardest = hardest_boards((*table)->index(), *frame);
    CHECK(hardest.size() == 18);
    for (const Board& b : hardest) CHECK((*table)->solver().distance(b, *frame) == 53);
    // 10,000 random boards per shape, for the standard goal and another.
    CHECK(solve_random_boards(**table, Shape{3, 4}, "1 2 3 4 5 6 7 8 9 10 11 0", 10000, 1) > 4000);
    CHECK(solve_random_boards(**table, Shape{4, 3}, "1 2 3 4 5 6 7 8 9 10 11 0", 10000, 2) > 4000);
    CHECK(solve_random_boards(**table, Shape{3, 4}, "1 2 3 4 5 0 6 7 8 9 10 11", 1000, 3) > 400);
    CHECK(solve_random_boards(**table, Shape{4, 3}, "0 1 2 3 4 5 6 7 8 9 10 11", 1000, 4) > 400);
  }
  {
    const std::string path = dir.file("eight-2x6.tbl");
    REQUIRE(write_table(path, kSections2x6).ok());
    const auto table = Table::open(path, Check::kFull);
    REQUIRE(table.ok());
    // From a corner: 80 moves at most (OEIS A090167).
    CHECK((*table)->view().section(0).max_distance == 80);
    CHECK(solve_random_boards(**table, Shape{2, 6}, "1 2 3 4 5 6 7 8 9 10 11 0", 10000, 5) > 4000);
    CHECK(solve_random_boards(**table, Shape{6, 2}, "1 2 3 4 5 6 7 8 9 10 11 0", 10000, 6) > 4000);
    CHECK(solve_random_boards(**table, Shape{2, 6}, "1 2 3 4 5 6 0 7 8 9 10 11", 1000, 7) > 400);
    // Boards that far are drawn from the section's list.
    Rng rng(8);
    const auto frame = (*table)->frame(standard_goal(Shape{2, 6}));
    REQUIRE(frame.ok());
    const auto far = random_board(**table, *frame, 80, rng);
    REQUIRE(far.ok());
    CHECK((*table)->solver().distance(*far, *frame) == 80);
  }
}
