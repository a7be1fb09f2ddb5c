// The one answering seam (answer.h): a question's engine chosen, and the
// answers of a table's sections here; the 4x4 search's in search_answer.cpp
// and the grid shapes' in grid_answer.cpp.
#include "eight/answer.h"

#include <algorithm>
#include <cassert>

#include "beam_node.h"
#include "frame_check.h"
#include "grid_answer.h"
#include "grid_search.h"
#include "pdb/pdb5x5.h"

namespace eight {

int Question::max_distance() const {
  assert(table != nullptr && frame && engine != Engine::kGrid);
  return engine == Engine::kPatternSearch ? fifteen::kMaxSolutionLength
                                          : table->view().section(frame->section()).max_distance;
}

Question question_of(const Table& table, const GoalFrame& frame) {
  assert(is_frame_of(table.view(), frame));
  Question q;
  q.table = &table;
  q.frame = frame;
  q.engine = is_search_frame(table, frame) ? Engine::kPatternSearch : Engine::kTable;
  return q;
}

Question grid_question(const GridBoard& goal, const TableSet* tables) {
  assert(is_valid(goal) && is_grid_shape(goal.shape));
  Question q;
  q.engine = Engine::kGrid;
  q.grid_goal = goal;
  if (tables != nullptr && fifteen::is_pattern_shape(goal.shape)) {
    const grid::PatternKey key = grid::pattern_key(goal);
    q.grid_patterns = tables->pattern_sets(key.shape, key.goal_blank);
  }
  if (tables != nullptr && goal.shape == grid::kShape5x5) {
    q.grid_pdb5x5 = tables->pdb5x5_set(grid::pdb5x5_class_blank(blank_cell(goal)));
  }
  return q;
}

Result<Question> frame_question(const TableSet& tables, const GridBoard& goal) {
  if (is_grid_shape(goal.shape)) return grid_question(goal, &tables);
  auto found = tables.frame(goal);
  if (!found.ok()) return found.error();
  return question_of(*found->table, found->frame);
}

Result<SearchedSolution> solve_board(const Question& q, const GridBoard& board, bool with_path,
                                     const fifteen::SearchBudget& budget, bool require_optimal) {
  assert(is_valid(board));
  if (const auto mismatch = shape_mismatch(board, q.goal())) return *mismatch;
  // A known path is checked here too, in every build: it sizes the path
  // set below (read_question() refused a bad one with the same message).
  std::vector<Move> known;
  if (q.known_path) {
    auto read = read_known_path(board, q.goal(), *q.known_path);
    if (!read.ok()) return read.error();
    known = std::move(read).value();
  }
  SearchedSolution out;
  if (q.engine == Engine::kGrid) {
    out = grid_solve(q.goal(), q.grid_patterns, q.grid_pdb5x5, board, with_path, budget,
                     require_optimal, q.grid_fast);
  } else {
    assert(q.table != nullptr && q.frame && is_frame_of(q.table->view(), *q.frame));
    // A table's or the 4x4 search's: a board of the goal's shape is a Board.
    const Board small = *to_board(board);
    if (q.engine == Engine::kPatternSearch) {
      out = search_solve(*q.table, *q.frame, small, budget);
    } else {
      auto s = q.table->solver().solve(small, *q.frame, with_path);
      if (!s.ok()) return s.error();
      out.solution = *s;
      out.report.status =
          s->solvable ? fifteen::SearchStatus::kSolved : fifteen::SearchStatus::kUnsolvable;
      out.report.lower_bound = out.report.bound = s->solvable ? s->distance : 0;
    }
  }
  if (q.known_path) prefer_known(known, board, with_path, out);
  return out;
}

SearchedMoves board_moves(const Question& q, const GridBoard& board,
                          const fifteen::SearchBudget& budget, bool require_optimal) {
  assert(is_valid(board) && board.shape == q.goal().shape);
  if (q.engine == Engine::kGrid) {
    // A known path that is not a path from here is ignored: read_question()
    // refuses one first, and this answer has no error to give.
    std::optional<std::vector<Move>> known;
    if (q.known_path) {
      auto read = read_known_path(board, q.goal(), *q.known_path);
      assert(read.ok());
      if (read.ok()) known = std::move(read).value();
    }
    return grid_moves(q.goal(), q.grid_patterns, q.grid_pdb5x5, board, budget, require_optimal,
                      q.grid_fast, known ? &*known : nullptr);
  }
  assert(q.table != nullptr && q.frame && is_frame_of(q.table->view(), *q.frame));
  const Board small = *to_board(board);  // the goal's shape, a table's or 4x4
  if (q.engine == Engine::kPatternSearch) return search_moves(*q.table, *q.frame, small, budget);
  SearchedMoves out;
  out.options = q.table->solver().moves(small, *q.frame);
  out.report.status = out.options.distance >= 0 ? fifteen::SearchStatus::kSolved
                                                : fifteen::SearchStatus::kUnsolvable;
  out.report.lower_bound = out.report.bound = std::max(out.options.distance, 0);
  return out;
}

Result<SearchedBoard> draw_board(const Question& q, std::optional<int> distance, Rng& rng,
                                 const fifteen::SearchBudget& budget) {
  assert(q.by_search() || distance.has_value());
  if (q.engine == Engine::kGrid) {
    if (distance) {
      return make_error(ErrorCode::kBadArgument,
                        "distances of " + to_string(q.goal().shape) +
                            " boards are not exact, so none is drawn by distance: ask for a "
                            "random board without one");
    }
    SearchedBoard out;
    out.report.status = fifteen::SearchStatus::kBounded;
    out.board = shuffled_board(q.goal(), rng);
    out.draws = 1;
    return out;
  }
  assert(q.table != nullptr && q.frame && is_frame_of(q.table->view(), *q.frame));
  if (q.engine == Engine::kPatternSearch) {
    return random_search_board(*q.table, *q.frame, distance, rng, budget);
  }
  auto board = random_board(*q.table, *q.frame, *distance, rng, budget.cancel, budget.deadline);
  if (!board.ok()) return board.error();
  SearchedBoard out;
  out.report.lower_bound = out.report.bound = *distance;
  out.board = *board;
  out.distance = *distance;
  out.draws = 1;
  return out;
}

std::string describe_seconds(std::chrono::milliseconds time) {
  const auto ms = time.count();
  std::string out = std::to_string(ms / 1000);
  if (const auto frac = ms % 1000; frac != 0) {
    std::string digits = std::to_string(1000 + frac).substr(1);  // three digits
    while (digits.back() == '0') digits.pop_back();
    out += "." + digits;
  }
  return out + " s";
}

std::string describe_stop(const SearchReport& report, std::uint64_t budget_nodes,
                          std::chrono::milliseconds time_limit) {
  assert(!report.finished());
  std::string why;
  if (report.status == fifteen::SearchStatus::kCancelled) {
    why = "the search was cancelled";
  } else if (report.status == fifteen::SearchStatus::kDeadlineExceeded) {
    why = time_limit.count() > 0
              ? "the search stopped at its deadline of " + describe_seconds(time_limit)
              : "the search stopped at its deadline";
    why += " before its budget of " + std::to_string(budget_nodes) + " nodes";
  } else {
    why = "the search stopped at its budget of " + std::to_string(budget_nodes) + " nodes";
  }
  return why + ": it searched " + std::to_string(report.nodes) +
         " nodes and the distance is at least " + std::to_string(report.lower_bound) + " (bound " +
         std::to_string(report.bound) + " was being searched)";
}

}  // namespace eight
