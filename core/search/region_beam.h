// Shorter paths for boards past 25 cells (6x6 to 10x10, 4x7, 3x9 and the
// like), the bounded answers' default there: the reduction's path
// (reduction_solver.h) up to the first board whose cells outside the last
// region are home, then the beam search (beam_search.h) over that region,
// a board of at most 25 cells of its own: over the 5x5 pattern databases
// with their reflection, as a 5x5 board's answer is, when it is 5x5 with
// the blank's goal in its last cell (the standard goal of every shape from
// 5x6 to 10x10, blank last: one set of databases, the standard 5x5 goal's);
// over Manhattan distance and linear conflicts alone for other goals, which
// would each need a set of their own (12.9 MB and some 15 s of one core to
// build, pdb/pdb5x5.h), and on the other last regions.
//
// The last region: the smallest rectangle holding the blank and every cell
// not yet home, once it fits in 25 cells, grown a line at a time towards the
// board's edges while it still does (5x5 on the squares from 6x6 to 10x10,
// 3x8 on 3x9, 4x6 on 4x7). The reduction peels the outer lines, so its path
// reaches such a board; when the beam's path from there is not shorter than
// the reduction's rest (or the beam finds none within the budget), the
// answer is the reduction's path whole.
//
// Why this and not one beam over the whole board, or a beam a stage of
// lines at a time: measured on seeded 7x7 and 10x10 boards
// (docs/performance.md, issue 39), one beam over Manhattan distance and
// linear conflicts at width 2,000 gave 1.74x and 2.45x the bound in seconds
// (the reduction: 2.28x and 2.47x in tens of milliseconds); a beam placing
// the outer row and column at once stalled on their last tiles (every board
// of the layer equally near, none on the way), and once told to keep the
// blank near the tiles still to place, finished two 7x7 boards in 449 and
// 420 moves at several seconds each: too few boards to choose on, and the
// lead to follow. The last 5x5 region is where the reduction is weakest
// and where the databases make the beam strong.
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
// beam_search() reads them, and on a region whose goal is the standard 5x5
// goal the databases `standard5x5` (a table's set for that goal's class,
// Question::grid_pdb5x5; null: Manhattan distance and linear conflicts
// alone, nothing built). status: kSolved with `path` (and
// `used_beam` when the beam's moves are in it), kCancelled (no path), or
// kUnsolvable (the other class). start_bound: Manhattan distance and linear
// conflicts of the start. REQUIRES: is_valid(start), is_valid(goal),
// start.shape == goal.shape, start.size() > kMaxBeamCells,
// 1 <= width <= kMaxBeamWidth.
struct RegionBeamResult {
  BeamResult beam;
  bool used_beam = false;
};
RegionBeamResult region_beam(const GridBoard& start, const GridBoard& goal, int width,
                             const fifteen::SearchBudget& budget, const Pdb5x5View* standard5x5);

}  // namespace eight::grid
