// The reduction's path shortened (reduction_solver.h): moves that undo each
// other dropped, and windows of the path replaced by shorter paths between
// their ends, found by the IDA* driver (ida.h) over the Manhattan distance
// towards the window's far end. Private to the core.
//
// Thread safety: pure functions.
#pragma once

#include <vector>

#include "search/reduction_state.h"

namespace eight::reduction {

// The window solve() re-solves. Measured on 100 random 10x10
// boards: the mean length/(MD+LC) 2.75 with no window, 2.73 with 16 moves,
// 2.71 with 20 (10 ms a board), 2.68 with 24 (18 ms), 2.65 with 32 (70 ms).
// With the choice among shortest paths as it is now: 2.62 with 20 (10.6 ms,
// at most 18), 2.60 with 24 (17.6 ms, at most 26): the 50 ms a board allowed
// goes to the length, which is further from its aim. Since the window search
// skips duplicate paths (duplicate_paths.h), 1,000 boards: 2.550 with 26
// (19.2 ms, at most 33.8), 2.541 with 28 (25.5 ms, at most 43.1); 100
// boards: 2.537 with 32 (49 ms, at most 69). 26 leaves the slowest answer
// a third under the 50 ms floor; 28 would leave it 14%, less than this
// machine drifts between runs. (Later this machine ran about twice as slow,
// and the searches were made cheaper without changing a path: 1,000 boards
// at 33.4 ms, at most 41.8, in a quiet run; docs/performance.md.)
inline constexpr int kWindow = 26;

// Cancels each move followed by its opposite, repeatedly (a stack does it in
// one pass), keeping the first move.
void cancel_inverse_pairs(std::vector<Move>& path);

// Replaces each window of `window` moves of the path, after its first move,
// by a shorter path between the same two boards when a search finds one
// within a budget of nodes (some ten microseconds a window at most). `s` is
// the board the path starts from. The window's two ends slide along the
// path a move at a time, and the Manhattan distance between them with them:
// a slide changes it by the two tiles that move, so no window replays its
// moves or sums its hundred cells (the three were a fifth of a 10x10
// answer's time). On 10x10 three windows in four pass the distance filter
// and one in sixty is shortened, by two moves on average: the searches are
// most of the time it adds.
// REQUIRES: path's moves are legal from s.
void shorten_windows(const Geometry& g, State s, std::vector<Move>& path, int window);

}  // namespace eight::reduction
