// The default table: every shape up to 10 cells, from one file, answered by
// the core through Table::frame and the Solver.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <string>
#include <vector>

#include "eight/any_rank.h"
#include "eight/goal.h"
#include "eight/random.h"
#include "eight/solver.h"
#include "eight/table.h"
#include "eight/tablegen.h"
#include "grid_search.h"
#include "pdb/pdb5x5.h"
#include "support.h"

using namespace eight;

namespace {

// The shapes of up to 10 cells: each section shape and its transpose.
constexpr std::array<Shape, 8> kSmallShapes = {Shape{2, 2}, Shape{2, 3}, Shape{3, 2}, Shape{2, 4},
                                               Shape{4, 2}, kShape3x3,   Shape{2, 5}, Shape{5, 2}};

// The size and checksum of a file of the default table's table-shape
// sections (kDefaultSections: every shape up to 10 cells), and of the
// default file itself (default_sections(): those, the 4x4 6-6-3 pattern
// databases and the sets of 2x7, 3x5 and 2x8's standard goal). They change only when the format, the default sections or
// the generator's output change on purpose; update them then, with the
// reason in the commit.
constexpr std::size_t kPinnedSize = 3705268;
constexpr std::uint64_t kPinnedChecksum = 0xb9328e2aafdcac80ull;
constexpr std::size_t kPinnedDefaultSize = 51452732;
constexpr std::uint64_t kPinnedDefaultChecksum = 0x3e78cbd49857bea2ull;

// Checks that `s` is a legal path from `board` that ends at `goal`.
void check_path(const Board& board, const Board& goal, const Solution& s) {
  REQUIRE(s.length == s.distance);
  Board cur = board;
  for (int i = 0; i < s.length; ++i) {
    std::uint8_t tile = 0;
    const auto next = apply_move(cur, s.moves[static_cast<std::size_t>(i)], &tile);
    REQUIRE_MESSAGE(next.has_value(), to_string(board) << " step " << i << " leaves the board");
    REQUIRE(tile == s.tiles[static_cast<std::size_t>(i)]);
    cur = *next;
  }
  REQUIRE_MESSAGE(cur == goal, to_string(board) << " -> " << to_string(goal));
}

// Solves `b` for the frame `f` of `goal` from `t` and checks the answer
// against `naive` (test::bfs_distances of the goal): unsolvable exactly
// when the naive search never reached it, else its distance (from solve and
// from distance) and a legal path. Returns whether it was solvable.
bool agrees_with_naive(const Table& t, const GoalFrame& f, const Board& goal,
                       const test::NaiveDistances& naive, const Board& b) {
  const auto s = t.solver().solve(b, f);
  REQUIRE(s.ok());
  const auto d = naive.find(test::cells_key(b));
  if (!d) {
    REQUIRE_FALSE(s->solvable);
    REQUIRE(t.solver().distance(b, f) == -1);
    return false;
  }
  REQUIRE(s->distance == *d);
  REQUIRE(t.solver().distance(b, f) == *d);
  check_path(b, goal, *s);
  return true;
}

// Every board of a shape, as the solver answers it: in rank order of
// both classes.
Board board_of(Shape shape, std::uint32_t r, int cls) {
  Board b;
  b.shape = shape;
  unrank_cells(shape, r, cls, std::span(b.cells).first(static_cast<std::size_t>(shape.cells())));
  return b;
}

}  // namespace

