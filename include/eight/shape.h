// The shape of a rectangular board: rows x columns, from 2x2 to 10x10:
// 4 to 12 cells for the boards eight answers from tables (2x2 up to 3x4,
// 4x3, 2x6 and 6x2), 4x4, answered by a search over pattern databases, and
// every other rectangle up to 10x10, answered by searches and reduction.
//
// Cells are numbered 0..cells()-1 in reading order (row-major, top-left
// first). The canonical goal of a shape for a blank cell holds the tiles
// 1..cells()-1 in reading order around the blank (blank last: 1 2 3 / 4 5 0
// for 2x3).
//
// Thread safety: plain values and pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "eight/result.h"

namespace eight {

// The largest board any table answers, in cells.
inline constexpr int kMaxTableCells = 12;
// The most rows, and the most columns, a board has (10x10).
inline constexpr int kMaxSide = 10;

struct Shape {
  std::uint8_t rows = 3;
  std::uint8_t cols = 3;

  constexpr int cells() const { return rows * cols; }
  constexpr bool square() const { return rows == cols; }
  constexpr Shape transposed() const { return Shape{cols, rows}; }

  friend constexpr bool operator==(Shape, Shape) = default;
};

inline constexpr Shape kShape3x3{3, 3};
// The 15-puzzle's board: too large for a table, answered by a search over
// pattern databases (pattern_db.h, fifteen_search.h).
inline constexpr Shape kShape4x4{4, 4};

// Every shape a table answers, smallest first, a shape before its
// transpose: 2x2, 2x3, 3x2, 2x4, 4x2, 3x3, 2x5, 5x2, 3x4, 4x3, 2x6, 6x2.
inline constexpr std::array<Shape, 12> kTableShapes = {
    Shape{2, 2}, Shape{2, 3}, Shape{3, 2}, Shape{2, 4}, Shape{4, 2}, Shape{3, 3},
    Shape{2, 5}, Shape{5, 2}, Shape{3, 4}, Shape{4, 3}, Shape{2, 6}, Shape{6, 2}};

// Rectangles of 2 to 10 rows and 2 to 10 columns: every board eight
// answers (the shapes of kBoardShapes, below).
constexpr bool is_board_shape(Shape s) {
  return s.rows >= 2 && s.cols >= 2 && s.rows <= kMaxSide && s.cols <= kMaxSide;
}

// True for the shapes of kTableShapes.
constexpr bool is_table_shape(Shape s) {
  for (const Shape t : kTableShapes) {
    if (t == s) return true;
  }
  return false;
}

// Every shape eight answers: every rectangle of 2 to 10 rows and 2 to 10
// columns (is_board_shape), 81 of them, fewest cells first, then
// the squarer first, a shape before its transpose: 2x2, 2x3, 3x2, 2x4, 4x2,
// 3x3, 2x5, 5x2, 3x4, 4x3, 2x6, 6x2, 2x7, 7x2, 3x5, 5x3, 4x4, 2x8, 8x2 ...
// 10x10. Tables answer kTableShapes exactly; 4x4 is answered by a search
// over pattern databases (eight/fifteen_search.h); the rest by searches and
// reduction (eight/answer.h says which answers are proven optimal).
inline constexpr std::array<Shape, 81> kBoardShapes = [] {
  std::array<Shape, 81> all{};
  std::size_t n = 0;
  for (int cells = 4; cells <= kMaxSide * kMaxSide; ++cells) {
    for (int diff = 0; diff < kMaxSide; ++diff) {
      for (int rows = 2; rows <= kMaxSide; ++rows) {
        if (cells % rows != 0) continue;
        const int cols = cells / rows;
        if (cols < 2 || cols > kMaxSide || (rows > cols ? rows - cols : cols - rows) != diff) {
          continue;
        }
        all[n++] = Shape{static_cast<std::uint8_t>(rows), static_cast<std::uint8_t>(cols)};
      }
    }
  }
  return all;
}();
static_assert(kBoardShapes[12] == Shape{2, 7} && kBoardShapes[16] == Shape{4, 4} &&
              kBoardShapes[80] == Shape{10, 10});

// The shapes no table section answers, whose questions eight/answer.h's
// grid engine answers by search and reduction: every board shape but the
// table shapes and 4x4 (2x7, 7x2, 3x5, 5x3, 2x8 ... 10x10). (A table may
// hold pattern databases for 2x7, 3x5 and 2x8, which that search uses.)
constexpr bool is_grid_shape(Shape s) {
  return is_board_shape(s) && !is_table_shape(s) && s != Shape{4, 4};
}

// "3x4".
std::string to_string(Shape s);

// "3x3", "2x3 and 3x2", "2x2, 2x3 and 3x3": for messages.
std::string shape_list(std::span<const Shape> shapes);

// Parses "3x4" (also "3X4"): rows, an x, columns, one of kBoardShapes.
// Errors (kBadArgument) say what was wrong and what the shapes are.
Result<Shape> parse_shape(std::string_view text);

// The shape of `rows` x `cols` given as numbers (the C API's options, and
// the bindings over it): one of kBoardShapes, or an error (kWrongShape)
// naming it, "eight answers no 255x255 boards: the shapes have rows and
// columns from 2 to 10". Any int is safe to pass: nothing is narrowed
// before the check.
Result<Shape> board_shape(long long rows, long long cols);

// The error for a shape eight does not answer, `shape` as the caller wrote
// it ("16x16"): the one message board_shape() and the board parser give.
Error unanswered_shape(std::string_view shape);

}  // namespace eight
