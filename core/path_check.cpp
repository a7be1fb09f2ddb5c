// check_path() (answer.h): a path replayed from its board, then measured
// against the distance solve_board() proves.
#include <cassert>
#include <string>

#include "common/text.h"
#include "eight/answer.h"

namespace eight {

Result<PathCheck> check_path(const Question& q, const GridBoard& board, std::string_view path,
                             const fifteen::SearchBudget& budget) {
  assert(board.shape == q.goal().shape);
  PathCheck c;
  GridBoard at = board;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const auto m = move_from_letter(path[i]);
    if (!m) {
      // Escaped: a byte of UTF-8 ('\xC3', from 'é') alone is no text.
      c.why = "move " + std::to_string(i + 1) + " is '" + escape_bytes(path.substr(i, 1), 1) +
              "', not one of u d l r";
      return c;
    }
    const auto next = apply_move(at, *m);
    if (!next) {
      c.why = "move " + std::to_string(i + 1) + " (" + std::string(move_name(*m)) +
              ") would take the blank off the board";
      return c;
    }
    at = *next;
  }
  c.legal = true;
  const GridBoard goal = q.goal();
  if (!(at == goal)) {
    c.why = "the path is legal but ends on " + to_string(at) + ", not the goal " + to_string(goal);
    return c;
  }
  c.reaches = true;
  const auto answer = solve_board(q, board, false, budget, /*require_optimal=*/true);
  if (!answer.ok()) return answer.error();
  const auto moves = static_cast<int>(path.size());
  if (!answer->report.finished()) {
    // No proof either way; the bound may still show the path optimal.
    const int bound = answer->report.lower_bound;
    c.optimal = moves == bound ? 1 : -1;
    c.why = moves == bound
                ? "optimal: its " + std::to_string(moves) + " moves are the proven lower bound"
                : "not proven either way: " + std::to_string(moves) +
                      " moves, and the distance is at least " + std::to_string(bound) + " (" +
                      describe_stop(answer->report, budget.max_nodes) + ")";
    return c;
  }
  const int d = answer->solution.distance;
  c.optimal = moves == d ? 1 : 0;
  c.why = moves == d ? "optimal: " + std::to_string(d) + " moves"
                     : "legal, but " + std::to_string(moves) + " moves where the distance is " +
                           std::to_string(d);
  return c;
}

}  // namespace eight
