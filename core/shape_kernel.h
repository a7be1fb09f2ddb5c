// The ranking arithmetic of include/eight/any_rank.h, one instantiation per
// table shape, so that every loop bound, factorial and divisor is a
// compile-time constant: divisions by them become multiplies, and the
// loops unroll. Shared by any_rank.cpp (the public functions), the mod-3
// search and descent, which move between ranks without building cells.
// Private to the core.
//
// A position here is (blank cell, packed order): the tiles read in reading
// order skipping the blank, tile t as the nibble t - 1 at bits 4i..4i+3 for
// its index i in that order (11 tiles need 44 bits). Nibbles rather than
// rank.h's 3-bit fields because 11 tiles need 4 bits each.
//
// Thread safety: pure functions and constants.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>

#include "eight/board.h"
#include "eight/shape.h"

namespace eight::detail {

constexpr std::uint32_t factorial(int k) {
  return k <= 1 ? 1 : k * factorial(k - 1);
}

template <int kR, int kC>
struct ShapeKernel {
  static constexpr int kRows = kR;
  static constexpr int kCols = kC;
  static constexpr int kN = kR * kC;
  static constexpr int kM = kN - 1;  // tiles
  static_assert(kR >= 2 && kC >= 2 && kN <= kMaxTableCells);
  static constexpr std::uint32_t kOrders = factorial(kM) / 2;  // per blank cell
  static constexpr std::uint32_t kPositions = kN * kOrders;    // per class
  static constexpr Shape kShape{kR, kC};

  // Nibble i = 1 for i in [0, k): added to a packed order it turns tile
  // values t - 1 into t.
  static constexpr std::uint64_t ones(int k) {
    std::uint64_t v = 0;
    for (int i = 0; i < k; ++i) v |= std::uint64_t{1} << (4 * i);
    return v;
  }
  // kAbove[v]: a 1 in every nibble above nibble v, so that adding it to a
  // vector of counters counts tile v as "smaller" for every larger tile.
  static constexpr std::array<std::uint64_t, 16> make_above() {
    std::array<std::uint64_t, 16> a{};
    for (int v = 0; v < kM; ++v) a[v] = ones(kM) & ~ones(v + 1);
    return a;
  }
  static constexpr std::array<std::uint64_t, 16> kAbove = make_above();
  // (kM - 1 - i)!: the weight of Lehmer digit i.
  static constexpr std::array<std::uint32_t, kM> make_weights() {
    std::array<std::uint32_t, kM> w{};
    for (int i = 0; i < kM; ++i) w[i] = factorial(kM - 1 - i);
    return w;
  }
  static constexpr std::array<std::uint32_t, kM> kWeight = make_weights();
  // Bit m set when the blank on cell c may move by m (up, down, left, right).
  static constexpr std::array<std::uint8_t, kN> make_legal() {
    std::array<std::uint8_t, kN> l{};
    for (int c = 0; c < kN; ++c) {
      const int r = c / kC, k = c % kC;
      l[c] = static_cast<std::uint8_t>((r > 0 ? 1 : 0) | (r < kR - 1 ? 2 : 0) | (k > 0 ? 4 : 0) |
                                       (k < kC - 1 ? 8 : 0));
    }
    return l;
  }
  static constexpr std::array<std::uint8_t, kN> kLegal = make_legal();

  // What the class invariant adds for a blank on `cell` (any_rank.h): its
  // row's parity on a board an even number of columns wide, else nothing.
  static constexpr int row_term(int cell) { return kC % 2 == 0 ? (cell / kC) & 1 : 0; }

  // Lehmer rank of a packed order, in bits 0..30, its parity in bit 31.
  // Digit i is (tile i - 1) minus the tiles before it that are smaller;
  // `below` counts those for every value at once, a nibble per value, so
  // no popcount (which, without -mpopcnt, is a library call) is needed.
  // REQUIRES: order packs each of 0..kM-1 once.
  static std::uint32_t lehmer(std::uint64_t order) {
    std::uint64_t below = 0;
    std::uint32_t sum = 0, digit_sum = 0;
#pragma GCC unroll 16
    for (int i = 0; i < kM; ++i) {
      const auto v = static_cast<unsigned>((order >> (4 * i)) & 0xF);
      const auto d = v - static_cast<unsigned>((below >> (4 * v)) & 0xF);
      below += kAbove[v];
      sum += d * kWeight[i];
      digit_sum += d;
    }
    return sum | (digit_sum & 1) << 31;
  }

  // The rank of (blank, order) and the class it is in.
  static std::uint32_t rank(int blank, std::uint64_t order, int* cls = nullptr) {
    assert(blank >= 0 && blank < kN);
    const std::uint32_t l = lehmer(order);
    if (cls != nullptr) *cls = static_cast<int>(l >> 31) ^ row_term(blank);
    return static_cast<std::uint32_t>(blank) * kOrders + ((l & 0x7FFFFFFF) >> 1);
  }

