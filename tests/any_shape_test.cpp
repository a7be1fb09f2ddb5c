// The any-shape engine: shapes, ranking, the mod-3 search, descent and the
// full-encoding search, against rank.h and generate_section() on 3x3, the
// published distance histograms (OEIS), and a naive breadth-first search
// over cell arrays that shares no code with the engine.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "eight/any_rank.h"
#include "eight/descent.h"
#include "eight/rank.h"
#include "eight/shape.h"
#include "eight/table_format.h"
#include "eight/tablegen.h"
#include "full_search.h"
#include "mod3_search.h"
#include "support.h"

using namespace eight;

namespace {

using Cells = std::vector<std::uint8_t>;
using test::blank_of;
using test::pack_cells;

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

// The class by its definition (any_rank.h).
int class_by_definition(Shape s, const Cells& cells) {
  const int row = blank_of(cells) / s.cols;
  return order_parity(cells) ^ (s.cols % 2 == 0 ? row & 1 : 0);
}

// The naive search: breadth-first over cell arrays from the canonical goal,
// with its own move arithmetic and a hash map keyed by the cells packed a
// nibble each (a plain encoding of the array, not a rank), sharing no code
// with the engine (test::pack_cells(), and its inverse here).
Cells unpack_cells(std::uint64_t key, int n) {
  Cells cells(static_cast<std::size_t>(n));
  for (int c = 0; c < n; ++c) cells[c] = static_cast<std::uint8_t>((key >> (4 * c)) & 0xF);
  return cells;
}

Cells goal_cells(Shape s, int blank) {
  Cells goal(static_cast<std::size_t>(s.cells()));
  std::uint8_t tile = 1;
  for (int c = 0; c < s.cells(); ++c) goal[c] = c == blank ? 0 : tile++;
  return goal;
}

// The cell the blank reaches by m (up, down, left, right), or -1.
int step(Shape s, int cell, int m) {
  const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
  const int r = cell / s.cols + dr[m], c = cell % s.cols + dc[m];
  return r >= 0 && r < s.rows && c >= 0 && c < s.cols ? r * s.cols + c : -1;
}

struct Naive {
  eight::test::NaiveDistances distance;  // by pack_cells
  std::vector<std::uint64_t> histogram;
};

Naive naive_bfs(Shape s, int blank) {
  Naive out;
  std::vector<std::uint64_t> level = {pack_cells(goal_cells(s, blank))};
  out.distance.insert(level[0], 0);
  for (int d = 0; !level.empty(); ++d) {
    out.histogram.push_back(level.size());
    std::vector<std::uint64_t> next;
    for (const std::uint64_t key : level) {
      Cells cells = unpack_cells(key, s.cells());
      const int from = blank_of(cells);
      for (int m = 0; m < 4; ++m) {
        const int to = step(s, from, m);
        if (to < 0) continue;
        std::swap(cells[from], cells[to]);
        const std::uint64_t k = pack_cells(cells);
        if (out.distance.insert(k, d + 1)) next.push_back(k);
        std::swap(cells[from], cells[to]);
      }
    }
    level = std::move(next);
  }
  return out;
}

// The corners of a shape.
std::vector<int> corners(Shape s) {
  return {0, s.cols - 1, s.cells() - s.cols, s.cells() - 1};
}

// Applies the blank's moves to `cells`; false when one leaves the board.
bool apply_path(Shape s, Cells& cells, const std::vector<Move>& moves) {
  for (const Move m : moves) {
    const int from = blank_of(cells);
    const int to = step(s, from, static_cast<int>(m));
    if (to < 0) return false;
    std::swap(cells[from], cells[to]);
  }
  return true;
}

// Every position of the naive search: the mod-3 table holds its distance
// % 3, and descent walks a legal path of exactly its distance to the goal.
void check_mod3_and_descent(Shape s, int blank, const Naive& naive) {
  CAPTURE(to_string(s));
  CAPTURE(blank);
  const detail::Mod3Section section = detail::mod3_search(s, blank);
  REQUIRE(naive.distance.size() == positions(s));
  REQUIRE(section.table.size() == positions(s) / 4);
  CHECK(section.histogram == naive.histogram);
  const Cells goal = goal_cells(s, blank);
  CHECK(section.goal_rank == rank_cells(s, goal));
  std::vector<std::uint32_t> farthest;
  const int max = static_cast<int>(naive.histogram.size()) - 1;
  for (const auto& [key, d] : naive.distance) {
    Cells cells = unpack_cells(key, s.cells());
    const std::uint32_t r = rank_cells(s, cells);
    REQUIRE(mod3_value(section.table, r) == static_cast<unsigned>(d % 3));
    if (d == max) farthest.push_back(r);
    auto path = descend(s, section.table, section.max_distance(), section.goal_rank, cells);
    REQUIRE_MESSAGE(path.ok(), path.error().message);
    REQUIRE(path->distance == d);
    REQUIRE(path->moves.size() == static_cast<std::size_t>(d));
    REQUIRE(apply_path(s, cells, path->moves));
    REQUIRE(cells == goal);
  }
  std::sort(farthest.begin(), farthest.end());
  CHECK(section.farthest == farthest);
}

std::vector<std::uint64_t> oeis(std::initializer_list<std::uint64_t> terms) {
  return terms;
}

std::uint64_t sum(const std::vector<std::uint64_t>& v) {
  return std::accumulate(v.begin(), v.end(), std::uint64_t{0});
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

TEST_CASE("a text that is no board shape is refused with what the shapes are") {
  const std::string list = "the shapes have rows and columns from 2 to 10";
  for (const char* text : {"", "x", "3", "3x", "x3", "3x3x", " 3x3", "3x3 ", "3*3", "3x-3", "11x5",
                           "1x9", "9x1", "2x11", "0x0", "3x333", "three by three"}) {
    auto parsed = parse_shape(text);
    REQUIRE_MESSAGE(!parsed.ok(), '"' << text << '"');
    CHECK(parsed.error().code == ErrorCode::kBadArgument);
    CHECK_MESSAGE(parsed.error().message.find(list) != std::string::npos, parsed.error().message);
  }
  CHECK(parse_shape("11x5").error().message.find("eight answers no 11x5 boards") == 0);
  CHECK(parse_shape("4x4").ok());
  CHECK(parse_shape("5x5").ok());
  CHECK(parse_shape("2x7").ok());
  CHECK(parse_shape("3*3").error().message.find("shape '3*3' is not rows x columns") == 0);
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
    const Board b = test::board_of_cells(p);
    const Ranked expected = rank_3x3_with_parity(b);
    REQUIRE(rank_cells(kShape3x3, p) == expected.rank);
    REQUIRE(board_class(test::board_of_cells(p, kShape3x3)) == expected.parity);
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
      const int cls = board_class(test::board_of_cells(p, s));
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
      const GridBoard goal_board = canonical_goal(blank, s);
      std::copy(goal_board.used().begin(), goal_board.used().end(), goal.begin());
      // Tiles 1..n-1 in order: Lehmer rank 0, so the first rank of its cell.
      CHECK(rank_cells(s, goal) == static_cast<std::uint32_t>(blank) * tile_orders(s));
      CHECK(board_class(test::board_of_cells(goal, s)) ==
            (s.cols % 2 == 0 ? (blank / s.cols) & 1 : 0));
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
      const int cls = board_class(test::board_of_cells(cells, s));
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
        CHECK(board_class(test::board_of_cells(back, s)) == c);
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
    const int cls = board_class(test::board_of_cells(cells, s));
    for (int step = 0; step < 2000; ++step) {
      const Move m = kAllMoves[rng() % 4];
      const int from = blank_of(cells);
      const int to = neighbor(s, from, m);
      if (to < 0) continue;
      std::swap(cells[from], cells[to]);
      REQUIRE(board_class(test::board_of_cells(cells, s)) == cls);
    }
  }
}

TEST_CASE("neighbor steps the blank one cell and refuses to leave the board") {
  const Shape s{3, 4};
  CHECK(neighbor(s, 0, Move::kUp) == -1);
  CHECK(neighbor(s, 0, Move::kLeft) == -1);
  CHECK(neighbor(s, 0, Move::kDown) == 4);
  CHECK(neighbor(s, 0, Move::kRight) == 1);
  CHECK(neighbor(s, 3, Move::kRight) == -1);
  CHECK(neighbor(s, 11, Move::kDown) == -1);
  CHECK(neighbor(s, 11, Move::kUp) == 7);
  CHECK(neighbor(s, 5, Move::kLeft) == 4);
}

TEST_CASE(
    "on 3x3 the full-encoding search is generate_section(), entry for entry, for blanks 8, 7 "
    "and 4") {
  for (const int blank : kDefaultSectionBlanks) {
    CAPTURE(blank);
    const std::vector<std::uint32_t> expected = generate_section(blank);
    const std::vector<detail::FullEntry> entries = detail::full_section_search(kShape3x3, blank);
    REQUIRE(entries.size() == expected.size());
    for (std::uint32_t r = 0; r < kPositions3x3; ++r) {
      const format::Entry e = format::unpack_entry(expected[r]);
      REQUIRE(entries[r].parent == e.parent);
      REQUIRE(entries[r].move == e.move);
      REQUIRE(entries[r].distance == e.distance);
    }
  }
}

TEST_CASE(
    "the full-encoding search's distances are the naive search's and each parent is its "
    "move away, on every shape up to 9 cells and blank") {
  for (const Shape s : shapes_up_to(9)) {
    for (int blank = 0; blank < s.cells(); ++blank) {
      CAPTURE(to_string(s));
      CAPTURE(blank);
      const Naive naive = naive_bfs(s, blank);
      const auto entries = detail::full_section_search(s, blank);
      REQUIRE(entries.size() == naive.distance.size());
      const int cls = board_class(canonical_goal(blank, s));
      Cells parent(static_cast<std::size_t>(s.cells()));
      for (const auto& [key, d] : naive.distance) {
        Cells cells = unpack_cells(key, s.cells());
        const detail::FullEntry e = entries[rank_cells(s, cells)];
        REQUIRE(e.distance == d);
        if (d == 0) continue;
        REQUIRE(apply_path(s, cells, {e.move}));
        unrank_cells(s, e.parent, cls, parent);
        REQUIRE(cells == parent);
      }
    }
  }
}

TEST_CASE("a 2x3 section's histogram, from a corner, is OEIS A090034's") {
  // A090034: the 3 X 2 sliding puzzle from a corner (one shape is the
  // other's transpose, which takes corners to corners).
  const auto a090034 =
      oeis({1, 2, 3, 5, 6, 7, 10, 12, 12, 16, 23, 25, 28, 39, 44, 40, 29, 21, 18, 12, 6, 1});
  CHECK(a090034.size() == 22);  // max distance 21
  for (const Shape s : {Shape{2, 3}, Shape{3, 2}}) {
    for (const int blank : corners(s)) {
      CAPTURE(to_string(s));
      CAPTURE(blank);
      CHECK(detail::mod3_search(s, blank).histogram == a090034);
    }
  }
}

TEST_CASE("a 2x4 section's histogram, from a corner, is OEIS A090035's") {
  const auto a090035 =
      oeis({1,    2,    3,    6,   10,  14,  19,  28,   42,   61,   85,   119,  161,
            215,  293,  396,  506, 632, 788, 985, 1194, 1414, 1664, 1884, 1999, 1958,
            1770, 1463, 1076, 667, 361, 190, 88,  39,   19,   7,    1});
  CHECK(a090035.size() == 37);  // max distance 36
  CHECK(sum(a090035) == 20160);
  for (const Shape s : {Shape{2, 4}, Shape{4, 2}}) {
    for (const int blank : corners(s)) {
      CAPTURE(to_string(s));
      CAPTURE(blank);
      CHECK(detail::mod3_search(s, blank).histogram == a090035);
    }
  }
}

TEST_CASE(
    "a 3x3 section's histogram is OEIS A089473's from a corner and A089474's from the "
    "centre") {
  const auto a089473 =
      oeis({1,     2,     4,     8,     16,    20,   39,   62,   116,   152,   286,
            396,   748,   1024,  1893,  2512,  4485, 5638, 9529, 10878, 16993, 17110,
            23952, 20224, 24047, 15578, 14560, 6274, 3910, 760,  221,   2});
  const auto a089474 =
      oeis({1,     4,     8,     8,     16,    32,   60,   72,    136,   200,   376,
            512,   964,   1296,  2368,  3084,  5482, 6736, 11132, 12208, 18612, 18444,
            24968, 19632, 22289, 13600, 11842, 4340, 2398, 472,   148});
  CHECK(sum(a089473) == kPositions3x3);
  CHECK(sum(a089474) == kPositions3x3);
  for (const int blank : corners(kShape3x3)) {
    CAPTURE(blank);
    CHECK(detail::mod3_search(kShape3x3, blank).histogram == a089473);
  }
  CHECK(detail::mod3_search(kShape3x3, 4).histogram == a089474);
  // The edges have no sequence cited here: the naive search's.
  for (const int blank : {1, 3, 5, 7}) {
    CAPTURE(blank);
    CHECK(detail::mod3_search(kShape3x3, blank).histogram == naive_bfs(kShape3x3, blank).histogram);
  }
}

TEST_CASE("a 2x5 section's histogram, from a corner, is OEIS A090036's") {
  const auto a090036 = oeis(
      {1,      2,      3,      6,      11,    19,    30,    44,    68,     112,    176,    271,
       411,    602,    851,    1232,   1783,  2530,  3567,  4996,  6838,   9279,   12463,  16597,
       21848,  28227,  35682,  44464,  54597, 65966, 78433, 91725, 104896, 116966, 126335, 131998,
       133107, 128720, 119332, 106335, 91545, 75742, 60119, 45840, 33422,  23223,  15140,  9094,
       5073,   2605,   1224,   528,    225,   75,    20,    2});
  CHECK(a090036.size() == 56);  // max distance 55
  CHECK(sum(a090036) == 1814400);
  for (const Shape s : {Shape{2, 5}, Shape{5, 2}}) {
    for (const int blank : corners(s)) {
      CAPTURE(to_string(s));
      CAPTURE(blank);
      const auto section = detail::mod3_search(s, blank);
      CHECK(section.histogram == a090036);
      CHECK(section.farthest.size() == 2);
    }
  }
}

TEST_CASE("every section's histogram up to 10 cells is the naive search's, whatever the blank") {
  // The cells without a published sequence cited above: 2x2, the edges and
  // inner cells of the 2-wide boards. (2x5's inner cells: one of them.)
  for (const Shape s : shapes_up_to(10)) {
    for (int blank = 0; blank < s.cells(); ++blank) {
      if (s.cells() == 10 && blank != 1 && blank != 6) continue;
      CAPTURE(to_string(s));
      CAPTURE(blank);
      const auto section = detail::mod3_search(s, blank);
      const Naive naive = naive_bfs(s, blank);
      CHECK(section.histogram == naive.histogram);
      CHECK(sum(section.histogram) == positions(s));
    }
  }
  // 2x2: the twelve positions of a class lie on one cycle.
  CHECK(detail::mod3_search(Shape{2, 2}, 3).histogram == oeis({1, 2, 2, 2, 2, 2, 1}));
}

TEST_CASE(
    "the mod-3 table holds every position's naive distance % 3 and descent walks a legal "
    "shortest path from each: 2x3, 2x4, 3x3 (corner, edge, centre), 2x5") {
  for (const Shape s : {Shape{2, 3}, Shape{3, 2}, Shape{2, 4}, Shape{4, 2}}) {
    for (int blank = 0; blank < s.cells(); ++blank)
      check_mod3_and_descent(s, blank, naive_bfs(s, blank));
  }
  for (const int blank : {8, 7, 4, 0})
    check_mod3_and_descent(kShape3x3, blank, naive_bfs(kShape3x3, blank));
  check_mod3_and_descent(Shape{2, 5}, 9, naive_bfs(Shape{2, 5}, 9));
  check_mod3_and_descent(Shape{5, 2}, 4, naive_bfs(Shape{5, 2}, 4));
}

TEST_CASE("the mod-3 search writes the same bytes on one, two or three workers") {
  for (const Shape s : {Shape{3, 3}, Shape{2, 5}}) {
    CAPTURE(to_string(s));
    const auto one = detail::mod3_search(s, 0, {.workers = 1, .progress = {}});
    for (const unsigned workers : {2u, 3u}) {
      const auto many = detail::mod3_search(s, 0, {.workers = workers, .progress = {}});
      CHECK(many.table == one.table);
      CHECK(many.histogram == one.histogram);
      CHECK(many.farthest == one.farthest);
    }
    // No value 3 is left.
    for (std::uint32_t r = 0; r < positions(s); ++r) REQUIRE(mod3_value(one.table, r) != 3);
  }
}

TEST_CASE("the mod-3 search reports each level's positions found so far") {
  std::vector<std::pair<int, std::uint64_t>> calls;
  const auto section = detail::mod3_search(
      Shape{2, 4}, 7,
      {.progress = [&](int level, std::uint64_t found) { calls.emplace_back(level, found); }});
  REQUIRE(calls.size() == section.histogram.size());
  std::uint64_t found = 0;
  for (std::size_t d = 0; d < calls.size(); ++d) {
    found += section.histogram[d];
    CHECK(calls[d].first == static_cast<int>(d));
    CHECK(calls[d].second == found);
  }
  CHECK(calls.back().second == 20160);
}

TEST_CASE("descent from a corrupt mod-3 table is an error, never a hang or a stray read") {
  const Shape s{2, 4};
  const auto section = detail::mod3_search(s, 7);
  const Cells goal = goal_cells(s, 7);
  Cells far(goal.size());
  unrank_cells(s, section.farthest[0], section.cls, far);
  REQUIRE(descend(s, section.table, section.max_distance(), section.goal_rank, far).ok());
  const auto code = [&](std::span<const std::uint8_t> table, int max, std::uint32_t goal_rank,
                        const Cells& cells) {
    auto path = descend(s, table, max, goal_rank, cells);
    REQUIRE(!path.ok());
    return path.error().code;
  };
  // Every value 0: no neighbour is one closer.
  const std::vector<std::uint8_t> zeros(section.table.size(), 0);
  CHECK(code(zeros, section.max_distance(), section.goal_rank, far) == ErrorCode::kBadEntry);
  // Every value 3: no distance.
  const std::vector<std::uint8_t> threes(section.table.size(), 0xFF);
  CHECK(code(threes, section.max_distance(), section.goal_rank, far) == ErrorCode::kBadEntry);
  // A table cut short, or one byte too long.
  const std::span<const std::uint8_t> all(section.table);
  CHECK(code(all.first(all.size() - 1), section.max_distance(), section.goal_rank, far) ==
        ErrorCode::kBadEntry);
  CHECK(code(std::span<const std::uint8_t>(), section.max_distance(), section.goal_rank, far) ==
        ErrorCode::kBadEntry);
  std::vector<std::uint8_t> longer = section.table;
  longer.push_back(0);
  CHECK(code(longer, section.max_distance(), section.goal_rank, far) == ErrorCode::kBadEntry);
  // A max distance that is too small, or negative.
  CHECK(code(all, section.max_distance() - 1, section.goal_rank, far) == ErrorCode::kBadEntry);
  CHECK(code(all, -1, section.goal_rank, far) == ErrorCode::kBadEntry);
  // A goal rank past the end or of no canonical goal.
  CHECK(code(all, section.max_distance(), positions(s), far) == ErrorCode::kBadEntry);
  CHECK(code(all, section.max_distance(), section.goal_rank + 1, far) == ErrorCode::kBadEntry);
  // The goal's value not 0.
  std::vector<std::uint8_t> shifted = section.table;
  shifted[section.goal_rank / 4] ^= static_cast<std::uint8_t>(1u << (2 * (section.goal_rank % 4)));
  CHECK(code(shifted, section.max_distance(), section.goal_rank, goal) == ErrorCode::kBadEntry);
  // A position of the other class.
  Cells other = goal;
  std::swap(other[0], other[1]);
  CHECK(code(all, section.max_distance(), section.goal_rank, other) == ErrorCode::kBadArgument);
  // Random tables: an error or a legal path to the goal, within the bound.
  std::mt19937 rng(99);
  std::vector<std::uint8_t> noise(section.table.size());
  for (int trial = 0; trial < 200; ++trial) {
    for (auto& b : noise) b = static_cast<std::uint8_t>(rng());
    Cells cells(goal.size());
    unrank_cells(s, static_cast<std::uint32_t>(rng() % positions(s)), section.cls, cells);
    auto path = descend(s, noise, section.max_distance(), section.goal_rank, cells);
    if (!path.ok()) {
      CHECK(path.error().code == ErrorCode::kBadEntry);
      continue;
    }
    CHECK(path->distance <= section.max_distance());
    CHECK(apply_path(s, cells, path->moves));
    CHECK(cells == goal);
  }
}

// The 12-cell sections take tens of seconds and 120 MB each: run only when
// asked (test::twelve_cells_asked()), and reported as skipped otherwise.
TEST_CASE(
    "the 12-cell sections from a corner: 3x4 is OEIS A090166's (53 moves at most, 18 "
    "positions that far), 2x6 reaches 80 as A090167 says, descent solves 10,000 random 3x4 "
    "positions (EIGHT_TEST_12_CELLS=1)" *
    doctest::skip(!test::twelve_cells_asked())) {
  MESSAGE("generating the 3x4 and 2x6 sections (EIGHT_TEST_12_CELLS=1)");
  // A090166, the 4 X 3 puzzle from a corner (3x4 is its transpose).
  const auto a090166 = oeis(
      {1,        2,        4,        9,        20,       37,       63,       122,      232,
       431,      781,      1392,     2494,     4442,     7854,     13899,    24215,    41802,
       71167,    119888,   198363,   323206,   515778,   811000,   1248011,  1885279,  2782396,
       4009722,  5621354,  7647872,  10065800, 12760413, 15570786, 18171606, 20299876, 21587248,
       21841159, 20906905, 18899357, 16058335, 12772603, 9515217,  6583181,  4242753,  2503873,
       1350268,  643245,   270303,   92311,    27116,    5390,     1115,     86,       18});
  CHECK(sum(a090166) == 239500800);
  const Shape s34{3, 4};
  const detail::Mod3Section section = detail::mod3_search(s34, 11);
  CHECK(sum(section.histogram) == 239500800);
  CHECK(section.max_distance() == 53);
  CHECK(section.histogram.back() == 18);
  CHECK(section.farthest.size() == 18);
  CHECK(section.histogram == a090166);
  for (std::uint32_t r = 0; r < positions(s34); ++r) REQUIRE(mod3_value(section.table, r) != 3);
  const Cells goal = goal_cells(s34, 11);
  Cells cells(goal.size());
  const auto solve = [&](std::uint32_t r) {
    unrank_cells(s34, r, section.cls, cells);
    const unsigned value = mod3_value(section.table, r);
    auto path = descend(s34, section.table, section.max_distance(), section.goal_rank, cells);
    REQUIRE_MESSAGE(path.ok(), path.error().message);
    REQUIRE(path->distance <= 53);
    REQUIRE(static_cast<unsigned>(path->distance % 3) == value);
    REQUIRE(apply_path(s34, cells, path->moves));
    REQUIRE(cells == goal);
    return path->distance;
  };
  for (const std::uint32_t r : section.farthest) CHECK(solve(r) == 53);
  std::mt19937 rng(20261202);
  std::uniform_int_distribution<std::uint32_t> pick(0, positions(s34) - 1);
  std::vector<std::uint64_t> lengths(54);
  for (int i = 0; i < 10000; ++i) ++lengths[static_cast<std::size_t>(solve(pick(rng)))];
  // The lengths of random positions' paths are distributed as the
  // distances of the whole section: each count within six standard
  // deviations (and a little) of what the histogram predicts.
  for (std::size_t d = 0; d < lengths.size(); ++d) {
    const double expected = 10000.0 * static_cast<double>(a090166[d]) / 239500800.0;
    CAPTURE(d);
    CHECK(std::abs(static_cast<double>(lengths[d]) - expected) <= 6 * std::sqrt(expected) + 3);
  }

  // A090167, the 6 X 2 puzzle from a corner: its first 39 terms, and the
  // b-file's length (n = 0..80) for the rest.
  const auto a090167_start =
      oeis({1,      2,      3,      6,       11,      20,      36,      60,      95,     155,
            258,    426,    688,    1106,    1723,    2615,    3901,    5885,    8851,   13205,
            19508,  28593,  41179,  58899,   83582,   118109,  165136,  228596,  312542, 423797,
            568233, 755727, 994641, 1296097, 1667002, 2119476, 2660415, 3300586, 4038877});
  const detail::Mod3Section wide = detail::mod3_search(Shape{2, 6}, 11);
  CHECK(sum(wide.histogram) == 239500800);
  CHECK(wide.max_distance() == 80);
  REQUIRE(wide.histogram.size() > a090167_start.size());
  CHECK(std::equal(a090167_start.begin(), a090167_start.end(), wide.histogram.begin()));
  CHECK(wide.farthest.size() == wide.histogram.back());
}
