#include "table_backend.h"

#include <random>
#include <utility>

#include "common/exit_codes.h"
#include "common/text.h"
#include "eight/pattern_db.h"
#include "eight/random.h"

namespace eight::cli {

TableBackend::TableBackend(TableSource source, std::uint64_t budget, bool require_optimal,
                           bool fast)
    : source_(std::move(source)), require_optimal_(require_optimal), fast_(fast) {
  budget_.max_nodes = budget;
}

std::optional<Failure> TableBackend::open() {
  auto tables = TableSet::open(source_, Check::kChecksum);
  if (!tables.ok()) return Failure{kExitBadTable, tables.error().message};
  tables_ = std::move(tables).value();
  return std::nullopt;
}

std::variant<std::optional<Framed>, Failure> TableBackend::frame(const GridBoard& goal,
                                                                 bool per_board_goal) {
  auto q = frame_question(*tables_, goal);
  // Boards that each take their own shape's standard goal need no frame of
  // the default one: tables without 3x3 still answer them.
  if (!q.ok() && per_board_goal && q.error().code == ErrorCode::kNoShape) {
    return std::optional<Framed>();
  }
  if (!q.ok()) return Failure{kExitBadTable, q.error().message};
  question_ = *q;
  question_->grid_fast = fast_;
  if (question_->engine == Engine::kGrid) return std::optional<Framed>(Framed{0, true, false});
  return std::optional<Framed>(Framed{question_->max_distance(), question_->by_search(), true});
}

// A board with its own goal frames it; the others share the goal of frame().
std::variant<std::vector<SolveAnswer>, Failure> TableBackend::solve(
    const GridBoard&, std::span<const SolveQuestion> questions, bool path) {
  std::vector<SolveAnswer> answers;
  answers.reserve(questions.size());
  for (const SolveQuestion& q : questions) {
    const Question* asked = question_ ? &*question_ : nullptr;
    std::optional<Question> own;
    if (q.goal) {
      auto f = frame_question(*tables_, *q.goal);
      if (!f.ok()) {
        answers.emplace_back("goal: " + f.error().message);
        continue;
      }
      own = *f;
      own->grid_fast = fast_;
      asked = &*own;
    }
    if (q.frame_only) {
      answers.emplace_back(Solution{});
      continue;
    }
    std::optional<Question> with_path;  // the question with the board's known path
    if (q.known_path) {
      with_path = *asked;
      with_path->known_path = q.known_path;
      asked = &*with_path;
    }
    const auto answer = solve_board(*asked, q.board, path, budget_, require_optimal_);
    if (!answer.ok()) {
      answers.emplace_back(answer.error().message);
    } else if (!answer->report.finished()) {
      answers.emplace_back(describe_stop(answer->report, budget_.max_nodes) +
                           "; a larger --budget may solve it");
    } else {
      answers.emplace_back(answer->solution);
    }
  }
  return answers;
}

std::variant<MoveOptions, Failure> TableBackend::hint(
    const GridBoard& board, const GridBoard&, const std::optional<std::string>& known_path) {
  Question q = *question_;
  q.known_path = known_path;
  const SearchedMoves searched = board_moves(q, board, budget_, require_optimal_);
  if (!searched.report.finished()) {
    return Failure{kExitFailed, describe_stop(searched.report, budget_.max_nodes) +
                                    "; a larger --budget may solve it"};
  }
  return searched.options;
}

std::variant<std::vector<GridBoard>, Failure> TableBackend::random(
    const GridBoard&, const Framed&, std::optional<int> distance, std::uint64_t count,
    std::optional<std::uint64_t> seed) {
  const Question& q = *question_;
  Rng rng(seed ? *seed : std::random_device{}() * 0x100000001ull ^ std::random_device{}());
  std::vector<GridBoard> boards;
  boards.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto drawn = draw_board(q, distance, rng, budget_);
    if (!drawn.ok()) return Failure{kExitBadTable, drawn.error().message};
    if (distance && !drawn->report.finished()) {
      return Failure{kExitFailed, describe_stop(drawn->report, budget_.max_nodes) +
                                      "; a larger --budget may find one"};
    }
    boards.push_back(drawn->board);
  }
  return boards;
}

}  // namespace eight::cli
