// Any goal board, answered from a few canonical sections.
//
// Two maps take a (board, goal) question onto a question a table section
// answers, without changing its answer:
//  - a symmetry of the square (8 of them) moves the blank of the goal onto
//    a cell that has a section (a corner, an edge or the centre), and
//  - relabelling the tiles turns that goal into the section's canonical goal:
//    tiles 1..8 in reading order around the same blank cell.
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

// A symmetry of the 3x3 square: cell i goes to cell cell_map[i], and a move
// in direction m becomes move_map[m].
struct Symmetry {
  std::array<std::uint8_t, kCells> cell_map{};
  std::array<Move, 4> move_map{};
  std::array<Move, 4> inverse_move_map{};
};

// The eight symmetries, identity first.
const std::array<Symmetry, 8>& symmetries();

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
// checks these against symmetries()). REQUIRES: s is one of symmetries().
Board transform(const Board& b, const Symmetry& s);

// Tiles 1..8 in reading order around a blank at `blank`; e.g. blank 8 gives
// the standard goal 123456780, blank 4 gives 123405678.
// REQUIRES: 0 <= blank < kCells.
Board canonical_goal(int blank);
// True when `b` is the canonical goal of its own blank; false for any other
// board, valid or not.
bool is_canonical_goal(const Board& b);

// How one goal maps onto one section: built once per goal, then applied to
// every board asked about that goal.
// Table::frame() builds them; tests may build one directly.
class GoalFrame {
 public:
  // `section` is the index of the section whose goal's blank `symmetry`
  // takes the goal's blank onto. REQUIRES: is_valid(goal); symmetry is one
  // of symmetries().
  GoalFrame(const Board& goal, std::size_t section, const Symmetry& symmetry);

  const Board& goal() const { return goal_; }
  std::size_t section() const { return section_; }
  // Parity of the boards that can reach this goal.
  int parity() const { return parity_; }

  // The board as the section sees it. REQUIRES: is_valid(b).
  Board to_section(const Board& b) const;
  // Inverse of to_section: a board the section sees, as an original board.
  // REQUIRES: is_valid(b).
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
  int parity_;
  Symmetry symmetry_;
  std::array<std::uint8_t, kCells> label_{};    // original tile -> section tile
  std::array<std::uint8_t, kCells> unlabel_{};  // section tile -> original tile
};

}  // namespace eight
