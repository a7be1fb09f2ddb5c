#include "server_backend.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <utility>

#include "common/exit_codes.h"
#include "common/text.h"
#include "eight/pattern_db.h"
#include "eight/shape.h"
#include "eight/table_format.h"
#include "json/answer_json.h"

namespace eight::cli {
namespace {

// GET `target` and its JSON object, or the failure.
std::variant<nlohmann::json, Failure> get_json(ServerClient& server, const std::string& target) {
  auto r = server.get(target);
  if (auto* f = std::get_if<Failure>(&r)) return *f;
  return server.answer_json(std::get<httplib::Response>(r), target);
}

// A board in a query: its canonical text, which needs no escaping but for
// the separators the query takes as they are ('/' and ',').
std::string query_board(const GridBoard& b) {
  return to_string(b);
}

}  // namespace

std::variant<std::unique_ptr<ServerClient>, std::string> connect(const std::string& url,
                                                                 const std::string& timeout_ms) {
  auto parsed = parse_server_url(url);
  if (auto* why = std::get_if<std::string>(&parsed)) return *why;
  const auto ms = parse_decimal(timeout_ms);
  if (!ms || *ms < 1 || *ms > 600000) {
    return std::string("--timeout-ms takes a whole number of milliseconds from 1 to 600000");
  }
  return std::make_unique<ServerClient>(std::get<ServerUrl>(std::move(parsed)),
                                        std::chrono::milliseconds(*ms));
}

ServerBackend::ServerBackend(std::string url, std::string timeout_ms, bool fast)
    : url_(std::move(url)), timeout_ms_(std::move(timeout_ms)), fast_(fast) {}

std::optional<Failure> ServerBackend::open() {
  auto client = connect(url_, timeout_ms_);
  if (auto* why = std::get_if<std::string>(&client)) return Failure{kExitUsage, *why};
  server_ = std::move(std::get<std::unique_ptr<ServerClient>>(client));
  return std::nullopt;
}

std::variant<std::optional<Framed>, Failure> ServerBackend::frame(const GridBoard& goal,
                                                                  bool per_board_goal) {
  ServerClient& server = *server_;
  const std::string target = "/stats?goal=" + query_board(goal);
  auto r = server.get(target);
  if (auto* f = std::get_if<Failure>(&r)) return *f;
  const auto& res = std::get<httplib::Response>(r);
  const auto problem = problem_of(res);
  // A goal the server answers by a search (4x4 and past 16 cells) has no
  // statistics: its boards are drawn without a distance, and by distance
  // where distances are exact (4x4), as offline (TableBackend::frame).
  if (problem && problem->slug == "no-stats" && is_board_shape(goal.shape) &&
      !is_table_shape(goal.shape)) {
    const bool exact = !is_grid_shape(goal.shape);
    return std::optional<Framed>(Framed{exact ? fifteen::kMaxSolutionLength : 0, true, exact});
  }
  // Boards that each take their own shape's standard goal need no frame of
  // the default one: a server without its shape still answers them.
  if (problem && problem->slug == "shape-not-served" && per_board_goal) {
    framed_ = false;
    return std::optional<Framed>();
  }
  auto j = server.answer_json(res, target);
  if (auto* f = std::get_if<Failure>(&j)) return *f;
  const auto& stats = std::get<nlohmann::json>(j);
  if (auto f = server.check_field(target, stats, "goal", JsonType::kString)) return *f;
  if (auto f = server.check_field(target, stats, "max_distance", JsonType::kUnsigned)) return *f;
  if (stats["goal"] != to_string(goal)) {
    return server.not_eight(target, "field 'goal' names another goal than " + to_string(goal));
  }
  const auto max = stats["max_distance"].get<std::uint64_t>();
  if (max > format::kMaxDistance) {
    return server.not_eight(target, "field 'max_distance' is " + std::to_string(max) +
                                        ", expected at most " +
                                        std::to_string(format::kMaxDistance));
  }
  return std::optional<Framed>(Framed{static_cast<int>(max), false});
}

std::variant<std::vector<SolveAnswer>, Failure> ServerBackend::solve(
    const GridBoard& goal, std::span<const SolveQuestion> questions, bool) {
  ServerClient& server = *server_;
  // A board asked about the request's goal is its text; one with its own
  // goal an object of both.
  nlohmann::json items = nlohmann::json::array();
  for (const SolveQuestion& q : questions) {
    if (q.goal || q.known_path) {
      nlohmann::json item = {{"board", to_string(q.board)}};
      if (q.goal) item["goal"] = to_string(*q.goal);
      if (q.known_path) item["path"] = *q.known_path;
      items.push_back(std::move(item));
    } else {
      items.push_back(to_string(q.board));
    }
  }
  const std::string target = "/solve";
  // Nothing framed: every question names its goal, and the batch has none
  // (the server would refuse the default one, whose shape it lacks).
  nlohmann::json body = {{"boards", std::move(items)}};
  if (framed_) body["goal"] = to_string(goal);
  // Only when asked: a server from before the option answers the rest.
  if (fast_) body["fast"] = true;
  auto r = server.post_json(target, body.dump());
  if (auto* f = std::get_if<Failure>(&r)) return *f;
  auto j = server.answer_json(std::get<httplib::Response>(r), target);
  if (auto* f = std::get_if<Failure>(&j)) return *f;
  auto& batch = std::get<nlohmann::json>(j);
  if (auto f = server.check_field(target, batch, "answers", JsonType::kArray)) return *f;
  const nlohmann::json& answers = batch["answers"];
  if (answers.size() != questions.size()) {
    return server.not_eight(target, "not one answer per board");
  }
  std::vector<SolveAnswer> out;
  out.reserve(questions.size());
  for (std::size_t k = 0; k < questions.size(); ++k) {
    const SolveQuestion& q = questions[k];
    const nlohmann::json& a = answers[k];
    if (a.is_object() && a.contains("error")) {
      if (auto f = server.check_field(target, a, "error", JsonType::kString)) {
        out.emplace_back(*f);
        break;
      }
      out.emplace_back(a["error"].get<std::string>());
      continue;
    }
    if (q.frame_only) {  // the goal is answered: nothing more is read
      out.emplace_back(Solution{});
      continue;
    }
    const auto s = parse_solution_json(a);
    if (!s.ok()) {
      out.emplace_back(server.not_eight(target, s.error().message));
      break;
    }
    if (s->board != q.board || s->goal != q.goal.value_or(goal)) {
      out.emplace_back(server.not_eight(target, "an answer about another board or goal"));
      break;
    }
    out.emplace_back(*s);
  }
  return out;
}

std::variant<MoveOptions, Failure> ServerBackend::hint(
    const GridBoard& board, const GridBoard& goal, const std::optional<std::string>& known_path) {
  ServerClient& server = *server_;
  // The known path was read by the core (letters u d l r alone): no escaping.
  const std::string target = "/hint?board=" + query_board(board) + "&goal=" + query_board(goal) +
                             (fast_ ? "&fast=1" : "") + (known_path ? "&path=" + *known_path : "");
  auto j = get_json(server, target);
  if (const auto* f = std::get_if<Failure>(&j)) return *f;
  const auto& answer = std::get<nlohmann::json>(j);
  // parse_hints_json reads each move's name and tile with a default (which
  // throws on another type): their types are checked here first.
  if (auto f = server.check_field(target, answer, "moves", JsonType::kArray)) return *f;
  for (std::size_t i = 0; i < answer["moves"].size(); ++i) {
    const auto& m = answer["moves"][i];
    const std::string at = "moves[" + std::to_string(i) + "]";
    if (!m.is_object()) return server.not_eight(target, at + " is not an object");
    for (const auto& [field, type] :
         {std::pair{"move", JsonType::kString}, std::pair{"tile", JsonType::kUnsigned}}) {
      if (auto why = field_problem(m, field, type)) {
        return server.not_eight(target, at + ": " + *why);
      }
    }
  }
  const auto h = parse_hints_json(answer);
  if (!h.ok()) return server.not_eight(target, h.error().message);
  if (h->board != board || h->goal != goal) {
    return server.not_eight(target, "an answer about another board or goal");
  }
  return h->options;
}

std::variant<std::vector<GridBoard>, Failure> ServerBackend::random(
    const GridBoard& goal, const Framed& framed, std::optional<int> distance, std::uint64_t count,
    std::optional<std::uint64_t> seed) {
  ServerClient& server = *server_;
  if (framed.search) return random_searched(goal, distance, count, seed);
  std::string target = "/random?distance=" + std::to_string(distance.value_or(0)) +
                       "&goal=" + query_board(goal) + "&count=" + std::to_string(count);
  if (seed) target += "&seed=" + std::to_string(*seed);
  auto j = get_json(server, target);
  if (const auto* f = std::get_if<Failure>(&j)) return *f;
  const auto& answer = std::get<nlohmann::json>(j);
  if (auto f = server.check_field(target, answer, "boards", JsonType::kArray)) return *f;
  const auto boards = answer.find("boards");
  if (boards->size() != count) {
    return server.not_eight(target, "field 'boards' has " + std::to_string(boards->size()) +
                                        " boards, expected " + std::to_string(count));
  }
  std::vector<GridBoard> out;
  out.reserve(count);
  for (const auto& text : *boards) {
    auto b = text.is_string() ? parse_grid_board(text.get_ref<const std::string&>())
                              : parse_grid_board("");
    if (!b.ok() || b->shape != goal.shape) {
      return server.not_eight(target, "a board that is not one of the goal's shape");
    }
    out.push_back(*b);
  }
  return out;
}

// A search shape's boards: one a request (the server draws them so), each
// from its own seed when seeded. Offline, --seed S draws them in a row from
// one generator, which the server cannot continue: past the first board
// the two would differ, so a seeded draw asks one board.
std::variant<std::vector<GridBoard>, Failure> ServerBackend::random_searched(
    const GridBoard& goal, std::optional<int> distance, std::uint64_t count,
    std::optional<std::uint64_t> seed) {
  ServerClient& server = *server_;
  if (seed && count > 1) {
    return Failure{kExitUsage, "with --server, a seeded draw of " + to_string(goal.shape) +
                                   " boards (drawn by search, one a request) takes --count 1"};
  }
  std::string target = "/random?goal=" + query_board(goal);
  if (distance) target += "&distance=" + std::to_string(*distance);
  if (seed) target += "&seed=" + std::to_string(*seed);
  std::vector<GridBoard> out;
  out.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    auto j = get_json(server, target);
    if (const auto* f = std::get_if<Failure>(&j)) return *f;
    const auto& answer = std::get<nlohmann::json>(j);
    if (auto f = server.check_field(target, answer, "board", JsonType::kString)) return *f;
    const auto b = parse_grid_board(answer["board"].get_ref<const std::string&>());
    if (!b.ok() || b->shape != goal.shape) {
      return server.not_eight(target, "a board that is not one of the goal's shape");
    }
    out.push_back(*b);
  }
  return out;
}

}  // namespace eight::cli
