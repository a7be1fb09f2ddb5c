#include "search/reduction_solver.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "search/last_region.h"
#include "search/reduction_plan.h"
#include "search/reduction_state.h"
#include "search/window_shortener.h"

namespace eight::reduction {
namespace {

// For the asserts (hence maybe_unused: unused under NDEBUG): start and goal
// are boards of the shape, and start can reach goal (board.h's
// same_class()).
[[maybe_unused]] bool can_reach(int rows, int cols, std::span<const std::uint8_t> start,
                                std::span<const std::uint8_t> goal) {
  GridBoard a, b;
  a.shape = b.shape = Shape{static_cast<std::uint8_t>(rows), static_cast<std::uint8_t>(cols)};
  std::copy(start.begin(), start.end(), a.cells.begin());
  std::copy(goal.begin(), goal.end(), b.cells.begin());
  return is_valid(a) && is_valid(b) && same_class(a, b);
}

// start renamed by goal (State). REQUIRES: as solve().
State rename(int rows, int cols, std::span<const std::uint8_t> start,
             std::span<const std::uint8_t> goal) {
  assert(rows >= kMinSide && rows <= kMaxSide && cols >= kMinSide && cols <= kMaxSide);
  const std::size_t n = static_cast<std::size_t>(rows * cols);
  assert(start.size() == n && goal.size() == n);
  assert(can_reach(rows, cols, start, goal));
  std::array<std::uint8_t, kMaxCells> home{};
  for (std::size_t c = 0; c < n; ++c) home[goal[c]] = static_cast<std::uint8_t>(c);
  State s;
  for (std::size_t c = 0; c < n; ++c) {
    s.at[c] = home[start[c]];
    s.where[s.at[c]] = static_cast<std::uint8_t>(c);
  }
  s.blank_tile = home[0];
  return s;
}

// ---------------------------------------------------------------------------
// The plan's first move and its measure, shared by first_move() and progress().

struct Standing {
  std::size_t units_left = 0;
  int rank = 0;
  std::vector<Move> path;  // the current phase's, or the last region's
};

Standing standing(const Geometry& g, const Plan& plan, const State& s) {
  const std::size_t k = units_in_place(plan, s);
  Standing out;
  out.units_left = plan.units.size() - k;
  if (k < plan.units.size()) {
    Step step = plan_unit(g, s, region_of(g, plan, k), weights_of(g, plan, k),
                          key_tiles_of(plan, k), plan.units[k]);
    out.rank = step.rank;
    out.path = std::move(step.path);
  } else {
    out.path = solve_last_region(g, s, plan.last);
  }
  return out;
}

// The plan's path from `s`, not improved: each unit placed in turn, then
// the last region solved.
std::vector<Move> plan_path(const Geometry& g, State s) {
  const Plan plan = make_plan(g, s.blank_tile);
  std::vector<Move> path;
  Mask region{};
  std::fill(region.begin(), region.begin() + g.cells, std::uint8_t{1});
  for (std::size_t k = 0; k < plan.units.size(); ++k) {
    const Unit& u = plan.units[k];
    const Mask weight = weights_of(g, plan, k);
    const KeyTiles keys = key_tiles_of(plan, k);
    // A unit has at most four phases, each ended by its path, and a fallback.
    for (int round = 0; round < 8 && !in_place(s, u); ++round) {
      const Step step = plan_unit(g, s, region, weight, keys, u);
      for (const Move m : step.path) s.apply(g, m);
      path.insert(path.end(), step.path.begin(), step.path.end());
    }
    assert(in_place(s, u));
    region[u.a] = 0;
    if (u.b >= 0) region[u.b] = 0;
  }
  const std::vector<Move> last = solve_last_region(g, s, plan.last);
  path.insert(path.end(), last.begin(), last.end());
  return path;
}

// A symmetry of the rectangle: its rows reversed, its columns reversed, then
// transposed (a square's only). The plan is not symmetric (which side it
// peels, which end of a line it starts from), so the same board seen turned
// gets another path, sometimes shorter.
struct Orientation {
  bool flip_rows = false;
  bool flip_cols = false;
  bool transpose = false;