  // The packed order of index `rest` (< kOrders) whose parity is `parity`.
  // Lehmer digits by constant divisors; the digit before last (weight 1!)
  // is the one the parity fixes, the last is always 0.
  static std::uint64_t order_of(std::uint32_t rest, int parity) {
    assert(rest < kOrders && (parity == 0 || parity == 1));
    unsigned digits[kM];
    unsigned sum = 0;
    // Digit i (i < kM - 2) has weight (kM-1-i)!, which is 2 * the weight in
    // the halved index: rest / ((kM-1-i)!/2) % (kM - i).
#pragma GCC unroll 16
    for (int i = 0; i < kM - 2; ++i) {
      digits[i] = rest / (kWeight[i] / 2) % static_cast<unsigned>(kM - i);
      sum += digits[i];
    }
    digits[kM - 2] = (sum & 1) != static_cast<unsigned>(parity) ? 1 : 0;
    digits[kM - 1] = 0;
    // Branch-free selection over nibbles (as rank.cpp): `pool` holds the
    // unplaced values ascending, one per nibble; taking the d-th closes
    // the gap.
    std::uint64_t pool = 0xFEDCBA9876543210ull;
    std::uint64_t order = 0;
#pragma GCC unroll 16
    for (int i = 0; i < kM; ++i) {
      const unsigned shift = 4 * digits[i];
      const std::uint64_t low = (std::uint64_t{1} << shift) - 1;
      order |= ((pool >> shift) & 0xF) << (4 * i);
      pool = (pool & low) | ((pool >> 4) & ~low);
    }
    return order;
  }

  // Inverse of rank() within class `cls`: the blank and order of rank r.
  static std::uint64_t unrank(std::uint32_t r, int cls, int& blank) {
    assert(r < kPositions && (cls == 0 || cls == 1));
    const std::uint32_t b = r / kOrders;
    blank = static_cast<int>(b);
    return order_of(r - b * kOrders, cls ^ row_term(blank));
  }

  // The order after the blank on `blank` moves up: the tile above it, at
  // order index blank - kC, passes the kC - 1 tiles between them to index
  // blank - 1. REQUIRES: blank >= kC.
  static std::uint64_t order_up(std::uint64_t order, int blank) {
    assert(blank >= kC && blank < kN);
    constexpr std::uint64_t kMask = (std::uint64_t{1} << (4 * kC)) - 1;
    const int at = 4 * (blank - kC);
    const std::uint64_t w = (order >> at) & kMask;
    const std::uint64_t moved = (w >> 4) | ((w & 0xF) << (4 * (kC - 1)));
    return (order & ~(kMask << at)) | (moved << at);
  }
  // The order after the blank moves down: the tile below it, at index
  // blank + kC - 1, passes the kC - 1 tiles between to index blank.
  // REQUIRES: blank < kN - kC.
  static std::uint64_t order_down(std::uint64_t order, int blank) {
    assert(blank >= 0 && blank < kN - kC);
    constexpr std::uint64_t kMask = (std::uint64_t{1} << (4 * kC)) - 1;
    const int at = 4 * blank;
    const std::uint64_t w = (order >> at) & kMask;
    const std::uint64_t moved = ((w << 4) & kMask) | (w >> (4 * (kC - 1)));
    return (order & ~(kMask << at)) | (moved << at);
  }

  // Cells (tile per cell, 0 blank) of (blank, order), a nibble per cell.
  static std::uint64_t cells_of(int blank, std::uint64_t order) {
    const std::uint64_t tiles = order + ones(kM);
    const std::uint64_t below = (std::uint64_t{1} << (4 * blank)) - 1;
    return (tiles & below) | ((tiles & ~below) << 4);
  }

  // The packed order and blank of a position's cells.
  // REQUIRES: cells holds a permutation of 0..kN-1.
  static std::uint64_t pack(const std::uint8_t* cells, int& blank) {
    std::uint64_t order = 0;
    unsigned shift = 0;
    int at = 0;
#pragma GCC unroll 16
    for (int c = 0; c < kN; ++c) {
      const unsigned t = cells[c];
      // The blank writes a zero nibble that the next tile overwrites.
      order |= static_cast<std::uint64_t>(t - (t != 0 ? 1 : 0)) << shift;
      shift += t != 0 ? 4 : 0;
      at = t == 0 ? c : at;
    }
    blank = at;
    return order;
  }
};

// Calls f(ShapeKernel<rows, cols>{}) for a table shape, returning what it
// returns. REQUIRES: is_table_shape(s).
template <typename F>
decltype(auto) with_kernel(Shape s, F&& f) {
  assert(is_table_shape(s));
  switch (s.rows * 16 + s.cols) {
    case 0x22:
      return f(ShapeKernel<2, 2>{});
    case 0x23:
      return f(ShapeKernel<2, 3>{});
    case 0x32:
      return f(ShapeKernel<3, 2>{});
    case 0x24:
      return f(ShapeKernel<2, 4>{});
    case 0x42:
      return f(ShapeKernel<4, 2>{});
    case 0x25:
      return f(ShapeKernel<2, 5>{});
    case 0x52:
      return f(ShapeKernel<5, 2>{});
    case 0x34:
      return f(ShapeKernel<3, 4>{});
    case 0x43:
      return f(ShapeKernel<4, 3>{});
    case 0x26:
      return f(ShapeKernel<2, 6>{});
    case 0x62:
      return f(ShapeKernel<6, 2>{});
    default:
      return f(ShapeKernel<3, 3>{});  // 0x33, and what the assert rules out
  }
}

}  // namespace eight::detail