TEST_CASE("the default sections cover every blank cell of every shape up to 10 cells") {
  const Table& t = test::default_table();
  for (const Shape shape : kSmallShapes) {
    CAPTURE(to_string(shape));
    for (int blank = 0; blank < shape.cells(); ++blank) {
      CAPTURE(blank);
      const auto f = t.frame(canonical_goal<Board>(blank, shape));
      REQUIRE_MESSAGE(f.ok(), (f.ok() ? "" : f.error().message));
      const auto& section = t.view().section(f->section());
      // 2x3, 2x4, 2x5 answer their transposes; 2x2 and 3x3 are square.
      CHECK((section.shape == shape || section.shape == shape.transposed()));
      CHECK(is_table_shape(section.shape));
    }
  }
  // And nothing more: each listed section is some cell's first choice.
  std::vector<bool> used(t.view().section_count());
  for (const Shape shape : kSmallShapes) {
    for (int blank = 0; blank < shape.cells(); ++blank) {
      used[t.frame(canonical_goal<Board>(blank, shape))->section()] = true;
    }
  }
  CHECK(std::all_of(used.begin(), used.end(), [](bool u) { return u; }));
  CHECK(t.view().section_count() == std::size(kDefaultSections));
}

TEST_CASE("a shape the table lacks is refused with the shapes it holds") {
  const auto f = test::default_table().frame(standard_goal<Board>(Shape{3, 4}));
  REQUIRE_FALSE(f.ok());
  CHECK(f.error().code == ErrorCode::kNoShape);
  CHECK(f.error().message ==
        "the table answers 2x2, 2x3, 3x2, 2x4, 4x2, 3x3, 2x5 and 5x2 boards, not 3x4 ones such "
        "as goal 1,2,3,4/5,6,7,8/9,10,11,0");
  const auto g = test::table().frame(standard_goal<Board>(Shape{2, 3}));
  REQUIRE_FALSE(g.ok());
  CHECK(g.error().message == "the table answers 3x3 boards, not 2x3 ones such as goal 123/450");
}

TEST_CASE(
    "every position of every shape up to 8 cells has a legal optimal path from the default "
    "table, for every canonical goal, as a naive search says") {
  const Table& t = test::default_table();
  for (const Shape shape : {Shape{2, 2}, Shape{2, 3}, Shape{3, 2}, Shape{2, 4}, Shape{4, 2}}) {
    CAPTURE(to_string(shape));
    for (int blank = 0; blank < shape.cells(); ++blank) {
      const Board goal = canonical_goal<Board>(blank, shape);
      CAPTURE(to_string(goal));
      const GoalFrame f = *t.frame(goal);
      const auto naive = test::bfs_distances(goal);
      REQUIRE(naive.size() == positions(shape));
      std::size_t solvable = 0;
      for (int cls = 0; cls < 2; ++cls) {
        for (std::uint32_t r = 0; r < positions(shape); ++r) {
          if (agrees_with_naive(t, f, goal, naive, board_of(shape, r, cls))) ++solvable;
        }
      }
      CHECK(solvable == positions(shape));
    }
  }
}

TEST_CASE("other goals of small shapes agree with a naive search") {
  const Table& t = test::default_table();
  Rng rng(11);
  for (const Shape shape : {Shape{2, 3}, Shape{3, 2}, Shape{2, 4}, Shape{4, 2}}) {
    for (int k = 0; k < 4; ++k) {
      const Board goal = board_of(shape, static_cast<std::uint32_t>(rng.below(positions(shape))),
                                  static_cast<int>(rng.below(2)));
      CAPTURE(to_string(goal));
      const GoalFrame f = *t.frame(goal);
      const auto naive = test::bfs_distances(goal);
      for (std::uint32_t r = 0; r < positions(shape); r += 7) {
        agrees_with_naive(t, f, goal, naive, board_of(shape, r, static_cast<int>(r & 1)));
      }
    }
  }
}

