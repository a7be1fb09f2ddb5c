// The reduction's plan (reduction_solver.h): the units, one tile or two
// neighbouring tiles of a line, placed in turn as the outer rows and columns
// are peeled, and the last region left; and each unit's moves, shortest
// paths of the restricted model (restricted_model.h), in phases for a pair
// on a large region. Private to the core.
//
// Thread safety: pure functions (plan_unit() as best_shortest_path()).
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "search/reduction_state.h"
#include "search/restricted_model.h"

namespace eight::reduction {

// One tile (b < 0) or two neighbouring tiles of a line placed together,
// named by their home cells (which are their names in a State). A pair also
// names its line's first cell (plan_pair()'s window).
struct Unit {
  int a;
  int b = -1;
  int line_start = -1;
};

struct Plan {
  std::vector<Unit> units;
  // The unit of each tile; units.size() for the last region's tiles.
  std::array<int, kMaxCells> unit_of{};
  Rect last;  // the region left, solved optimally
};

// The units depend on the shape and the goal's blank cell only, never on the
// board: that is what makes "the first unit not in place" a measure.
Plan make_plan(const Geometry& g, int goal_blank);

inline bool in_place(const State& s, const Unit& u) {
  return s.at[u.a] == u.a && (u.b < 0 || s.at[u.b] == u.b);
}

// The cells not placed before unit k: the unit's region.
Mask region_of(const Geometry& g, const Plan& plan, std::size_t k);

// The weights of the tiles' Manhattan distances while unit k is placed: the
// tiles of the next unit or two count most, those of the next lines more than
// the rest, which will be pushed about many times before their turn. Chosen
// on 100 random boards of 6x6 and 10x10 each: 10x10's mean length/(MD+LC)
// 2.82 with weights all 1, 2.76 with 3 for the next 8 units, 2.75 with 6 for
// the next unit as well; 1.5% of a ratio either way for the other weights
// tried. Then 2 for the units 9 to 20 ahead as well: 2.687 -> 2.666 (6x6
// 2.423 -> 2.415), with the lines placed from the end nearer the blank.
Mask weights_of(const Geometry& g, const Plan& plan, std::size_t k);

// The first tiles of the units after k.
KeyTiles key_tiles_of(const Plan& plan, std::size_t k);

// The count of leading units in place: the first one not in place.
std::size_t units_in_place(const Plan& plan, const State& s);

// Where a unit stands and the moves to follow: a shortest path in the model
// of its current phase (rank, lower is later); following all of it ends the
// phase.
struct Step {
  int rank = 0;
  std::vector<Move> path;
};

// REQUIRES: !in_place(s, u), region is the unit's.
Step plan_unit(const Geometry& g, const State& s, const Mask& region, const Mask& weight,
               const KeyTiles& keys, const Unit& u);

}  // namespace eight::reduction
