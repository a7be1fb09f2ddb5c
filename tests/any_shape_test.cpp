// The any-shape engine: shapes, ranking, the mod-3 search, descent and the
// full-encoding search, against rank.h and generate_section() on 3x3, the
// published distance histograms (OEIS), and a naive breadth-first search
// over cell arrays that shares no code with the engine.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "eight/any_rank.h"
#include "eight/rank.h"
#include "eight/shape.h"

using namespace eight;

namespace {

using Cells = std::vector<std::uint8_t>;

// The shapes of up to `max_cells` cells.
std::vector<Shape> shapes_up_to(int max_cells) {
  std::vector<Shape> out;
  for (const Shape s : kTableShapes) {
    if (s.cells() <= max_cells) out.push_back(s);
  }
  return out;
}

// Parity of the tile order by counting inversions, independently of the
// engine's Lehmer digits.
int order_parity(const Cells& cells) {
  int inversions = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    for (std::size_t j = i + 1; j < cells.size(); ++j) {
      if (cells[i] != 0 && cells[j] != 0 && cells[i] > cells[j]) ++inversions;
    }
  }
  return inversions & 1;
}

int blank_of(const Cells& cells) {
  return static_cast<int>(std::find(cells.begin(), cells.end(), 0) - cells.begin());
}

// The class by its definition (any_rank.h).
int class_by_definition(Shape s, const Cells& cells) {
  const int row = blank_of(cells) / s.cols;
  return order_parity(cells) ^ (s.cols % 2 == 0 ? row & 1 : 0);
}

}  // namespace

TEST_CASE("a shape prints as rows x columns and parses back, either x") {
  for (const Shape s : kTableShapes) {
    const std::string text = to_string(s);
    auto parsed = parse_shape(text);
    REQUIRE_MESSAGE(parsed.ok(), text);
    CHECK(*parsed == s);
  }
  CHECK(to_string(Shape{3, 4}) == "3x4");
  CHECK(to_string(Shape{6, 2}) == "6x2");
  auto upper = parse_shape("4X3");
  REQUIRE(upper.ok());
  CHECK(*upper == Shape{4, 3});
}

TEST_CASE("a text that is no table shape is refused with the list of shapes") {
  const std::string list = "2x2, 2x3, 3x2, 2x4, 4x2, 3x3, 2x5, 5x2, 3x4, 4x3, 2x6, 6x2";
  for (const char* text : {"", "x", "3", "3x", "x3", "3x3x", " 3x3", "3x3 ", "3*3", "3x-3", "4x4",
                           "1x9", "9x1", "2x7", "0x0", "003x3", "3x333", "three by three"}) {
    auto parsed = parse_shape(text);
    REQUIRE_MESSAGE(!parsed.ok(), '"' << text << '"');
    CHECK(parsed.error().code == ErrorCode::kBadArgument);
    CHECK_MESSAGE(parsed.error().message.find(list) != std::string::npos, parsed.error().message);
  }
  CHECK(parse_shape("4x4").error().message.find("4x4 is not a board tables answer") == 0);
  CHECK(parse_shape("3*3").error().message.find("\"3*3\" is not a shape") == 0);
}

TEST_CASE("positions per class are n!/2 for every shape") {
  const std::uint32_t expected[] = {12,      360,     360,       20160,     20160,     181440,
                                    1814400, 1814400, 239500800, 239500800, 239500800, 239500800};
  for (std::size_t i = 0; i < kTableShapes.size(); ++i) {
    CHECK(positions(kTableShapes[i]) == expected[i]);
    CHECK(positions(kTableShapes[i]) == kTableShapes[i].cells() * tile_orders(kTableShapes[i]));
  }
}

TEST_CASE("on 3x3 the any-shape rank and class are rank.h's, over all 9! positions") {
  std::array<std::uint8_t, 9> p{0, 1, 2, 3, 4, 5, 6, 7, 8};
  do {
    const Board b{p};
    const Ranked expected = rank_with_parity(b);
    REQUIRE(rank_cells(kShape3x3, p) == expected.rank);
    REQUIRE(class_of(kShape3x3, p) == expected.parity);
    std::array<std::uint8_t, 9> back{};
    unrank_cells(kShape3x3, expected.rank, expected.parity, back);
    REQUIRE(back == p);
  } while (std::next_permutation(p.begin(), p.end()));
}

TEST_CASE("rank is a bijection from each class onto 0..n!/2-1 for every shape up to 9 cells") {
  for (const Shape s : shapes_up_to(9)) {
    CAPTURE(to_string(s));
    const std::uint32_t count = positions(s);
    std::vector<std::uint8_t> seen[2] = {std::vector<std::uint8_t>(count),
                                         std::vector<std::uint8_t>(count)};
    Cells p(static_cast<std::size_t>(s.cells()));
    std::iota(p.begin(), p.end(), 0);
    Cells back(p.size());
    do {
      const int cls = class_of(s, p);
      REQUIRE(cls == class_by_definition(s, p));
      const std::uint32_t r = rank_cells(s, p);
      REQUIRE(r < count);
      REQUIRE(seen[cls][r] == 0);
      seen[cls][r] = 1;
      unrank_cells(s, r, cls, back);
      REQUIRE(back == p);
    } while (std::next_permutation(p.begin(), p.end()));
    for (int cls = 0; cls < 2; ++cls) {
      CHECK(std::count(seen[cls].begin(), seen[cls].end(), 1) == count);
    }
  }
}

