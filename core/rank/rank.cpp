// The 3x3 ranking of include/eight/rank.h: ShapeKernel<3, 3> (kernel.h) on
// a Board's cells, by the 3x3 fast path (half tables to rank, kEvenOrders
// to unrank).
#include "eight/rank.h"

#include <cassert>

#include "kernel.h"

namespace eight {
namespace {

using K3 = detail::ShapeKernel<3, 3>;
static_assert(K3::kOrders == kTileOrders3x3 && K3::kPositions == kPositions3x3);
static_assert(K3::row_term(0) == 0 && K3::row_term(kCells3x3 - 1) == 0,
              "on 3x3 the class is the tile parity");

}  // namespace

Ranked rank_3x3_with_parity(const Board& b) {
  assert(is_valid(b) && b.shape == kShape3x3);
  int blank = 0;
  const auto order = static_cast<std::uint32_t>(K3::pack<3>(b.cells.data(), blank));
  const std::uint32_t lehmer = detail::packed_order_lehmer(order);
  return {K3::rank_of_lehmer(blank, lehmer), static_cast<int>(lehmer >> 31)};
}

std::uint32_t rank_3x3(const Board& b) {
  return rank_3x3_with_parity(b).rank;
}

Board unrank_3x3(std::uint32_t r, int parity) {
  assert(r < kPositions3x3 && (parity == 0 || parity == 1));
  int blank = 0;
  // Eight nibbles, tile t as t - 1: as tiles, a byte each.
  std::uint64_t tiles = K3::unrank(r, parity, blank) + K3::ones(kTiles3x3);
  tiles = (tiles | tiles << 16) & 0x0000FFFF0000FFFFull;
  tiles = (tiles | tiles << 8) & 0x00FF00FF00FF00FFull;
  tiles = (tiles | tiles << 4) & 0x0F0F0F0F0F0F0F0Full;
  // A zero byte opened for the blank (two shifts: blank 8 shifts by 64).
  const std::uint64_t before = ((std::uint64_t{1} << (4 * blank)) << (4 * blank)) - 1;
  const std::uint64_t after = tiles & ~before;
  Board b;
  format::put_u64(b.cells.data(), (tiles & before) | after << 8);
  b.cells[8] = static_cast<std::uint8_t>(after >> 56);
  return b;
}

}  // namespace eight

#if defined(__EMSCRIPTEN__)
namespace eight::detail {
EvenOrders make_even_orders_at_start() {
  EvenOrders t;
  for (std::uint32_t i = 0; i < t.at.size(); ++i) t.at[i] = even_order(i);
  return t;
}
}  // namespace eight::detail
#endif
