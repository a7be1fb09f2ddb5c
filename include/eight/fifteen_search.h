// Optimal 15-puzzle solutions by IDA* (Korf, 1985) over the summed
// pattern-database heuristic of pattern_db.h.
//
// The heuristic of a board is MD + 2 * sum of the groups' entries (MD: the
// Manhattan distance of all 15 tiles; tiles in no group count by MD alone).
// Where a symmetry of the square keeps the goal's blank cell (a diagonal
// through it: corners and centre cells), the same sum is also taken on the
// board mirrored in that diagonal with its tiles relabelled to the goal's,
// which has the same goal and the same distance; the larger is used (the
// "reflection" of Korf and Felner). Both sums are updated incrementally as
// the search moves a tile: only the moved tile's group changes, and its rank
// changes by a table-driven amount, with no allocation per node.
//
// The search never undoes the previous move, nor takes a path that a
// shorter one, or one as short and earlier in move order, reaches the same
// board by (Taylor and Korf's duplicate-path rules, up to 12 moves: about a
// quarter fewer nodes, the same answers). It deepens the bound f = g + h by
// two each time (every move changes MD by one, so f keeps its parity).
//
// IdaSearch is that search over one goal's databases (Table::ida_search()
// gives a table's; eight::Solver, solver.h, answers from full and mod-3
// sections instead). Lifetime: an IdaSearch keeps pointers into the PDB
// bytes its views cover; it must not outlive them. Thread safety: solve()
// and the heuristics are const and keep their state on the stack, so one
// IdaSearch serves many threads.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>

#include "eight/pattern_db.h"
#include "eight/result.h"

namespace eight::fifteen {

// When to give up. The cancel flag and the deadline are looked at every
// kSearchCheckInterval nodes, the node limit at every node.
struct SearchBudget {
  std::uint64_t max_nodes = std::numeric_limits<std::uint64_t>::max();
  std::optional<std::chrono::steady_clock::time_point> deadline;
  const std::atomic<bool>* cancel = nullptr;  // stop once it reads true
  // A grid search on a pattern shape whose databases are not built yet
  // (grid_search.h, pattern_databases()): false builds them on the calling
  // thread first (up to seconds) when max_nodes is at least a million
  // (grid::kMinBuildNodes), else searches without them; true starts their
  // build on a thread of its own and searches meanwhile over Manhattan
  // distance and linear conflicts alone, so that no caller with a small
  // budget or a deadline pays for the build (the server's searches).
  bool build_in_background = false;
};
inline constexpr std::uint64_t kSearchCheckInterval = 4096;

enum class SearchStatus : std::uint8_t {
  kSolved,          // `moves` is an optimal path
  kBudgetExceeded,  // node limit reached first
  kCancelled,       // the cancel flag was set
  kUnsolvable,      // the board is in the other class (board_class) from the goal
  // A path was found but is not proven optimal (eight/answer.h's boards
  // past 16 cells, answered by reduction); its report's lower_bound is.
  // IdaSearch never returns it.
  kBounded,
  kDeadlineExceeded,  // the budget's deadline passed first
};

struct SearchResult {
  SearchStatus status = SearchStatus::kUnsolvable;
  // Nodes expanded (a node whose f is within the bound, so its children are
  // generated), over every iteration.
  std::uint64_t nodes = 0;
  int initial_bound = 0;  // the start board's heuristic
  // Solved: the optimal length. Otherwise the bound being searched when the
  // search stopped.
  int bound = 0;
  // The largest bound searched in full without a solution, or -1 if none
  // was. The distance is then at least completed_bound + 2 (parity).
  int completed_bound = -1;
  int length = 0;  // moves filled in below; 0 unless solved
  std::array<Move, kMaxSolutionLength> moves{};

  std::span<const Move> path() const { return {moves.data(), static_cast<std::size_t>(length)}; }
  // A proven lower bound on the distance, whatever the status (for an
  // unsolvable board, 0).
  int lower_bound() const;
};

class IdaSearch {
 public:
  // `dbs[i]` must be the PDB of set.groups[i] for set.goal_blank (as
  // PatternDbView::open checked it); fails (kBadArgument) otherwise, if
  // the set is not sound, or if it is not a 4x4 set.
  static Result<IdaSearch> create(const PatternSet& set, std::span<const PatternDbView> dbs);

  const PatternSet& set() const { return set_; }
  int goal_blank() const { return set_.goal_blank; }
  const Board& goal() const { return goal_; }
  // True when a diagonal of the square runs through the goal's blank cell,
  // so the mirror lookup is used.
  bool has_mirror() const { return mirror_ >= 0; }

  // The summed heuristic of a board (REQUIRES: b.shape == kShape4x4,
  // is_valid(b), for these and mirror() and solve()), on the board itself, on its
  // mirror image (the regular sum when there is no mirror), and their max,
  // computed from scratch: for checking and for callers that want an
  // estimate without a search.
  int regular_heuristic(const Board& b) const;
  int mirrored_heuristic(const Board& b) const;
  int heuristic(const Board& b) const;
  // The board mirrored in the goal's diagonal, tiles relabelled so that the
  // goal maps onto itself. REQUIRES: has_mirror(), b.shape == kShape4x4,
  // is_valid(b).
  Board mirror(const Board& b) const;

  // An optimal path from a valid board to goal(), within the budget.
  SearchResult solve(const Board& start, const SearchBudget& budget = {}) const;

 private:
  friend class SearchRun;
  IdaSearch() = default;

  PatternSet set_;
  Board goal_{};
  int mirror_ = -1;                                 // index into symmetries(), or -1
  std::array<std::uint8_t, kCells> mirror_tile_{};  // tile t -> its label on the mirror
  // Per tile (0, the blank, and tiles in no group use the extra group
  // set_.group_count, whose PDB is one zero byte and whose weights are 0):
  std::array<std::uint8_t, kCells> group_of_{};
  std::array<std::int32_t, kCells> weight_{};  // rank weight: (15 - i)!/(16 - k)! for index i
  // between_[t][u]: how tile u lying strictly between a tile t's old and new
  // cell (in reading order) changes the rank when t moves vertically.
  std::array<std::array<std::int32_t, kCells>, kCells> between_{};
  std::array<std::array<std::uint8_t, kCells>, kCells> distance_{};  // [tile][cell] to home
  std::array<const std::uint8_t*, kMaxGroups + 1> pdb_{};
};

}  // namespace eight::fifteen
