// The 5x5 pattern databases (core/pdb/pdb5x5.h): their groups and classes,
// the same bytes every run, a cancelled build, the default table's set the
// bytes of a fresh build (and the beam's answers through either the same),
// a goal of the class seen through a symmetry, and their value never above
// the distance: against breadth-first truth near the goal (Korf's goal and
// the default goal, the reflection included) and against Korf and Felner's
// published optimal lengths far from it. The sets come from the default
// table (test::program_default_table()): one test alone builds one.
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

#include "beam_search.h"
#include "eight/goal.h"
#include "eight/random.h"
#include "eight/table.h"
#include "eight/table_format.h"
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

// The corner class's set, from the default table.
const grid::Pdb5x5View& corner_set() {
  const grid::Pdb5x5View* set = test::program_default_table().pdb5x5_set(0);
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

TEST_CASE("the 5x5 goal blanks fall in six classes, each kept under its lowest cell") {
  std::vector<int> sizes(25, 0);
  for (int blank = 0; blank < 25; ++blank) {
    const int kept = grid::pdb5x5_class_blank(blank);
    CHECK(kept <= blank);
    CHECK(grid::pdb5x5_class_blank(kept) == kept);
    ++sizes[static_cast<std::size_t>(kept)];
  }
  std::vector<int> kept;
  for (int c = 0; c < 25; ++c) {
    if (sizes[static_cast<std::size_t>(c)] > 0) kept.push_back(c);
  }
  CHECK(kept ==
        std::vector<int>(std::begin(grid::kPdb5x5ClassBlanks), std::end(grid::kPdb5x5ClassBlanks)));
  // The corners, the two kinds of edge cell, the inner ring's two, the centre.
  CHECK(sizes[0] == 4);
  CHECK(sizes[1] == 8);
  CHECK(sizes[2] == 4);
  CHECK(sizes[6] == 4);
  CHECK(sizes[7] == 4);
  CHECK(sizes[12] == 1);
}

TEST_CASE("the default table's 5x5 set is the bytes of a fresh build, and answers the same") {
  // The one test that builds a 5x5 set (15 s of one core).
  const grid::Pdb5x5View& stored = corner_set();
  const grid::Pdb5x5Set fresh = grid::generate_pdb5x5_set(0);
  CHECK(stored.goal_blank == 0);
  CHECK(stored.groups == fresh.groups);
  for (int g = 0; g < grid::kPdb5x5Groups; ++g) {
    CAPTURE(g);
    const auto& bytes = fresh.bytes[static_cast<std::size_t>(g)];
    const auto table = stored.bytes[static_cast<std::size_t>(g)];
    CHECK(std::vector<std::uint8_t>(table.begin(), table.end()) == bytes);
  }
  // The beam over either gives the same paths, towards a goal of the
  // class's kept cell and towards the standard goal (through a symmetry).
  const grid::Pdb5x5View built = fresh.view();
  Rng rng(61);
  for (const GridBoard& goal :
       {canonical_goal(0, grid::kShape5x5), standard_goal(grid::kShape5x5)}) {
    for (int trial = 0; trial < 2; ++trial) {
      const GridBoard start = shuffled_board(goal, rng);
      const grid::BeamResult a = grid::beam_search(start, goal, 300, {}, {&stored});
      const grid::BeamResult b = grid::beam_search(start, goal, 300, {}, {&built});
      REQUIRE(a.status == fifteen::SearchStatus::kSolved);
      CHECK(a.path == b.path);
      CHECK(a.start_bound == b.start_bound);
    }
  }
}

TEST_CASE("a corrupt 5x5 section of a table is refused with a message that names it") {
  const auto bytes = test::read_file(test::program_default_table_path());
  const TableView& view = test::program_default_table().view();
  std::size_t first = view.section_count();
  for (std::size_t i = 0; i < view.section_count(); ++i) {
    if (view.section(i).shape == grid::kShape5x5) {
      first = i;
      break;
    }
  }
  REQUIRE(first < view.section_count());
  const std::size_t record = format::kHeaderSize + first * format::kSectionRecordSize;
  const auto refused = [](std::vector<std::uint8_t> b, Check check) {
    auto t = Table::adopt(std::move(b), "t.tbl", check);
    REQUIRE_FALSE(t.ok());
    return t.error().message;
  };
  const std::string at = "t.tbl: section " + std::to_string(first) + ": ";
  // A byte of its entries changed: the checksum, and behind it (resealed)
  // the entry histogram, which the server's full check counts.
  auto changed = bytes;
  const std::size_t entry = view.section(first).entries - view.bytes().data() + 1000;
  changed[entry] ^= 0x11;
  CHECK(test::contains(refused(changed, Check::kChecksum), "checksum mismatch"));
  const auto resealed = test::resealed(bytes, [&](auto& b) { b[entry] ^= 0x11; });
  CHECK(Table::adopt(resealed, "t.tbl", Check::kChecksum).ok());
  CHECK(test::contains(refused(resealed, Check::kFull), at + "entry histogram says"));
  // Its second section holding the third group (of the same size).
  const std::uint32_t third = grid::pdb5x5_group_tiles(0, grid::pdb5x5_groups(0)[2]);
  const auto regrouped =
      test::resealed(bytes, [&](auto& b) { format::put_u32(b.data() + record + 64 + 52, third); });
  CHECK(test::contains(refused(regrouped, Check::kChecksum),
                       "t.tbl: section " + std::to_string(first + 1) + ": group " +
                           std::to_string(third) + " is not the 5x5 goal's group 2 (of 5"));
  // A goal blank no set is kept under (cell 24: the corner class's is 0).
  const auto moved = test::resealed(bytes, [&](auto& b) {
    for (int c = 0; c < 16; ++c)
      b[record + 36 + static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(c + 1);
  });
  CHECK(test::contains(refused(moved, Check::kChecksum),
                       at + "goal is not a canonical goal of 5x5 with its blank among the first "
                            "16 cells"));
}

TEST_CASE("a 5x5 goal's databases are its class's set seen through a symmetry") {
  // Towards the standard goal (blank 24) the corner set is read through the
  // half turn and the anti-transpose: the value of a board is the value of
  // the board turned towards the goal turned (blank 0), and of either
  // mirrored in the anti-diagonal.
  const grid::Pdb5x5View& set = corner_set();
  const auto& syms = symmetries(grid::kShape5x5);
  const Symmetry& half_turn = syms[2];
  const Symmetry& anti_transpose = syms[7];
  const GridBoard goal = standard_goal(grid::kShape5x5);
  Rng rng(67);
  for (int trial = 0; trial < 50; ++trial) {
    const GridBoard b = shuffled_board(goal, rng);
    const int v = grid::pdb5x5_value(set, b, goal);
    CHECK(v == grid::pdb5x5_value(set, transform(b, half_turn), transform(goal, half_turn)));
    CHECK(v ==
          grid::pdb5x5_value(set, transform(b, anti_transpose), transform(goal, anti_transpose)));
  }
}

TEST_CASE("the 5x5 databases never exceed the breadth-first distance near the goal") {
  // Korf's goal (the blank on cell 0) and the default goal (on cell 24):
  // both of the corner class, the second read through a symmetry.
  for (const GridBoard& goal :
       {canonical_goal(0, grid::kShape5x5), standard_goal(grid::kShape5x5)}) {
    const int blank = blank_cell(goal);
    CAPTURE(blank);
    const grid::Pdb5x5View& set = corner_set();
    int above_md_lc = 0;
    const std::size_t boards = for_each_5x5_near(goal, 14, [&](const GridBoard& b, int d) {
      const int v = grid::pdb5x5_value(set, b, goal);
      if (v > d) {
        FAIL_CHECK("the databases' value " << v << " is above the distance " << d);
      }
      if (v > grid::manhattan_linear_conflict(b, goal)) ++above_md_lc;
    });
    CHECK(boards > 100'000);
    CHECK(above_md_lc > 0);
    CHECK(grid::pdb5x5_value(set, goal, goal) == 0);
  }
}

TEST_CASE("the 5x5 databases and their reflection stay under Korf and Felner's optimal lengths") {
  std::ifstream in(EIGHT_SOURCE_DIR "/tests/data/korf_felner_24.txt");
  REQUIRE(in);
  const GridBoard goal = canonical_goal(0, grid::kShape5x5);
  const grid::Pdb5x5View& set = corner_set();
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
    const int v = grid::pdb5x5_value(set, b, goal);
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
