// The one home of the library's ranking arithmetic. Private to the core.
//
//  - take_nth(): the one unrank step, "take the d-th value not yet used",
//    branch-free over a pool of nibbles; every unrank below is built on it.
//  - ShapeKernel<rows, cols>: the dense rank of include/eight/any_rank.h,
//    one instantiation per table shape, so that every loop bound, factorial
//    and divisor is a compile-time constant: divisions by them become
//    multiplies, and the loops unroll. Shared by any_rank.cpp (the public
//    functions), rank.cpp (the 3x3 functions of include/eight/rank.h, which
//    are ShapeKernel<3, 3>), the full and mod-3 searches and descent, which
//    move between ranks without building cells, the 3x3 section search
//    (section_search.h) and board_class() in board.cpp.
//  - ShapeKernel<3, 3> is the 3x3 fast path: its Lehmer rank is two
//    lookups in the half tables below (packed_order_lehmer), its packing
//    of cells branch-free (pack<3>), and its unrank one lookup in
//    kEvenOrders (packed_order_of), in place of the generic loops;
//    tests/rank_test.cpp checks each equal to the generic one on every 3x3
//    position or order.
//  - The placement rank of include/eight/pattern_db.h (placement.h).
//
// A position here is (blank cell, packed order): the tiles read in reading
// order skipping the blank, tile t as the nibble t - 1 at bits 4i..4i+3 for
// its index i in that order (11 tiles need 44 bits). The 3x3 half tables
// take three bits a tile instead (eight tiles in 24 bits, four to a 12-bit
// key), which is what keeps them small.
//
// Thread safety: pure functions and constants.
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstdint>

#include "eight/board.h"
#include "eight/shape.h"
#include "eight/table_format.h"

