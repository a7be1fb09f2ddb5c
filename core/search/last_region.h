// The reduction's last region (reduction_solver.h): the rectangle left once
// every unit of the plan is placed, solved optimally by the IDA* driver
// (ida.h) over Manhattan distance plus linear conflicts (line_conflicts.h).
// Private to the core.
//
// Thread safety: a pure function.
#pragma once

#include <vector>

#include "search/reduction_state.h"

namespace eight::reduction {

// An optimal path inside `r` from `s` to the goal (the first found with
// moves tried in kAllMoves order, so always the same one). Its recursion is
// as deep as the path, at most 31 moves (3x3) or 36 (2x4).
// REQUIRES: every tile outside r is home; r is at most 3x3 or 2x4 (4x2);
// s can reach the goal.
std::vector<Move> solve_last_region(const Geometry& g, const State& s, const Rect& r);

}  // namespace eight::reduction