TEST_CASE("3x3, 2x5 and 5x2 boards, sampled, have legal optimal paths from the default table") {
  const Table& t = test::default_table();
  Rng rng(5);
  // A goal of each shape with a naive search behind it (2x5's takes a
  // second), then sampled boards for it.
  for (const Shape shape : {kShape3x3, Shape{2, 5}, Shape{5, 2}}) {
    CAPTURE(to_string(shape));
    for (int k = 0; k < (shape == kShape3x3 ? 3 : 1); ++k) {
      const Board goal = board_of(shape, static_cast<std::uint32_t>(rng.below(positions(shape))),
                                  static_cast<int>(rng.below(2)));
      CAPTURE(to_string(goal));
      const GoalFrame f = *t.frame(goal);
      const auto naive = test::bfs_distances(goal);
      REQUIRE(naive.size() == positions(shape));
      int solvable = 0;
      for (int i = 0; i < 3000; ++i) {
        const Board b = board_of(shape, static_cast<std::uint32_t>(rng.below(positions(shape))),
                                 static_cast<int>(rng.below(2)));
        if (agrees_with_naive(t, f, goal, naive, b)) ++solvable;
      }
      CHECK(solvable > 1000);
    }
  }
  // Every canonical goal of 2x5 and 5x2, from its hardest positions and a
  // few random ones: paths legal, as long as the distance says, the
  // farthest at the section's max.
  for (const Shape shape : {Shape{2, 5}, Shape{5, 2}}) {
    for (int blank = 0; blank < shape.cells(); ++blank) {
      const Board goal = canonical_goal<Board>(blank, shape);
      const GoalFrame f = *t.frame(goal);
      const auto& section = t.view().section(f.section());
      for (const Board& b : hardest_boards(t.index(), f)) {
        const auto s = t.solver().solve(b, f);
        REQUIRE(s.ok());
        REQUIRE(s->distance == section.max_distance);
        check_path(b, goal, *s);
      }
      for (int i = 0; i < 200; ++i) {
        const Board b = board_of(shape, static_cast<std::uint32_t>(rng.below(positions(shape))),
                                 f.board_class());
        const auto s = t.solver().solve(b, f);
        REQUIRE(s.ok());
        if (!s->solvable) continue;
        check_path(b, goal, *s);
        const auto m = t.solver().moves(b, f);
        REQUIRE(m.distance == s->distance);
        if (s->distance > 0) CHECK(m.moves[0].optimal);
      }
    }
  }
}

TEST_CASE("the 2x5 sections' stats are OEIS A090036's counts (the corner goal)") {
  // A090036: 2x5 sliding puzzle, positions at each distance from the
  // standard goal.
  const auto& v = test::default_table().view();
  const auto s = v.section_for(Shape{2, 5}, 9);
  REQUIRE(s.has_value());
  const auto& section = v.section(*s);
  CHECK(section.encoding == format::Encoding::kMod3);
  CHECK(section.max_distance == 55);
  CHECK(section.farthest_count == 2);
  const auto h = v.histogram(*s);
  CHECK(std::accumulate(h.begin(), h.end(), std::uint64_t{0}) == 1814400);
  CHECK(h[36] == 133107);
}

TEST_CASE("the default table has the pinned size and checksum, the same bytes every run") {
  const auto& bytes = test::default_table_bytes();
  CHECK(bytes.size() == kPinnedSize);
  CHECK(bytes.size() < 16u * 1024 * 1024);
  CHECK(test::default_table().view().checksum() == kPinnedChecksum);
  CHECK(build_table(kDefaultSections) == bytes);
  // Its 3x3 sections' entries are the 3x3 file's, byte for byte.
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& a = test::default_table().view().section(i);
    const auto& b = test::view().section(i);
    CHECK(
        std::equal(a.entries, a.entries + a.entries_bytes, b.entries, b.entries + b.entries_bytes));
  }
}