namespace eight::detail {

constexpr std::uint32_t factorial(int k) {
  return k <= 1 ? 1 : k * factorial(k - 1);
}

// The values 0..15 ascending, one per nibble: the pool take_nth() starts from.
inline constexpr std::uint64_t kFullPool = 0xFEDCBA9876543210ull;

// The one unrank step: removes the d-th nibble of `pool` (the values not yet
// taken, ascending, one per nibble) and returns it, closing the gap. Free of
// branches: random digits would mispredict a loop's branches on nearly every
// step. REQUIRES: d < 16.
[[gnu::always_inline]] constexpr unsigned take_nth(std::uint64_t& pool, unsigned d) {
  assert(d < 16);
  const unsigned shift = 4 * d;
  const std::uint64_t low = (std::uint64_t{1} << shift) - 1;
  const auto value = static_cast<unsigned>((pool >> shift) & 0xF);
  pool = (pool & low) | ((pool >> 4) & ~low);
  return value;
}

// The 3x3 fast path's tables: for each 12-bit key (four tiles, three bits
// each, as tile - 1), the Lehmer digits' share of the first four tiles
// (prefix) or the last four (suffix), with the parity of those digits' sum
// in bit 31, so that adding the halves adds the ranks and XORs the
// parities. A tile's Lehmer digit counts the smaller tiles after it; for
// each of the first four tiles that is (tile - 1) minus the smaller tiles
// before it, so those four digits depend on the first four tiles alone, and
// the last four digits on the last four alone. Built at compile time.
struct HalfTables {
  std::array<std::uint32_t, 4096> prefix{};
  std::array<std::uint32_t, 4096> suffix{};
};

constexpr HalfTables make_half_tables() {
  HalfTables t;
  for (std::uint32_t key = 0; key < 4096; ++key) {
    std::uint32_t tiles[4] = {};
    for (std::uint32_t i = 0; i < 4; ++i) tiles[i] = (key >> (3 * i)) & 7;
    std::uint32_t p = 0, p_sum = 0, q = 0, q_sum = 0;
    for (std::uint32_t i = 0; i < 4; ++i) {
      std::uint32_t before = 0, after = 0;
      for (std::uint32_t j = 0; j < i; ++j) before += tiles[j] < tiles[i] ? 1 : 0;
      for (std::uint32_t j = i + 1; j < 4; ++j) after += tiles[j] < tiles[i] ? 1 : 0;
      // (a key with a tile twice is no order; the guard keeps it harmless)
      const std::uint32_t first = tiles[i] >= before ? tiles[i] - before : 0;
      p += first * factorial(7 - static_cast<int>(i));
      p_sum += first;
      q += after * factorial(3 - static_cast<int>(i));
      q_sum += after;
    }
    t.prefix[key] = p | (p_sum & 1) << 31;
    t.suffix[key] = q | (q_sum & 1) << 31;
  }
  return t;
}

inline constexpr HalfTables kHalfTables = make_half_tables();

// The Lehmer rank of eight tiles packed three bits each (tile t at bits
// 3i..3i+2 as t - 1, for its index i), in two lookups: bits 0..30 the rank,
// bit 31 the order's parity. REQUIRES: `order` packs each of 0..7 once,
// bits 24..31 zero (anything else ranks as garbage).
inline bool is_packed_order(std::uint32_t order) {
  unsigned seen = 0;
  for (int i = 0; i < 8; ++i) seen |= 1u << ((order >> (3 * i)) & 7);
  return order >> 24 == 0 && seen == 0xFF;
}
inline std::uint32_t packed_order_lehmer(std::uint32_t order) {
  assert(is_packed_order(order));
  return kHalfTables.prefix[order & 0xFFF] + kHalfTables.suffix[(order >> 12) & 0xFFF];
}

// The 3x3 fast path's unrank: kEvenOrders[i] is the even packed order (three
// bits a tile, as packed_order_lehmer reads them) of order index i, that is
// of Lehmer rank 2i or 2i + 1, whichever is even (the two differ by
// swapping the last two tiles). 20,160 entries, 80 KiB, built at compile
// time by the generic digits and take_nth(); tests/rank_test.cpp checks
// every entry against ShapeKernel<3, 3>'s generic order and
// packed_order_lehmer.
struct EvenOrders {
  std::array<std::uint32_t, factorial(8) / 2> at{};
};

// Entry `index` of kEvenOrders.
constexpr std::uint32_t even_order(std::uint32_t index) {
  // Digits 0..5 of Lehmer rank 2 index; digit 6 (weight 1) makes it even.
  std::uint32_t rest = index, digits[8] = {}, sum = 0;
  for (int k = 5; k >= 0; --k) {
    const auto radix = static_cast<std::uint32_t>(8 - k);
    digits[k] = rest % radix;
    rest /= radix;
    sum += digits[k];
  }
  digits[6] = sum & 1;
  std::uint64_t pool = kFullPool;
  std::uint32_t order = 0;
  for (int k = 0; k < 8; ++k) order |= take_nth(pool, digits[k]) << (3 * k);
  return order;
}

#if defined(__EMSCRIPTEN__)
// In WebAssembly (the JavaScript package, js/) the table is made as the
// module starts, in well under a millisecond, rather than shipped in it:
// its 80 KiB were a quarter of the package's download, gzipped. (Defined
// in rank.cpp, out of sight, so that no compiler folds it back into data.)
EvenOrders make_even_orders_at_start();
inline const EvenOrders kEvenOrders = make_even_orders_at_start();
#else
// Entries [kFirst, kFirst + kCount) of kEvenOrders.
template <std::uint32_t kFirst, std::uint32_t kCount>
constexpr std::array<std::uint32_t, kCount> make_even_orders() {
  std::array<std::uint32_t, kCount> part{};
  for (std::uint32_t i = 0; i < kCount; ++i) part[i] = even_order(kFirst + i);
  return part;
}

// Built in four quarters, each a constant expression of its own: clang
// bounds the steps of one (-fconstexpr-steps, 1,048,576 by default), and
// the whole table at once takes about two million.
inline constexpr std::uint32_t kEvenOrdersQuarter = factorial(8) / 8;
inline constexpr auto kEvenOrders0 = make_even_orders<0 * kEvenOrdersQuarter, kEvenOrdersQuarter>();
inline constexpr auto kEvenOrders1 = make_even_orders<1 * kEvenOrdersQuarter, kEvenOrdersQuarter>();
inline constexpr auto kEvenOrders2 = make_even_orders<2 * kEvenOrdersQuarter, kEvenOrdersQuarter>();
inline constexpr auto kEvenOrders3 = make_even_orders<3 * kEvenOrdersQuarter, kEvenOrdersQuarter>();

constexpr EvenOrders join_even_orders() {
  EvenOrders t;
  for (std::uint32_t i = 0; i < kEvenOrdersQuarter; ++i) {
    t.at[i] = kEvenOrders0[i];
    t.at[kEvenOrdersQuarter + i] = kEvenOrders1[i];
    t.at[2 * kEvenOrdersQuarter + i] = kEvenOrders2[i];
    t.at[3 * kEvenOrdersQuarter + i] = kEvenOrders3[i];
  }
  return t;
}

inline constexpr EvenOrders kEvenOrders = join_even_orders();
#endif

// The packed order (three bits a tile) of order index `rest` whose Lehmer
// parity is `parity`: one lookup, and for odd the last two tiles swapped.
// REQUIRES: rest < 20160, parity 0 or 1.
inline std::uint32_t packed_order_of(std::uint32_t rest, int parity) {
  assert(rest < kEvenOrders.at.size() && (parity == 0 || parity == 1));
  const std::uint32_t even = kEvenOrders.at[rest];
  const std::uint32_t differ =
      ((even >> 18) ^ (even >> 21)) & 7 & (0u - static_cast<unsigned>(parity));
  return even ^ (differ << 18 | differ << 21);
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
  // Bit m set when the blank on cell c may move by m (up, down, left,
  // right): board.h's move table, as masks.
  static constexpr std::array<std::uint8_t, kN> make_legal() {
    std::array<std::uint8_t, kN> l{};
    for (int c = 0; c < kN; ++c) {
      for (int m = 0; m < 4; ++m) {
        if (kNeighborTables[kR - 1][kC - 1][c][m] >= 0)
          l[c] = static_cast<std::uint8_t>(l[c] | 1 << m);
      }
    }
    return l;
  }
  static constexpr std::array<std::uint8_t, kN> kLegal = make_legal();

  // What the class invariant adds for a blank on `cell` (any_rank.h): its
  // row's parity on a board an even number of columns wide, else nothing.
  static constexpr int row_term(int cell) { return kC % 2 == 0 ? (cell / kC) & 1 : 0; }

  // Lehmer rank of a packed order, in bits 0..30, its parity in bit 31, by
  // the loop every shape shares. Digit i is (tile i - 1) minus the tiles
  // before it that are smaller; `below` counts those for every value at
  // once, a nibble per value, so no popcount (which, without -mpopcnt, is a
  // library call) is needed. REQUIRES: order packs each of 0..kM-1 once.
  static std::uint32_t generic_lehmer(std::uint64_t order) {
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

  // The same, on 3x3 by the fast path (packed_order_lehmer, after narrowing
  // the nibbles to three bits), elsewhere generic_lehmer().
  static std::uint32_t lehmer(std::uint64_t order) {
    if constexpr (kR == 3 && kC == 3) {
      return packed_order_lehmer(narrow(order));
    } else {
      return generic_lehmer(order);
    }
  }

  // Eight nibbles, each below 8, as eight 3-bit fields.
  static std::uint32_t narrow(std::uint64_t order) {
    auto x = static_cast<std::uint32_t>(order);
    x = (x & 0x07070707u) | ((x & 0x70707070u) >> 1);  // 6 bits a byte
    x = (x & 0x003F003Fu) | ((x & 0x3F003F00u) >> 2);  // 12 bits a half
    return (x & 0x00000FFFu) | ((x & 0x0FFF0000u) >> 4);
  }

  // Eight 3-bit fields as eight nibbles: narrow()'s inverse.
  static std::uint64_t widen(std::uint32_t x) {
    x = (x & 0x00000FFFu) | ((x & 0x00FFF000u) << 4);  // 12 bits a half
    x = (x & 0x003F003Fu) | ((x & 0x0FC00FC0u) << 2);  // 6 bits a byte
    return (x & 0x07070707u) | ((x & 0x38383838u) << 1);
  }

  // The rank of (blank, order) given the order's Lehmer rank and parity (as
  // lehmer() returns them).
  static std::uint32_t rank_of_lehmer(int blank, std::uint32_t l) {
    assert(blank >= 0 && blank < kN);
    return static_cast<std::uint32_t>(blank) * kOrders + ((l & 0x7FFFFFFF) >> 1);
  }

  // The rank of (blank, order) and the class it is in.
  static std::uint32_t rank(int blank, std::uint64_t order, int* cls = nullptr) {
    const std::uint32_t l = lehmer(order);
    if (cls != nullptr) *cls = static_cast<int>(l >> 31) ^ row_term(blank);
    return rank_of_lehmer(blank, l);
  }

  // The packed order of index `rest` (< kOrders) whose parity is `parity`:
  // on 3x3 by the lookup (packed_order_of), elsewhere generic_order_of().
  static std::uint64_t order_of(std::uint32_t rest, int parity) {
    assert(rest < kOrders && (parity == 0 || parity == 1));
    if constexpr (kR == 3 && kC == 3) return widen(packed_order_of(rest, parity));
    return generic_order_of(rest, parity);
  }
  // The same by the loop every shape shares: Lehmer digits by constant
  // divisors; the digit before last (weight 1!) is the one the parity
  // fixes, the last is always 0.
  static std::uint64_t generic_order_of(std::uint32_t rest, int parity) {
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
    std::uint64_t pool = kFullPool;
    std::uint64_t order = 0;
#pragma GCC unroll 16
    for (int i = 0; i < kM; ++i) {
      order |= static_cast<std::uint64_t>(take_nth(pool, digits[i])) << (4 * i);
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

  // The packed order and blank of a position's cells, kBits a tile (4, or
  // 3 for packed_order_lehmer on 3x3).
  // REQUIRES: cells holds a permutation of 0..kN-1.
  template <unsigned kBits = 4>
  static std::uint64_t pack(const std::uint8_t* cells, int& blank) {
    static_assert(kBits == 4 || (kBits == 3 && kR == 3 && kC == 3));
    if constexpr (kBits == 3) {
      // The 3x3 fast path's packing, free of branches, eight cells to a
      // word: a loop branching on the blank mispredicts once a board.
      const std::uint64_t first8 = format::get_u64(cells);  // cells 0..7, a byte each
      constexpr std::uint64_t kOnes = 0x0101010101010101ull;
      // The lowest zero byte's top bit (bytes hold 0..8, so the lowest hit
      // is exact); none when the blank is on cell 8.
      const std::uint64_t zero = (first8 - kOnes) & ~first8 & (kOnes << 7);
      const std::uint64_t hit = zero & (0 - zero);
      blank = std::countr_zero(hit) >> 3;           // 64 >> 3 = 8 when none
      const std::uint64_t before = (hit >> 7) - 1;  // the bytes before the blank
      // The tiles in order, the blank's byte closed, tile t as t - 1.
      const std::uint64_t tiles = ((first8 & before) | ((first8 >> 8) & ~before) |
                                   static_cast<std::uint64_t>(cells[8]) << 56) -
                                  kOnes;
      // Eight bytes of three bits as eight 3-bit fields: narrow()'s steps.
      std::uint64_t x = (tiles | tiles >> 5) & 0x003F003F003F003Full;
      x = (x | x >> 10) & 0x00000FFF00000FFFull;
      return (x | x >> 20) & 0xFFFFFFu;
    }
    std::uint64_t order = 0;
    unsigned shift = 0;
    int at = 0;
#pragma GCC unroll 16
    for (int c = 0; c < kN; ++c) {
      const unsigned t = cells[c];
      // The blank writes a zero field that the next tile overwrites.
      order |= static_cast<std::uint64_t>(t - (t != 0 ? 1 : 0)) << shift;
      shift += t != 0 ? kBits : 0;
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
