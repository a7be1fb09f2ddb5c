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
// This is any_rank.h's rank on 3x3 (whose class there is the tile parity),
// computed by the same code (core/rank/kernel.h) with a faster Lehmer rank.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>

#include "eight/board.h"

namespace eight {

inline constexpr std::uint32_t kTileOrders3x3 = 20160;                      // 8! / 2
inline constexpr std::uint32_t kPositions3x3 = kCells3x3 * kTileOrders3x3;  // 181,440

// Works for either class: each maps onto 0..181,439. REQUIRES: is_valid(b);
// b.shape == kShape3x3.
std::uint32_t rank_3x3(const Board& b);

// The rank and the tile parity (tile_parity()) of a board at once, for the
// price of the rank: what the solver needs of every board it is asked
// about. REQUIRES: is_valid(b); b.shape == kShape3x3.
struct Ranked {
  std::uint32_t rank;
  int parity;
};
Ranked rank_3x3_with_parity(const Board& b);

// Inverse of rank_3x3() within the class of the given tile parity.
// REQUIRES: r < kPositions3x3, parity is 0 or 1.
Board unrank_3x3(std::uint32_t r, int parity);

}  // namespace eight
