// Dense ranking of the positions of any table shape (shape.h), on raw cell
// arrays: the 3x3 rank.h generalised to every board of 4 to 12 cells, for
// the tables of every shape.
//
// Conventions (the same for every shape, and rank.h's on 3x3):
//  - A position of a Shape s is n = s.cells() bytes, the tile on each cell
//    in reading order, 0 for the blank: a permutation of 0..n-1.
//  - Moves are eight::Move (board.h), named by the direction the blank
//    moves, tried in move order (up, down, left, right) everywhere.
//  - The canonical goal for blank cell b holds the tiles 1..n-1 in reading
//    order around the blank at b (board.h's canonical_goal()).
//  - The class of a position (board.h's board_class()) is the parity of its tile order (the tiles
//    read in reading order, skipping the blank: the parity of its
//    inversions), XOR the parity of the blank's row when the board has an
//    even number of columns. A sideways move keeps both terms; a vertical
//    one carries a tile over the cols - 1 tiles between it and the blank,
//    changing the order's parity exactly when cols is even, when the row
//    term changes too. So no move changes the class, and (a classical
//    result for boards of at least 2 x 2) two positions are reachable from
//    each other exactly when their classes are equal. Every canonical goal
//    has an even order, so its class is its blank's row term.
//  - Within a class, with T = (n-1)!/2 orders per blank cell,
//
//      rank = blank_cell * T + floor(lehmer(order) / 2)
//
//    where lehmer() is the Lehmer (Cantor) rank of the order of the tiles
//    1..n-1: the sum of d_i * (n-2-i)!, d_i counting the tiles after index
//    i smaller than tile i. Two orders that differ only in their last two
//    tiles have Lehmer ranks 2k and 2k+1 and opposite parities, so halving
//    keeps exactly one of each pair per blank cell and class: the ranks of
//    a class are 0..n!/2 - 1 with no gap. On 3x3 this is rank.h's rank_3x3().
//
// Costs: a rank or an unrank is a few dozen cycles for 12 cells, without
// allocation: the arithmetic is instantiated per shape (core/rank/kernel.h),
// so its divisors are constants.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <span>

#include "eight/board.h"
#include "eight/shape.h"

namespace eight {

// Positions per class, n!/2: 12 for 2x2, 181,440 for 3x3, 239,500,800 for
// 12 cells. REQUIRES: is_table_shape(s).
std::uint32_t positions(Shape s);
// Tile orders per blank cell and class, (n-1)!/2: the stride of the blank
// cell in a rank. REQUIRES: is_table_shape(s).
std::uint32_t tile_orders(Shape s);

// True when `cells` is s.cells() bytes holding a permutation of
// 0..s.cells()-1. REQUIRES: is_table_shape(s).
bool is_valid_cells(Shape s, std::span<const std::uint8_t> cells);

// The rank of a position within its class: 0..positions(s)-1.
// REQUIRES: is_valid_cells(s, cells).
std::uint32_t rank_cells(Shape s, std::span<const std::uint8_t> cells);

// Inverse of rank_cells within class `cls`: writes the position of rank r
// to out (the order's parity for the blank's row is the one the class
// needs). REQUIRES: is_table_shape(s); r < positions(s); cls is 0 or 1;
// out.size() == s.cells().
void unrank_cells(Shape s, std::uint32_t r, int cls, std::span<std::uint8_t> out);

}  // namespace eight
