// Shorter paths for boards past kSmallBeamCells (25) cells, the bounded
// answers' default there: the reduction's path (reduction_solver.h) up to
// the first board whose cells outside the last region are home, then the
// beam search (beam_search.h) over that region, a board of at most
// kMaxBeamCells (64) cells of its own, over Manhattan distance and linear
// conflicts.
//
// The last region: the smallest rectangle holding the blank and every cell
// not yet home, once it fits in 64 cells, grown a line at a time towards the
// board's edges while it still does (8x8 on 9x9 and 10x10; the whole
// board, from its start, on boards of 26 to 64 cells: 6x6, 7x7, 8x8, 6x9,
// 4x9 ...). The reduction peels the outer lines, so its path
// reaches such a board; when the beam's path from there is not shorter than
// the reduction's rest (or the beam finds none within the budget), the
// answer is the reduction's path whole. The reduction's path is always
// computed first (tens of milliseconds): it bounds the beam's depth, and it
// is the answer the beam must beat.
//
// Why a region of up to 64 cells over Manhattan distance and not a 5x5 one
// over the 5x5 pattern databases (as before): measured on seeded boards
// (docs/performance.md, issue 39), one beam over a whole 7x7 board at width
// 8,000 gives paths 22% shorter than the reduction to its last 5x5 region
// and the databases' beam there (356.7 moves against 458.8 on 20 boards),
// and on 8x8 and 10x10 the last 7x7 region's beam does better than the last
// 5x5 one's too: the reduction is weakest on the rows and columns it places
// one tile at a time, and a larger region leaves fewer of them to it (an
// 8x8 region rather than 7x7: 8x8 boards 6%, 9x9 6% and 10x10 1% shorter,
// 20 seeded boards each). One beam over a whole 10x10 board does worse
// than the reduction (most children tie on the heuristic, and the beam
// cannot tell which lead on); a
// beam a stage of lines at a time is the lead still to follow (its first
// stage stalled on its last tiles until told to keep the blank near them).
//
// Thread safety: pure functions; the state lives in the call.
#pragma once

#include "beam_search.h"
#include "eight/board.h"
#include "eight/fifteen_search.h"

namespace eight::grid {

// The reduction's path from `start` to `goal`, with its moves after the
// first board whose cells not home fit the last region replaced by the
// beam's path over that region when the beam's is shorter. The beam: width
// `width`, budget.max_nodes at most, the cancel flag and the deadline as
// beam_search() reads them. status: kSolved with `path` (and
// `used_beam` when the beam's moves are in it), kCancelled (no path), or
// kUnsolvable (the other class). start_bound: Manhattan distance and linear
// conflicts of the start. REQUIRES: is_valid(start), is_valid(goal),
// start.shape == goal.shape, start.size() > kSmallBeamCells,
// 1 <= width <= kMaxBeamWidth.
struct RegionBeamResult {
  BeamResult beam;
  bool used_beam = false;
};
RegionBeamResult region_beam(const GridBoard& start, const GridBoard& goal, int width,
                             const fifteen::SearchBudget& budget);

}  // namespace eight::grid