  // The cell of the turned board (shape `g`'s turned) that cell c goes to.
  int cell(const Geometry& g, int c) const {
    int r = g.row(c), k = g.col(c);
    if (flip_rows) r = g.rows - 1 - r;
    if (flip_cols) k = g.cols - 1 - k;
    return transpose ? k * g.rows + r : r * g.cols + k;
  }
  // The move on the board that a move `m` of the turned board is.
  Move back(Move m) const {
    int dr = kMoveRowDelta[static_cast<int>(m)], dc = kMoveColDelta[static_cast<int>(m)];
    if (transpose) std::swap(dr, dc);
    if (flip_rows) dr = -dr;
    if (flip_cols) dc = -dc;
    return dr < 0 ? Move::kUp : dr > 0 ? Move::kDown : dc < 0 ? Move::kLeft : Move::kRight;
  }
};
// The other orientation solve() tries: a square's transpose (rows placed
// where the identity places columns), else the board turned half a turn.
// Measured on 100 random 10x10 boards (length/(MD+LC), ms a board): 2.613 and
// 19.9 with the identity alone, 2.564 and 23.9 with its transpose too, 2.58
// with the half turn instead, 2.55 and 27 to 29 with a third orientation
// (any), 2.524 and 58 with all eight: a second one is most of the gain.
constexpr Orientation kTransposed{false, false, true};
constexpr Orientation kHalfTurn{true, true, false};

// `s` on the board turned by `o` (whose geometry the caller makes). A tile
// is named by its goal cell (State), so the names turn too.
State orient(const Geometry& g, const State& s, const Orientation& o) {
  State t;
  for (int c = 0; c < g.cells; ++c) {
    const int to = o.cell(g, c);
    const auto tile = static_cast<std::uint8_t>(o.cell(g, s.at[c]));
    t.at[to] = tile;
    t.where[tile] = static_cast<std::uint8_t>(to);
  }
  t.blank_tile = o.cell(g, s.blank_tile);
  return t;
}

}  // namespace

std::vector<Move> solve(int rows, int cols, std::span<const std::uint8_t> start,
                        std::span<const std::uint8_t> goal) {
  const Geometry g(rows, cols);
  const State s = rename(rows, cols, start, goal);
  std::vector<Move> path = plan_path(g, s);
  cancel_inverse_pairs(path);
  if (path.empty()) return path;
  // The first move is the plan's (first_move()): the hint, which must be
  // this plan's for progress() to fall along hints. After it, the plan of
  // another orientation of the board is tried too, and the shorter kept.
  State after = s;
  after.apply(g, path[0]);
  const Orientation& o = rows == cols ? kTransposed : kHalfTurn;
  const Geometry turned(o.transpose ? cols : rows, o.transpose ? rows : cols);
  std::vector<Move> other = plan_path(turned, orient(g, after, o));
  for (Move& m : other) m = o.back(m);
  other.insert(other.begin(), path[0]);
  cancel_inverse_pairs(other);
  if (other.size() < path.size()) path = std::move(other);
  shorten_windows(g, s, path, kWindow);
  cancel_inverse_pairs(path);
  return path;
}

std::optional<Move> first_move(int rows, int cols, std::span<const std::uint8_t> start,
                               std::span<const std::uint8_t> goal) {
  const Geometry g(rows, cols);
  const State s = rename(rows, cols, start, goal);
  const Standing now = standing(g, make_plan(g, s.blank_tile), s);
  if (now.path.empty()) return std::nullopt;
  return now.path.front();
}

// The measure, packed as (units left) << 40 | rank << 32 | distance, where the
// units left count from the first unit not in place, rank is its phase
// (plan_pair(); 0 for one tile) and distance its path's length in that
// phase's model, or with no unit left, the last region's exact distance.
//
// Why first_move() decreases it strictly. Let k be the first unit not in
// place. The move is the first of a shortest path in the phase's restricted
// model, whose moves are the real board's and keep the blank in the unit's
// region: the cells of units 0..k-1 are never entered, so those units stay in
// place and the new first unit not in place is k or later. If later, the
// first field drops. If k, the unit's phase is the same or a later one, of a
// lower rank (plan_pair()'s comment), and in the same phase (same walls) the
// rest of the path is a path of the same model one move shorter, so the
// shortest one is too: the distance drops by one. With no unit left the move
// starts an optimal path of the last region, whose exact distance drops by
// one. The one gap: plan_pair()'s fallback (rank 4) would be a later rank if
// a phase ever failed; none does on any board of the tests (it asserts there). The
// fields never overflow: units <= 100, rank <= 4, distances < 100^3.
std::uint64_t progress(int rows, int cols, std::span<const std::uint8_t> start,
                       std::span<const std::uint8_t> goal) {
  const Geometry g(rows, cols);
  const State s = rename(rows, cols, start, goal);
  const Standing now = standing(g, make_plan(g, s.blank_tile), s);
  return (static_cast<std::uint64_t>(now.units_left) << 40) |
         (static_cast<std::uint64_t>(now.rank) << 32) | now.path.size();
}

}  // namespace eight::reduction
