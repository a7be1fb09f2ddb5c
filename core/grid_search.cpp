#include "grid_search.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <chrono>
#include <exception>
#include <mutex>
#include <optional>
#include <span>
#include <system_error>
#include <thread>

#include "built_in_time.h"
#include "eight/goal.h"
#include "line_conflicts.h"
#include "rank/placement.h"
#include "search/ida.h"

namespace eight::grid {
namespace {

// The pattern databases' part of the heuristic: for each group, the rank of
// its tiles' cells and that rank's entry, kept as tiles move.
struct PatternState {
  static constexpr std::uint8_t kNoGroup = 0xFF;
  int groups = 0;
  int n = 0;  // cells
  std::array<const std::uint8_t*, fifteen::kMaxGroups> pdb{};
  std::array<int, fifteen::kMaxGroups> size{};
  // group_tiles[g][i]: the board's label of the group's i-th tile.
  std::array<std::array<std::uint8_t, fifteen::kMaxGroupSize>, fifteen::kMaxGroups> group_tiles{};
  std::array<std::uint8_t, fifteen::kCells> group_of{};  // by the board's label
  std::array<std::uint8_t, fifteen::kCells> cell_of{};   // where each tile is
  std::array<int, fifteen::kMaxGroups> entry{};
  int sum = 0;

  // `dbs` measures against canonical_goal(blank of goal); `goal` labels
  // the same cells otherwise, so tile u of the board is the canonical tile
  // on u's goal cell.
  PatternState(const fifteen::PatternSetView& dbs, const GridBoard& start, const GridBoard& goal) {
    const fifteen::PatternSet& set = dbs.set;
    n = set.shape.cells();
    groups = set.group_count;
    group_of.fill(kNoGroup);
    for (int g = 0; g < groups; ++g) {
      pdb[static_cast<std::size_t>(g)] = dbs.dbs[static_cast<std::size_t>(g)].bytes().data();
    }
    for (int c = 0; c < n; ++c) {
      cell_of[start.cells[static_cast<std::size_t>(c)]] = static_cast<std::uint8_t>(c);
    }
    // Canonical tiles in increasing order are the group's index order.
    for (int canon = 1; canon < n; ++canon) {
      const int home = canon - 1 < set.goal_blank ? canon - 1 : canon;
      const std::uint8_t tile = goal.cells[static_cast<std::size_t>(home)];
      for (int g = 0; g < groups; ++g) {
        if (((set.groups[static_cast<std::size_t>(g)] >> canon) & 1) == 0) continue;
        group_of[tile] = static_cast<std::uint8_t>(g);
        group_tiles[static_cast<std::size_t>(g)][static_cast<std::size_t>(size[g]++)] = tile;
      }
    }
    for (int g = 0; g < groups; ++g) {
      entry[static_cast<std::size_t>(g)] = lookup(g);
      sum += entry[static_cast<std::size_t>(g)];
    }
  }

  int lookup(int g) const {
    std::uint8_t cells[fifteen::kMaxGroupSize];
    const auto& tiles = group_tiles[static_cast<std::size_t>(g)];
    const int k = size[static_cast<std::size_t>(g)];
    for (int i = 0; i < k; ++i) cells[i] = cell_of[tiles[static_cast<std::size_t>(i)]];
    const std::uint32_t r = detail::placement_rank_of(cells, k, n);
    return (pdb[static_cast<std::size_t>(g)][r >> 1] >> ((r & 1) << 2)) & 0xF;
  }

  // Tile t is now on `cell`.
  void moved(std::uint8_t t, int cell) {
    cell_of[t] = static_cast<std::uint8_t>(cell);
    const int g = group_of[t];
    if (g == kNoGroup) return;
    const int e = lookup(g);
    sum += e - entry[static_cast<std::size_t>(g)];
    entry[static_cast<std::size_t>(g)] = e;
  }
};

// The grid IDA*'s board and budget, searched by the one IDA* driver
// (search/ida.h): Manhattan distance and linear conflicts kept as tiles
// slide (MdLcBoard, line_conflicts.h), with the pattern databases' sum
// when it has them.
class GridDomain {
 public:
  GridDomain(const Geometry& g, const GridBoard& start, const fifteen::SearchBudget& budget,
             std::span<const PatternState> patterns)
      : g_(g), shape_(start.shape), budget_(budget), board_(g, start.cells.data()) {
    assert(patterns.size() <= static_cast<std::size_t>(fifteen::kMaxPatternSets));
    for (const PatternState& p : patterns) patterns_[static_cast<std::size_t>(sets_++)].emplace(p);
  }

