#include "service.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <random>
#include <variant>

#include "conditional.h"
#include "eight/board.h"
#include "eight/json.h"
#include "eight/random.h"
#include "eight/text.h"
#include "problem.h"

namespace eight::server {
namespace {

constexpr const char* kJson = "application/json";

Problem not_ready() {
  return {503, "not-ready", "Not ready", "no table is loaded yet", {}};
}

void set_json(httplib::Response& res, const nlohmann::ordered_json& j) {
  res.status = 200;
  res.set_content(j.dump(), kJson);
}

}  // namespace

Service::Service(const TableSlot& table, const Metrics& metrics)
    : table_(table), metrics_(metrics) {
  nlohmann::ordered_json endpoints = nlohmann::ordered_json::array();
  for (const RouteInfo& r : routes()) {
    nlohmann::ordered_json e;
    e["path"] = r.path;
    e["methods"] = r.post ? nlohmann::ordered_json{"GET", "HEAD", "POST"}
                          : nlohmann::ordered_json{"GET", "HEAD"};
    if (!r.query.empty()) e["query"] = r.query;
    e["description"] = r.description;
    endpoints.push_back(std::move(e));
  }
  nlohmann::ordered_json index;
  index["name"] = "eight";
  index["description"] = "Optimal 8-puzzle solutions from a precomputed table";
#ifdef EIGHT_VERSION
  index["version"] = EIGHT_VERSION;
#endif
  index["docs"] = "/openapi.yaml";
  index["endpoints"] = std::move(endpoints);
  index_json_ = index.dump();
}

bool prefers_html(std::string_view accept) {
  // q of text/html (or text/*) against q of application/json (or
  // application/*); */* alone counts for JSON, the API's own answer.
  double html = 0, json = 0;
  while (!accept.empty()) {
    const auto comma = accept.find(',');
    std::string_view item = accept.substr(0, comma);
    accept = comma == std::string_view::npos ? std::string_view{} : accept.substr(comma + 1);
    double q = 1;
    if (const auto semi = item.find(';'); semi != std::string_view::npos) {
      const auto qpos = item.find("q=", semi);
      if (qpos != std::string_view::npos) q = std::atof(std::string(item.substr(qpos + 2)).c_str());
      item = item.substr(0, semi);
    }
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item == "text/html" || item == "application/xhtml+xml" || item == "text/*") {
      html = std::max(html, q);
    } else if (item == "application/json" || item == "application/*" ||
               item == "application/problem+json") {
      json = std::max(json, q);
    }
  }
  return html > json;
}

void Service::index(const httplib::Request& req, httplib::Response& res) const {
  res.status = 200;
  // Caches must keep the two representations apart.
  res.set_header("Vary", "Accept");
  if (prefers_html(req.get_header_value("Accept"))) {
    const std::string_view page = playground_html_bytes();
    res.set_content(page.data(), page.size(), "text/html; charset=utf-8");
    // The page is compiled into this binary and names no other origin.
    res.set_header("Content-Security-Policy",
                   "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                   "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'");
    res.set_header("Cache-Control", "no-cache");
    return;
  }
  res.set_content(index_json_, kJson);
}

void Service::solve(const httplib::Request& req, httplib::Response& res) const {
  answer(req, res, true);
}

void Service::distance(const httplib::Request& req, httplib::Response& res) const {
  answer(req, res, false);
}

namespace {

// What a query asks about: the table snapshot it is answered from, the
// goal's frame in that table, and the board when the endpoint takes one.
struct Question {
  std::shared_ptr<const Loaded> loaded;
  std::optional<GoalFrame> frame;
  Board board;
};

// "board and goal", "distance, goal and seed": for unknown-parameter details.
std::string list_names(std::initializer_list<std::string_view> names) {
  std::string out;
  std::size_t i = 0;
  for (std::string_view n : names) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += n;
    ++i;
  }
  return out;
}

// The one place query parameters become a question, for every endpoint.
// Typos must not silently fall back to defaults ("gaol=..." would answer for
// the standard goal), so unknown and repeated parameters are refused. The
// core parser is the only judge of board text, limits included: its messages
// go to the client verbatim.
std::variant<Question, Problem> read_question(const TableSlot& slot, const httplib::Request& req,
                                              std::initializer_list<std::string_view> allowed,
                                              bool needs_board) {
  for (const auto& [name, value] : req.params) {
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      return unknown_parameter(name, list_names(allowed));
    }
  }
  for (std::string_view name : allowed) {
    if (const auto n = req.params.count(std::string(name)); n > 1)
      return repeated_parameter(name, n);
  }
  Question q;
  if (needs_board) {
    const auto it = req.params.find("board");
    if (it == req.params.end()) return missing_parameter("board");
    const auto board = parse_board(it->second);
    if (!board.ok()) return problem_from_error(board.error(), "board");
    q.board = *board;
  }
  Board goal = kStandardGoal;
  if (const auto it = req.params.find("goal"); it != req.params.end()) {
    const auto parsed = parse_board(it->second);
    if (!parsed.ok()) return problem_from_error(parsed.error(), "goal");
    goal = *parsed;
  }
  q.loaded = slot.get();
  if (!q.loaded) return not_ready();
  auto frame = q.loaded->frame(goal);
  if (!frame.ok()) return problem_from_error(frame.error(), "goal");
  q.frame = *frame;
  return q;
}

