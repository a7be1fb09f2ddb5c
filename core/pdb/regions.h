// The blank's regions among the free cells of a placement on a board of at
// most 16 cells, which the pattern database generator (generator.cpp)
// searches over. Private to the core.
//
// Thread safety: regions() builds its table once, thread-safely; the rest
// is pure.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <mutex>
#include <vector>

#include "geometry.h"

namespace eight::fifteen::pdb {

// The free cells connected to `seed` (which must be free) on a board of
// `shape` (at most 16 cells, a bit each): grow by one step in every direction
// until nothing changes.
inline std::uint32_t flood(int seed, std::uint32_t free, Shape shape) {
  const int cols = shape.cols;
  std::uint32_t first_col = 0;
  for (int r = 0; r < shape.rows; ++r) first_col |= 1u << (r * cols);
  const std::uint32_t last_col = first_col << (cols - 1);
  std::uint32_t region = 1u << seed;
  std::uint32_t before;
  do {
    before = region;
    region |= ((region << 1) & ~first_col) | ((region >> 1) & ~last_col) | (region << cols) |
              (region >> cols);
    region &= free;
  } while (region != before);
  return region;
}

// The blank's regions are numbered by their lowest cell: region 0 holds the
// lowest free cell, region 1 the lowest free cell outside region 0, and so
// on. A group of at most 8 tiles leaves at most 8 regions on every board of
// at most 16 cells (max_regions() says how many at most; the generator
// asserts it is 8 or fewer and tests/pattern_db_test.cpp checks it for every
// shape it builds), so one byte per placement marks which of them the search
// has reached.
//
// Most placements split the free cells: on 4x4, 6 tiles leave 2.05 regions
// on average, 8 tiles 2.75. So for every set of free cells this table holds
// each cell's region number (a nibble per cell: 512 KB for 16 cells,
// L2-resident) and the region count (64 KB), and the search never
// flood-fills.
class RegionTable {
 public:
  // REQUIRES: 2 <= shape.cells() <= 16.
  explicit RegionTable(Shape shape) : cells_(shape.cells()) {
    assert(cells_ >= 2 && cells_ <= 16);
    const std::uint32_t all = (1u << cells_) - 1;
    labels_.resize(std::size_t{all} + 1);
    counts_.resize(std::size_t{all} + 1);
    for (std::uint32_t free = 0; free <= all; ++free) {
      std::uint64_t labels = 0;
      int n = 0;
      for (std::uint32_t rest = free; rest != 0; ++n) {
        const std::uint32_t region = flood(std::countr_zero(rest), free, shape);
        rest &= ~region;
        for (int c = 0; c < cells_; ++c) {
          if ((region >> c) & 1) labels |= static_cast<std::uint64_t>(n) << (4 * c);
        }
      }
      labels_[free] = labels;
      counts_[free] = static_cast<std::uint8_t>(n);
      if (cells_ - std::popcount(free) <= 8) max_regions_ = std::max(max_regions_, n);
    }
  }
  // The most regions any placement of at most 8 tiles leaves.
  int max_regions() const { return max_regions_; }
  // Requires `cell` in `free`.
  int region_of(std::uint32_t free, int cell) const {
    return static_cast<int>((labels_[free] >> (4 * cell)) & 0xF);
  }
  int count(std::uint32_t free) const { return counts_[free]; }

 private:
  int cells_;
  int max_regions_ = 0;
  std::vector<std::uint64_t> labels_;
  std::vector<std::uint8_t> counts_;
};

// The table of a shape of 2 to 16 cells, built on first use (thread-safely)
// and kept for the life of the process (at most 576 KB a shape).
inline const RegionTable& regions(Shape shape) {
  static std::mutex mutex;
  static std::array<const RegionTable*, kMaxSide * kMaxSide> tables{};
  assert(shape.cells() >= 2 && shape.cells() <= 16);
  const std::lock_guard lock(mutex);
  const RegionTable*& t =
      tables[static_cast<std::size_t>((shape.rows - 1) * kMaxSide + shape.cols - 1)];
  if (t == nullptr) t = new RegionTable(shape);  // never freed
  return *t;
}

// A placement whose regions have all been reached is marked 0xFF, so a
// reached byte says "done" in one comparison. (With 8 regions, all 8 bits
// set means the same thing anyway.)
inline constexpr std::uint8_t kAllRegions = 0xFF;

}  // namespace eight::fifteen::pdb