  // MD plus twice the largest of the linear conflicts' and each set's
  // extra moves: each is admissible over MD, so their max is.
  int h() const {
    int extra = board_.lc.total;
    for (int i = 0; i < sets_; ++i)
      extra = std::max(extra, patterns_[static_cast<std::size_t>(i)]->sum);
    return board_.md + 2 * extra;
  }
  bool at_goal() const { return board_.md == 0; }  // every tile home
  int blank() const { return board_.blank; }
  int target(Move m) const { return neighbor(shape_, board_.blank, m); }
  void slide(int to) {
    const int from = board_.blank;
    const std::uint8_t t = board_.slide(g_, to);
    for (int i = 0; i < sets_; ++i) patterns_[static_cast<std::size_t>(i)]->moved(t, from);
  }
  // The budget: nodes, then every kSearchCheckInterval nodes the cancel
  // flag and the deadline.
  search::Visit visit() {
    if (nodes_ >= budget_.max_nodes) {
      stop_status_ = fifteen::SearchStatus::kBudgetExceeded;
      return search::Visit::kStop;
    }
    if (++nodes_ % fifteen::kSearchCheckInterval == 0) {
      if (budget_.cancel != nullptr && budget_.cancel->load(std::memory_order_relaxed)) {
        stop_status_ = fifteen::SearchStatus::kCancelled;
        return search::Visit::kStop;
      }
      if (budget_.deadline && std::chrono::steady_clock::now() >= *budget_.deadline) {
        stop_status_ = fifteen::SearchStatus::kDeadlineExceeded;
        return search::Visit::kStop;
      }
    }
    return search::Visit::kExpand;
  }

  // Why the search stopped, once it has.
  fifteen::SearchStatus stop_status() const { return stop_status_; }
  std::uint64_t nodes() const { return nodes_; }

