#include "search/region_beam.h"

#include <algorithm>
#include <cassert>

#include "grid_search.h"
#include "search/reduction_solver.h"

namespace eight::grid {
namespace {

// Rows [top, bottom) and columns [left, right).
struct Region {
  int top = 0;
  int bottom = 0;
  int left = 0;
  int right = 0;

  int rows() const { return bottom - top; }
  int cols() const { return right - left; }
};

// The smallest rectangle holding `b`'s blank and every cell of `b` not as
// the goal's, then grown a line at a time on each side in turn while it
// stays within `most` cells: the region the beam takes once every cell
// outside it is home (a larger region leaves the beam more room).
Region unsettled(const GridBoard& b, const GridBoard& goal, int most) {
  const int width = b.shape.cols;
  Region r{b.shape.rows, 0, width, 0};
  for (int c = 0; c < b.size(); ++c) {
    const std::size_t i = static_cast<std::size_t>(c);
    if (b.cells[i] == goal.cells[i] && b.cells[i] != 0) continue;
    r.top = std::min(r.top, c / width);
    r.bottom = std::max(r.bottom, c / width + 1);
    r.left = std::min(r.left, c % width);
    r.right = std::max(r.right, c % width + 1);
  }
  for (bool grew = true; grew;) {
    grew = false;
    const auto grow = [&](int& side, int step, int rows, int cols) {
      if ((r.rows() + rows) * (r.cols() + cols) > most) return;
      side += step;
      grew = true;
    };
    if (r.top > 0) grow(r.top, -1, 1, 0);
    if (r.bottom < b.shape.rows) grow(r.bottom, 1, 1, 0);
    if (r.left > 0) grow(r.left, -1, 0, 1);
    if (r.right < width) grow(r.right, 1, 0, 1);
  }
  return r;
}

// A region the beam can take: at most `most` cells, at least 2 a side.
bool small_enough(const Region& r, int most) {
  return r.rows() * r.cols() <= most && r.rows() >= 2 && r.cols() >= 2;
}

// The region of `b` as a board of its own, its tiles named as the canonical
// goal of the region's blank cell names `goal`'s tiles there.
GridBoard region_board(const GridBoard& b, const GridBoard& goal, const Region& r) {
  const Shape shape{static_cast<std::uint8_t>(r.rows()), static_cast<std::uint8_t>(r.cols())};
  const auto cell_of = [&](int i) {
    return (r.top + i / shape.cols) * goal.shape.cols + r.left + i % shape.cols;
  };
  int blank = 0;
  for (int i = 0; i < shape.cells(); ++i) {
    if (goal.cells[static_cast<std::size_t>(cell_of(i))] == 0) blank = i;
  }
  const GridBoard names = canonical_goal(blank, shape);
  std::array<std::uint8_t, kMaxCells> name{};  // a tile's name in the region
  for (int i = 0; i < shape.cells(); ++i) {
    name[goal.cells[static_cast<std::size_t>(cell_of(i))]] =
        names.cells[static_cast<std::size_t>(i)];
  }
  GridBoard out = names;
  for (int i = 0; i < shape.cells(); ++i) {
    out.cells[static_cast<std::size_t>(i)] = name[b.cells[static_cast<std::size_t>(cell_of(i))]];
  }
  return out;
}

}  // namespace

RegionBeamResult region_beam(const GridBoard& start, const GridBoard& goal, int width,
                             const fifteen::SearchBudget& budget) {
  assert(is_valid(start) && is_valid(goal) && start.shape == goal.shape &&
         start.size() > kSmallBeamCells && width >= 1 && width <= kMaxBeamWidth);
  RegionBeamResult out;
  BeamResult& beam = out.beam;
  if (!same_class(start, goal)) return out;
  beam.start_bound = manhattan_linear_conflict(start, goal);
  beam.status = fifteen::SearchStatus::kSolved;
  beam.path = reduction::solve(start.shape.rows, start.shape.cols, start.used(), goal.used());
  // The first board of the reduction's path with every cell outside a
  // region of at most kMaxBeamCells cells home: `at`, after `prefix` moves.
  GridBoard at = start;
  std::size_t prefix = 0;
  Region region = unsettled(at, goal, kMaxBeamCells);
  while (!small_enough(region, kMaxBeamCells)) {
    if (prefix == beam.path.size()) return out;  // the reduction's path whole
    at = *apply_move(at, beam.path[prefix++]);
    region = unsettled(at, goal, kMaxBeamCells);
  }
  // The whole board (26 to 64 cells) is searched as it is: renamed, its
  // tiles would break the beam's ties otherwise, and its paths change.
  const bool whole = region.rows() == start.shape.rows && region.cols() == start.shape.cols;
  const GridBoard small_goal = whole ? goal : region_board(goal, goal, region);
  const GridBoard small = whole ? at : region_board(at, goal, region);
  // Only a path shorter than the reduction's rest is of use: the beam looks
  // no deeper (on the one 8x8 board in a hundred whose region's beam
  // wanders, 2.9 s and 179 MB rather than 6.8 s and 289 MB at the nodes'
  // cap, then 30 million).
  const int rest = static_cast<int>(beam.path.size() - prefix);
  if (rest < 2) return out;
  const BeamResult r =
      beam_search(small, small_goal, width, budget, {}, std::min(rest - 1, kMaxBeamDepth));
  beam.nodes = r.nodes;
  if (r.status == fifteen::SearchStatus::kCancelled) {
    beam.status = r.status;
    beam.path.clear();
    return out;
  }
  if (r.status != fifteen::SearchStatus::kSolved || prefix + r.path.size() >= beam.path.size()) {
    return out;  // the reduction's path is as short
  }
  // The region's moves are the same moves on the whole board.
  beam.path.resize(prefix);
  beam.path.insert(beam.path.end(), r.path.begin(), r.path.end());
  out.used_beam = true;
  return out;
}

}  // namespace eight::grid
