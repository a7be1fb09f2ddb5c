// The breadth-first search over one section of any table shape that
// produces its mod-3 table: a distance modulo 3 per position, two bits
// each, which is all that descent (eight/descent.h) needs to walk an
// optimal path. Private to the core.
//
// The section of (shape, blank) holds the positions of the class of
// canonical_goal(blank, shape), by rank_cells() (eight/any_rank.h).
// Its table is positions(shape) / 4 bytes: rank r at byte r / 4, bits
// 2 * (r % 4) and up, holding distance % 3 (mod3_value() in descent.h).
// The value 3 marks a position not yet reached during the search and never
// appears in a finished table: every position of the class is reachable.
//
// Memory: the table (2 bits per position) and two frontier bitsets, the
// level being expanded and the next (1 bit per position each): 4 bits per
// position, 120 MB for a 12-cell board (239,500,800 positions), and 60 MB
// of it returned.
//
// The search runs on `workers` threads, each taking the next part of the
// frontier left. A position's value is set from 3 (0b11) to v by an atomic
// AND that clears bits, and its bit in the next frontier by an atomic OR;
// two workers reaching one position in a level write the same value and
// the same bit, and exactly one of them sees 3 in the value its AND
// replaced, so counts are exact too. The bytes, the histogram and the
// farthest positions are therefore the same every run, whoever did what.
//
// Thread safety: callable from any thread; the search runs workers of its
// own and returns when they are done. The progress callback is called on
// the calling thread.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "eight/shape.h"

namespace eight::detail {

struct Mod3Section {
  std::vector<std::uint8_t> table;       // positions / 4 bytes, as above
  std::vector<std::uint64_t> histogram;  // positions at each distance 0..max
  std::vector<std::uint32_t> farthest;   // ranks at the max distance, ascending
  std::uint32_t goal_rank = 0;           // rank of the canonical goal
  int cls = 0;                           // the section's class

  int max_distance() const { return static_cast<int>(histogram.size()) - 1; }
};

struct Mod3Options {
  // Threads to search on; 0 for one per core.
  unsigned workers = 0;
  // Called after each level with that level's distance and the positions
  // found so far (at that distance or less), e.g. for a progress bar.
  std::function<void(int level, std::uint64_t found)> progress;
};

// Searches the section of canonical_goal(blank, s) from its goal,
// level by level. REQUIRES: is_table_shape(s); 0 <= blank < s.cells().
Mod3Section mod3_search(Shape s, int blank, const Mod3Options& options = {});

}  // namespace eight::detail
