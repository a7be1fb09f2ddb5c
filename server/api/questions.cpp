#include "question.h"

#include <algorithm>

#include "common/text.h"
#include "eight/answer.h"
#include "eight/question.h"

namespace eight::server {

const Result<TableSet::Frame>& GoalFrames::operator()(const GridBoard& goal) {
  for (const auto& [known, frame] : kept_) {
    if (known == goal) return frame;
  }
  if (kept_.size() < kKept) return kept_.emplace_back(goal, tables_.frame(goal)).second;
  auto& slot = kept_[next_];
  next_ = (next_ + 1) % kKept;
  slot = {goal, tables_.frame(goal)};
  return slot.second;
}

std::uint64_t budget_ceiling(std::uint64_t max_budget) {
  return max_budget == 0 ? kMaxSearchNodes : max_budget;
}

Problem not_ready() {
  return {503, "not-ready", "Not ready", "no table is loaded yet", {}};
}

Problem no_tables(const TableSlot& slot) {
  std::string why = slot.unavailable();
  if (why.empty()) return not_ready();
  return {503, "table-unavailable", "Table unavailable", std::move(why), {}};
}

namespace {

// A question answered by search on a server whose searches are off.
Problem searches_off(const GridBoard& goal, std::string_view parameter) {
  return {404, "search-disabled", "Searches disabled",
          "this server answers no questions by search (eight-server --max-budget 0), so none "
          "for goal " +
              to_string(goal) + "; boards of 13 cells or more need a server that searches",
          parameter};
}

}  // namespace

std::variant<Question, Problem> read_question(std::shared_ptr<const TableSet> tables,
                                              const QuestionText& text, std::uint64_t budget,
                                              std::uint64_t max_budget, GoalFrames* frames) {
  Question q;
  q.budget = budget;
  auto read = eight::read_question(text);
  if (auto* bad = std::get_if<QuestionError>(&read)) {
    return problem_from_error(bad->error, part_name(bad->part));
  }
  auto& asked = std::get<ReadQuestion>(read);
  if (asked.board) q.board = *asked.board;
  const GridBoard& goal = asked.goal;
  q.tables = std::move(tables);
  if (!q.tables) return not_ready();
  if (is_grid_shape(goal.shape)) {
    // No section: a search (with the tables' pattern databases for the
    // goal, if any), then a reduction.
    q.framed = grid_question(goal, q.tables.get());
  } else {
    const Result<TableSet::Frame> found =
        frames != nullptr ? (*frames)(goal) : q.tables->frame(goal);
    if (!found.ok()) return problem_from_error(found.error(), "goal");
    q.framed = question_of(*found->table, found->frame);
  }
  if (q.framed->by_search() && max_budget == 0) {
    return searches_off(goal, text.board ? "board" : "shape");
  }
  q.framed->known_path = std::move(asked.path);
  return q;
}

namespace {

// budget=N: the nodes a 4x4 search may expand, 1 to the server's maximum
// (default kDefaultSearchNodes, or that maximum when it is lower).
std::variant<std::uint64_t, Problem> read_budget(const Request& req, std::uint64_t max_budget) {
  const std::uint64_t ceiling = budget_ceiling(max_budget);
  const std::string* text = req.param("budget");
  if (text == nullptr) return std::min(kDefaultSearchNodes, ceiling);
  const auto n = parse_decimal(*text);
  if (!n || *n < 1 || *n > ceiling) {
    return Problem{400, "bad-budget", "Bad budget",
                   "budget must be a whole number of search nodes from 1 to " +
                       std::to_string(ceiling) + "; got " + quote(*text, 32),
                   "budget"};
  }
  return *n;
}

}  // namespace

std::variant<Question, Problem> read_question(const TableSlot& slot, const Request& req,
                                              bool needs_board, std::uint64_t max_budget) {
  const auto budget = read_budget(req, max_budget);
  if (const auto* p = std::get_if<Problem>(&budget)) return *p;
  QuestionText text;
  // shape=RxC: the shape of the board and goal texts, for cell counts several
  // shapes share (and the default goal's shape where no board is given).
  if (const std::string* shape = req.param("shape")) {
    const auto parsed = parse_shape(*shape);
    if (!parsed.ok()) return problem_from_error(parsed.error(), "shape");
    text.shape = *parsed;
  }
  if (needs_board) {
    const std::string* board = req.param("board");
    if (board == nullptr) return missing_parameter("board");
    text.board = *board;
  }
  if (const std::string* goal = req.param("goal")) text.goal = *goal;
  // path=P (/solve, /distance, /hint: the routes that take it): a known
  // path from the board to the goal, checked by the core's reader.
  if (const std::string* path = req.param("path")) text.path = *path;
  auto tables = slot.get();
  if (!tables) return no_tables(slot);
  return read_question(std::move(tables), text, std::get<std::uint64_t>(budget), max_budget);
}

}  // namespace eight::server
