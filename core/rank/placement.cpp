// The public placement rank of include/eight/pattern_db.h, over placement.h.
#include <cassert>

#include "eight/pattern_db.h"
#include "placement.h"

namespace eight::fifteen {

static_assert(detail::kPlacementCells == kCells && detail::kMaxPlacedCells == kMaxGroupSize);

std::uint64_t placement_count(int k, int n) {
  assert(k >= 0 && k <= kMaxGroupSize && k <= n && n <= kCells);
  return detail::placement_count_of(k, n);
}

std::uint32_t placement_rank(std::span<const std::uint8_t> cells) {
  assert(!cells.empty() && cells.size() <= kMaxGroupSize);
  return detail::placement_rank_of(cells.data(), static_cast<int>(cells.size()));
}

void placement_unrank(std::uint32_t r, std::span<std::uint8_t> cells) {
  const int k = static_cast<int>(cells.size());
  assert(k >= 1 && k <= kMaxGroupSize && r < placement_count(k));
  detail::placement_unrank_of(r, cells.data(), k);
}

}  // namespace eight::fifteen