// Sets the problem and returns null when `v` holds one.
const Question* question_or_problem(const std::variant<Question, Problem>& v,
                                    httplib::Response& res) {
  if (const auto* p = std::get_if<Problem>(&v)) {
    set_problem(res, *p);
    return nullptr;
  }
  return &std::get<Question>(v);
}

Problem bad_number(std::string_view parameter, std::string_view text, const std::string& rule) {
  return {400, parameter == "distance" ? "bad-distance" : "bad-seed",
          parameter == "distance" ? "Bad distance" : "Bad seed",
          std::string(parameter) + " must be " + rule + "; got '" +
              std::string(text.substr(0, 32)) + (text.size() > 32 ? "...'" : "'"),
          parameter};
}

// A fresh seed per unseeded /random request, so every answer can be replayed
// by passing its seed back. Per thread: no lock on the request path.
std::uint64_t fresh_seed() {
  thread_local std::mt19937_64 source{(static_cast<std::uint64_t>(std::random_device{}()) << 32) ^
                                      std::random_device{}()};
  return source();
}

}  // namespace

// The one path from query parameters to an answer for /solve and /distance.
void Service::answer(const httplib::Request& req, httplib::Response& res, bool with_path) const {
  const auto v = read_question(table_, req, {"board", "goal"}, true);
  const Question* q = question_or_problem(v, res);
  if (q == nullptr) return;
  // O(distance): one table entry per move, nothing proportional to the table.
  const Solution solution = q->loaded->solver().solve(q->board, *q->frame, with_path);
  set_json(res, solution_json(solution, with_path));
  res.set_header("Cache-Control", kAnswerCacheControl);
}

void Service::hint(const httplib::Request& req, httplib::Response& res) const {
  const auto v = read_question(table_, req, {"board", "goal"}, true);
  const Question* q = question_or_problem(v, res);
  if (q == nullptr) return;
  const Solver& solver = q->loaded->solver();
  std::array<Hint, 4> hints;
  const int n = solver.hints(q->board, *q->frame, hints);
  set_json(res, hints_json(q->board, q->frame->goal(), solver.distance(q->board, *q->frame),
                           {hints.data(), static_cast<std::size_t>(n)}));
  res.set_header("Cache-Control", kAnswerCacheControl);
}

