// The 5x5 pattern databases (core/pdb/pdb5x5.h): their groups, the same
// bytes every run, a cancelled build, and their value never above the
// distance: against breadth-first truth near the goal (Korf's goal and the
// default goal, the reflection included) and against Korf and Felner's
// published optimal lengths far from it.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "eight/goal.h"
#include "grid_search.h"
#include "pdb/pdb5x5.h"
#include "support.h"

namespace eight {
namespace {

using Key25 = std::pair<std::uint64_t, std::uint64_t>;

Key25 pack25(const GridBoard& b) {
  Key25 k{0, 0};
  for (int c = 0; c < 25; ++c) {
    const std::uint64_t t = b.cells[static_cast<std::size_t>(c)];
    if (c < 12) {
      k.first |= t << (5 * c);
    } else {
      k.second |= t << (5 * (c - 12));
    }
  }
  return k;
}

GridBoard unpack25(Key25 k) {
  GridBoard b{{}, grid::kShape5x5};
  for (int c = 0; c < 25; ++c) {
    const std::uint64_t word = c < 12 ? k.first : k.second;
    b.cells[static_cast<std::size_t>(c)] =
        static_cast<std::uint8_t>((word >> (5 * (c < 12 ? c : c - 12))) & 0x1F);
  }
  // Cell 24 holds the label the others do not.
  int sum = 0;
  for (int c = 0; c < 24; ++c) sum += b.cells[static_cast<std::size_t>(c)];
  b.cells[24] = static_cast<std::uint8_t>(24 * 25 / 2 - sum);
  return b;
}

// Calls visit(board, distance) for every 5x5 board within `depth` moves of
// `goal`, breadth-first, keeping three sorted layers (the graph is
// bipartite); returns how many.
template <typename Visit>
std::size_t for_each_5x5_near(const GridBoard& goal, int depth, Visit visit) {
  std::vector<Key25> before;
  std::vector<Key25> now{pack25(goal)};
  std::size_t count = 0;
  for (int d = 0; d <= depth && !now.empty(); ++d) {
    std::vector<Key25> next;
    for (const Key25& key : now) {
      const GridBoard b = unpack25(key);
      visit(b, d);
      ++count;
      if (d == depth) continue;
      const int blank = blank_cell(b);
      for (const Move m : kAllMoves) {
        const int to = neighbor(b.shape, blank, m);
        if (to < 0) continue;
        GridBoard n = b;
        std::swap(n.cells[static_cast<std::size_t>(blank)], n.cells[static_cast<std::size_t>(to)]);
        next.push_back(pack25(n));
      }
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    std::vector<Key25> fresh;
    std::set_difference(next.begin(), next.end(), before.begin(), before.end(),
                        std::back_inserter(fresh));
    before = std::move(now);
    now = std::move(fresh);
  }
  return count;
}

const grid::Pdb5x5Set& built_5x5_set(int goal_blank) {
  const grid::Pdb5x5Set* set = grid::pdb5x5_databases(goal_blank);
  REQUIRE(set != nullptr);
  return *set;
}

}  // namespace

TEST_CASE("the 5x5 databases' groups hold every tile once, 5-5-5-5-4, for every goal blank") {
  for (int blank = 0; blank < 25; ++blank) {
    CAPTURE(blank);
    const auto groups = grid::pdb5x5_groups(blank);
    std::uint32_t all = 0;
    std::vector<int> sizes;
    for (const std::uint32_t g : groups) {
      CHECK((all & g) == 0);
      all |= g;
      sizes.push_back(std::popcount(g));
    }
    CHECK(all == (((1u << 25) - 1) & ~(1u << blank)));
    std::sort(sizes.begin(), sizes.end());
    CHECK(sizes == std::vector<int>{4, 5, 5, 5, 5});
  }
}

TEST_CASE("a 5x5 database is the same bytes every run, and a cancelled build keeps none") {
  const auto groups = grid::pdb5x5_groups(0);
  const std::uint32_t four = *std::find_if(groups.begin(), groups.end(),
                                           [](std::uint32_t g) { return std::popcount(g) == 4; });
  const auto a = grid::generate_pdb5x5(0, four);
  const auto b = grid::generate_pdb5x5(0, four);
  CHECK(a.size() == 25 * 24 * 23 * 22 / 2);
  CHECK(a == b);
  // Some placement needs moves beyond its Manhattan distance.
  CHECK(std::any_of(a.begin(), a.end(), [](std::uint8_t byte) { return byte != 0; }));
  std::atomic<bool> cancel{true};
  CHECK(grid::generate_pdb5x5(0, four, &cancel).empty());
}

TEST_CASE("the 5x5 databases never exceed the breadth-first distance near the goal") {
  // Korf's goal (the blank on cell 0) and the default goal (on cell 24):
  // both on the diagonal, so a set is its own reflection.
  for (const GridBoard& goal :
       {canonical_goal(0, grid::kShape5x5), standard_goal(grid::kShape5x5)}) {
    const int blank = blank_cell(goal);
    CAPTURE(blank);
    const grid::Pdb5x5Set& set = built_5x5_set(blank);
    REQUIRE(grid::transposed_cell(blank) == blank);
    int above_md_lc = 0;
    const std::size_t boards = for_each_5x5_near(goal, 14, [&](const GridBoard& b, int d) {
      const int v = grid::pdb5x5_value(set, set, b, goal);
      if (v > d) {
        FAIL_CHECK("the databases' value " << v << " is above the distance " << d);
      }
      if (v > grid::manhattan_linear_conflict(b, goal)) ++above_md_lc;
    });
    CHECK(boards > 100'000);
    CHECK(above_md_lc > 0);
    CHECK(grid::pdb5x5_value(set, set, goal, goal) == 0);
  }
}

TEST_CASE("the 5x5 databases and their reflection stay under Korf and Felner's optimal lengths") {
  std::ifstream in(EIGHT_SOURCE_DIR "/tests/data/korf_felner_24.txt");
  REQUIRE(in);
  const GridBoard goal = canonical_goal(0, grid::kShape5x5);
  const grid::Pdb5x5Set& set = built_5x5_set(0);
  int count = 0;
  long sum_pdb = 0;
  long sum_md_lc = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    // "<number> <optimal length> <the 25 cells>"
    std::istringstream fields(line);
    int number = 0;
    int optimal = 0;
    REQUIRE(static_cast<bool>(fields >> number >> optimal));
    GridBoard b{{}, grid::kShape5x5};
    for (int c = 0; c < 25; ++c) {
      int t = 0;
      REQUIRE(static_cast<bool>(fields >> t));
      b.cells[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(t);
    }
    REQUIRE(is_valid(b));
    CAPTURE(number);
    const int v = grid::pdb5x5_value(set, set, b, goal);
    CHECK(v <= optimal);
    sum_pdb += v;
    sum_md_lc += grid::manhattan_linear_conflict(b, goal);
    ++count;
  }
  CHECK(count == 50);
  // Stronger than Manhattan distance and linear conflicts, in all.
  CHECK(sum_pdb > sum_md_lc);
}

}  // namespace eight
