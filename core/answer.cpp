#include "eight/answer.h"

#include <cassert>

#include "frame_check.h"

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
  std::array<MoveOption, 4> later;
  int n_later = 0;
  for (const Move m : kAllMoves) {
    std::uint8_t tile = 0;
    const auto next = apply_move(board, m, &tile);
    if (!next) continue;
    MoveOption o{m, tile, *next, -1, false};
    if (d < 0) {
      // The other class: so is every next board.
    } else if (d > 0 && frame.from_section(first.moves[0]) == m) {
      o.distance = d - 1;
    } else if (d == 0 || solver.heuristic(frame.to_section(*next)) > d - 1) {
      // Every move changes the distance by one (solver.h): not d - 1, so d + 1.
      o.distance = d + 1;
    } else {
      const auto r = search(solver, frame, *next, budget, left);
      if (r.status != fifteen::SearchStatus::kSolved) {
        // The board's own distance is known; a next board's was not found.
        out.report = report_of(r, budget.max_nodes - left);
        out.report.lower_bound = d;
        return out;
      }
      o.distance = r.length;
    }
    o.optimal = d > 0 && o.distance == d - 1;
    if (o.optimal) {
      out.options.moves[static_cast<std::size_t>(out.options.count++)] = o;
    } else {
      later[static_cast<std::size_t>(n_later++)] = o;
    }
  }
  for (int i = 0; i < n_later; ++i) {
    out.options.moves[static_cast<std::size_t>(out.options.count++)] =
        later[static_cast<std::size_t>(i)];
  }
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
      // A uniformly random board of the goal's class: a Fisher-Yates
      // shuffle, then, for the other class, the first two tiles swapped,
      // which pairs the boards of the two classes one to one.
      Board b = goal;
      for (std::size_t i = static_cast<std::size_t>(b.size()) - 1; i > 0; --i) {
        std::swap(b.cells[i], b.cells[rng.below(i + 1)]);
      }
      if (board_class(b) != frame.board_class()) {
        const std::size_t a = b.cells[0] == 0 ? 1 : 0;
        const std::size_t c = b.cells[a + 1] == 0 ? a + 2 : a + 1;
        std::swap(b.cells[a], b.cells[c]);
      }
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

int Question::max_distance() const {
  assert(table != nullptr);
  return by_search ? fifteen::kMaxSolutionLength
                   : table->view().section(frame.section()).max_distance;
}

Question question_of(const Table& table, const GoalFrame& frame) {
  assert(is_frame_of(table.view(), frame));
  return Question{&table, frame, is_search_frame(table, frame)};
}

Result<Question> frame_question(const TableSet& tables, const Board& goal) {
  auto found = tables.frame(goal);
  if (!found.ok()) return found.error();
  return question_of(*found->table, found->frame);
}

Result<SearchedSolution> solve_board(const Question& q, const Board& board, bool with_path,
                                     const fifteen::SearchBudget& budget) {
  assert(q.table != nullptr && is_valid(board) && is_frame_of(q.table->view(), q.frame));
  if (q.by_search) {
    if (const auto mismatch = shape_mismatch(board, q.goal())) return *mismatch;
    return search_solve(*q.table, q.frame, board, budget);
  }
  auto s = q.table->solver().solve(board, q.frame, with_path);
  if (!s.ok()) return s.error();
  SearchedSolution out;
  out.solution = *s;
  out.report.status =
      s->solvable ? fifteen::SearchStatus::kSolved : fifteen::SearchStatus::kUnsolvable;
  out.report.lower_bound = out.report.bound = s->solvable ? s->distance : 0;
  return out;
}

SearchedMoves board_moves(const Question& q, const Board& board,
                          const fifteen::SearchBudget& budget) {
  assert(q.table != nullptr && is_valid(board) && is_frame_of(q.table->view(), q.frame) &&
         board.shape == q.goal().shape);
  if (q.by_search) return search_moves(*q.table, q.frame, board, budget);
  SearchedMoves out;
  out.options = q.table->solver().moves(board, q.frame);
  out.report.status = out.options.distance >= 0 ? fifteen::SearchStatus::kSolved
                                                : fifteen::SearchStatus::kUnsolvable;
  out.report.lower_bound = out.report.bound = std::max(out.options.distance, 0);
  return out;
}

Result<SearchedBoard> draw_board(const Question& q, std::optional<int> distance, Rng& rng,
                                 const fifteen::SearchBudget& budget) {
  assert(q.table != nullptr && is_frame_of(q.table->view(), q.frame) &&
         (q.by_search || distance.has_value()));
  if (q.by_search) return random_search_board(*q.table, q.frame, distance, rng, budget);
  auto board = random_board(*q.table, q.frame, *distance, rng, budget.cancel);
  if (!board.ok()) return board.error();
  SearchedBoard out;
  out.report.lower_bound = out.report.bound = *distance;
  out.board = *board;
  out.distance = *distance;
  out.draws = 1;
  return out;
}

std::string describe_stop(const SearchReport& report, std::uint64_t budget_nodes) {
  assert(!report.finished());
  const std::string why =
      report.status == fifteen::SearchStatus::kCancelled
          ? "the search was cancelled"
          : "the search stopped at its budget of " + std::to_string(budget_nodes) + " nodes";
  return why + ": it searched " + std::to_string(report.nodes) +
         " nodes and the distance is at least " + std::to_string(report.lower_bound) + " (bound " +
         std::to_string(report.bound) + " was being searched)";
}

}  // namespace eight
