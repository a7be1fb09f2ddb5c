// The placement rank of include/eight/pattern_db.h, written once: the dense
// rank of k distinct cells of a board of n <= 16 cells (a pattern's tiles, in
// tile order; n = 16 for the 4x4 board, the default), its inverse, and the weight of each digit,
// which the IDA* search (fifteen_search.cpp) moves ranks by incrementally. The public
// placement_rank() and placement_unrank() (placement.cpp) and the pattern
// database generator (core/pdb/generator.cpp) both call these; inlined,
// with k a constant at the generator's calls, they unroll. Private to the
// core.
//
//   d_i  = c_i - |{ j < i : c_j < c_i }|          (0 <= d_i < n - i)
//   rank = sum_i d_i * (n - 1 - i)! / (n - k)!  (Horner: r = r * (n - i) + d_i)
//
// n is a parameter so that inlined calls with a constant n (the generator's)
// divide by constants.
//
// Thread safety: pure functions and constants.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>

#include "kernel.h"

namespace eight::detail {

inline constexpr int kPlacementCells = 16;  // the 4x4 board's, and the most
inline constexpr int kMaxPlacedCells = 8;   // pattern_db.h's kMaxGroupSize

// n!/(n-k)!: the placements of k cells on n, the ranks 0..that - 1.
constexpr std::uint64_t placement_count_of(int k, int n = kPlacementCells) {
  std::uint64_t count = 1;
  for (int i = 0; i < k; ++i) count *= static_cast<std::uint64_t>(n - i);
  return count;
}

// Bits set in a byte. std::popcount would do, but without -mpopcnt (not in
// the x86-64 baseline Debian builds for) it becomes a libgcc call.
inline constexpr std::array<std::uint8_t, 256> kBitCounts = [] {
  std::array<std::uint8_t, 256> t{};
  for (int i = 0; i < 256; ++i) t[i] = static_cast<std::uint8_t>((i & 1) + t[i / 2]);
  return t;
}();

// Cells of the 16-bit `mask` below `cell`.
inline int count_below(std::uint32_t mask, int cell) {
  const std::uint32_t m = mask & ((1u << cell) - 1);
  return kBitCounts[m & 0xFF] + kBitCounts[m >> 8];
}

// The rank of the k distinct cells cells[0..k-1] of n.
// REQUIRES: 1 <= k <= 8, k <= n <= 16; the cells distinct, each 0..n-1.
[[gnu::always_inline]] inline std::uint32_t placement_rank_of(const std::uint8_t* cells, int k,
                                                              int n = kPlacementCells) {
  assert(k >= 1 && k <= kMaxPlacedCells && k <= n && n <= kPlacementCells);
  std::uint32_t r = 0;
  std::uint32_t seen = 0;
#pragma GCC unroll 8
  for (int i = 0; i < k; ++i) {
    const int c = cells[i];
    assert(c >= 0 && c < n && ((seen >> c) & 1) == 0);
    r = r * static_cast<std::uint32_t>(n - i) +
        static_cast<std::uint32_t>(c - count_below(seen, c));
    seen |= 1u << c;
  }
  return r;
}

// Inverse of placement_rank_of: the k cells of rank r, written to
// cells[0..k-1]. REQUIRES: 1 <= k <= 8, k <= n <= 16; r < n!/(n-k)!.
[[gnu::always_inline]] inline void placement_unrank_of(std::uint32_t r, std::uint8_t* cells, int k,
                                                       int n = kPlacementCells) {
  assert(k >= 1 && k <= kMaxPlacedCells && k <= n && n <= kPlacementCells);
  unsigned digits[kMaxPlacedCells];
#pragma GCC unroll 8
  for (int i = k - 1; i > 0; --i) {
    digits[i] = r % static_cast<std::uint32_t>(n - i);
    r /= static_cast<std::uint32_t>(n - i);
  }
  assert(r < static_cast<std::uint32_t>(n));
  digits[0] = r;
  std::uint64_t pool = kFullPool;
#pragma GCC unroll 8
  for (int i = 0; i < k; ++i) cells[i] = static_cast<std::uint8_t>(take_nth(pool, digits[i]));
}

// The weight of digit i in the rank of k cells of n: (n - 1 - i)!/(n - k)!,
// what the rank changes by when the i-th cell's digit changes by one.
// REQUIRES: 0 <= i < k <= 8, k <= n <= 16.
constexpr std::int32_t placement_weight(int i, int k, int n = kPlacementCells) {
  assert(i >= 0 && i < k && k <= kMaxPlacedCells && k <= n && n <= kPlacementCells);
  std::int32_t w = 1;
  for (int m = i + 1; m < k; ++m) w *= n - m;
  return w;
}

}  // namespace eight::detail
