#include "eight/rank.h"

#include <bit>

namespace eight {
namespace {

// (7-i)! / 2 for the first six Lehmer digits; the seventh is fixed by the
// class parity and the eighth is always 0.
constexpr std::uint32_t kHalfFactorial[6] = {2520, 360, 60, 12, 3, 1};

}  // namespace

std::uint32_t rank(const Board& b) {
  std::uint32_t r = 0;
  std::uint32_t seen = 0;  // bit t set once tile t has been read
  int blank = 0;
  int i = 0;
  for (int cell = 0; cell < kCells; ++cell) {
    const std::uint32_t t = b.cells[cell];
    if (t == 0) {
      blank = cell;
      continue;
    }
    if (i < 6) {
      // Tiles after this one that are smaller = smaller tiles not yet seen.
      const std::uint32_t smaller_seen = std::popcount(seen & ((1u << t) - 1));
      r += (t - 1 - smaller_seen) * kHalfFactorial[i];
      seen |= 1u << t;
    }
    ++i;
  }
  return static_cast<std::uint32_t>(blank) * kTileOrders + r;
}

Board unrank(std::uint32_t r, int parity) {
  const int blank = static_cast<int>(r / kTileOrders);
  std::uint32_t rest = r % kTileOrders;
  std::uint8_t order[kTiles];
  std::uint32_t unused = 0x1FE;  // tiles 1..8
  int digit_sum = 0;
  for (int i = 0; i < kTiles; ++i) {
    int d = 0;
    if (i < 6) {
      d = static_cast<int>(rest / kHalfFactorial[i]);
      rest %= kHalfFactorial[i];
    } else if (i == 6) {
      d = (digit_sum & 1) != parity ? 1 : 0;
    }
    digit_sum += d;
    // Pick the d-th smallest unused tile.
    std::uint32_t pool = unused;
    for (int k = 0; k < d; ++k) pool &= pool - 1;
    const int tile = std::countr_zero(pool);
    unused &= ~(1u << tile);
    order[i] = static_cast<std::uint8_t>(tile);
  }
  Board b;
  for (int cell = 0, i = 0; cell < kCells; ++cell) {
    b.cells[cell] = cell == blank ? 0 : order[i++];
  }
  return b;
}

}  // namespace eight
