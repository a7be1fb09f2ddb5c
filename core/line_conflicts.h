// Manhattan distance and linear conflicts towards a goal: the one home of
// the heuristic (grid_search.h explains it: MD + 2 * sum over lines of
// (k - LIS)), in the pieces the searches keep incrementally: the goal's row
// and column of each tile, and each row's and column's conflicts. Used by
// the grid IDA* and grid::manhattan_linear_conflict() (grid_search.cpp),
// the beam search (beam_search.cpp) and the reduction's last region
// (search/last_region.cpp). Private to the core.
//
// Thread safety: a Geometry is immutable once built; the functions are pure;
// a LineConflicts or an MdLcBoard is a plain value, one per search thread.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>

#include "eight/board.h"

namespace eight::grid {

// The goal's row and column of each tile, and the board's dimensions.
struct Geometry {
  int rows = 0;
  int cols = 0;
  std::array<std::uint8_t, kMaxCells> goal_row{};
  std::array<std::uint8_t, kMaxCells> goal_col{};

  explicit Geometry(const GridBoard& goal) : rows(goal.shape.rows), cols(goal.shape.cols) {
    for (int i = 0; i < goal.size(); ++i) {
      const std::uint8_t t = goal.cells[static_cast<std::size_t>(i)];
      goal_row[t] = static_cast<std::uint8_t>(i / cols);
      goal_col[t] = static_cast<std::uint8_t>(i % cols);
    }
  }

  // Tile t's Manhattan distance from `cell` to its goal cell.
  int distance(std::uint8_t t, int cell) const {
    return std::abs(cell / cols - goal_row[t]) + std::abs(cell % cols - goal_col[t]);
  }
};

// Removals needed to put `keys` (at most kMaxSide, goal positions along the
// line of the tiles that belong to it, in their order on the line) in
// order: their count less a longest increasing subsequence.
inline int removals(const std::uint8_t* keys, int k) {
  if (k < 2) return 0;
  std::array<std::uint8_t, kMaxSide> tails{};
  int length = 0;
  for (int i = 0; i < k; ++i) {
    std::uint8_t* at = std::lower_bound(tails.data(), tails.data() + length, keys[i]);
    *at = keys[i];
    if (at == tails.data() + length) ++length;
  }
  return k - length;
}

enum class Line { kRow, kColumn };

// The conflicts of row or column i of `cells` (rows x cols, reading order):
// of the tiles on it that belong on it, those not in a longest run already
// in their goal order along it.
inline int line_conflicts(const Geometry& g, const std::uint8_t* cells, Line line, int i) {
  const bool row = line == Line::kRow;
  const int length = row ? g.cols : g.rows;
  std::array<std::uint8_t, kMaxSide> keys{};
  int k = 0;
  for (int j = 0; j < length; ++j) {
    const std::uint8_t t = cells[row ? i * g.cols + j : j * g.cols + i];
    if (t == 0 || (row ? g.goal_row[t] : g.goal_col[t]) != i) continue;
    keys[static_cast<std::size_t>(k++)] = row ? g.goal_col[t] : g.goal_row[t];
  }
  return removals(keys.data(), k);
}

// Each row's and column's conflicts of a board and their sum, kept as tiles
// slide: a slide changes the conflicts of only the two lines the tile
// crosses, its old and new column for a horizontal move, rows for a
// vertical one. The searches keep one per board (the beam one per kept
// board: small, 22 bytes).
struct LineConflicts {
  std::array<std::uint8_t, kMaxSide> row{};
  std::array<std::uint8_t, kMaxSide> col{};
  std::uint16_t total = 0;

  // Counted from scratch for `cells` (g.rows x g.cols, reading order).
  void count(const Geometry& g, const std::uint8_t* cells) {
    total = 0;
    for (int r = 0; r < g.rows; ++r) {
      row[static_cast<std::size_t>(r)] =
          static_cast<std::uint8_t>(line_conflicts(g, cells, Line::kRow, r));
      total = static_cast<std::uint16_t>(total + row[static_cast<std::size_t>(r)]);
    }
    for (int c = 0; c < g.cols; ++c) {
      col[static_cast<std::size_t>(c)] =
          static_cast<std::uint8_t>(line_conflicts(g, cells, Line::kColumn, c));
      total = static_cast<std::uint16_t>(total + col[static_cast<std::size_t>(c)]);
    }
  }

  // Brought up to date after the tile on cell `to` slid into the blank on
  // `from`; `cells` already shows the slide. Of the two lines the tile
  // crosses only one it belongs on can change (a line counts only its own
  // tiles), and on most slides neither is its own: at most one recount.
  void slid(const Geometry& g, const std::uint8_t* cells, int from, int to) {
    const auto recount = [&](std::array<std::uint8_t, kMaxSide>& lines, Line line, int i) {
      const int now = line_conflicts(g, cells, line, i);
      total = static_cast<std::uint16_t>(total + now - lines[static_cast<std::size_t>(i)]);
      lines[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(now);
    };
    const std::uint8_t t = cells[from];
    if (to / g.cols == from / g.cols) {  // horizontal: the tile changes column
      const int own = g.goal_col[t];
      if (own == to % g.cols || own == from % g.cols) recount(col, Line::kColumn, own);
    } else {  // vertical: the tile changes row
      const int own = g.goal_row[t];
      if (own == to / g.cols || own == from / g.cols) recount(row, Line::kRow, own);
    }
  }
};

// The Manhattan distance of the n cells of `cells`.
inline int manhattan(const Geometry& g, const std::uint8_t* cells, int n) {
  int md = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint8_t t = cells[i];
    if (t != 0) md += g.distance(t, i);
  }
  return md;
}

// Manhattan distance plus linear conflicts of `cells` (g.rows x g.cols,
// reading order) from scratch.
inline int manhattan_linear_conflict(const Geometry& g, const std::uint8_t* cells) {
  LineConflicts lc;
  lc.count(g, cells);
  return manhattan(g, cells, g.rows * g.cols) + 2 * lc.total;
}

// A board with its Manhattan distance and linear conflicts kept as tiles
// slide: a move changes one tile's distance by one and recounts the two
// lines it crosses (at most 10 tiles each), no allocation. The grid IDA*'s
// board (grid_search.cpp) and the reduction's last region's.
struct MdLcBoard {
  std::array<std::uint8_t, kMaxCells> cells{};
  int blank = 0;
  int md = 0;
  LineConflicts lc;

  // REQUIRES: `start` holds g.rows * g.cols cells, a permutation of the
  // goal's tiles.
  MdLcBoard(const Geometry& g, const std::uint8_t* start) {
    const int n = g.rows * g.cols;
    std::copy(start, start + n, cells.begin());
    blank = static_cast<int>(std::find(start, start + n, std::uint8_t{0}) - start);
    md = manhattan(g, cells.data(), n);
    lc.count(g, cells.data());
  }

  int h() const { return md + 2 * lc.total; }

  // Slides the tile on `to` into the blank; returns that tile.
  // REQUIRES: `to` is a neighbour of the blank's cell.
  std::uint8_t slide(const Geometry& g, int to) {
    const int from = blank;
    const std::uint8_t t = cells[static_cast<std::size_t>(to)];
    md += g.distance(t, from) - g.distance(t, to);
    cells[static_cast<std::size_t>(from)] = t;
    cells[static_cast<std::size_t>(to)] = 0;
    blank = to;
    lc.slid(g, cells.data(), from, to);
    return t;
  }
};

}  // namespace eight::grid
