// The blank's regions among the free cells of a 4x4 placement, which the
// pattern database generator (generator.cpp) searches over. Private to the
// core.
//
// Thread safety: regions() builds its table once, thread-safely; the rest
// is pure.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "geometry.h"

namespace eight::fifteen::pdb {

// The free cells connected to `seed` (which must be free): grow by one step
// in every direction until nothing changes.
inline std::uint32_t flood(int seed, std::uint32_t free) {
  std::uint32_t region = 1u << seed;
  std::uint32_t before;
  do {
    before = region;
    region |=
        ((region << 1) & ~kColumn0) | ((region >> 1) & ~kColumn3) | (region << 4) | (region >> 4);
    region &= free;
  } while (region != before);
  return region;
}

// The blank's regions are numbered by their lowest cell: region 0 holds the
// lowest free cell, region 1 the lowest free cell outside region 0, and so
// on. A group of at most 8 tiles leaves at most 8 regions (checked over
// every set of at most 8 cells), so one byte per placement marks which of
// them the search has reached.
//
// Most placements split the free cells: 6 tiles leave 2.05 regions on
// average, 8 tiles 2.75. So for every set of free cells this table holds
// each cell's region number (a nibble per cell: 512 KB, L2-resident) and the
// region count (64 KB), and the search never flood-fills.
class RegionTable {
 public:
  RegionTable() {
    for (std::uint32_t free = 0; free <= kAllCells; ++free) {
      std::uint64_t labels = 0;
      int n = 0;
      for (std::uint32_t rest = free; rest != 0; ++n) {
        const std::uint32_t region = flood(std::countr_zero(rest), free);
        rest &= ~region;
        for (int c = 0; c < kCells; ++c) {
          if ((region >> c) & 1) labels |= static_cast<std::uint64_t>(n) << (4 * c);
        }
      }
      labels_[free] = labels;
      counts_[free] = static_cast<std::uint8_t>(n);
    }
  }
  // Requires `cell` in `free`.
  int region_of(std::uint32_t free, int cell) const {
    return static_cast<int>((labels_[free] >> (4 * cell)) & 0xF);
  }
  int count(std::uint32_t free) const { return counts_[free]; }

 private:
  std::array<std::uint64_t, kAllCells + 1> labels_{};
  std::array<std::uint8_t, kAllCells + 1> counts_{};
};

inline const RegionTable& regions() {
  static const RegionTable* const kTable = new RegionTable;  // never freed: 576 KB, once
  return *kTable;
}

// A placement whose regions have all been reached is marked 0xFF, so a
// reached byte says "done" in one comparison. (With 8 regions, all 8 bits
// set means the same thing anyway.)
inline constexpr std::uint8_t kAllRegions = 0xFF;

}  // namespace eight::fifteen::pdb
