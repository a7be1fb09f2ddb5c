#include "section_search.h"

#include <algorithm>

namespace eight::detail {

Transitions::Transitions()
    : up_(static_cast<std::size_t>(kCells) * kTileOrders, 0),
      down_(static_cast<std::size_t>(kCells) * kTileOrders, 0) {
  // The packed order (rank.h's layout) of every order index of the
  // class: the even permutations of the eight tiles, in Lehmer order.
  std::vector<std::uint32_t> order_of(kTileOrders);
  std::array<std::uint32_t, 8> p{0, 1, 2, 3, 4, 5, 6, 7};
  do {
    int inversions = 0;
    for (int i = 0; i < 8; ++i) {
      for (int j = i + 1; j < 8; ++j) inversions += p[j] < p[i];
    }
    if (inversions % 2 != 0) continue;
    std::uint32_t order = 0;
    for (int i = 0; i < 8; ++i) order |= p[i] << (3 * i);
    order_of[(packed_order_lehmer(order) & 0x7FFFFFFF) >> 1] = order;
  } while (std::next_permutation(p.begin(), p.end()));
  // Down from cell b (rows 0 and 1): the tile below, at order index b + 2,
  // rises to index b, the three fields from b rotating up; up from cell
  // b + 3 undoes it. A vertical move keeps the tiles' parity on a board
  // three wide, so the result is an order index of the same class.
  for (std::uint32_t b = 0; b + 3 < kCells; ++b) {
    const std::uint32_t at = 3 * b;
    for (std::uint32_t i = 0; i < kTileOrders; ++i) {
      const std::uint32_t order = order_of[i];
      const std::uint32_t w = (order >> at) & 0x1FF;
      const std::uint32_t moved =
          (order & ~(0x1FFu << at)) | ((((w << 3) & 0x1F8) | (w >> 6)) << at);
      const auto j = static_cast<std::uint16_t>((packed_order_lehmer(moved) & 0x7FFFFFFF) >> 1);
      down_[b * kTileOrders + i] = j;
      up_[(b + 3) * kTileOrders + j] = static_cast<std::uint16_t>(i);
    }
  }
}

const Transitions& Transitions::get() {
  static const Transitions kTransitions;
  return kTransitions;
}

}  // namespace eight::detail