void Service::random(const httplib::Request& req, httplib::Response& res) const {
  const auto v = read_question(table_, req, {"distance", "goal", "seed"}, false);
  const Question* q = question_or_problem(v, res);
  if (q == nullptr) return;
  const int max =
      q->loaded->view().section(static_cast<std::size_t>(q->frame->section())).max_distance;
  const auto d_it = req.params.find("distance");
  if (d_it == req.params.end()) return set_problem(res, missing_parameter("distance"));
  const auto distance = parse_decimal(d_it->second);
  if (!distance || *distance > static_cast<std::uint64_t>(max)) {
    return set_problem(res, bad_number("distance", d_it->second,
                                       "a whole number from 0 to " + std::to_string(max) +
                                           " for goal " + to_string(q->frame->goal())));
  }
  std::uint64_t seed;
  const auto s_it = req.params.find("seed");
  if (s_it != req.params.end()) {
    const auto parsed = parse_decimal(s_it->second);
    if (!parsed) {
      return set_problem(res, bad_number("seed", s_it->second, "a whole number from 0 to 2^64-1"));
    }
    seed = *parsed;
  } else {
    seed = fresh_seed();
  }
  Rng rng(seed);
  const Board board = random_board(q->loaded->index(), *q->frame, static_cast<int>(*distance), rng);
  nlohmann::ordered_json j;
  j["board"] = to_string(board);
  j["goal"] = to_string(q->frame->goal());
  j["distance"] = *distance;
  // As a string: seeds go up to 2^64-1, past what JSON numbers carry exactly
  // in JavaScript.
  j["seed"] = std::to_string(seed);
  set_json(res, j);
  // A seeded draw is the same forever; an unseeded one must differ each time.
  res.set_header("Cache-Control", s_it != req.params.end() ? kAnswerCacheControl : kNoStore);
}

void Service::stats(const httplib::Request& req, httplib::Response& res) const {
  const auto v = read_question(table_, req, {"goal"}, false);
  const Question* q = question_or_problem(v, res);
  if (q == nullptr) return;
  const auto& section = q->loaded->view().section(static_cast<std::size_t>(q->frame->section()));
  nlohmann::ordered_json j;
  j["goal"] = to_string(q->frame->goal());
  j["solvable_positions"] = kPositions;
  j["unsolvable_positions"] = kPositions;
  j["max_distance"] = section.max_distance;
  j["histogram"] = std::vector<std::uint32_t>(section.histogram.begin(),
                                              section.histogram.begin() + section.max_distance + 1);
  auto hardest = nlohmann::ordered_json::array();
  for (const Board& b : hardest_boards(q->loaded->index(), q->loaded->view(), *q->frame)) {
    hardest.push_back(to_string(b));
  }
  j["hardest"] = {{"distance", section.max_distance},
                  {"count", hardest.size()},
                  {"boards", std::move(hardest)}};
  set_json(res, j);
  res.set_header("Cache-Control", kAnswerCacheControl);
}

namespace {

Problem bad_body(std::string detail) {
  return {400, "bad-body", "Bad request body", std::move(detail), {}};
}

}  // namespace

