// The full-encoding breadth-first search of any table shape's section: per
// position its distance, its parent and its move, as the v1 3x3 table
// stores them. For small shapes (up to 10 cells) and for checking the
// mod-3 engine against the 3x3 generator; the 12-cell tables are mod-3
// only (mod3_search.h). Private to the core.
//
// The discovery rule is core/section_search.h's, so on 3x3 the entries are
// generate_section()'s: a FIFO queue from the goal, positions expanded in
// queue order, moves tried in move order; a position's parent is the
// position that first discovered it, and its move is the blank's move from
// it back to that parent (the opposite of the discovering move). The goal
// is its own parent, with move kUp and distance 0.
//
// Memory: the entries (8 bytes each) and the queue (4 bytes each) per
// position: 22 MB for 10 cells.
//
// Thread safety: pure; runs on the calling thread.
#pragma once

#include <cstdint>
#include <vector>

#include "eight/board.h"
#include "eight/shape.h"

namespace eight::detail {

struct FullEntry {
  std::uint32_t parent = 0;
  Move move = Move::kUp;
  std::uint8_t distance = 0;

  friend bool operator==(const FullEntry&, const FullEntry&) = default;
};

// The entries of the section of canonical_goal(blank, s), by rank.
// REQUIRES: is_table_shape(s); s.cells() <= 10; 0 <= blank < s.cells().
std::vector<FullEntry> full_section_search(Shape s, int blank);

}  // namespace eight::detail
