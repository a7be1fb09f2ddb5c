#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "eight/goal.h"
#include "eight/rank.h"
#include "relabel.h"
#include "support.h"

using namespace eight;

TEST_CASE(
    "on every board shape the eight symmetries are distinct bijections that map moves "
    "consistently") {
  std::vector<Shape> shapes(kTableShapes.begin(), kTableShapes.end());
  shapes.push_back(Shape{4, 4});
  for (const Shape shape : shapes) {
    CAPTURE(to_string(shape));
    std::set<std::array<std::uint8_t, kMaxCells>> maps;
    int transposing = 0;
    for (const Symmetry& s : symmetries(shape)) {
      CHECK(s.from == shape);
      CHECK((s.to == shape || s.to == shape.transposed()));
      transposing += s.to != shape ? 1 : 0;
      maps.insert(s.cell_map);
      std::set<int> images;
      for (int cell = 0; cell < shape.cells(); ++cell) {
        images.insert(s.cell_map[static_cast<std::size_t>(cell)]);
        for (Move m : kAllMoves) {
          const int to = neighbor(shape, cell, m);
          const Move mapped = s.move_map[static_cast<int>(m)];
          CHECK(s.inverse_move_map[static_cast<int>(mapped)] == m);
          const int image = s.cell_map[static_cast<std::size_t>(cell)];
          if (to < 0) {
            CHECK(neighbor(s.to, image, mapped) < 0);
          } else {
            CHECK(neighbor(s.to, image, mapped) == s.cell_map[static_cast<std::size_t>(to)]);
          }
        }
      }
      CHECK(images.size() == static_cast<std::size_t>(shape.cells()));
      CHECK(*images.rbegin() == shape.cells() - 1);
    }
    CHECK(maps.size() == 8);
    CHECK(transposing == (shape.square() ? 0 : 4));
    for (int cell = 0; cell < shape.cells(); ++cell) {
      CHECK(symmetries(shape)[0].cell_map[static_cast<std::size_t>(cell)] == cell);
    }
  }
}

TEST_CASE(
    "a symmetry carries a board's moves: transforming then moving is moving then transforming") {
  const Board b = test::board("1 2 3 4/5 6 0 7/8 9 10 11");  // 3x4, blank inside
  for (const Symmetry& s : symmetries(b.shape)) {
    for (Move m : kAllMoves) {
      const auto moved = apply_move(b, m);
      const auto seen_moved = apply_move(transform(b, s), s.move_map[static_cast<int>(m)]);
      REQUIRE(moved.has_value() == seen_moved.has_value());
      if (moved) CHECK(transform(*moved, s) == *seen_moved);
    }
  }
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
  for (std::size_t k = 0; k < 8; ++k) {
    for (std::size_t cell = 0; cell < 9; ++cell) {
      CHECK(symmetries()[k].cell_map[cell] == documented[k][cell]);
    }
  }
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
  for (std::uint32_t r = 0; r < kPositions3x3; r += 13) {
    for (int parity = 0; parity < 2; ++parity) {
      const Board b = unrank_3x3(r, parity);
      CHECK((tile_parity(frame.to_section(b)) == 0) == (parity == frame.board_class()));
    }
  }
}

TEST_CASE("the section relabelling gives the same cells by shuffles as by its definition") {
  // relabel_head's definition, out[j] = label[cells[source[j]]] for j < n
  // and zero past n, over random permutations of 16 and every n.
  std::mt19937 rng(20261205);
  std::array<std::uint8_t, 16> cells{}, source{}, label{};
  for (std::size_t i = 0; i < 16; ++i)
    cells[i] = source[i] = label[i] = static_cast<std::uint8_t>(i);
  int compared = 0;
  for (int round = 0; round < 2000; ++round) {
    std::shuffle(cells.begin(), cells.end(), rng);
    std::shuffle(source.begin(), source.end(), rng);
    std::shuffle(label.begin(), label.end(), rng);
    for (int n = 0; n <= 16; ++n) {
      std::array<std::uint8_t, 16> want{};
      for (int j = 0; j < n; ++j) {
        want[static_cast<std::size_t>(j)] = label[cells[source[static_cast<std::size_t>(j)]]];
      }
      std::array<std::uint8_t, 16> portable{}, chosen{};
      portable.fill(0xEE);
      chosen.fill(0xEE);
      detail::relabel_head_portable(cells.data(), source.data(), label.data(), n, portable.data());
      detail::relabel_head(cells.data(), source.data(), label.data(), n, chosen.data());
      CHECK(portable == want);
      CHECK(chosen == want);
      if (detail::have_ssse3()) {
        std::array<std::uint8_t, 16> shuffled{};
        shuffled.fill(0xEE);
        detail::relabel_head_ssse3(cells.data(), source.data(), label.data(), n, shuffled.data());
        CHECK(shuffled == want);
        ++compared;
      }
    }
  }
  // Every x86-64 this suite runs on has SSSE3: the shuffles were compared.
#if defined(__x86_64__)
  CHECK(compared == 2000 * 17);
#endif
}

// Issue 41: a shape past 10x10 from the C API's options reached
// standard_goal(), whose only check was an assert: 16x16 wrote past a
// GridBoard's 100 cells in a release build. Every (rows, cols) a byte holds,
// and the ints' edges, through the checked ways in.
TEST_CASE("a shape past 10x10 gets an error from board_shape and checked_standard_goal, never a goal") {
  int answered = 0;
  for (int rows = 0; rows <= 255; ++rows) {
    for (int cols = 0; cols <= 255; ++cols) {
      const Shape s{static_cast<std::uint8_t>(rows), static_cast<std::uint8_t>(cols)};
      const auto shape = board_shape(rows, cols);
      const auto goal = checked_standard_goal(s);
      REQUIRE(shape.ok() == is_board_shape(s));
      REQUIRE(goal.ok() == is_board_shape(s));
      if (!goal.ok()) {
        const std::string expected = "eight answers no " + std::to_string(rows) + "x" +
                                     std::to_string(cols) +
                                     " boards: the shapes have rows and columns from 2 to 10";
        REQUIRE(shape.error().message == expected);
        REQUIRE(goal.error().message == expected);
        continue;
      }
      REQUIRE(*shape == s);
      REQUIRE(*goal == standard_goal(s));
      REQUIRE(goal->cells[static_cast<std::size_t>(s.cells() - 1)] == 0);
      ++answered;
    }
  }
  CHECK(answered == 81);
  for (const long long side : {-1LL, 11LL, 256LL, 2147483647LL, -2147483648LL, 1LL << 40}) {
    CHECK_FALSE(board_shape(side, 3).ok());
    CHECK_FALSE(board_shape(3, side).ok());
  }
  CHECK(board_shape(16, 16).error().message ==
        "eight answers no 16x16 boards: the shapes have rows and columns from 2 to 10");
  CHECK(board_shape(1LL << 40, 3).error().message.starts_with("eight answers no 1099511627776x3"));
}
