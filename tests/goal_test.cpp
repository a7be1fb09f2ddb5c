#include <doctest/doctest.h>

#include <set>

#include "eight/goal.h"
#include "eight/rank.h"
#include "support.h"

using namespace eight;

TEST_CASE("the eight symmetries are distinct and map moves consistently") {
  std::set<std::array<std::uint8_t, 9>> maps;
  for (const Symmetry& s : symmetries()) {
    maps.insert(s.cell_map);
    for (int cell = 0; cell < kCells; ++cell) {
      for (Move m : kAllMoves) {
        const int to = neighbor(cell, m);
        const Move mapped = s.move_map[static_cast<int>(m)];
        CHECK(s.inverse_move_map[static_cast<int>(mapped)] == m);
        if (to < 0) {
          CHECK(neighbor(s.cell_map[cell], mapped) < 0);
        } else {
          CHECK(neighbor(s.cell_map[cell], mapped) == s.cell_map[to]);
        }
      }
    }
  }
  CHECK(maps.size() == 8);
  CHECK(symmetries()[0].cell_map == std::array<std::uint8_t, 9>{0, 1, 2, 3, 4, 5, 6, 7, 8});
}

TEST_CASE("the symmetries are the cell maps goal.h and the format spec list, in that order") {
  // The same rows as in include/eight/goal.h and docs/table-format.md.
  const std::array<std::array<std::uint8_t, 9>, 8> documented = {{
      {0, 1, 2, 3, 4, 5, 6, 7, 8},  // identity
      {2, 5, 8, 1, 4, 7, 0, 3, 6},  // rotate 90 clockwise
      {8, 7, 6, 5, 4, 3, 2, 1, 0},  // rotate 180
      {6, 3, 0, 7, 4, 1, 8, 5, 2},  // rotate 270 clockwise
      {2, 1, 0, 5, 4, 3, 8, 7, 6},  // mirror left-right
      {6, 7, 8, 3, 4, 5, 0, 1, 2},  // mirror up-down
      {0, 3, 6, 1, 4, 7, 2, 5, 8},  // transpose
      {8, 5, 2, 7, 4, 1, 6, 3, 0},  // anti-transpose
  }};
  for (std::size_t k = 0; k < 8; ++k) CHECK(symmetries()[k].cell_map == documented[k]);
}

TEST_CASE("canonical goals put tiles 1..8 in reading order around the blank") {
  CHECK(to_string(canonical_goal(8)) == "123456780");
  CHECK(to_string(canonical_goal(4)) == "123405678");
  CHECK(to_string(canonical_goal(0)) == "012345678");
  CHECK(is_canonical_goal(test::board("123456708")));
  CHECK_FALSE(is_canonical_goal(test::board("123804765")));
}

TEST_CASE("a goal frame maps the goal onto its section's canonical goal") {
  for (const char* g : {"123456780", "123804765", "012345678", "876543210", "123456870",
                        "x87654321", "4 1 2 x 8 3 5 6 7"}) {
    const Board goal = test::board(g);
    const GoalFrame frame = test::frame(goal);
    const auto& section = test::view().section(frame.section());
    CHECK(frame.to_section(goal) == section.goal);
  }
}

TEST_CASE("a board is solvable for a goal exactly when their tile parities match") {
  const Board goal = test::board("123804765");
  const GoalFrame frame = test::frame(goal);
  for (std::uint32_t r = 0; r < kPositions; r += 13) {
    for (int parity = 0; parity < 2; ++parity) {
      const Board b = unrank(r, parity);
      CHECK((tile_parity(frame.to_section(b)) == 0) == (parity == frame.parity()));
    }
  }
}