void Service::solve_batch(const httplib::Request& req, httplib::Response& res) const {
  // req.params also holds a form-encoded body's fields (httplib parses those
  // for POST), so the query is read off the target itself.
  if (const auto q = req.target.find('?'); q != std::string::npos && q + 1 < req.target.size()) {
    return set_problem(res, bad_body("POST /solve takes its boards and goal in the JSON body, "
                                     "not in the query"));
  }
  if (req.body.empty()) {
    return set_problem(
        res, bad_body(R"(POST /solve needs a JSON body: {"boards": [...], "goal": "..."})"));
  }
  nlohmann::json body;
  try {
    body = nlohmann::json::parse(req.body);
  } catch (const nlohmann::json::exception& e) {
    return set_problem(res, bad_body(std::string("body is not valid JSON: ") + e.what()));
  }
  if (!body.is_object()) {
    return set_problem(res,
                       bad_body(R"(body must be a JSON object: {"boards": [...], "goal": "..."})"));
  }
  for (const auto& [key, value] : body.items()) {
    if (key != "boards" && key != "goal") {
      return set_problem(res, bad_body("unknown field '" + key.substr(0, 32) +
                                       "'; the body takes boards and goal"));
    }
  }
  const auto boards = body.find("boards");
  if (boards == body.end() || !boards->is_array()) {
    return set_problem(res, bad_body("field 'boards' must be an array of board strings"));
  }
  if (boards->size() > kMaxBatchBoards) {
    return set_problem(res, {413,
                             "too-many-boards",
                             "Too many boards",
                             "at most " + std::to_string(kMaxBatchBoards) +
                                 " boards per request; got " + std::to_string(boards->size()),
                             {}});
  }
  Board goal = kStandardGoal;
  if (const auto g = body.find("goal"); g != body.end()) {
    if (!g->is_string()) return set_problem(res, bad_body("field 'goal' must be a string"));
    const auto parsed = parse_board(g->get_ref<const std::string&>());
    if (!parsed.ok()) return set_problem(res, problem_from_error(parsed.error(), "goal"));
    goal = *parsed;
  }
  const auto loaded = table_.get();
  if (!loaded) return set_problem(res, not_ready());
  const auto frame = loaded->frame(goal);
  if (!frame.ok()) return set_problem(res, problem_from_error(frame.error(), "goal"));
  auto answers = nlohmann::ordered_json::array();
  for (const auto& item : *boards) {
    if (!item.is_string()) {
      answers.push_back({{"input", item}, {"error", "expected a board as a string"}});
      continue;
    }
    const auto& text = item.get_ref<const std::string&>();
    const auto board = parse_board(text);
    if (!board.ok()) {
      answers.push_back({{"input", text}, {"error", board.error().message}});
      continue;
    }
    answers.push_back(solution_json(loaded->solver().solve(*board, *frame), true));
  }
  nlohmann::ordered_json j;
  j["goal"] = to_string(goal);
  j["count"] = answers.size();
  j["answers"] = std::move(answers);
  res.status = 200;
  res.set_content(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), kJson);
  res.set_header("Cache-Control", kNoStore);
}

void Service::preflight(const httplib::Request& req, httplib::Response& res) const {
  res = httplib::Response();
  res.status = 204;
  res.set_header("Allow", std::string(allowed_methods(route_of(req.path))) + ", OPTIONS");
  // The CORS headers themselves go on every response (http_server.cpp).
}

void Service::table(const httplib::Request& req, httplib::Response& res) const {
  auto loaded = table_.get();
  if (!loaded) return set_problem(res, not_ready());
  const auto bytes = loaded->view().bytes();
  const std::uint64_t size = bytes.size();
  // Validators and caching go on every outcome, 304 and 416 included.
  res.set_header("ETag", loaded->etag());
  res.set_header("Cache-Control", kTableCacheControl);
  res.set_header("Accept-Ranges", "bytes");
  if (req.has_header("If-None-Match") &&
      if_none_match(req.get_header_value("If-None-Match"), loaded->etag())) {
    // No Content-Length: RFC 9110 8.6 allows only the 200's length, which
    // some clients (httplib 0.11's own) then wait for as a body. httplib adds
    // "Content-Length: 0", so http_server.cpp removes it after routing.
    res.status = 304;
    return;
  }
  const RangeDecision range = decide_range(req.get_header_value("Range"),
                                           req.get_header_value("If-Range"), loaded->etag(), size);
  if (range.kind == RangeDecision::Kind::kUnsatisfiable) {
    set_problem(res,
                {416,
                 "range-not-satisfiable",
                 "Range not satisfiable",
                 "the Range header selects no byte of the " + std::to_string(size) + "-byte table",
                 {}});
    res.set_header("Content-Range", "bytes */" + std::to_string(size));
    return;
  }
  std::uint64_t first = 0;
  std::uint64_t length = size;
  res.status = 200;
  if (range.kind == RangeDecision::Kind::kPartial) {
    first = range.first;
    length = range.last - range.first + 1;
    res.status = 206;
    res.set_header("Content-Range", "bytes " + std::to_string(range.first) + "-" +
                                        std::to_string(range.last) + "/" + std::to_string(size));
  }
  res.set_header("Content-Disposition", "attachment; filename=\"eight.tbl\"");
  // Served straight from the mapping: no copy of the table per request. The
  // provider holds the snapshot so the mapping outlives the download, and it
  // writes its whole slice in one call: httplib 0.11 stops calling providers
  // once the server is stopping, and one call means a download that started
  // also finishes during a graceful stop.
  const char* data = reinterpret_cast<const char*>(bytes.data()) + first;
  res.set_content_provider(static_cast<std::size_t>(length), "application/octet-stream",
                           [loaded = std::move(loaded), data, length](
                               std::size_t offset, std::size_t n, httplib::DataSink& sink) {
                             if (offset > length || n > length - offset) return false;
                             return sink.write(data + offset, n);
                           });
}

