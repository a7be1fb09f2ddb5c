// The reduction's restricted model (reduction_solver.h): a breadth-first
// search whose state is the blank and up to two tracked tiles, all moving
// inside a set of cells, the other tiles not told apart; and of its
// shortest paths, the one that leaves the real board nearest its goal.
// Each unit of the reduction's plan (reduction_plan.h) is placed by such
// paths. Private to the core.
//
// Thread safety: best_shortest_path() is safe to call from several threads
// at once (its scratch space is thread_local).
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "search/reduction_state.h"

namespace eight::reduction {

// best_shortest_path() keeps a path for each cell of the next units' first
// tiles, this many of them. Measured on 100 random 10x10 boards: 2.666
// length/(MD+LC) keeping one path a state, 2.651 with one tile, 2.631 with
// two, 2.622 with three (2.620 with four).
constexpr int kKeyTiles = 3;

// The next units' first tiles, -1 where there is none.
using KeyTiles = std::array<int, kKeyTiles>;

constexpr KeyTiles minus_ones() {
  KeyTiles a{};
  for (int& x : a) x = -1;
  return a;
}

// A breadth-first search whose state is the blank and up to two tracked
// tiles, all moving inside `allowed`; the other tiles are not told apart.
// Moves are legal moves of the real board, so a path found here is one there.
struct Query {
  const Geometry* g = nullptr;
  Mask allowed{};                     // the cells the blank and the tracked tiles may be on
  int tracked = 0;                    // 0, 1 or 2
  std::array<int, 2> tile{};          // the tracked tiles' cells
  int blank = 0;                      // the blank's cell
  std::array<Mask, 2> target{};       // tracked >= 1: tile i must end on one of these
  Mask blank_target{};                // tracked == 0: the blank must end on one of these
  Mask weight{};                      // each tile's weight in the Manhattan distance
  KeyTiles key_tiles = minus_ones();  // best_shortest_path(); -1: none
};

// A shortest path from the query's state to one of its targets, or nullopt
// when none can be reached. Of the shortest paths it takes one that leaves
// the real board `s` with little Manhattan distance, so that the tiles the
// blank pushes aside on the way end nearer their homes rather than farther
// (weighted: Query::weight): the model cannot tell the other tiles apart, the
// board can. The choice is greedy, each state of the shortest paths' graph
// keeping the best path found to it for each placement of the key tiles (so
// that a path which leaves the next units' tiles well placed is not dropped
// for one that only looks better now), and always the same for the same
// board. Bounded by the state space: at most 100^3 states, each with at most
// as many nodes as paths reach it.
std::optional<std::vector<Move>> best_shortest_path(const Query& q, const State& s);

}  // namespace eight::reduction
