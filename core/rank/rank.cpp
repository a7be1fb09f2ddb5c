// The 3x3 ranking of include/eight/rank.h: ShapeKernel<3, 3> (kernel.h) on
// a Board's cells, its Lehmer rank by the 3x3 fast path.
#include "eight/rank.h"

#include <cassert>

#include "kernel.h"

namespace eight {
namespace {

using K3 = detail::ShapeKernel<3, 3>;
static_assert(K3::kOrders == kTileOrders && K3::kPositions == kPositions);
static_assert(K3::row_term(0) == 0 && K3::row_term(kCells - 1) == 0,
              "on 3x3 the class is the tile parity");

}  // namespace

Ranked rank_with_parity(const Board& b) {
  assert(is_valid(b) && b.shape == kShape3x3);
  int blank = 0;
  const auto order = static_cast<std::uint32_t>(K3::pack<3>(b.cells.data(), blank));
  const std::uint32_t lehmer = detail::packed_order_lehmer(order);
  return {K3::rank_of_lehmer(blank, lehmer), static_cast<int>(lehmer >> 31)};
}

std::uint32_t rank(const Board& b) { return rank_with_parity(b).rank; }

Board unrank(std::uint32_t r, int parity) {
  assert(r < kPositions && (parity == 0 || parity == 1));
  int blank = 0;
  const std::uint64_t order = K3::unrank(r, parity, blank);
  const std::uint64_t cells = K3::cells_of(blank, order);
  Board b;
  for (int cell = 0; cell < kCells; ++cell) {
    b.cells[static_cast<std::size_t>(cell)] = static_cast<std::uint8_t>((cells >> (4 * cell)) & 0xF);
  }
  return b;
}

}  // namespace eight
