#include "answers.h"

#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/text.h"
#include "eight/answer.h"
#include "eight/random.h"
#include "json/answer_json.h"
#include "problem.h"

namespace eight::server {
namespace {

// A search that did not finish: 503 with how far it got, or, for a client
// that has gone, nothing anyone will read.
void stopped(const SearchReport& report, const Question& q, const Job& job, Response& res) {
  set_problem(res,
              budget_exceeded(report, q.budget, budget_ceiling(job.max_budget), job.time_limit));
  res.set_header("Cache-Control", kNoStore);
}

// What a 4x4 answer cost, for clients tuning their budget.
void add_search_header(const SearchReport& report, Response& res) {
  res.set_header("X-Search-Nodes", std::to_string(report.nodes));
}

Problem bad_number(std::string_view parameter, std::string_view text, const std::string& rule) {
  return {400, parameter == "distance" ? "bad-distance" : "bad-seed",
          parameter == "distance" ? "Bad distance" : "Bad seed",
          std::string(parameter) + " must be " + rule + "; got " + quote(text, 32), parameter};
}

// A fresh seed per unseeded /random request, so every answer can be replayed
// by passing its seed back. A mutex around one generator: a few nanoseconds
// per request, against no state hidden per thread.
std::uint64_t fresh_seed() {
  static std::mutex mutex;
  static std::mt19937_64 source{(static_cast<std::uint64_t>(std::random_device{}()) << 32) ^
                                std::random_device{}()};
  std::lock_guard lock(mutex);
  return source();
}

// /random's seed: the one given (nothing when it is not a whole number from
// 0 to 2^64-1), else a fresh one.
std::optional<std::uint64_t> read_seed(const std::string* text) {
  if (text == nullptr) return fresh_seed();
  return parse_decimal(*text);
}

// A yes/no query parameter: 1 or true, 0 or false.
std::optional<bool> parse_flag(std::string_view text) {
  if (text == "1" || text == "true") return true;
  if (text == "0" || text == "false") return false;
  return std::nullopt;
}

// /random for a 4x4 goal: a uniformly random board (distance optional), or
// one exactly distance=D away, drawn and solved within the budget; for a
// grid shape's goal, a uniformly random board (no distance: theirs are not
// exact).
void random_searched(const Question& q, const Job& job, Response& res) {
  const Asks& asks = q.asks;
  const std::optional<int> distance = asks.distance;
  Rng rng(asks.seed);
  // (A search frame's draw has no error: a budget that runs out is in its
  // report.)
  // (Nor a grid shape's, asked without a distance.)
  const SearchedBoard drawn = *draw_board(*q.framed, distance, rng, job.search_budget(q.budget));
  if (distance && !drawn.report.finished()) return stopped(drawn.report, q, job, res);
  nlohmann::ordered_json j;
  const GridBoard goal = q.framed->goal();
  add_board_fields(j, &drawn.board, goal);
  // Without distance=, the board's distance when the search found it
  // within the budget, else null.
  j["distance"] = drawn.distance >= 0 ? nlohmann::ordered_json(drawn.distance) : nullptr;
  j["seed"] = std::to_string(asks.seed);
  set_json(res, j);
  add_search_header(drawn.report, res);
  res.set_header("Cache-Control", asks.seeded ? kAnswerCacheControl : kNoStore);
}

// optimal=required (only a proven optimal answer, else 503 as a search
// that ran out of budget) or optimal=preferred (the default: for a grid
// shape, a bounded answer when the search does not finish).
std::optional<Problem> read_optimal(const Request& req, Asks& asks) {
  const std::string* text = req.param("optimal");
  if (text == nullptr || *text == "preferred") return std::nullopt;
  if (*text == "required") {
    asks.require_optimal = true;
    return std::nullopt;
  }
  return Problem{400, "bad-optimal", "Bad optimal",
                 "optimal must be required or preferred; got " + quote(*text, 32), "optimal"};
}

// boards=1 (the board after every move) or 0.
std::optional<Problem> read_boards(const Request& req, Asks& asks) {
  const std::string* text = req.param("boards");
  if (text == nullptr) return std::nullopt;
  const auto flag = parse_flag(*text);
  if (!flag) {
    return Problem{400, "bad-boards", "Bad boards flag",
                   "boards must be 1 (the board after every move) or 0; got " + quote(*text, 32),
                   "boards"};
  }
  asks.boards = *flag;
  return std::nullopt;
}

// fast=1: the quick answers of before issue 39 (Question::grid_fast: on
// 5x5 the beam over Manhattan distance and linear conflicts alone), for a
// game that needs 10x10 in milliseconds; 0 (the default): the shorter ones.
// A flag like boards=, named as every interface names it (--fast, fast=True,
// {fast: true}), so one word finds it in every document.
std::optional<Problem> read_fast(const Request& req, Question& q) {
  const std::string* text = req.param("fast");
  if (text == nullptr) return std::nullopt;
  const auto flag = parse_flag(*text);
  if (!flag) {
    return Problem{
        400, "bad-fast", "Bad fast flag",
        "fast must be 1 (the quicker, longer answers) or 0 (the default); got " + quote(*text, 32),
        "fast"};
  }
  q.framed->grid_fast = *flag;
  return std::nullopt;
}

// seed=: the one given, else a fresh one.
std::optional<Problem> read_seed_param(const Request& req, Asks& asks) {
  const std::string* text = req.param("seed");
  const auto seed = read_seed(text);
  if (!seed) return bad_number("seed", *text, "a whole number from 0 to 2^64-1");
  asks.seed = *seed;
  asks.seeded = text != nullptr;
  return std::nullopt;
}

// /random for a 4x4 or grid shape's goal: no count=; distance= optional
// (none for a grid shape, whose distances are not exact); seed=.
std::optional<Problem> read_random_searched(const Request& req, const Question& q, Asks& asks) {
  if (const std::string* c_text = req.param("count")) {
    return Problem{400, "bad-count", "Bad count",
                   "count is for the boards tables answer; a " + to_string(q.framed->goal().shape) +
                       " board is drawn by search, one a request; got " + quote(*c_text, 32),
                   "count"};
  }
  if (const std::string* d_text = req.param("distance")) {
    if (q.framed->engine == Engine::kGrid) {
      return bad_number("distance", *d_text,
                        "left out for " + to_string(q.framed->goal().shape) +
                            " boards, whose distances are not exact");
    }
    const auto d = parse_decimal(*d_text);
    if (!d || *d > static_cast<std::uint64_t>(fifteen::kMaxSolutionLength)) {
      return bad_number("distance", *d_text,
                        "a whole number from 0 to 80 for goal " + to_string(q.framed->goal()));
    }
    asks.distance = static_cast<int>(*d);
  }
  return read_seed_param(req, asks);
}

// /random for a table's goal: distance= (needed), seed=, count=.
std::optional<Problem> read_random(const Request& req, const Question& q, Asks& asks) {
  if (q.framed->by_search()) return read_random_searched(req, q, asks);
  const int max = q.framed->max_distance();
  const std::string* d_text = req.param("distance");
  if (d_text == nullptr) return missing_parameter("distance");
  const auto distance = parse_decimal(*d_text);
  if (!distance || *distance > static_cast<std::uint64_t>(max)) {
    return bad_number("distance", *d_text,
                      "a whole number from 0 to " + std::to_string(max) + " for goal " +
                          to_string(q.framed->goal()));
  }
  asks.distance = static_cast<int>(*distance);
  if (auto p = read_seed_param(req, asks)) return p;
  // count=N: N draws from the one generator, in order, as `eight random
  // --seed S --count N` prints them.
  if (const std::string* c_text = req.param("count")) {
    const auto parsed = parse_decimal(*c_text);
    if (!parsed || *parsed < 1 || *parsed > kMaxRandomCount) {
      return Problem{400, "bad-count", "Bad count",
                     "count must be a whole number from 1 to " + std::to_string(kMaxRandomCount) +
                         "; got " + quote(*c_text, 32),
                     "count"};
    }
    asks.count = *parsed;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Problem> read_asks(Route route, const Request& req, Question& q) {
  switch (route) {
    case Route::kSolve:
    case Route::kDistance:
      if (auto p = read_optimal(req, q.asks)) return p;
      if (auto p = read_fast(req, q)) return p;
      return read_boards(req, q.asks);
    case Route::kHint:
      if (auto p = read_optimal(req, q.asks)) return p;
      return read_fast(req, q);
    case Route::kRandom:
      return read_random(req, q, q.asks);
    default:
      return std::nullopt;
  }
}

void set_json(Response& res, const nlohmann::ordered_json& j) {
  res.set_status(200);
  res.set_content(j.dump(), kJsonType);
}

// The one path from a question to an answer for /solve and /distance.
void answer_solve(const Question& q, bool with_path, const Job& job, Response& res) {
  const SolveFields fields{with_path, q.asks.boards};
  // From a table, O(distance): one entry per move, nothing proportional to
  // the table; for 4x4, a search within the budget (on the compute pool).
  const auto answer = solve_board(*q.framed, q.board, with_path, job.search_budget(q.budget),
                                  q.asks.require_optimal);
  if (!answer.ok()) return set_problem(res, problem_from_error(answer.error(), "board"));
  if (!answer->report.finished()) return stopped(answer->report, q, job, res);
  res.set_content(solution_json(answer->solution, fields), kJsonType);
  if (q.framed->by_search()) add_search_header(answer->report, res);
  // A search's answer depends on its budget only through whether it is
  // found: an answer is the same for every budget that finds it.
  res.set_header("Cache-Control", kAnswerCacheControl);
}

void answer_hint(const Question& q, const Job& job, Response& res) {
  const SearchedMoves searched =
      board_moves(*q.framed, q.board, job.search_budget(q.budget), q.asks.require_optimal);
  if (!searched.report.finished()) return stopped(searched.report, q, job, res);
  res.set_content(hints_json(q.board, q.framed->goal(), searched.options), kJsonType);
  if (q.framed->by_search()) add_search_header(searched.report, res);
  res.set_header("Cache-Control", kAnswerCacheControl);
}

void answer_random(const Question& q, const Job& job, Response& res) {
  if (q.framed->by_search()) return random_searched(q, job, res);
  const Asks& asks = q.asks;
  const int distance = *asks.distance;  // read_asks(): always given for a table's goal
  const std::uint64_t count = asks.count.value_or(1);
  Rng rng(asks.seed);
  // A table's draws count no nodes: its deadline and cancel flag bound them.
  const fifteen::SearchBudget bounds = job.search_budget(0);
  const auto past_deadline = [&](std::uint64_t done) {
    set_problem(res, problem_from_error(
                         make_error(ErrorCode::kDeadlineExceeded,
                                    "the draws stopped at this server's deadline of " +
                                        describe_seconds(job.time_limit) + " a request after " +
                                        std::to_string(done) + " of " + std::to_string(count) +
                                        " boards; ask for fewer (count=N) or a nearer distance"),
                         "count"));
    res.set_header("Cache-Control", kNoStore);
  };
  std::vector<GridBoard> drawn;
  for (std::uint64_t i = 0; i < count; ++i) {
    // The client has gone, or the server stops: nobody reads the rest.
    if (job.is_cancelled()) {
      return set_problem(
          res, problem_from_error(make_error(ErrorCode::kCancelled, "the draws were cancelled"),
                                  "count"));
    }
    if (job.past_deadline()) return past_deadline(i);
    const auto board = draw_board(*q.framed, distance, rng, bounds);
    if (!board.ok() && board.error().code == ErrorCode::kDeadlineExceeded) {
      return past_deadline(i);
    }
    if (!board.ok()) return set_problem(res, problem_from_error(board.error(), "distance"));
    drawn.push_back(board->board);
  }
  nlohmann::ordered_json j;
  const GridBoard goal = q.framed->goal();
  add_board_fields(j, &drawn.front(), goal);
  j["distance"] = distance;
  // As a string: seeds go up to 2^64-1, past what JSON numbers carry exactly
  // in JavaScript.
  j["seed"] = std::to_string(asks.seed);
  if (asks.count) {
    auto boards = nlohmann::ordered_json::array();
    auto cells = nlohmann::ordered_json::array();
    for (const GridBoard& b : drawn) {
      boards.push_back(to_string(b));
      cells.push_back(cells_json(b));
    }
    j["boards"] = std::move(boards);
    j["boards_cells"] = std::move(cells);
  }
  set_json(res, j);
  // A seeded draw is the same forever; an unseeded one must differ each time.
  res.set_header("Cache-Control", asks.seeded ? kAnswerCacheControl : kNoStore);
}

void answer_stats(const Question& q, Response& res) {
  if (q.framed->by_search()) {
    return set_problem(res, {404, "no-stats", "No statistics for this shape",
                             to_string(q.framed->goal().shape) +
                                 " positions are not tabulated (a search answers each question), "
                                 "so there is no distance histogram for goal " +
                                 to_string(q.framed->goal()),
                             "shape"});
  }
  const auto& section = q.framed->table->view().section(q.framed->frame->section());
  const auto& histogram = q.framed->table->index().histogram(q.framed->frame->section());
  nlohmann::ordered_json j;
  add_board_fields(j, nullptr, q.framed->goal());
  j["solvable_positions"] = section.positions;
  j["unsolvable_positions"] = section.positions;
  j["max_distance"] = section.max_distance;
  j["histogram"] =
      std::vector<std::uint32_t>(histogram.begin(), histogram.begin() + section.max_distance + 1);
  auto hardest = nlohmann::ordered_json::array();
  auto hardest_cells = nlohmann::ordered_json::array();
  for (const Board& b : hardest_boards(q.framed->table->index(), *q.framed->frame)) {
    hardest.push_back(to_string(b));
    hardest_cells.push_back(cells_json(b));
  }
  j["hardest"] = {{"distance", section.max_distance},
                  {"count", hardest.size()},
                  {"boards", std::move(hardest)},
                  {"boards_cells", std::move(hardest_cells)}};
  set_json(res, j);
  res.set_header("Cache-Control", kAnswerCacheControl);
}

}  // namespace eight::server
