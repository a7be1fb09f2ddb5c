// Optimal paths for boards of any shape (up to kMaxCells cells) by IDA*
// (Korf, 1985) over Manhattan distance plus linear conflicts (Hansson,
// Mayer and Yung, 1992): the search for the shapes with no table and no
// pattern databases, within a budget of nodes.
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

#include <cstdint>
#include <vector>

#include "eight/board.h"
#include "eight/fifteen_search.h"

namespace eight::grid {

// Manhattan distance plus linear conflicts of `board` towards `goal`: a
// lower bound on the distance. REQUIRES: is_valid(board), is_valid(goal),
// board.shape == goal.shape.
int manhattan_linear_conflict(const Board& board, const Board& goal);

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

// An optimal path from `start` to `goal`, within the budget (nodes, deadline,
// cancel flag, as fifteen::SearchBudget says). The bound never grows past
// `max_bound`: a board farther than that is kBudgetExceeded.
// REQUIRES: is_valid(start), is_valid(goal), start.shape == goal.shape.
GridResult search(const Board& start, const Board& goal, const fifteen::SearchBudget& budget,
                  int max_bound = 1000);

}  // namespace eight::grid
