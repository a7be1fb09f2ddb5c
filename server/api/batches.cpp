#include "batches.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <variant>

#include "common/text.h"
#include "eight/answer.h"
#include "json/answer_json.h"
#include "json_body.h"
#include "question.h"
#include "routes.h"

namespace eight::server {
namespace {

Problem bad_body(std::string detail) {
  return {400, "bad-body", "Bad request body", std::move(detail), {}};
}

// What one item of the batch asks, in place of the query's parameters: a
// board, or {"board": B, "goal": G, "path": P} for a goal of its own or a
// known path (GET's path=), each optional but the board. Null board: the
// item is neither, and `error` says so.
struct ItemText {
  const std::string* board = nullptr;
  const std::string* goal = nullptr;
  const std::string* path = nullptr;
  std::string_view error;
};

ItemText item_text(const nlohmann::json& item) {
  const nlohmann::json* board = &item;
  const std::string* goal = nullptr;
  const std::string* path = nullptr;
  if (item.is_object()) {
    const auto b = item.find("board");
    const auto g = item.find("goal");
    const auto p = item.find("path");
    const std::size_t known =
        (b != item.end() ? 1u : 0u) + (g != item.end() ? 1u : 0u) + (p != item.end() ? 1u : 0u);
    const bool only_those = item.size() == known;
    if (b == item.end() || !only_those || (g != item.end() && !g->is_string()) ||
        (p != item.end() && !p->is_string())) {
      return {
          nullptr, nullptr, nullptr,
          R"(an item is a board, or {"board": B, "goal": G, "path": P} (goal and path optional, strings))"};
    }
    board = &*b;
    if (g != item.end()) goal = &g->get_ref<const std::string&>();
    if (p != item.end()) path = &p->get_ref<const std::string&>();
  }
  if (!board->is_string()) return {nullptr, nullptr, nullptr, "expected a board as a string"};
  return {&board->get_ref<const std::string&>(), goal, path, std::string_view()};
}

// An item's problem, as its error in place: the core's message, after
// "goal: " when the goal is at fault (a known path's names it: "the known
// path is ...", as the tool's refusal of its line does).
std::string item_error(const Problem& p) {
  return p.parameter == "goal" ? "goal: " + p.detail : p.detail;
}

}  // namespace

void solve_batch(const TableSlot& slot, const Job& job, const Request& req, Response& res) {
  const std::uint64_t max_budget = job.max_budget;
  if (!req.params.empty() || req.target.find('?') != std::string::npos) {
    return set_problem(res, bad_body("POST /solve takes its boards and goal in the JSON body, "
                                     "not in the query"));
  }
  if (req.body.empty()) {
    return set_problem(
        res, bad_body(R"(POST /solve needs a JSON body: {"boards": [...], "goal": "..."})"));
  }
  // The body's parse is the job's work too: its deadline and cancel flag.
  auto parsed = read_batch_body(req.body, *job.cancelled, job.deadline);
  if (const auto* p = std::get_if<Problem>(&parsed)) return set_problem(res, *p);
  if (const auto* stop = std::get_if<BodyStop>(&parsed)) {
    if (*stop == BodyStop::kCancelled) return;  // the client has gone, as below
    return set_problem(
        res, problem_from_error(make_error(ErrorCode::kDeadlineExceeded,
                                           "the body's parse stopped at this server's deadline "
                                           "of " +
                                               describe_seconds(job.time_limit) +
                                               " (eight-server --job-deadline)"),
                                {}));
  }
  const nlohmann::json& body = std::get<nlohmann::json>(parsed);
  if (!body.is_object()) {
    return set_problem(res,
                       bad_body(R"(body must be a JSON object: {"boards": [...], "goal": "..."})"));
  }
  for (const auto& [key, value] : body.items()) {
    if (key != "boards" && key != "goal" && key != "shape" && key != "budget" && key != "optimal" &&
        key != "fast") {
      return set_problem(
          res, bad_body("unknown field " + quote(key, 32) +
                        "; the body takes boards, goal, shape, budget, optimal and fast"));
    }
  }
  // "optimal": "required" (only proven optimal answers) or "preferred".
  bool require_optimal = false;
  if (const auto o = body.find("optimal"); o != body.end()) {
    if (!o->is_string() || (*o != "required" && *o != "preferred")) {
      return set_problem(res, bad_body("field 'optimal' must be \"required\" or \"preferred\""));
    }
    require_optimal = *o == "required";
  }
  // "fast": true, as GET's fast=1 (Question::grid_fast), for every board.
  bool fast = false;
  if (const auto f = body.find("fast"); f != body.end()) {
    if (!f->is_boolean()) return set_problem(res, bad_body("field 'fast' must be true or false"));
    fast = f->get<bool>();
  }
  // "budget": the nodes all of the batch's 4x4 searches may expand together.
  const std::uint64_t ceiling = budget_ceiling(max_budget);
  fifteen::SearchBudget budget = job.search_budget(std::min(kDefaultSearchNodes, ceiling));
  if (const auto b = body.find("budget"); b != body.end()) {
    if (!b->is_number_unsigned() || b->get<std::uint64_t>() < 1 ||
        b->get<std::uint64_t>() > ceiling) {
      return set_problem(res, bad_body("field 'budget' must be a whole number of search nodes "
                                       "from 1 to " +
                                       std::to_string(ceiling)));
    }
    budget.max_nodes = b->get<std::uint64_t>();
  }
  const std::uint64_t total_budget = budget.max_nodes;
  // "shape": the shape of every board and goal text of the batch.
  QuestionText text;
  if (const auto sh = body.find("shape"); sh != body.end()) {
    if (!sh->is_string()) return set_problem(res, bad_body("field 'shape' must be a string"));
    const auto parsed_shape = parse_shape(sh->get_ref<const std::string&>());
    if (!parsed_shape.ok()) {
      return set_problem(res, problem_from_error(parsed_shape.error(), "shape"));
    }
    text.shape = *parsed_shape;
  }
  const auto boards = body.find("boards");
  if (boards == body.end() || !boards->is_array()) {
    return set_problem(
        res,
        bad_body(R"(field 'boards' must be an array of boards, or of {"board": B, "goal": G})"));
  }
  // Past kMaxBatchBoards boards, read_batch_body refused it (413).
  // The batch's goal: the one given, else the standard goal of the shape
  // given. A batch that gives neither has none of its own: each item
  // without a goal takes its own shape's standard goal, as GET /solve does,
  // and the answer's "goal" is 123456780, the 3x3 items' (as it always was).
  const bool batch_goal = body.contains("goal") || text.shape.has_value();
  if (const auto g = body.find("goal"); g != body.end()) {
    if (!g->is_string()) return set_problem(res, bad_body("field 'goal' must be a string"));
    text.goal = g->get_ref<const std::string&>();
  }
  // A question about the batch's goal alone, read as every question is.
  const auto read = eight::read_question(text);
  if (const auto* bad = std::get_if<QuestionError>(&read)) {
    return set_problem(res, problem_from_error(bad->error, part_name(bad->part)));
  }
  const GridBoard goal = std::get<ReadQuestion>(read).goal;
  text.goal.reset();
  const auto tables = slot.get();
  if (!tables) return set_problem(res, no_tables(slot));
  // Each item is answered by the table its goal's frame names: items with
  // goals of their own may be answered from different files. A goal the
  // body gives must be answerable; the default goal of a batch without one
  // only for its 3x3 items (answered in place, as any item's goal).
  GoalFrames frames(*tables);
  if (batch_goal) {
    if (const auto& frame = frames(goal); !frame.ok()) {
      return set_problem(res, problem_from_error(frame.error(), "goal"));
    }
    text.goal_board = goal;  // the goal of every item without its own
  }
  // Written as it goes: 10,000 answers as JSON values would cost more
  // than solving them.
  nlohmann::ordered_json head;
  add_board_fields(head, nullptr, goal);
  std::string out = head.dump();
  out.pop_back();  // the closing brace: count and answers follow
  out += R"(,"count":)" + std::to_string(boards->size()) + R"(,"answers":[)";
  out.reserve(out.size() + boards->size() * 320);
  std::size_t grid_boards = 0;  // boards of the grid shapes so far
  bool first = true;
  for (const auto& item : *boards) {
    // The client has gone: nobody will read the rest.
    if (job.is_cancelled()) return;
    if (!first) out += ',';
    first = false;
    const ItemText it = item_text(item);
    if (it.board == nullptr) {
      out += input_error_json(item, it.error);
      continue;
    }
    text.board = *it.board;
    text.goal = it.goal != nullptr ? std::optional<std::string_view>(*it.goal) : std::nullopt;
    text.path = it.path != nullptr ? std::optional<std::string_view>(*it.path) : std::nullopt;
    // The question as a GET /solve reads it; the batch's budget is its own.
    auto v = read_question(tables, text, budget.max_nodes, max_budget, &frames);
    if (const auto* p = std::get_if<Problem>(&v)) {
      out += input_error_json(item, item_error(*p));
      continue;
    }
    Question& q = std::get<Question>(v);
    q.framed->grid_fast = fast;
    if (q.framed->engine == Engine::kGrid && ++grid_boards > kMaxBatchGridBoards) {
      out +=
          input_error_json(item, "a batch answers at most " + std::to_string(kMaxBatchGridBoards) +
                                     " boards of shapes no table holds (2x7, 3x5, 5x5 ... "
                                     "10x10), whose paths run to thousands of moves: send "
                                     "the rest in another batch");
      continue;
    }
    if (q.framed->by_search() && job.past_deadline()) {
      // Past the job's deadline no search starts: in place, as a board the
      // budget did not reach.
      out += input_error_json(item,
                              "not searched: the batch stopped at this server's deadline "
                              "of " +
                                  describe_seconds(job.time_limit) +
                                  " a request; send the rest in another batch");
      continue;
    }
    const auto answer = solve_board(*q.framed, q.board, true, budget, require_optimal);
    if (!answer.ok()) return set_problem(res, problem_from_error(answer.error(), "board"));
    budget.max_nodes -= std::min(budget.max_nodes, answer->report.nodes);
    if (!answer->report.finished()) {
      // In place, as a bad board is: the rest of the batch is still answered
      // (table answers cost nothing; later searches get what is left).
      out += input_error_json(item, describe_stop(answer->report, total_budget, job.time_limit) +
                                        " (the batch's budget, shared by its searched boards)");
      if (budget.max_nodes == 0) budget.max_nodes = 1;  // a search needs a node to start
      continue;
    }
    append_solution_json(answer->solution, SolveFields{}, out);
  }
  out += "]}";
  res.set_status(200);
  res.set_content(std::move(out), kJsonType);
  res.set_header("Cache-Control", kNoStore);
}

}  // namespace eight::server
