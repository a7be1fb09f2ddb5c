// Answering questions from a table: distances, optimal paths and every
// move's worth, for any (board, goal) pair of any shape the table holds, in
// O(path length) with no search: from a full section by following parents,
// with no allocation; from a mod-3 section by descent (descent.h), which
// tries up to four neighbours a step and allocates the path it walks.
//
// Every read is bounds-checked and every walk bounded by the longest
// distance an entry can hold, so a table that passed only its checksum but
// was built wrong (Check::kChecksum on a resealed file) gives a wrong answer
// or a kBadEntry refusal, never a crash, a hang or a read outside the table.
//
// Lifetime: a Solver keeps a reference to its TableView; it must not outlive
// the view (Table owns both). Thread safety: const member functions only
// read the table, so one Solver serves any number of threads.
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

// One legal move from a board: the tile it slides, where it leads, how far
// that is from the goal, and whether it is optimal (one closer).
struct MoveOption {
  Move move = Move::kUp;
  std::uint8_t tile = 0;
  Board next;
  int distance = 0;  // of `next`
  bool optimal = false;
};

// Every legal move from a board (2 to 4), best first. On every board every
// move changes the distance by exactly one (the moves alternate the blank's
// colour on a chessboard), so a move is either optimal (distance - 1) or
// not (distance + 1): there is no "as good" move.
struct MoveOptions {
  int distance = -1;  // of the board itself; -1 when it cannot reach the goal
  int count = 0;
  std::array<MoveOption, 4> moves{};  // [0, count): optimal ones first, then in move order

  std::span<const MoveOption> all() const {
    return {moves.data(), static_cast<std::size_t>(count)};
  }
};

class Solver {
 public:
  explicit Solver(const TableView& table) : table_(&table) {}

  const TableView& table() const { return *table_; }

  // (4x4 frames, whose sections are pattern databases, are answer.h's:
  // distance() answers them -1 and solve() kBadArgument.)
  //
  // Distance from `board` to the frame's goal, or -1 if the board is in the
  // other class. REQUIRES: is_valid(board); `goal` is a frame of this
  // table (Table::frame()); board.shape == goal.goal().shape (see
  // shape_mismatch()). Release builds answer a board of another shape -1
  // rather than rank it outside the section.
  int distance(const Board& board, const GoalFrame& goal) const;

  // Distance and, if `with_path`, an optimal path with the tiles it slides.
  // Fails (kBadEntry) only on a table whose entries contradict each other
  // along the path (one that did not pass Check::kFull), and (kWrongShape)
  // for a board of another shape than the goal's. REQUIRES:
  // is_valid(board); `goal` is a frame of this table.
  Result<Solution> solve(const Board& board, const GoalFrame& goal, bool with_path = true) const;

  // Every legal move from `board`, with its next board's distance. For a
  // solved or unsolvable board every move is listed, none optimal.
  // REQUIRES: is_valid(board); `goal` is a frame of this table;
  // board.shape == goal.goal().shape.
  MoveOptions moves(const Board& board, const GoalFrame& goal) const;

 private:
  // solve() for a board of a mod-3 section, `seen` as the section sees it:
  // the path by descent (descent.h), mapped back through the frame.
  Result<Solution> solve_mod3(const SectionInfo& section, const GoalFrame& goal, const Board& seen,
                              Solution& s) const;

  const TableView* table_;
};

}  // namespace eight
