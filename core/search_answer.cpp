// The 4x4 answers (Engine::kPatternSearch): IDA* over a table's pattern
// databases, through the goal's frame (answer.h: search_solve, search_moves,
// random_search_board).
#include <algorithm>
#include <cassert>

#include "eight/answer.h"
#include "legal_moves.h"

namespace eight {
namespace {

const fifteen::IdaSearch& ida_search_of(const Table& table, const GoalFrame& frame) {
  const fifteen::IdaSearch* s = table.ida_search(frame.section());
  assert(s != nullptr);
  return *s;
}

// The board as the frame's section sees it, searched within `budget`;
// `nodes_left` is what the budget still allows and is charged.
fifteen::SearchResult search(const fifteen::IdaSearch& solver, const GoalFrame& frame,
                             const Board& board, const fifteen::SearchBudget& budget,
                             std::uint64_t& nodes_left) {
  fifteen::SearchBudget b = budget;
  b.max_nodes = nodes_left;
  auto r = solver.solve(frame.to_section(board), b);
  nodes_left -= std::min(nodes_left, r.nodes);
  return r;
}

SearchReport report_of(const fifteen::SearchResult& r, std::uint64_t nodes) {
  SearchReport out;
  out.status = r.status;
  out.nodes = nodes;
  out.lower_bound = r.lower_bound();
  out.bound = r.status == fifteen::SearchStatus::kSolved ? r.length : r.bound;
  return out;
}

}  // namespace

bool is_search_frame(const Table& table, const GoalFrame& frame) {
  return table.ida_search(frame.section()) != nullptr;
}

SearchedSolution search_solve(const Table& table, const GoalFrame& frame, const Board& board,
                              const fifteen::SearchBudget& budget) {
  assert(is_valid(board) && board.shape == frame.goal().shape && is_search_frame(table, frame));
  std::uint64_t left = budget.max_nodes;
  const auto r = search(ida_search_of(table, frame), frame, board, budget, left);
  SearchedSolution out;
  out.report = report_of(r, budget.max_nodes - left);
  out.solution.board = board;
  out.solution.goal = frame.goal();
  out.solution.quality.method = Method::kPatternSearch;
  if (r.status == fifteen::SearchStatus::kUnsolvable) return out;
  if (r.status != fifteen::SearchStatus::kSolved) return out;
  Solution& s = out.solution;
  s.solvable = true;
  s.distance = r.length;
  Board cur = board;
  for (int i = 0; i < r.length; ++i) {
    const Move m = frame.from_section(r.moves[static_cast<std::size_t>(i)]);
    std::uint8_t tile = 0;
    const auto next = apply_move(cur, m, &tile);
    // The search made only legal moves on the section's board; their images
    // under the frame's symmetry are legal here.
    assert(next.has_value());
    s.moves[static_cast<std::size_t>(i)] = m;
    s.tiles[static_cast<std::size_t>(i)] = tile;
    cur = *next;
  }
  assert(cur == frame.goal());
  s.length = r.length;
  return out;
}

SearchedMoves search_moves(const Table& table, const GoalFrame& frame, const Board& board,
                           const fifteen::SearchBudget& budget) {
  assert(is_valid(board) && board.shape == frame.goal().shape && is_search_frame(table, frame));
  const fifteen::IdaSearch& solver = ida_search_of(table, frame);
  std::uint64_t left = budget.max_nodes;
  const auto first = search(solver, frame, board, budget, left);
  SearchedMoves out;
  out.report = report_of(first, budget.max_nodes - left);
  if (!out.report.finished()) return out;
  const int d = first.status == fifteen::SearchStatus::kSolved ? first.length : -1;
  out.options.distance = d;
  out.options.quality.method = Method::kPatternSearch;
  LegalMoves legal = legal_moves(board);
  for (MoveOption& o : legal.moves()) {
    const Board next = *to_board(o.next);  // a 4x4 board
    if (d < 0) {
      // The other class: so is every next board.
    } else if (d > 0 && frame.from_section(first.moves[0]) == o.move) {
      o.distance = d - 1;
    } else if (d == 0 || solver.heuristic(frame.to_section(next)) > d - 1) {
      // Every move changes the distance by one (solver.h): not d - 1, so d + 1.
      o.distance = d + 1;
    } else {
      const auto r = search(solver, frame, next, budget, left);
      if (r.status != fifteen::SearchStatus::kSolved) {
        // The board's own distance is known; a next board's was not found.
        out.report = report_of(r, budget.max_nodes - left);
        out.report.lower_bound = d;
        return out;
      }
      o.distance = r.length;
    }
    o.optimal = d > 0 && o.distance == d - 1;
  }
  out.options.set_best_first(legal.moves());
  out.report.nodes = budget.max_nodes - left;
  return out;
}

SearchedBoard random_search_board(const Table& table, const GoalFrame& frame,
                                  std::optional<int> distance, Rng& rng,
                                  const fifteen::SearchBudget& budget) {
  assert(is_search_frame(table, frame));
  const fifteen::IdaSearch& solver = ida_search_of(table, frame);
  const Board& goal = frame.goal();
  SearchedBoard out;
  std::uint64_t left = budget.max_nodes;
  const auto charge = [&](const fifteen::SearchResult& r) {
    out.report = report_of(r, budget.max_nodes - left);
  };
  if (!distance || *distance > kOutwardWalkDistances) {
    for (;;) {
      const Board b = shuffled_board(goal, rng);
      const auto r = search(solver, frame, b, budget, left);
      ++out.draws;
      charge(r);
      if (!distance) {
        out.board = b;
        if (r.status == fifteen::SearchStatus::kSolved) out.distance = r.length;
        return out;
      }
      if (r.status != fifteen::SearchStatus::kSolved) return out;
      if (r.length == *distance) {
        out.board = b;
        out.distance = r.length;
        return out;
      }
      if (left == 0) {
        out.report.status = fifteen::SearchStatus::kBudgetExceeded;
        return out;
      }
    }
  }
  // An outward walk: from the goal, each step to a random neighbour one move
  // farther (a neighbour is one nearer or one farther; the heuristic rules
  // most out, a search settles the rest), so the walk's end is exactly
  // `distance` away. A board with no farther neighbour starts it again.
  for (;;) {
    ++out.draws;
    Board b = goal;
    int k = 0;
    while (k < *distance) {
      std::array<Board, 4> farther;
      int n = 0;
      for (const Move m : kAllMoves) {
        const auto next = apply_move(b, m);
        if (!next) continue;
        if (k == 0 || solver.heuristic(frame.to_section(*next)) > k - 1) {
          farther[static_cast<std::size_t>(n++)] = *next;
          continue;
        }
        const auto r = search(solver, frame, *next, budget, left);
        charge(r);
        if (r.status != fifteen::SearchStatus::kSolved) return out;
        if (r.length == k + 1) farther[static_cast<std::size_t>(n++)] = *next;
      }
      if (n == 0) break;
      b = farther[rng.below(static_cast<std::uint64_t>(n))];
      ++k;
    }
    if (k == *distance) {
      out.report.status = fifteen::SearchStatus::kSolved;
      out.report.nodes = budget.max_nodes - left;
      out.report.lower_bound = out.report.bound = k;
      out.board = b;
      out.distance = k;
      return out;
    }
  }
}

}  // namespace eight