 private:
  const Geometry& g_;
  Shape shape_;
  fifteen::SearchBudget budget_;
  MdLcBoard board_;
  std::array<std::optional<PatternState>, fifteen::kMaxPatternSets> patterns_;
  int sets_ = 0;
  std::uint64_t nodes_ = 0;
  fifteen::SearchStatus stop_status_ = fifteen::SearchStatus::kBudgetExceeded;
};

}  // namespace

int manhattan_linear_conflict(const GridBoard& board, const GridBoard& goal) {
  assert(is_valid(board) && is_valid(goal) && board.shape == goal.shape);
  return manhattan_linear_conflict(Geometry(goal), board.cells.data());
}

int GridResult::lower_bound() const {
  switch (status) {
    case fifteen::SearchStatus::kSolved:
      return static_cast<int>(path.size());
    case fifteen::SearchStatus::kUnsolvable:
      return 0;
    default:
      return std::max(initial_bound, completed_bound + 2);
  }
}

GridResult search_with(const GridBoard& start, const GridBoard& goal,
                       const fifteen::PatternSetView* dbs, const fifteen::SearchBudget& budget,
                       int max_bound) {
  if (dbs == nullptr) {
    return search_with(start, goal, std::span<const fifteen::PatternSetView>(), budget, max_bound);
  }
  return search_with(start, goal, std::span(dbs, 1), budget, max_bound);
}

GridResult search_with(const GridBoard& start, const GridBoard& goal,
                       std::span<const fifteen::PatternSetView> sets,
                       const fifteen::SearchBudget& budget, int max_bound) {
  assert(is_valid(start) && is_valid(goal) && start.shape == goal.shape);
  assert(sets.size() <= static_cast<std::size_t>(fifteen::kMaxPatternSets));
  for ([[maybe_unused]] const fifteen::PatternSetView& dbs : sets) {
    assert(dbs.set.shape == goal.shape && dbs.set.goal_blank == blank_cell(goal));
  }
  GridResult out;
  if (!same_class(start, goal)) return out;
  const Geometry g(goal);
  std::vector<PatternState> patterns;
  patterns.reserve(sets.size());
  for (const fifteen::PatternSetView& dbs : sets) patterns.emplace_back(dbs, start, goal);
  GridDomain domain(g, start, budget, patterns);
  search::Ida<GridDomain> ida(domain);
  out.initial_bound = domain.h();
  int bound = out.initial_bound;
  for (;;) {
    if (bound > max_bound) {
      out.status = fifteen::SearchStatus::kBudgetExceeded;
      break;
    }
    if (ida.iterate(bound)) {
      out.status = fifteen::SearchStatus::kSolved;
      out.path = ida.path();
      break;
    }
    if (ida.stopped()) {
      out.status = domain.stop_status();
      break;
    }
    out.completed_bound = bound;
    bound = ida.next_bound();
  }
  out.nodes = domain.nodes();
  return out;
}

namespace {

// The symmetry that takes a pattern shape's goal to the form whose
// databases are kept: rows <= cols, and the goal's blank on the lowest cell
// its images reach.
const Symmetry& canonical_symmetry(const GridBoard& goal) {
  const int blank = blank_cell(goal);
  const Symmetry* best = nullptr;
  for (const Symmetry& s : symmetries(goal.shape)) {
    if (s.to.rows > s.to.cols) continue;
    if (best == nullptr || s.cell_map[static_cast<std::size_t>(blank)] <
                               best->cell_map[static_cast<std::size_t>(blank)]) {
      best = &s;
    }
  }
  assert(best != nullptr);
  return *best;
}

}  // namespace

PatternKey pattern_key(const GridBoard& goal) {
  assert(is_valid(goal) && fifteen::is_pattern_shape(goal.shape));
  const Symmetry& sym = canonical_symmetry(goal);
  return {sym.to, sym.cell_map[static_cast<std::size_t>(blank_cell(goal))]};
}

bool is_pattern_key(Shape shape, int goal_blank) {
  if (!fifteen::is_pattern_shape(shape) || goal_blank < 0 || goal_blank >= shape.cells()) {
    return false;
  }
  return pattern_key(canonical_goal(goal_blank, shape)) == PatternKey{shape, goal_blank};
}

namespace {

struct Slot {
  std::mutex build;  // held by the thread building the sets
  // The sets built, once they all are (0 until then): views[0..built).
  std::atomic<int> built{0};
  std::atomic<bool> starting{false};  // a background build was started
  std::array<fifteen::PatternDatabases, fifteen::kMaxPatternSets> owned;  // guarded by `build`
  std::array<fifteen::PatternSetView, fifteen::kMaxPatternSets> views;  // over `owned`, once built