void Service::healthz(const httplib::Request&, httplib::Response& res) const {
  res.status = 200;
  res.set_content(R"({"status":"ok"})", kJson);
  res.set_header("Cache-Control", kNoStore);
}

void Service::readyz(const httplib::Request&, httplib::Response& res) const {
  const auto loaded = table_.get();
  if (!loaded) {
    set_problem(res, not_ready());
  } else {
    nlohmann::ordered_json j;
    j["status"] = "ready";
    j["table"] = {{"checksum", loaded->checksum_hex()},
                  {"sections", loaded->view().section_count()},
                  {"bytes", loaded->view().bytes().size()}};
    set_json(res, j);
  }
  res.set_header("Cache-Control", kNoStore);
}

void Service::metrics(const httplib::Request&, httplib::Response& res) const {
  const auto loaded = table_.get();
  res.status = 200;
  res.set_content(metrics_.render(loaded.get()), "text/plain; version=0.0.4; charset=utf-8");
  res.set_header("Cache-Control", kNoStore);
}

void Service::openapi(const httplib::Request&, httplib::Response& res) const {
  const std::string_view yaml = openapi_yaml_bytes();
  res.status = 200;
  res.set_content(yaml.data(), yaml.size(), "application/yaml");
  res.set_header("Cache-Control", kTableCacheControl);
}

void Service::handle(Route route, const httplib::Request& req, httplib::Response& res) const {
  switch (route) {
    case Route::kIndex:
      return index(req, res);
    case Route::kSolve:
      return solve(req, res);
    case Route::kDistance:
      return distance(req, res);
    case Route::kTable:
      return table(req, res);
    case Route::kHealthz:
      return healthz(req, res);
    case Route::kReadyz:
      return readyz(req, res);
    case Route::kMetrics:
      return metrics(req, res);
    case Route::kOpenapi:
      return openapi(req, res);
    case Route::kHint:
      return hint(req, res);
    case Route::kRandom:
      return random(req, res);
    case Route::kStats:
      return stats(req, res);
    case Route::kOther:
      break;
  }
  res.status = 404;
  error(req, res);
}

void Service::method_not_allowed(const httplib::Request& req, httplib::Response& res) const {
  res = httplib::Response();
  res.status = 404;
  error(req, res);
}

void Service::error(const httplib::Request& req, httplib::Response& res) const {
  if (res.status < 400 || !res.body.empty()) return;
  if (res.status == 404 && route_of(req.path) != Route::kOther) {
    // httplib found the path but no handler for this method.
    res.set_header("Allow", std::string(allowed_methods(route_of(req.path))));
    return set_problem(res, problem_for_status(405, req.method, req.path));
  }
  if (res.status == 413 &&
      req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0) {
    // httplib caps form-encoded bodies at 8 KiB whatever the payload limit;
    // curl -d sends that type unless told otherwise.
    return set_problem(
        res, {413, "payload-too-large", "Payload too large",
              "form-encoded bodies are limited to " +
                  std::to_string(CPPHTTPLIB_FORM_URL_ENCODED_PAYLOAD_MAX_LENGTH) +
                  " bytes; send the batch with Content-Type: application/json",
              {}});
  }
  set_problem(res, problem_for_status(res.status, req.method, req.path));
}

}  // namespace eight::server
