// Answering questions from a verified table: distances and optimal paths for
// any (board, goal) pair, in O(path length) with no search and no allocation.
//
// Lifetime: a Solver keeps a reference to its TableView; it must not outlive
// the view, which must not outlive the mapping. Thread safety: const member
// functions only read the table, so one Solver serves any number of threads.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "eight/board.h"
#include "eight/goal.h"
#include "eight/result.h"
#include "eight/table.h"

namespace eight {

struct Solution {
  Board board;
  Board goal;
  bool solvable = false;
  int distance = -1;  // -1 when the board cannot reach the goal
  int length = 0;     // number of moves filled below (0 unless a path was asked for)
  std::array<Move, format::kMaxDistance> moves{};
  std::array<std::uint8_t, format::kMaxDistance> tiles{};  // tile slid at each step

  std::span<const Move> path() const { return {moves.data(), static_cast<std::size_t>(length)}; }
  std::span<const std::uint8_t> slid_tiles() const {
    return {tiles.data(), static_cast<std::size_t>(length)};
  }
};

// One optimal first move: where it leads and how far that is from the goal.
struct Hint {
  Move move = Move::kUp;
  std::uint8_t tile = 0;  // the tile it slides
  Board next;
  int distance = 0;  // distance of `next`: the board's distance minus one
};

class Solver {
 public:
  explicit Solver(const TableView& table) : table_(&table) {}

  const TableView& table() const { return *table_; }

  // How `goal` maps onto one of the table's sections. Fails (kNoSection)
  // only when the table has no section for any cell symmetric to the goal's
  // blank. Requires a valid goal.
  Result<GoalFrame> frame(const Board& goal) const;

  // Distance from a valid board to the frame's goal, or -1 if the board is in
  // the other class.
  int distance(const Board& board, const GoalFrame& goal) const;

  // Distance and, if `with_path`, an optimal path with the tiles it slides.
  Solution solve(const Board& board, const GoalFrame& goal, bool with_path = true) const;

  // Every optimal first move from `board` (up to 4; often more than one), in
  // move order (up, down, left, right). Returns how many were written: 0 for
  // a solved or unsolvable board.
  int hints(const Board& board, const GoalFrame& goal, std::array<Hint, 4>& out) const;

 private:
  const TableView* table_;
};

}  // namespace eight