  std::span<const fifteen::PatternSetView> sets() const {
    return {views.data(), static_cast<std::size_t>(built.load(std::memory_order_acquire))};
  }
};

// One slot per (shape, goal blank); each is built by the first thread to
// ask that is not cancelled, while any other asking for it waits. Never
// freed. On the heap, made at the first call: a static array of them is
// constant-initialized, and the views' default shapes are not zero, so
// its 397 KB were every binary's initialized data (and the WebAssembly
// module's, js/).
Slot& slot_of(Shape shape, int goal_blank) {
  static auto& slots = *new std::array<Slot, kMaxSide * kMaxSide * 16>();
  return slots[static_cast<std::size_t>(((shape.rows - 1) * kMaxSide + shape.cols - 1) * 16 +
                                        goal_blank)];
}

}  // namespace

std::span<const fifteen::PatternSetView> pattern_databases_or_start(Shape shape, int goal_blank) {
  assert(fifteen::is_pattern_shape(shape) && goal_blank >= 0 && goal_blank < shape.cells());
  Slot& slot = slot_of(shape, goal_blank);
  if (const auto sets = slot.sets(); !sets.empty()) return sets;
  if (!slot.starting.exchange(true)) {
    try {
      // Detached: the slot lives as long as the process, and nothing waits
      // for the thread but callers of pattern_databases(), through the
      // slot's mutex.
      std::thread([shape, goal_blank, &slot] {
        try {
          if (!pattern_databases(shape, goal_blank).empty()) return;
        } catch (const std::exception&) {
          // Out of memory: nothing kept; a later caller tries again.
        }
        slot.starting.store(false);
      }).detach();
    } catch (const std::system_error&) {
      slot.starting.store(false);  // no thread to be had: a later caller tries again
    }
    return {};  // (the caller that starts the build never waits for it)
  }
  return slot.sets();
}

std::span<const fifteen::PatternSetView> built_pattern_databases(Shape shape, int goal_blank) {
  assert(fifteen::is_pattern_shape(shape) && goal_blank >= 0 && goal_blank < shape.cells());
  return slot_of(shape, goal_blank).sets();
}

std::span<const fifteen::PatternSetView> pattern_databases(Shape shape, int goal_blank,
                                                           const std::atomic<bool>* cancel) {
  assert(fifteen::is_pattern_shape(shape) && goal_blank >= 0 && goal_blank < shape.cells());
  Slot& slot = slot_of(shape, goal_blank);
  if (const auto sets = slot.sets(); !sets.empty()) return sets;
  std::lock_guard lock(slot.build);
  if (const auto sets = slot.sets(); !sets.empty()) return sets;
  fifteen::PdbOptions options;
  options.threads = 1;  // the caller's thread only: it is a compute-pool thread
  options.cancel = cancel;
  const int count = fifteen::pattern_set_count(shape);
  for (int p = 0; p < count; ++p) {
    fifteen::PatternDatabases dbs =
        fifteen::generate_pattern_set(fifteen::pattern_set(shape, goal_blank, p), options);
    if (dbs.bytes.empty()) {  // cancelled: nothing kept
      for (int q = 0; q < p; ++q) slot.owned[static_cast<std::size_t>(q)] = {};
      return {};
    }
    slot.owned[static_cast<std::size_t>(p)] = std::move(dbs);
  }
  for (int p = 0; p < count; ++p) {
    slot.views[static_cast<std::size_t>(p)] = slot.owned[static_cast<std::size_t>(p)].view();
  }
  slot.built.store(count, std::memory_order_release);
  return slot.sets();
}

GridResult search(const GridBoard& start, const GridBoard& goal,
                  const fifteen::SearchBudget& budget, int max_bound,
                  std::span<const fifteen::PatternSetView> held) {
  assert(is_valid(start) && is_valid(goal) && start.shape == goal.shape);
  // A board of the other class needs no database to be told apart: none is
  // fetched or built for it.
  if (!same_class(start, goal)) return GridResult{};
  if (!fifteen::is_pattern_shape(goal.shape)) {
    assert(held.empty());
    return search_with(start, goal, std::span<const fifteen::PatternSetView>(), budget, max_bound);
  }
  // The question seen through the symmetry whose databases are kept; the
  // path maps back move by move.
  const Symmetry& sym = canonical_symmetry(goal);
  const GridBoard s = transform(start, sym);
  const GridBoard g = transform(goal, sym);
  assert(held.size() <= static_cast<std::size_t>(fifteen::kMaxPatternSets));
  for ([[maybe_unused]] const fifteen::PatternSetView& h : held) {
    assert(h.set.shape == g.shape && h.set.goal_blank == blank_cell(g));
  }
  std::span<const fifteen::PatternSetView> dbs = held;
  if (dbs.empty() && budget.build_in_background) {
    // Waited for up to half the time to the deadline (built_in_time.h).
    const Shape shape = g.shape;
    const int blank = blank_cell(g);
    const fifteen::PatternSetView* first = built_within_half_the_time(
        [shape, blank] {
          const auto sets = pattern_databases_or_start(shape, blank);
          return sets.empty() ? nullptr : sets.data();
        },
        budget);
    if (first != nullptr) dbs = pattern_databases_or_start(shape, blank);
  } else if (dbs.empty() && budget.max_nodes < kMinBuildNodes) {
    // Too small a budget to pay for a build: the sets if some caller built
    // them, else Manhattan distance and linear conflicts alone.
    dbs = built_pattern_databases(g.shape, blank_cell(g));
  } else if (dbs.empty()) {
    dbs = pattern_databases(g.shape, blank_cell(g), budget.cancel);
    if (dbs.empty()) {  // cancelled while the sets were built
      GridResult out;
      out.status = fifteen::SearchStatus::kCancelled;
      out.initial_bound = manhattan_linear_conflict(start, goal);
      return out;
    }
  }
  GridResult out = search_with(s, g, dbs, budget, max_bound);
  for (Move& m : out.path) m = sym.inverse_move_map[static_cast<std::size_t>(m)];
  return out;
}

}  // namespace eight::grid
