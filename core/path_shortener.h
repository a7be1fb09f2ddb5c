// The beam search's 5x5 paths (beam_search.h) made shorter after it, within
// a budget of nodes (the endgame): the path's last r moves, for r = 20, 24,
// 28 and on, searched for a shorter path to the goal by the one IDA* driver
// (search/ida.h) over the beam's own heuristic (the 5-5-5-5-4 pattern
// databases with their reflection, beam_node.h), and replaced by it when
// one is found.
//
// Why the end of the path. A beam's path goes wrong where its heuristic is
// weakest, far from the goal; near the goal the databases are nearly exact,
// so an IDA* proves the last 40 to 60 moves of a path within a few hundred
// thousand nodes, and finds the shorter ones the beam missed there. On Korf
// and Felner's 50 (width 4,000): 24 moves taken off at 100,000 nodes a
// board, 28 at 300,000, 36 at 1,000,000. Windows in the middle of the path
// re-solved over Manhattan distance between their ends (the reduction's
// window shortener, windows of 4 to 40 moves at 20,000 nodes each) took
// off 8 more at some 800,000 nodes a board: not kept. docs/performance.md
// has the commands.
//
// Thread safety: pure functions; the state lives in the call.
#pragma once

#include <cstdint>
#include <vector>

#include "beam_search.h"
#include "eight/board.h"
#include "eight/fifteen_search.h"

namespace eight::grid {

// The endgame's nodes at most (IDA* nodes expanded, over all its searches):
// on Korf and Felner's 50 about a tenth of the beam's work, for most of what
// three times as many would take off (above).
inline constexpr std::uint64_t kEndgameNodes = 100'000;

struct ShortenResult {
  std::uint64_t nodes = 0;  // expanded by its searches
  int saved = 0;            // moves taken off the path
  // True when the search from the start itself ran to its end: the path
  // is then proven optimal.
  bool optimal = false;
  // kSolved when it ran to its end or its nodes ran out, kCancelled or
  // kDeadlineExceeded when the budget's cancel flag or deadline stopped it
  // (the path is then still legal and no longer than it was).
  fifteen::SearchStatus status = fifteen::SearchStatus::kSolved;
};

// `path`, which leads from `start` to `goal`, made shorter where the
// endgame finds it shorter, never longer; it still leads from start to
// goal. Nodes: at most the smaller of kEndgameNodes and budget.max_nodes;
// the cancel flag and the deadline are read every
// fifteen::kSearchCheckInterval nodes. Memory: the path and one board a
// move of the search's depth.
// REQUIRES: is_valid(start), is_valid(goal), start.shape == goal.shape ==
// kShape5x5, path legal from start and ending at goal; heuristic.databases
// and heuristic.reflected not null (beam_heuristic()'s for goal).
ShortenResult shorten_path(const GridBoard& start, const GridBoard& goal,
                           const BeamHeuristic& heuristic, std::vector<Move>& path,
                           const fifteen::SearchBudget& budget);

}  // namespace eight::grid
