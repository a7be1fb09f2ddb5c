#include "section_search.h"

#include <bit>

namespace eight::detail {

OrderRanker::OrderRanker() {
  // (7-i)! for Lehmer digit i of eight tiles.
  constexpr std::uint32_t kFactorial[8] = {5040, 720, 120, 24, 6, 2, 1, 1};
  for (std::uint32_t key = 0; key < 4096; ++key) {
    std::uint32_t tiles[4];
    for (int i = 0; i < 4; ++i) tiles[i] = (key >> (3 * i)) & 7;
    // Prefix: digit i = tile - (smaller tiles before it), for i = 0..3.
    std::uint32_t p = 0;
    // Suffix (tiles at order indices 4..7): digit = smaller tiles after it.
    std::uint32_t q = 0;
    for (int i = 0; i < 4; ++i) {
      std::uint32_t before = 0, after = 0;
      for (int j = 0; j < i; ++j) before += tiles[j] < tiles[i];
      for (int j = i + 1; j < 4; ++j) after += tiles[j] < tiles[i];
      p += (tiles[i] - std::min(tiles[i], before)) * kFactorial[i];
      q += after * kFactorial[4 + i];
    }
    prefix_[key] = p;
    suffix_[key] = q;
  }
}

const OrderRanker& OrderRanker::get() {
  static const OrderRanker kRanker;
  return kRanker;
}

std::uint32_t pack_state(const Board& b) {
  assert(is_valid(b));
  std::uint32_t order = 0;
  std::uint32_t blank = 0;
  int i = 0;
  for (int cell = 0; cell < kCells; ++cell) {
    const std::uint32_t t = b.cells[cell];
    if (t == 0) {
      blank = static_cast<std::uint32_t>(cell);
      continue;
    }
    order |= (t - 1) << (3 * i++);
  }
  return order | blank << 24;
}

}  // namespace eight::detail
