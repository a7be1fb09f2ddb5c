// The shape of a rectangular board: rows x columns, 4 to 12 cells for the
// boards eight answers from tables (2x2 up to 3x4, 4x3, 2x6 and 6x2), and
// 4x4, answered by a search.
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

// Every shape eight answers: the table shapes, then 4x4, the 15-puzzle,
// whose positions no table holds; a search over pattern databases answers
// it (eight/fifteen_search.h).
inline constexpr std::array<Shape, 13> kBoardShapes = {
    Shape{2, 2}, Shape{2, 3}, Shape{3, 2}, Shape{2, 4}, Shape{4, 2}, Shape{3, 3}, Shape{2, 5},
    Shape{5, 2}, Shape{3, 4}, Shape{4, 3}, Shape{2, 6}, Shape{6, 2}, Shape{4, 4}};

// True for the shapes of kTableShapes.
constexpr bool is_table_shape(Shape s) {
  for (const Shape t : kTableShapes) {
    if (t == s) return true;
  }
  return false;
}

// True for the shapes of kBoardShapes.
constexpr bool is_answered_shape(Shape s) {
  for (const Shape t : kBoardShapes) {
    if (t == s) return true;
  }
  return false;
}

// "3x4".
std::string to_string(Shape s);

// "3x3", "2x3 and 3x2", "2x2, 2x3 and 3x3": for messages.
std::string shape_list(std::span<const Shape> shapes);

// Parses "3x4" (also "3X4"): rows, an x, columns, one of kBoardShapes.
// Errors (kBadArgument) say what was wrong and list those shapes.
Result<Shape> parse_shape(std::string_view text);

}  // namespace eight
