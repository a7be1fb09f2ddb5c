// check_path() (answer.h): a path replayed from its board, then measured
// against the distance solve_board() proves; and read_known_path(), a
// question's known path replayed the same way.
#include <cassert>
#include <string>
#include <utility>
#include <vector>

#include "common/text.h"
#include "eight/answer.h"

namespace eight {
namespace {

// `path` replayed from `board`: its moves while legal, and whether it ends
// on `goal`; `why` says what failed (empty when it reaches the goal). The
// one replay of check_path() and read_known_path().
struct Replay {
  std::vector<Move> moves;
  bool legal = false;
  bool reaches = false;
  std::string why;
};

Replay replay(const GridBoard& board, const GridBoard& goal, std::string_view path) {
  Replay r;
  GridBoard at = board;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const auto m = move_from_letter(path[i]);
    if (!m) {
      // Escaped: a byte of UTF-8 ('\xC3', from 'é') alone is no text.
      r.why = "move " + std::to_string(i + 1) + " is '" + escape_bytes(path.substr(i, 1), 1) +
              "', not one of u d l r";
      return r;
    }
    const auto next = apply_move(at, *m);
    if (!next) {
      r.why = "move " + std::to_string(i + 1) + " (" + std::string(move_name(*m)) +
              ") would take the blank off the board";
      return r;
    }
    r.moves.push_back(*m);
    at = *next;
  }
  r.legal = true;
  if (!(at == goal)) {
    r.why = "the path is legal but ends on " + to_string(at) + ", not the goal " + to_string(goal);
    return r;
  }
  r.reaches = true;
  return r;
}

}  // namespace

Result<std::vector<Move>> read_known_path(const GridBoard& board, const GridBoard& goal,
                                          std::string_view path) {
  // Checked before a move is read: the length sizes what is kept.
  if (path.size() > static_cast<std::size_t>(kMaxKnownPathMoves)) {
    return make_error(ErrorCode::kBadArgument, "a known path has at most " +
                                                   std::to_string(kMaxKnownPathMoves) +
                                                   " moves; got " + std::to_string(path.size()));
  }
  Replay r = replay(board, goal, path);
  if (!r.reaches) {
    return make_error(ErrorCode::kBadArgument,
                      "the known path is no path from the board to the goal: " + r.why);
  }
  return std::move(r.moves);
}

Result<PathCheck> check_path(const Question& q, const GridBoard& board, std::string_view path,
                             const fifteen::SearchBudget& budget) {
  assert(board.shape == q.goal().shape);
  PathCheck c;
  const Replay r = replay(board, q.goal(), path);
  c.legal = r.legal;
  c.why = r.why;
  if (!r.reaches) return c;
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
