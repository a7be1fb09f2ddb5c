#include "eight/solver.h"

#include "eight/rank.h"

namespace eight {

Result<GoalFrame> Solver::frame(const Board& goal) const {
  const int blank = blank_cell(goal);
  for (const Symmetry& s : symmetries()) {
    const int section = table_->section_for_blank(s.cell_map[blank]);
    if (section >= 0) return GoalFrame(goal, section, s);
  }
  return make_error(ErrorCode::kNoSection, "the table has no section for goal " + to_string(goal) +
                                               " (blank on cell " + std::to_string(blank) + ")");
}

int Solver::distance(const Board& board, const GoalFrame& goal) const {
  const Board seen = goal.to_section(board);
  if (tile_parity(seen) != 0) return -1;
  return table_->entry(goal.section(), rank(seen)).distance;
}

Solution Solver::solve(const Board& board, const GoalFrame& goal, bool with_path) const {
  Solution s;
  s.board = board;
  s.goal = goal.goal();
  const Board seen = goal.to_section(board);
  if (tile_parity(seen) != 0) return s;
  s.solvable = true;
  auto e = table_->entry(goal.section(), rank(seen));
  s.distance = e.distance;
  if (!with_path) return s;
  // A verified table guarantees each move is legal and distances fall by one
  // per step to 0, so this loop runs exactly `distance` times and `to` is
  // always on the board.
  Board cur = board;
  int blank = blank_cell(board);
  for (int i = 0; i < s.distance; ++i) {
    const Move m = goal.from_section(e.move);
    const int to = neighbor(blank, m);
    s.moves[i] = m;
    s.tiles[i] = cur.cells[to];
    cur.cells[blank] = cur.cells[to];
    cur.cells[to] = 0;
    blank = to;
    e = table_->entry(goal.section(), e.parent);
  }
  s.length = s.distance;
  return s;
}

int Solver::hints(const Board& board, const GoalFrame& goal, std::array<Hint, 4>& out) const {
  const int d = distance(board, goal);
  if (d <= 0) return 0;
  int n = 0;
  for (Move m : kAllMoves) {
    std::uint8_t tile = 0;
    const auto next = apply_move(board, m, &tile);
    if (!next) continue;
    const int nd = distance(*next, goal);
    if (nd == d - 1) out[n++] = Hint{m, tile, *next, nd};
  }
  return n;
}

}  // namespace eight
