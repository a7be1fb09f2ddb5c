// Optimal paths for boards of any shape (up to kMaxCells cells) by IDA*
// (Korf, 1985) over Manhattan distance plus linear conflicts (Hansson,
// Mayer and Yung, 1992), and on the shapes of 14 to 16 cells other than 4x4
// (2x7, 3x5, 2x8 and their transposes) also over additive pattern databases
// (pattern_db.h): the search for the shapes with no table, within a budget
// of nodes.
//
// The heuristic of a board is MD + 2 * sum over lines of (k - LIS): for each
// row, the tiles that are in it and belong in it (k of them) must, for all
// but a longest subsequence already in their goal order (LIS), leave the
// row and come back, two moves more each; the same for columns. Rows and
// columns count separately (a tile leaves a row by a vertical move and a
// column by a horizontal one), so the sum is admissible; it is also
// consistent (a move changes it by at most one line's removals, each one
// step of MD), which the tests check on small boards against breadth-first
// distances.
//
// The search never undoes its previous move and deepens the bound by two
// (every move changes MD by one, so f keeps its parity). A move changes one
// tile's MD by one and the conflicts of the two lines it crosses, which are
// recomputed (at most 10 tiles each): no allocation per node.
//
// Thread safety: pure functions; the state lives on the caller's stack.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "eight/board.h"
#include "eight/fifteen_search.h"
#include "eight/pattern_db.h"

namespace eight::grid {

// The searches' default max_bound: far past any bound a search reaches
// within a budget of nodes, so the budget is what stops it.
inline constexpr int kDefaultMaxBound = 1000;

// Manhattan distance plus linear conflicts of `board` towards `goal`: a
// lower bound on the distance. REQUIRES: is_valid(board), is_valid(goal),
// board.shape == goal.shape.
int manhattan_linear_conflict(const GridBoard& board, const GridBoard& goal);

struct GridResult {
  fifteen::SearchStatus status = fifteen::SearchStatus::kUnsolvable;
  std::uint64_t nodes = 0;  // expanded, over every iteration
  int initial_bound = 0;    // manhattan_linear_conflict(start, goal)
  // The largest bound searched in full without a solution, or -1.
  int completed_bound = -1;
  std::vector<Move> path;  // an optimal path when kSolved

