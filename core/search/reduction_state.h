// The reduction's board (reduction_solver.h): the shape's cells with their
// rows, columns and neighbours (board.h's one move table), and a board with
// every tile renamed to its goal cell. Shared by the reduction's pieces in
// core/search/. Private to the core.
//
// Thread safety: a Geometry is immutable once built; a State is a plain
// value.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <cstdlib>

#include "eight/board.h"

namespace eight::reduction {

// The sides a board may have: kMinSide to eight::kMaxSide (shape.h).
inline constexpr int kMinSide = 2;

// A set of cells: 1 on the cells in it.
using Mask = std::array<std::uint8_t, kMaxCells>;

// The board's shape, each cell's row and column, and each cell's neighbour
// in each move's direction.
struct Geometry {
  // REQUIRES: kMinSide <= rows, cols <= kMaxSide.
  Geometry(int rows_in, int cols_in)
      : rows(rows_in),
        cols(cols_in),
        cells(rows_in * cols_in),
        nbr(kNeighborTables[static_cast<std::size_t>(rows_in - 1)]
                           [static_cast<std::size_t>(cols_in - 1)]) {
    assert(rows >= kMinSide && rows <= kMaxSide && cols >= kMinSide && cols <= kMaxSide);
    for (int c = 0; c < cells; ++c) {
      row_of[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(c / cols);
      col_of[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(c % cols);
    }
  }
  // Looked up, not divided: the window searches ask them most of the time.
  int row(int c) const { return row_of[static_cast<std::size_t>(c)]; }
  int col(int c) const { return col_of[static_cast<std::size_t>(c)]; }
  // The Manhattan distance between two cells.
  int distance(int a, int b) const { return std::abs(row(a) - row(b)) + std::abs(col(a) - col(b)); }
  // The cell the blank reaches from c by m, or -1 off the board.
  int neighbor(int c, int m) const {
    return nbr[static_cast<std::size_t>(c)][static_cast<std::size_t>(m)];
  }

  int rows, cols, cells;
  // This shape's slice of board.h's move table: [cell][move], -1 off the board.
  const std::array<std::array<std::int8_t, 4>, kMaxCells>& nbr;
  std::array<std::int8_t, kMaxCells> row_of{}, col_of{};
};

// Rows [r0, r1) and columns [c0, c1).
struct Rect {
  int r0, r1, c0, c1;
  int height() const { return r1 - r0; }
  int width() const { return c1 - c0; }
};

// A board with every tile renamed to its goal cell, so that tile t is home
// when it is on cell t and the goal is the identity. The blank is the tile
// named after the goal's blank cell.
struct State {
  int blank() const { return where[static_cast<std::size_t>(blank_tile)]; }
  void apply(const Geometry& g, Move m) {
    const int e = blank();
    const int e2 = g.neighbor(e, static_cast<int>(m));
    assert(e2 >= 0);
    const std::uint8_t t = at[static_cast<std::size_t>(e2)];
    at[static_cast<std::size_t>(e)] = t;
    where[t] = static_cast<std::uint8_t>(e);
    at[static_cast<std::size_t>(e2)] = static_cast<std::uint8_t>(blank_tile);
    where[static_cast<std::size_t>(blank_tile)] = static_cast<std::uint8_t>(e2);
  }

  std::array<std::uint8_t, kMaxCells> at{};     // the tile on each cell
  std::array<std::uint8_t, kMaxCells> where{};  // the cell of each tile
  int blank_tile = 0;
};

}  // namespace eight::reduction
