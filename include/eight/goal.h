// Any goal board, answered from a few canonical sections.
//
// Two maps take a (board, goal) question onto a question a table section
// answers, without changing its answer:
//  - a symmetry of the rectangle moves the blank of the goal onto a cell
//    that has a section (on 3x3 a corner, an edge or the centre). Each of
//    the 8 symmetries of the square acts on any rectangle: on a square board
//    all 8 keep its shape; on an R x C board with R != C, 4 keep it
//    (identity, the half turn, the two mirrors) and 4 (the quarter turns and
//    the two transposes) map it onto the C x R board, so a 3x2 question is
//    answered by a 2x3 section; and
//  - relabelling the tiles turns that goal into the section's canonical goal:
//    tiles 1..n-1 in reading order around the same blank cell.
// Both maps commute with sliding tiles, so distances are equal and a path
// found in the section maps back to a path for the original question by
// mapping each move through the inverse symmetry.
//
// A GoalFrame is a small value that owns copies of its goal and symmetry and
// borrows nothing, so it may outlive the table it came from; but the section
// index it holds means something only to that table (Solver checks it in
// debug builds).
//
// Thread safety: pure functions and immutable values.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>

#include "eight/board.h"

namespace eight {

// A symmetry taking boards of shape `from` onto boards of shape `to` (the
// same, or its transpose): cell i goes to cell cell_map[i] (for i below
// from.cells(); the rest are zero), and a move in direction m becomes
// move_map[m].
struct Symmetry {
  Shape from;
  Shape to;
  std::array<std::uint8_t, kMaxCells> cell_map{};
  std::array<Move, 4> move_map{};
  std::array<Move, 4> inverse_move_map{};
};

// The eight symmetries of boards of shape `s`, identity first, in the order
// of the table below. Built once per shape, thread-safely; the reference
// stays valid for the life of the process. REQUIRES: is_board_shape(s).
const std::array<Symmetry, 8>& symmetries(Shape s = kShape3x3);

// The board seen through a symmetry: out.cells[s.cell_map[i]] = b.cells[i].
// The symmetries, in the order symmetries() lists them and a goal is mapped
// through the first that lands its blank on a section's cell, are (cells in
// reading order 0..8):
//   0 identity          0 1 2 3 4 5 6 7 8
//   1 rotate 90 cw      2 5 8 1 4 7 0 3 6
//   2 rotate 180        8 7 6 5 4 3 2 1 0
//   3 rotate 270 cw     6 3 0 7 4 1 8 5 2
//   4 mirror left-right 2 1 0 5 4 3 8 7 6
//   5 mirror up-down    6 7 8 3 4 5 0 1 2
//   6 transpose         0 3 6 1 4 7 2 5 8
//   7 anti-transpose    8 5 2 7 4 1 6 3 0
// (row k lists cell_map[0..8]: where each cell goes; tests/goal_test.cpp
// checks these against symmetries()). On other shapes the same eight maps
// act about the board's middle: rows and columns are mirrored, and 1, 3, 6
// and 7 exchange rows with columns. REQUIRES: s is one of
// symmetries(b.shape); is_valid(b).
template <int kCapacity>
BasicBoard<kCapacity> transform(const BasicBoard<kCapacity>& b, const Symmetry& s);

// True when `b` is the canonical goal (board.h's canonical_goal()) of its
// own blank; false for any other board, valid or not.
bool is_canonical_goal(const Board& b);

// The most cells a section has (a table's, or a set of pattern databases':
// 4x4), so the most a GoalFrame maps.
inline constexpr int kMaxSectionCells = 16;

// How one goal maps onto one section: built once per goal, then applied to
// every board asked about that goal.
// Table::frame() builds them; tests may build one directly.
class GoalFrame {
 public:
  // `section` is the index of the section whose goal's blank `symmetry`
  // takes the goal's blank onto. REQUIRES: is_valid(goal);
  // goal.size() <= kMaxSectionCells; symmetry is one of
  // symmetries(goal.shape).
  GoalFrame(const Board& goal, std::size_t section, const Symmetry& symmetry);

  const Board& goal() const { return goal_; }
  std::size_t section() const { return section_; }
  // The class (board_class()) of the boards that can reach this goal.
  int board_class() const { return class_; }

  // The board as the section sees it. REQUIRES: is_valid(b);
  // b.shape == goal().shape.
  Board to_section(const Board& b) const;
  // Inverse of to_section: a board the section sees, as an original board.
  // REQUIRES: is_valid(b); b.shape is the section's (goal().shape, or its
  // transpose when the symmetry exchanges rows with columns).
  Board from_section(const Board& b) const;
  // A move made in the section, as a move on the original board.
  // REQUIRES: m is one of kAllMoves.
  Move from_section(Move m) const {
    assert(static_cast<unsigned>(m) < 4);
    return symmetry_.inverse_move_map[static_cast<int>(m)];
  }

 private:
  Board goal_;
  std::size_t section_;
  int class_;
  Symmetry symmetry_;
  std::array<std::uint8_t, kMaxSectionCells> label_{};        // original tile -> section tile
  std::array<std::uint8_t, kMaxSectionCells> unlabel_{};      // section tile -> original tile
  std::array<std::uint8_t, kMaxSectionCells> source_cell_{};  // section cell -> original cell
};

}  // namespace eight