TEST_CASE("rank leads with the blank cell, and orders come in Lehmer order, on every shape") {
  for (const Shape s : kTableShapes) {
    CAPTURE(to_string(s));
    Cells goal(static_cast<std::size_t>(s.cells()));
    for (int blank = 0; blank < s.cells(); ++blank) {
      canonical_goal_cells(s, blank, goal);
      // Tiles 1..n-1 in order: Lehmer rank 0, so the first rank of its cell.
      CHECK(rank_cells(s, goal) == static_cast<std::uint32_t>(blank) * tile_orders(s));
      CHECK(class_of(s, goal) == goal_class(s, blank));
      CHECK(blank_of(goal) == blank);
    }
    // The tiles in reverse: the largest Lehmer rank, (n-1)! - 1, halved.
    Cells reverse(goal.size());
    for (std::size_t c = 0; c < reverse.size(); ++c) {
      reverse[c] = static_cast<std::uint8_t>(reverse.size() - 1 - c);
    }
    CHECK(rank_cells(s, reverse) == (s.cells() - 1) * tile_orders(s) + tile_orders(s) - 1);
  }
}

TEST_CASE("unrank then rank is the identity on sampled ranks of 10- and 12-cell shapes") {
  std::mt19937 rng(20261201);
  for (const Shape s : kTableShapes) {
    if (s.cells() < 10) continue;
    CAPTURE(to_string(s));
    std::uniform_int_distribution<std::uint32_t> pick(0, positions(s) - 1);
    Cells cells(static_cast<std::size_t>(s.cells()));
    Cells back(cells.size());
    for (int i = 0; i < 200000; ++i) {
      // A random permutation: rank, class and back.
      std::iota(cells.begin(), cells.end(), 0);
      std::shuffle(cells.begin(), cells.end(), rng);
      const int cls = class_of(s, cells);
      REQUIRE(cls == class_by_definition(s, cells));
      const std::uint32_t r = rank_cells(s, cells);
      REQUIRE(r < positions(s));
      unrank_cells(s, r, cls, back);
      REQUIRE(back == cells);
      // A random rank of either class: unrank, check, rank.
      const std::uint32_t q = pick(rng);
      const int c = i & 1;
      unrank_cells(s, q, c, back);
      REQUIRE(is_valid_cells(s, back));
      REQUIRE(class_by_definition(s, back) == c);
      REQUIRE(rank_cells(s, back) == q);
    }
    // The ends of the range.
    for (const std::uint32_t q : {0u, positions(s) - 1}) {
      for (int c = 0; c < 2; ++c) {
        unrank_cells(s, q, c, back);
        CHECK(class_of(s, back) == c);
        CHECK(rank_cells(s, back) == q);
      }
    }
  }
}

TEST_CASE("no move changes a position's class, on every shape") {
  std::mt19937 rng(7);
  for (const Shape s : kTableShapes) {
    CAPTURE(to_string(s));
    Cells cells(static_cast<std::size_t>(s.cells()));
    std::iota(cells.begin(), cells.end(), 0);
    std::shuffle(cells.begin(), cells.end(), rng);
    const int cls = class_of(s, cells);
    for (int step = 0; step < 2000; ++step) {
      const Move m = kAllMoves[rng() % 4];
      const int from = blank_of(cells);
      const int to = shape_neighbor(s, from, m);
      if (to < 0) continue;
      std::swap(cells[from], cells[to]);
      REQUIRE(class_of(s, cells) == cls);
    }
  }
}

TEST_CASE("shape_neighbor steps the blank one cell and refuses to leave the board") {
  const Shape s{3, 4};
  CHECK(shape_neighbor(s, 0, Move::kUp) == -1);
  CHECK(shape_neighbor(s, 0, Move::kLeft) == -1);
  CHECK(shape_neighbor(s, 0, Move::kDown) == 4);
  CHECK(shape_neighbor(s, 0, Move::kRight) == 1);
  CHECK(shape_neighbor(s, 3, Move::kRight) == -1);
  CHECK(shape_neighbor(s, 11, Move::kDown) == -1);
  CHECK(shape_neighbor(s, 11, Move::kUp) == 7);
  CHECK(shape_neighbor(s, 5, Move::kLeft) == 4);
  for (int cell = 0; cell < kCells; ++cell) {
    for (const Move m : kAllMoves) CHECK(shape_neighbor(kShape3x3, cell, m) == neighbor(cell, m));
  }
}
