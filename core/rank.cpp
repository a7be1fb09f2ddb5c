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
  const std::uint32_t rest = r % kTileOrders;
  // Lehmer digits by constant divisors (the compiler turns each into a
  // multiply; a loop over kHalfFactorial would divide for real, 6x slower).
  int digits[kTiles] = {static_cast<int>(rest / 2520),      static_cast<int>(rest % 2520 / 360),
                        static_cast<int>(rest % 360 / 60),  static_cast<int>(rest % 60 / 12),
                        static_cast<int>(rest % 12 / 3),    static_cast<int>(rest % 3),
                        0,                                  0};
  const int sum = digits[0] + digits[1] + digits[2] + digits[3] + digits[4] + digits[5];
  digits[6] = (sum & 1) != parity ? 1 : 0;  // the digit the class's parity fixes
  // Branch-free selection over nibbles: `pool` holds the unplaced tiles in
  // ascending order, one per 4 bits; taking the d-th closes the gap. Random
  // digits would mispredict a loop's branches on nearly every step.
  std::uint64_t pool = 0x87654321;
  std::uint64_t order = 0;
  for (int i = 0; i < kTiles; ++i) {
    const int shift = 4 * digits[i];
    const std::uint64_t low = (std::uint64_t{1} << shift) - 1;
    order |= ((pool >> shift) & 0xF) << (4 * i);
    pool = (pool & low) | ((pool >> 4) & ~low);
  }
  // Open a zero nibble for the blank at its cell.
  const std::uint64_t below = (std::uint64_t{1} << (4 * blank)) - 1;
  const std::uint64_t cells = (order & below) | ((order & ~below) << 4);
  Board b;
  for (int cell = 0; cell < kCells; ++cell) {
    b.cells[cell] = static_cast<std::uint8_t>((cells >> (4 * cell)) & 0xF);
  }
  return b;
}

}  // namespace eight