TEST_CASE(
    "eight-tablegen writes the default table with no --shape, and 3x3 alone with --shape 3x3") {
  test::TempDir dir;
  // eight-tablegen --shape default --out F, run once per build tree.
  const auto written = test::read_file(test::program_default_table_path());
  // The default table: every shape up to 10 cells, then the 4x4 pattern
  // databases, whose sections are the test support's 4x4 file's, then those
  // of 2x7 and 3x5, which are the sets the grid search builds in memory.
  CHECK(written.size() == kPinnedDefaultSize);
  CHECK(format::decode_header(written.data()).checksum == kPinnedDefaultChecksum);
  // The same bytes every run: the program's (pinned above) and the
  // library's, which the build wrote in a process of its own (the test
  // support's two files): its first sections are kDefaultSections', then
  // the 4x4 pattern databases, records, stats and entries all.
  auto table = Table::adopt(written, "d.tbl", Check::kChecksum);
  REQUIRE(table.ok());
  const TableView& v = (*table)->view();
  const TableView& pdbs = test::fifteen_table().view();
  REQUIRE(pdbs.section_count() == 9);
  const std::size_t fifteen_end = std::size(kDefaultSections) + pdbs.section_count();
  // 2x7: 4 goals of 5-4-4; 3x5: 6 goals of 5-5-4; 2x8: its standard goal's
  // key, 6-6-3, 4-6-5 and 2-6-6-1; then 5x5's corner class, 5-5-5-5-4 (the
  // same bytes as a fresh build: pdb5x5_test.cpp).
  const std::size_t grid_end = fifteen_end + 4 * 3 + 6 * 3 + (3 + 3 + 4);
  REQUIRE(v.section_count() == grid_end + grid::kPdb5x5Groups);
  const auto stats = [](const SectionInfo& s) {
    std::vector<std::uint8_t> out;
    if (s.histogram) out.assign(s.histogram, s.histogram + 4 * (s.max_distance + 1));
    if (s.farthest) out.insert(out.end(), s.farthest, s.farthest + 4 * s.farthest_count);
    return out;
  };
  for (std::size_t i = 0; i < fifteen_end; ++i) {
    CAPTURE(i);
    const bool pdb = i >= std::size(kDefaultSections);
    const auto& a = v.section(i);
    const auto& b = pdb ? pdbs.section(i - std::size(kDefaultSections))
                        : test::default_table().view().section(i);
    if (pdb) CHECK(a.encoding == format::Encoding::kPatternDb);
    CHECK(a.encoding == b.encoding);
    CHECK(a.shape == b.shape);
    CHECK(a.goal == b.goal);
    CHECK(a.positions == b.positions);
    CHECK(a.max_distance == b.max_distance);
    CHECK(a.group == b.group);
    CHECK(
        std::equal(a.entries, a.entries + a.entries_bytes, b.entries, b.entries + b.entries_bytes));
    CHECK(stats(a) == stats(b));
  }
  std::vector<std::pair<Shape, int>> keys;
  for (std::size_t i = grid_end; i < v.section_count(); ++i) {
    CAPTURE(i);
    const auto& a = v.section(i);
    CHECK(a.encoding == format::Encoding::kPatternDb);
    CHECK(a.shape == grid::kShape5x5);
    CHECK(a.blank == 0);
    CHECK(a.group == grid::pdb5x5_group_tiles(0, grid::pdb5x5_groups(0)[i - grid_end]));
  }
  const grid::Pdb5x5View* corner = (*table)->pdb5x5_set(0);
  REQUIRE(corner != nullptr);
  CHECK(corner->bytes[0].data() == v.section(grid_end).entries);
  for (const int other : {1, 2, 6, 7, 12}) CHECK((*table)->pdb5x5_set(other) == nullptr);
  for (std::size_t i = fifteen_end; i < grid_end; ++i) {
    CAPTURE(i);
    const auto& a = v.section(i);
    CHECK(a.encoding == format::Encoding::kPatternDb);
    REQUIRE((a.shape == Shape{2, 7} || a.shape == Shape{3, 5} || a.shape == Shape{2, 8}));
    // The table's sets for the key are the ones the search would build.
    const auto built = grid::pattern_databases(a.shape, a.blank);
    const auto held = (*table)->pattern_sets(a.shape, a.blank);
    REQUIRE(held.size() == built.size());
    for (std::size_t p = 0; p < held.size(); ++p) {
      CHECK(held[p].set.group_list().size() == built[p].set.group_list().size());
    }
    const fifteen::PatternDbView* want = nullptr;
    for (const fifteen::PatternSetView& set : built) {
      for (int g = 0; g < set.set.group_count; ++g) {
        const auto& db = set.dbs[static_cast<std::size_t>(g)];
        if (db.group() == a.group) want = &db;
      }
    }
    REQUIRE(want != nullptr);
    CHECK(std::equal(a.entries, a.entries + a.entries_bytes, want->bytes().begin(),
                     want->bytes().end()));
    if (keys.empty() || keys.back() != std::pair{a.shape, a.blank})
      keys.emplace_back(a.shape, a.blank);
  }
  // One set for each goal key the search asks for, and no other.
  const std::vector<std::pair<Shape, int>> expected_keys = {
      {Shape{2, 7}, 0}, {Shape{2, 7}, 1}, {Shape{2, 7}, 2}, {Shape{2, 7}, 3},
      {Shape{3, 5}, 0}, {Shape{3, 5}, 1}, {Shape{3, 5}, 2}, {Shape{3, 5}, 5},
      {Shape{3, 5}, 6}, {Shape{3, 5}, 7}, {Shape{2, 8}, 0}};
  CHECK(keys == expected_keys);
  auto r = test::run_program("eight-tablegen",
                             {"--shape", "3x3", "--out", dir.file("n.tbl"), "--quiet"});
  REQUIRE(r.status == 0);
  CHECK(test::read_file(dir.file("n.tbl")) == test::table_bytes());
  // (The 12-cell shapes write files of their own: tests/twelve_cell_table_test.cpp.)
  r = test::run_program("eight-tablegen", {"--shape", "4x4", "--out", dir.file("x.tbl")});
  CHECK(r.status == 2);
  CHECK(r.err.find("--shape 4x4: no table holds the 4x4 board's positions; its pattern "
                   "databases are in the default table (6-6-3), and --pdb 7-8 writes stronger "
                   "ones") != std::string::npos);
  r = test::run_program("eight-tablegen", {"--shape", "5x5", "--out", dir.file("x.tbl")});
  CHECK(r.status == 2);
  CHECK(r.err.find("--shape 5x5: the tables are default (every shape up to 10 cells), 3x3, "
                   "3x4 (4x3), 2x6 (6x2) and all") != std::string::npos);
  r = test::run_program("eight-tablegen", {"--shape", "all", "--out", dir.file("x.tbl")});
  CHECK(r.status == 2);
  CHECK(r.err.find("--shape all writes three files into data/") != std::string::npos);
}

