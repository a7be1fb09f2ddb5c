// Pattern databases for the boards of 14 to 16 cells other than 4x4 (2x7,
// 3x5, 2x8 and their transposes): their ranking, their generation, and the
// grid search over them (grid_search.h), checked against breadth-first
// truth near the goal and against a second method far from it.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "eight/answer.h"
#include "eight/goal.h"
#include "eight/pattern_db.h"
#include "eight/random.h"
#include "grid_search.h"
#include "pdb/generator.h"
#include "pdb/regions.h"
#include "rank/placement.h"
#include "support.h"

namespace eight {
namespace {

constexpr Shape kPatternShapes[] = {{2, 7}, {7, 2}, {3, 5}, {5, 3}, {2, 8}, {8, 2}};

// A board of at most 16 cells as 4 bits a cell, and back.
std::uint64_t pack(const Board& b) {
  std::uint64_t key = 0;
  for (int c = 0; c < b.size(); ++c) {
    key |= std::uint64_t{b.cells[static_cast<std::size_t>(c)]} << (4 * c);
  }
  return key;
}
Board unpack(std::uint64_t key, Shape s) {
  Board b{{}, s};
  for (int c = 0; c < s.cells(); ++c) {
    b.cells[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>((key >> (4 * c)) & 0xF);
  }
  return b;
}

// Calls visit(board, distance) for every board within `depth` moves of
// `goal`, by breadth-first search, layer by layer, and returns how many.
// The graph is bipartite (a move changes the blank's colour), so a board
// next to layer d is in layer d - 1 or d + 1: three sorted layers are all
// it keeps.
template <typename Visit>
std::size_t for_each_near(const Board& goal, int depth, Visit visit) {
  std::vector<std::uint64_t> before;
  std::vector<std::uint64_t> now{pack(goal)};
  std::size_t count = 0;
  for (int d = 0; d <= depth && !now.empty(); ++d) {
    std::vector<std::uint64_t> next;
    for (const std::uint64_t key : now) {
      const Board b = unpack(key, goal.shape);
      visit(b, d);
      ++count;
      if (d == depth) continue;
      for (const Move m : kAllMoves) {
        const auto n = apply_move(b, m);
        if (n) next.push_back(pack(*n));
      }
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    std::vector<std::uint64_t> fresh;
    std::set_difference(next.begin(), next.end(), before.begin(), before.end(),
                        std::back_inserter(fresh));
    before = std::move(now);
    now = std::move(fresh);
  }
  return count;
}

// The pattern databases' own sum for `b` against canonical_goal<Board>(blank):
// Manhattan distance plus twice the entries.
int pattern_sum(std::span<const fifteen::PatternDbView> views, int blank, const Board& b) {
  const int cols = b.shape.cols;
  int h = 0;
  for (int c = 0; c < b.size(); ++c) {
    const int t = b.cells[static_cast<std::size_t>(c)];
    if (t == 0) continue;
    const int home = t - 1 < blank ? t - 1 : t;
    h += std::abs(c / cols - home / cols) + std::abs(c % cols - home % cols);
  }
  for (const fifteen::PatternDbView& v : views) {
    h += v.value(b) - fifteen::group_manhattan(b, v.group(), blank);
  }
  return h;
}

using test::replay;
using test::walk;

}  // namespace

TEST_CASE("placement ranks on 14 and 15 cells are dense and round-trip") {
  for (const int n : {14, 15}) {
    for (const int k : {1, 2, 3}) {
      const std::uint64_t count = detail::placement_count_of(k, n);
      std::vector<bool> hit(count);
      std::uint8_t cells[fifteen::kMaxGroupSize];
      for (std::uint32_t r = 0; r < count; ++r) {
        detail::placement_unrank_of(r, cells, k, n);
        for (int i = 0; i < k; ++i) REQUIRE(cells[i] < n);
        const std::uint32_t back = detail::placement_rank_of(cells, k, n);
        REQUIRE(back == r);
        hit[r] = true;
      }
      CHECK(std::count(hit.begin(), hit.end(), true) == static_cast<std::ptrdiff_t>(count));
      CHECK(fifteen::pattern_db_size(k, n) == (count + 1) / 2);
    }
  }
  CHECK(fifteen::pattern_db_size(1, 15) == 8);  // 15 placements: the last byte half used
}

TEST_CASE(
    "the generator that reads the board's cells at run time writes the same bytes as the "
    "native one") {
  // The WebAssembly module generates with the former alone (core/pdb/generator.h).
  // Groups of 1 to 5 tiles, 6 on 14 cells (larger ones take seconds each),
  // on every pattern shape and 4x4, spread over the board, for two goals.
  const Shape shapes[] = {{2, 7}, {7, 2}, {3, 5}, {5, 3}, {2, 8}, {8, 2}, kShape4x4};
  for (const Shape s : shapes) {
    for (const int goal_blank : {0, s.cells() / 2 + 1}) {
      for (int k = 1; k <= (s.cells() == 14 ? 6 : 5); ++k) {
        fifteen::TileMask group = 0;
        for (int i = 0; i < k; ++i) {
          group |= static_cast<fifteen::TileMask>(1u << (1 + (i * (s.cells() - 1)) / k));
        }
        CAPTURE(to_string(s));
        CAPTURE(goal_blank);
        CAPTURE(k);
        REQUIRE(fifteen::group_size(group) == k);
        const std::vector<std::uint8_t> native = fifteen::generate_pattern_db(s, goal_blank, group);
        REQUIRE(native.size() == fifteen::pattern_db_size(k, s.cells()));
        CHECK(fifteen::generate_pattern_db_cells_at_run_time(s, goal_blank, group) == native);
      }
    }
  }
}

TEST_CASE("every pattern shape's groups of at most 8 tiles leave at most 8 blank regions") {
  for (const Shape s : kPatternShapes) {
    CAPTURE(to_string(s));
    CHECK(fifteen::pdb::regions(s).max_regions() <= 8);
  }
  CHECK(fifteen::pdb::regions(kShape4x4).max_regions() == 8);
}

TEST_CASE(
    "the default sets of the pattern shapes cover every tile once, in groups of the stated sizes") {
  for (const Shape s : kPatternShapes) {
    for (int blank = 0; blank < s.cells(); ++blank) {
      CAPTURE(to_string(s));
      CAPTURE(blank);
      const fifteen::PatternSet set = fifteen::pattern_set(s, blank);
      REQUIRE(fifteen::check_pattern_set(set).ok());
      const auto sizes = fifteen::pattern_group_sizes(s);
      REQUIRE(set.group_count == static_cast<int>(sizes.size()));
      unsigned all = 0;
      for (int g = 0; g < set.group_count; ++g) {
        CHECK(fifteen::group_size(set.groups[g]) == sizes[static_cast<std::size_t>(g)]);
        all |= set.groups[g];
      }
      CHECK(all == (1u << s.cells()) - 2);
    }
  }
  // A set of another shape's tiles, or of a shape without databases, is refused.
  fifteen::PatternSet bad = fifteen::pattern_set(Shape{2, 7}, 0);
  bad.groups[0] = static_cast<fifteen::TileMask>(bad.groups[0] | (1u << 14));
  CHECK(!fifteen::check_pattern_set(bad).ok());
  bad = fifteen::pattern_set(Shape{2, 7}, 0);
  bad.shape = Shape{3, 4};
  CHECK(!fifteen::check_pattern_set(bad).ok());
}

TEST_CASE("a pattern database refuses bytes of the wrong size or a goal entry that is not 0") {
  const Shape s{3, 5};
  const fifteen::PatternSet set = fifteen::pattern_set(s, 14);
  const std::vector<std::uint8_t> bytes = fifteen::generate_pattern_db(s, 14, set.groups[2]);
  CHECK(fifteen::PatternDbView::open(bytes, s, 14, set.groups[2]).ok());
  const std::vector<std::uint8_t> shorter(bytes.begin(), bytes.end() - 1);
  CHECK(fifteen::PatternDbView::open(shorter, s, 14, set.groups[2]).error().code ==
        ErrorCode::kTruncated);
  CHECK(!fifteen::PatternDbView::open(bytes, Shape{3, 4}, 14, set.groups[2]).ok());
  CHECK(!fifteen::PatternDbView::open(bytes, s, 15, set.groups[2]).ok());
  std::vector<std::uint8_t> altered = bytes;
  const std::uint32_t goal_rank =
      fifteen::pattern_rank(canonical_goal<Board>(14, s), set.groups[2]);
  altered[goal_rank / 2] =
      static_cast<std::uint8_t>(altered[goal_rank / 2] | (1u << (4 * (goal_rank % 2))));
  CHECK(fifteen::PatternDbView::open(altered, s, 14, set.groups[2]).error().code ==
        ErrorCode::kBadEntry);
}

TEST_CASE(
    "pattern databases of 2x7, 3x5 and 2x8 are admissible and the search optimal on every board "
    "within 20 moves") {
  // Breadth-first truth from the goal, for a corner and an inner blank.
  for (const Shape s : {Shape{2, 7}, Shape{3, 5}, Shape{2, 8}}) {
    for (const int blank : {0, s.cols + 1}) {
      CAPTURE(to_string(s));
      CAPTURE(blank);
      const Board goal = canonical_goal<Board>(blank, s);
      // Every set the search takes the largest sum of (three on 2x8).
      const auto sets = grid::pattern_databases(s, blank);
      REQUIRE(static_cast<int>(sets.size()) == fifteen::pattern_set_count(s));
      std::vector<std::vector<fifteen::PatternDbView>> views;
      for (const fifteen::PatternSetView& dbs : sets) {
        views.emplace_back(dbs.dbs.begin(), dbs.dbs.begin() + dbs.set.group_count);
      }
      // About 300 boards spread over every depth (every 4,001st), and the
      // first 50 at 20.
      int at_20 = 0;
      std::size_t index = 0;
      int searched = 0;
      const std::size_t count = for_each_near(goal, 20, [&](const Board& b, int d) {
        // Admissible: the databases' sum, and the search's heuristic, never
        // exceed the distance.
        for (const auto& set_views : views) {
          const int h = pattern_sum(set_views, blank, b);
          if (h > d) FAIL_CHECK("inadmissible: " << to_string(b) << " h " << h << " > d " << d);
        }
        // Optimal: the search's path is legal, ends at the goal and has the
        // breadth-first length.
        if (index++ % 4001 == 0 || (d == 20 && at_20++ < 50)) {
          const grid::GridResult r = grid::search(b, goal, {});
          REQUIRE(r.status == fifteen::SearchStatus::kSolved);
          CHECK(r.initial_bound <= d);
          CHECK(static_cast<int>(r.path.size()) == d);
          CHECK(replay(b, r.path) == goal);
          ++searched;
        }
      });
      CHECK(count > 100'000);
      CHECK(searched >= 70);
      MESSAGE(to_string(s) << " blank " << blank << ": " << count << " boards within 20 moves, "
                           << searched << " searched");
    }
  }
}

TEST_CASE(
    "far from the goal, the pattern-database search agrees with the search over linear conflicts "
    "alone") {
  // Boards 40 random moves out (most 20 to 36 moves from the goal): far
  // enough that their databases' entries are not all 0, near enough for
  // Manhattan distance and linear conflicts alone to finish.
  Rng rng(20);
  for (const Shape s : kPatternShapes) {
    const Board goal = canonical_goal<Board>(s.cells() - 1, s);
    for (int i = 0; i < 4; ++i) {
      const Board b = walk(goal, 40, rng);
      CAPTURE(to_string(s));
      CAPTURE(to_string(b));
      const grid::GridResult with = grid::search(b, goal, {});
      const grid::GridResult without = grid::search_with(b, goal, nullptr, {});
      REQUIRE(with.status == fifteen::SearchStatus::kSolved);
      REQUIRE(without.status == fifteen::SearchStatus::kSolved);
      CHECK(with.path.size() == without.path.size());
      CHECK(replay(b, with.path) == goal);
      // The pattern databases' heuristic is the larger at the start.
      CHECK(with.initial_bound >= without.initial_bound);
    }
  }
}

TEST_CASE(
    "uniformly random 2x7 and 3x5 boards: the default set and another partition find paths of one "
    "length") {
  // Far from the goal only the pattern databases finish: a second
  // partition (groups cut along the other side) checks the first.
  Rng rng(7);
  for (const Shape s : {Shape{2, 7}, Shape{3, 5}}) {
    const int blank = 0;
    const Board goal = canonical_goal<Board>(blank, s);
    fifteen::PatternSet other;
    other.shape = s;
    other.goal_blank = blank;
    // Row-major groups of 4: rows first, unlike the default's columns.
    int g = 0, taken = 0;
    for (int c = 1; c < s.cells(); ++c) {
      other.groups[g] = static_cast<fifteen::TileMask>(other.groups[g] | (1u << c));
      if (++taken == 4 && g < 3) {
        ++g;
        taken = 0;
      }
    }
    other.group_count = g + 1;
    REQUIRE(fifteen::check_pattern_set(other).ok());
    const fifteen::PatternDatabases other_dbs =
        fifteen::generate_pattern_set(other, fifteen::PdbOptions{1, {}});
    for (int i = 0; i < 3; ++i) {
      const Board b = shuffled_board(goal, rng);
      CAPTURE(to_string(s));
      CAPTURE(to_string(b));
      const grid::GridResult a = grid::search(b, goal, {});
      const fifteen::PatternSetView other_view = other_dbs.view();
      const grid::GridResult c = grid::search_with(b, goal, &other_view, {});
      REQUIRE(a.status == fifteen::SearchStatus::kSolved);
      REQUIRE(c.status == fifteen::SearchStatus::kSolved);
      CHECK(a.path.size() == c.path.size());
      CHECK(replay(b, a.path) == goal);
      CHECK(replay(b, c.path) == goal);
    }
  }
}

TEST_CASE(
    "a pattern database's generation stops when its cancel flag is set, and returns nothing") {
  const fifteen::PatternSet set = fifteen::pattern_set(Shape{3, 5}, 0);
  const fifteen::TileMask group = set.group_list().front();
  // Set from the start: nothing is generated.
  std::atomic<bool> cancel{true};
  fifteen::PdbOptions options;
  options.threads = 1;
  options.cancel = &cancel;
  CHECK(fifteen::generate_pattern_db(set.shape, set.goal_blank, group, options).empty());
  CHECK(fifteen::generate_pattern_set(set, options).bytes.empty());
  // Set partway, on one thread and on two: it stops within the layer.
  for (const int threads : {1, 2}) {
    CAPTURE(threads);
    cancel = false;
    fifteen::PdbProgress last;
    int reports_after = 0;
    options.threads = threads;
    options.progress = [&](const fifteen::PdbProgress& p) {
      if (cancel) ++reports_after;
      last = p;
      if (p.depth == 6) cancel = true;
    };
    CHECK(fifteen::generate_pattern_db(set.shape, set.goal_blank, group, options).empty());
    CHECK(last.depth == 6);
    CHECK(last.done < last.total);
    CHECK(reports_after <= 1);
  }
  // Unset, the same bytes as with no flag.
  cancel = false;
  options.progress = {};
  CHECK(fifteen::generate_pattern_db(set.shape, set.goal_blank, group, options) ==
        fifteen::generate_pattern_db(set.shape, set.goal_blank, group, fifteen::PdbOptions{1, {}}));
}

TEST_CASE(
    "a search cancelled while its pattern set is first built is cancelled, keeps nothing, and the "
    "next search builds the set") {
  // 2x7 with the goal's blank on cell 2 (its class's lowest cell): a set no
  // other test here builds, and each test runs in a process of its own.
  const Shape shape{2, 7};
  const Board goal = canonical_goal<Board>(2, shape);
  Rng rng(7);
  const Board b = walk(goal, 60, rng);
  std::atomic<bool> cancel{true};
  CHECK(grid::pattern_databases(shape, 2, &cancel).empty());
  fifteen::SearchBudget budget;
  budget.cancel = &cancel;
  const grid::GridResult stopped = grid::search(b, goal, budget);
  CHECK(stopped.status == fifteen::SearchStatus::kCancelled);
  CHECK(stopped.nodes == 0);
  CHECK(stopped.lower_bound() == grid::manhattan_linear_conflict(b, goal));
  // The other class is still told at once.
  Board other = b;
  std::swap(other.cells[0], other.cells[1]);
  if (other.cells[0] == 0 || other.cells[1] == 0) std::swap(other.cells[2], other.cells[3]);
  CHECK(grid::search(other, goal, budget).status == fifteen::SearchStatus::kUnsolvable);
  // Not cancelled: built, kept, and the search is the pattern search's.
  cancel = false;
  const fifteen::PatternSetView* dbs = grid::pattern_databases(shape, 2, &cancel).data();
  REQUIRE(dbs != nullptr);
  for (int g = 0; g < dbs->set.group_count; ++g) {
    CHECK(dbs->dbs[static_cast<std::size_t>(g)].group() ==
          dbs->set.groups[static_cast<std::size_t>(g)]);
    CHECK(!dbs->dbs[static_cast<std::size_t>(g)].bytes().empty());
  }
  CHECK(grid::pattern_databases(shape, 2).data() == dbs);
  // Kept: a cancelled caller now gets the built set.
  cancel = true;
  CHECK(grid::pattern_databases(shape, 2, &cancel).data() == dbs);
  const grid::GridResult solved = grid::search(b, goal, {});
  REQUIRE(solved.status == fifteen::SearchStatus::kSolved);
  CHECK(replay(b, solved.path) == goal);
  CHECK(solved.initial_bound >= grid::manhattan_linear_conflict(b, goal));
}

namespace {

// 2x7 with the goal's blank on cell 3: a key whose sets no test here builds
// but the one asking (each test runs in a process of its own), small enough
// to build in a test's time; and a board 60 moves from that goal, with its
// Manhattan distance and linear conflicts.
struct UnbuiltKey {
  Shape shape{2, 7};
  Board goal;
  Board board;
  int mlc = 0;
};
UnbuiltKey unbuilt_2x7_key() {
  UnbuiltKey k;
  k.goal = canonical_goal<Board>(3, k.shape);
  REQUIRE(grid::pattern_key(k.goal) == grid::PatternKey{k.shape, 3});
  Rng rng(11);
  k.board = walk(k.goal, 60, rng);
  k.mlc = grid::manhattan_linear_conflict(k.board, k.goal);
  return k;
}

}  // namespace

TEST_CASE(
    "a pattern-shape search on the calling thread builds its databases only for a budget of a "
    "million nodes or more, and uses them once built") {
  // The C API fuzzer's finding (fuzz/corpus/fuzz_c_options/budget-20000-2x8-build):
  // a 2x8 question with a budget of 20,000 nodes spent more than the
  // fuzzer's 10 s building the sets (about 12 s of one core unsanitized).
  // 2x7's unbuilt key, and 2x8's with the goal's blank on cell 3, never
  // built here either.
  const UnbuiltKey k = unbuilt_2x7_key();
  const Shape shape = k.shape;
  const Board& goal = k.goal;
  const Board& b = k.board;
  const int mlc = k.mlc;
  REQUIRE(grid::built_pattern_databases(shape, 3).empty());
  Rng rng(12);
  fifteen::SearchBudget small;
  small.max_nodes = grid::kMinBuildNodes - 1;
  CHECK(grid::search(b, goal, small).initial_bound == mlc);
  CHECK(grid::built_pattern_databases(shape, 3).empty());
  const Board goal8 = canonical_goal<Board>(3, Shape{2, 8});
  REQUIRE(grid::pattern_key(goal8) == grid::PatternKey{Shape{2, 8}, 3});
  small.max_nodes = 20'000;
  const Board b8 = walk(goal8, 60, rng);
  const grid::GridResult r8 = grid::search(b8, goal8, small);
  CHECK(r8.nodes <= 20'000);
  CHECK(r8.initial_bound == grid::manhattan_linear_conflict(b8, goal8));
  CHECK(grid::built_pattern_databases(Shape{2, 8}, 3).empty());
  // A million nodes pay for the build; the sets then serve every budget.
  fifteen::SearchBudget enough;
  enough.max_nodes = grid::kMinBuildNodes;
  const int with = grid::search(b, goal, enough).initial_bound;
  REQUIRE_FALSE(grid::built_pattern_databases(shape, 3).empty());
  CHECK(with > mlc);
  CHECK(grid::search(b, goal, small).initial_bound == with);
}

TEST_CASE(
    "a pattern-shape search that may not wait for its databases starts their build once and "
    "answers meanwhile without them") {
  // Issue 41: the 2x8 sets' first build (4.5 s a goal) was paid by every
  // request, even one with budget=1000.
  const UnbuiltKey k = unbuilt_2x7_key();
  const Shape shape = k.shape;
  const Board& goal = k.goal;
  const Board& b = k.board;
  fifteen::SearchBudget budget;
  budget.max_nodes = 1000;
  budget.build_in_background = true;
  // Many callers at once while the set is missing: none waits for it, each
  // searches over Manhattan distance and linear conflicts within its budget.
  const int mlc = k.mlc;
  std::vector<grid::GridResult> first(4 * 25);
  {
    std::vector<std::jthread> callers;
    for (int t = 0; t < 4; ++t) {
      callers.emplace_back([&, t] {
        for (int i = 0; i < 25; ++i)
          first[static_cast<std::size_t>(t * 25 + i)] = grid::search(b, goal, budget);
      });
    }
  }
  // The caller that started the build searched without the set; the later
  // ones may have had it.
  int without = 0;
  for (const grid::GridResult& r : first) {
    CHECK(r.nodes <= 1000);
    CHECK(r.initial_bound >= mlc);
    if (r.initial_bound == mlc) ++without;
  }
  // Waiting for the set returns the one the background thread builds.
  const fifteen::PatternSetView* dbs = grid::pattern_databases(shape, 3).data();
  REQUIRE(dbs != nullptr);
  CHECK(grid::pattern_databases_or_start(shape, 3).data() == dbs);
  fifteen::SearchBudget none;
  none.max_nodes = 0;
  const int with =
      grid::search_with(b, goal, grid::pattern_databases(shape, 3), none).initial_bound;
  // A board whose databases bound it higher than Manhattan distance and
  // linear conflicts, so the two searches are told apart.
  REQUIRE(with > mlc);
  CHECK(without >= 1);
  CHECK(grid::search(b, goal, budget).initial_bound == with);
  budget.max_nodes = std::uint64_t{1} << 40;
  const grid::GridResult solved = grid::search(b, goal, budget);
  REQUIRE(solved.status == fifteen::SearchStatus::kSolved);
  CHECK(replay(b, solved.path) == goal);
}

TEST_CASE("a transposed or turned pattern-shape question is answered through the kept databases") {
  // 7x2 and 8x2 boards, and goals with the blank anywhere, map onto the
  // databases of 2x7 and 2x8 with the blank on the lowest cell of its class.
  Rng rng(3);
  for (const Shape s : kPatternShapes) {
    for (const int blank : {0, s.cells() - 1, static_cast<int>(s.cols)}) {
      const Board goal = canonical_goal<Board>(blank, s);
      const Board b = walk(goal, 30, rng);
      CAPTURE(to_string(s));
      CAPTURE(blank);
      CAPTURE(to_string(b));
      const grid::GridResult r = grid::search(b, goal, {});
      const grid::GridResult plain = grid::search_with(b, goal, nullptr, {});
      REQUIRE(r.status == fifteen::SearchStatus::kSolved);
      CHECK(r.path.size() == plain.path.size());
      CHECK(replay(b, r.path) == goal);
    }
  }
}

TEST_CASE(
    "the answer of a 14-to-16-cell board says pattern-search and is optimal within the default "
    "budget") {
  const Board goal = canonical_goal<Board>(13, Shape{2, 7});
  Rng rng(11);
  const Board b = shuffled_board(goal, rng);
  const Question q = grid_question(goal);
  fifteen::SearchBudget budget;
  budget.max_nodes = kDefaultSearchNodes;
  const auto a = solve_board(q, b, true, budget);
  REQUIRE(a.ok());
  CHECK(a->solution.quality.method == Method::kPatternSearch);
  CHECK(a->solution.quality.optimal);
  CHECK(a->solution.quality.lower_bound == a->solution.distance);
  CHECK(a->report.status == fifteen::SearchStatus::kSolved);
  CHECK(replay(b, a->solution.path()) == goal);
}

}  // namespace eight