  // A proven lower bound on the distance (the distance when solved; 0 for
  // the other class).
  int lower_bound() const;
};

// The form whose pattern databases a pattern shape's goal is searched
// with (fifteen::is_pattern_shape: 14 to 16 cells): the goal seen through
// the symmetry that makes rows <= cols and puts its blank on the lowest
// cell its images reach. Two goals with one key share one set: 4 keys each
// for 2x7 and 2x8 (blank cells 0 to 3), 6 for 3x5 (0, 1, 2, 5, 6, 7).
struct PatternKey {
  Shape shape;
  int goal_blank = 0;
  friend constexpr bool operator==(const PatternKey&, const PatternKey&) = default;
};
// REQUIRES: is_valid(goal), fifteen::is_pattern_shape(goal.shape).
PatternKey pattern_key(const GridBoard& goal);
// True when (shape, goal_blank) is some goal's key: the sets a table may
// hold for search() (core/table checks its sections with it).
bool is_pattern_key(Shape shape, int goal_blank);

// The pattern databases search() builds for a key it is given no sets for:
// fifteen::pattern_set(shape, goal_blank, p)'s for each of the shape's
// fifteen::pattern_set_count() partitions p, generated on the calling
// thread the first time they are asked for (milliseconds to a few seconds
// each; tests/grid_pdb_test.cpp and docs/performance.md have the figures)
// and kept for the life of the process: at most 20 sets (4 keys of 2x7, 6
// of 3x5, 4 of 2x8 with 3 sets each).
//
// Empty when `cancel` (may be null) read true before the sets were built:
// the build stops within a millisecond of work and keeps nothing, so a
// request whose client left frees its compute thread, and the next caller
// builds them again. (No deadline: a set slower to build than a caller's
// deadline would never be built; the build is bounded by its size, seconds
// at most. A caller that may not wait asks pattern_databases_or_start()
// instead.)
//
// Thread-safe: a second caller for the same key waits for the first's
// build (and builds it itself if the first was cancelled). The sets live
// as long as the process.
// REQUIRES: fifteen::is_pattern_shape(shape), 0 <= goal_blank < cells.
std::span<const fifteen::PatternSetView> pattern_databases(
    Shape shape, int goal_blank, const std::atomic<bool>* cancel = nullptr);
// The same sets when some caller has built them, else empty; never builds.
// Thread-safe. REQUIRES: as pattern_databases().
std::span<const fifteen::PatternSetView> built_pattern_databases(Shape shape, int goal_blank);
// The smallest budget for which search() builds, on the calling thread, the
// sets of a pattern shape it is given none for and that are not built yet
// (fifteen::SearchBudget::build_in_background false): 2x8's take about 12 s
// of one core (seconds more under sanitizers), against a budget under a
// million nodes, well under a second of search. A search with less is made
// over Manhattan distance and linear conflicts alone, and the next one with
// enough builds them. (The attempts of eight/answer.h have 5 and 25
// million; the C API fuzzer, which keeps budgets to 20,000 nodes, found a
// 2x8 question spending more than its 10 s timeout building them.)
inline constexpr std::uint64_t kMinBuildNodes = 1'000'000;
// The same sets when they are built; else empty at once, having started
// their build on a thread of its own (once: a build already under way, on
// any thread, is left to finish), which keeps them as pattern_databases()
// does. For callers with a deadline (fifteen::SearchBudget::build_in_background):
// the 2x8 sets take seconds each, and a request with a budget of a
// thousand nodes must not pay for them; it is answered from what exists
// meanwhile. The build thread inherits the caller's priority (a compute
// thread's nice 19) and cannot be cancelled; it ends with the build.
// REQUIRES: as pattern_databases().
std::span<const fifteen::PatternSetView> pattern_databases_or_start(Shape shape, int goal_blank);

// The search over a given heuristic: Manhattan distance and linear
// conflicts, and when `dbs` is not null the larger of that and the sum of
// its pattern databases. REQUIRES: as search(); dbs null or of goal's shape
// and blank cell (dbs->set.shape == goal.shape, dbs->set.goal_blank ==
// blank_cell(goal)).
GridResult search_with(const GridBoard& start, const GridBoard& goal,
                       const fifteen::PatternSetView* dbs, const fifteen::SearchBudget& budget,
                       int max_bound = kDefaultMaxBound);
// The same over the largest of several sets' sums (each admissible, so
// their max is): at most fifteen::kMaxPatternSets, each of goal's shape
// and blank cell.
GridResult search_with(const GridBoard& start, const GridBoard& goal,
                       std::span<const fifteen::PatternSetView> sets,
                       const fifteen::SearchBudget& budget, int max_bound = kDefaultMaxBound);

// An optimal path from `start` to `goal`, within the budget (nodes, deadline,
// cancel flag, as fifteen::SearchBudget says). The bound never grows past
// `max_bound`: a board farther than that is kBudgetExceeded. On a pattern
// shape the heuristic is also the pattern databases' of pattern_key(goal)
// (the path is mapped back through its symmetry), the largest of its
// sets' sums: `held` when not empty (a table's sections; they must outlive
// the call), else pattern_databases()'s.
// Elsewhere Manhattan distance and linear conflicts alone. A board of the
// other class is kUnsolvable at once: no set is fetched or built for it. A
// cancel while the sets are first built is kCancelled, its lower bound
// Manhattan distance and linear conflicts. With budget.build_in_background
// sets not built yet are asked of pattern_databases_or_start() and waited
// for, up to half the time to budget.deadline (none: not at all) or the
// cancel flag, so that a board's answer is the built sets' from the first
// question on; sets still building then are left to finish, and the search
// runs without them (Manhattan distance and linear conflicts alone).
// REQUIRES: is_valid(start), is_valid(goal), start.shape == goal.shape;
// held empty, or at most fifteen::kMaxPatternSets sets of pattern_key(goal)
// (each set.shape and goal_blank).
GridResult search(const GridBoard& start, const GridBoard& goal,
                  const fifteen::SearchBudget& budget, int max_bound = kDefaultMaxBound,
                  std::span<const fifteen::PatternSetView> held = {});

}  // namespace eight::grid
