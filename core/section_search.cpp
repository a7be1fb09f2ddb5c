#include "section_search.h"

#include <algorithm>
#include <cassert>

#include "common/workers.h"

namespace eight::detail {

Transitions::Transitions()
    // Not zeroed here: every row is written once below, on the core that
    // writes it.
    : up_(new std::uint16_t[static_cast<std::size_t>(kCells3x3) * kTileOrders3x3]),
      down_(new std::uint16_t[static_cast<std::size_t>(kCells3x3) * kTileOrders3x3]) {
  // The packed order (rank.h's layout) of every order index of the class:
  // the even permutations of the eight tiles (kernel.h's kEvenOrders).
  const auto& order_of = kEvenOrders.at;
  // Down from cell b (rows 0 and 1): the tile below, at order index b + 2,
  // rises to index b, the three fields from b rotating up; up from cell
  // b + 3 undoes it. A vertical move keeps the tiles' parity on a board
  // three wide, so the result is an order index of the same class.
  // Rows of cells a move cannot leave from hold zeros.
  constexpr std::size_t kThreeRows = 3 * std::size_t{kTileOrders3x3};
  const auto fill_rows = [&](std::uint32_t first, std::uint32_t last) {
    for (std::uint32_t b = first; b < last; ++b) {
      const std::uint32_t at = 3 * b;
      for (std::uint32_t i = 0; i < kTileOrders3x3; ++i) {
        const std::uint32_t order = order_of[i];
        const std::uint32_t w = (order >> at) & 0x1FF;
        const std::uint32_t moved =
            (order & ~(0x1FFu << at)) | ((((w << 3) & 0x1F8) | (w >> 6)) << at);
        const auto j = static_cast<std::uint16_t>((packed_order_lehmer(moved) & 0x7FFFFFFF) >> 1);
        down_[b * kTileOrders3x3 + i] = j;
        up_[(b + 3) * kTileOrders3x3 + j] = static_cast<std::uint16_t>(i);
      }
    }
  };
  // On two cores, as this is half of a generator's start-up. The halves
  // write rows of their own, so they share nothing but order_of: cells 0-2
  // write down rows 0-2 and up rows 3-5, and zero up rows 0-2; cells 3-5
  // write down rows 3-5 and up rows 6-8, and zero down rows 6-8.
  static_assert(kCells3x3 == 9);
  run_workers(2, [&](unsigned half) {
    if (half == 0) {
      fill_rows(0, 3);
      std::fill_n(up_.get(), kThreeRows, 0);
    } else {
      fill_rows(3, 6);
      std::fill_n(down_.get() + 2 * kThreeRows, kThreeRows, 0);
    }
  });
}

const Transitions& Transitions::get() {
  static const Transitions kTransitions;
  return kTransitions;
}

}  // namespace eight::detail
