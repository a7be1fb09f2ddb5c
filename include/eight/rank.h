// Dense ranking of the positions of one class.
//
// A position is (blank cell, order of the tiles 1..8 read in reading order
// skipping the blank). No move changes the parity of that order, so each
// class holds 9 x 8!/2 = 181,440 positions, and
//
//   rank = blank_cell * 20160 + floor(lehmer(tiles) / 2)
//
// maps them onto 0..181,439 with no wasted slot. lehmer() is the Lehmer
// (Cantor) rank of the 8-tile order: sum of d_i * (7-i)!, where d_i counts
// the tiles after position i that are smaller than tile i. Two orders that
// differ only in their last two tiles have Lehmer ranks 2k and 2k+1 and
// opposite parity, so halving keeps exactly one of each pair per class.
// docs/table-format.md gives the same rule for readers in other languages.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>

#include "eight/board.h"

namespace eight {

inline constexpr std::uint32_t kTileOrders = 20160;                // 8! / 2
inline constexpr std::uint32_t kPositions = kCells * kTileOrders;  // 181,440

// Works for either class: each maps onto 0..181,439. REQUIRES: is_valid(b);
// b.shape == kShape3x3.
std::uint32_t rank(const Board& b);

// The rank and the tile parity (tile_parity()) of a board at once, for the
// price of the rank: what the solver needs of every board it is asked
// about. REQUIRES: is_valid(b); b.shape == kShape3x3.
struct Ranked {
  std::uint32_t rank;
  int parity;
};
Ranked rank_with_parity(const Board& b);

namespace detail {
// How rank() computes a Lehmer rank, for the core's table builders: the
// order of the eight tiles packed three bits each (tile t at bits 3i..3i+2
// as t - 1, for its index i in reading order, the blank skipped), in two
// lookups. A tile's Lehmer digit counts the smaller tiles after it; for each
// of the first four tiles that is (tile - 1) minus the smaller tiles before
// it, so those four digits depend on the first four tiles alone, and the
// last four digits on the last four alone. Bit 31 of the result is the
// order's parity, bits 0..30 its Lehmer rank. REQUIRES: `order` packs each
// of the tile values 0..7 once, bits 24..31 zero (anything else ranks as
// garbage).
std::uint32_t packed_order_lehmer(std::uint32_t order);
}  // namespace detail

// Inverse of rank() within the class of the given tile parity.
// REQUIRES: r < kPositions, parity is 0 or 1.
Board unrank(std::uint32_t r, int parity);

}  // namespace eight
