// Optimal paths from a mod-3 table: the 2-bit-per-position tables of the
// boards of 10 and 12 cells, where a full entry (parent and move) per
// position would not fit in memory.
//
// A section's mod-3 table (core/mod3_search.h builds them) holds, for each
// rank r of the section's class (eight/any_rank.h), its distance to the
// section's goal modulo 3, at byte r / 4, bits 2 * (r % 4) and up. The
// value 3 appears in no sound table.
//
// Why distance % 3 is enough: the graph of positions is bipartite. A move
// swaps the blank with a tile, a transposition of the n cells' contents,
// so it flips the parity of the whole permutation (blank included); no
// move joins two positions of one parity, and so the distances of two
// neighbours, which differ by at most 1, cannot be equal: every move
// changes the distance by exactly 1. A position at distance d > 0 has
// neighbours at d - 1 (at least one) and at d + 1 only, and (d - 1) % 3
// and (d + 1) % 3 differ, so the
// neighbours stored as (v + 2) % 3, v being the position's own value, are
// exactly the closer ones. Stepping to the first of them in move order
// until the goal walks a shortest path, d steps for a position at d.
//
// Thread safety: pure functions over the caller's bytes.
#pragma once

#include <cassert>
#include <cstdint>
#include <span>
#include <vector>

#include "eight/board.h"
#include "eight/result.h"
#include "eight/shape.h"

namespace eight {

// The stored value of rank r: its distance % 3, or 3 (unreached, in a
// table being built). REQUIRES: r / 4 < table.size().
inline unsigned mod3_value(std::span<const std::uint8_t> table, std::uint32_t r) {
  assert(r / 4 < table.size());
  return (table[r / 4] >> (2 * (r % 4))) & 3;
}

struct DescentPath {
  std::vector<Move> moves;  // the blank's moves, from the position to the goal
  int distance = 0;         // moves.size()
};

// The optimal path from `cells` to the section's goal, by descent (above).
// `table` is the section's mod-3 table, `max_distance` its largest
// distance and `goal_rank` the rank of its goal, a canonical goal
// (canonical_goal() of some blank), which fixes the section's class.
// All three come from a table file and may be corrupt: every read is
// checked against the span, and a table that leads nowhere (no neighbour
// one closer, a walk longer than max_distance, a goal whose value is not
// 0, a goal rank that is no canonical goal) gives kBadEntry, never a hang
// or a read out of bounds. A position of the other class gives
// kBadArgument. REQUIRES: is_table_shape(s); is_valid_cells(s, cells).
Result<DescentPath> descend(Shape s, std::span<const std::uint8_t> table, int max_distance,
                            std::uint32_t goal_rank, std::span<const std::uint8_t> cells);

}  // namespace eight
