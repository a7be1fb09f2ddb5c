#include "eight/solver.h"

#include <cassert>

#include "eight/rank.h"

namespace eight {
namespace {

Error inconsistent(const GoalFrame& goal, std::uint32_t r, const char* what) {
  return make_error(ErrorCode::kBadEntry,
                    "the table contradicts itself at section " + std::to_string(goal.section()) +
                        ", entry " + std::to_string(r) + " (" + what +
                        "): it is corrupt; `eight verify` says more, `eight-tablegen` rebuilds it");
}

// For the asserts: a frame of another table may name a section this one
// lacks, or one for another blank cell, whose answers would be wrong.
[[maybe_unused]] bool is_frame_of(const TableView& table, const GoalFrame& goal) {
  return goal.section() < table.section_count() &&
         goal.to_section(goal.goal()) == table.section(goal.section()).goal;
}

}  // namespace

int Solver::distance(const Board& board, const GoalFrame& goal) const {
  assert(is_valid(board) && is_frame_of(*table_, goal) && board.shape == goal.goal().shape);
  // (Checked in release builds too: a board of another shape would rank
  // outside the section.)
  if (board.shape != goal.goal().shape) return -1;
  const Ranked seen = rank_with_parity(goal.to_section(board));
  if (seen.parity != 0) return -1;
  return table_->entry(goal.section(), seen.rank).distance;
}

Result<Solution> Solver::solve(const Board& board, const GoalFrame& goal, bool with_path) const {
  assert(is_valid(board) && is_frame_of(*table_, goal));
  if (const auto mismatch = shape_mismatch(board, goal.goal())) return *mismatch;
  Solution s;
  s.board = board;
  s.goal = goal.goal();
  const Ranked seen = rank_with_parity(goal.to_section(board));
  if (seen.parity != 0) return s;
  s.solvable = true;
  std::uint32_t r = seen.rank;
  auto e = table_->entry(goal.section(), r);
  s.distance = e.distance;
  if (!with_path) return s;
  // Each step is checked rather than trusted: the move must stay on the
  // board, the parent must be in range and one move closer. Distances fall
  // by one a step from at most kMaxDistance, so the walk always ends.
  Board cur = board;
  int blank = blank_cell(board);
  for (int i = 0; i < s.distance; ++i) {
    const Move m = goal.from_section(e.move);
    const int to = neighbor(board.shape, blank, m);
    if (to < 0) return inconsistent(goal, r, "its move leaves the board");
    if (e.parent >= kPositions) return inconsistent(goal, r, "its parent is out of range");
    const auto next = table_->entry(goal.section(), e.parent);
    if (next.distance + 1 != e.distance) {
      return inconsistent(goal, r, "its parent is not one move closer");
    }
    s.moves[static_cast<std::size_t>(i)] = m;
    s.tiles[static_cast<std::size_t>(i)] = cur.cells[static_cast<std::size_t>(to)];
    cur.cells[static_cast<std::size_t>(blank)] = cur.cells[static_cast<std::size_t>(to)];
    cur.cells[static_cast<std::size_t>(to)] = 0;
    blank = to;
    r = e.parent;
    e = next;
  }
  if (cur != s.goal) return inconsistent(goal, r, "its path does not end at the goal");
  s.length = s.distance;
  return s;
}

MoveOptions Solver::moves(const Board& board, const GoalFrame& goal) const {
  assert(is_valid(board) && is_frame_of(*table_, goal));
  MoveOptions out;
  out.distance = distance(board, goal);
  std::array<MoveOption, 4> later;  // the moves that are not optimal, in order
  int n_later = 0;
  for (Move m : kAllMoves) {
    std::uint8_t tile = 0;
    const auto next = apply_move(board, m, &tile);
    if (!next) continue;
    MoveOption o{m, tile, *next, distance(*next, goal), false};
    o.optimal = out.distance > 0 && o.distance == out.distance - 1;
    if (o.optimal) {
      out.moves[static_cast<std::size_t>(out.count++)] = o;
    } else {
      later[static_cast<std::size_t>(n_later++)] = o;
    }
  }
  for (int i = 0; i < n_later; ++i)
    out.moves[static_cast<std::size_t>(out.count++)] = later[static_cast<std::size_t>(i)];
  return out;
}

}  // namespace eight