TEST_CASE("a corrupt mod-3 section is refused by the full check and by the solver, never a crash") {
  auto bytes = test::default_table_bytes();
  const auto& v = test::default_table().view();
  const std::size_t s = *v.section_for(Shape{2, 5}, 9);
  const auto offset = static_cast<std::size_t>(v.section(s).entries - v.bytes().data());
  // Zero a run of entries: values stay 0..2 but many are wrong.
  std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(offset) + 1000, 4000, 0);
  format::put_u64(bytes.data() + format::kChecksumOffset, format::compute_checksum(bytes));
  auto full = TableView::parse(bytes, "t.tbl", Check::kExhaustive);
  REQUIRE_FALSE(full.ok());
  CHECK(full.error().message.find("t.tbl: section 8: its mod-3 entries differ from a fresh "
                                  "search") != std::string::npos);
  // (Check::kFull, the server's, leaves mod-3 sections to the checksum; the
  // answers below are what it then gives.)
  auto t = Table::adopt(bytes, "t.tbl", Check::kChecksum);
  REQUIRE(t.ok());
  const GoalFrame f = *(*t)->frame(standard_goal<Board>(Shape{2, 5}));
  Rng rng(3);
  int refused = 0;
  for (int i = 0; i < 2000; ++i) {
    const Board b = board_of(Shape{2, 5}, static_cast<std::uint32_t>(rng.below(1814400)), 0);
    const auto sol = (*t)->solver().solve(b, f);
    if (!sol.ok()) {
      CHECK(sol.error().code == ErrorCode::kBadEntry);
      ++refused;
      continue;
    }
    if (sol->solvable) check_path(b, f.goal(), *sol);
  }
  MESSAGE(refused << " of 2000 boards refused");
}
