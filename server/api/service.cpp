#include "service.h"

#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <random>
#include <set>
#include <variant>

#include "conditional.h"
#include "eight/board.h"
#include "eight/random.h"
#include "eight/text.h"
#include "json/answer_json.h"
#include "negotiation.h"
#include "problem.h"

namespace eight::server {
namespace {

constexpr const char* kJson = "application/json";

Problem not_ready() {
  return {503, "not-ready", "Not ready", "no table is loaded yet", {}};
}

void set_json(Response& res, const nlohmann::ordered_json& j) {
  res.set_status(200);
  res.set_content(j.dump(), kJson);
}

// "board and goal", "distance, goal and seed": for unknown-parameter details.
std::string list_names(const RouteInfo& r) {
  std::vector<std::string_view> names;
  for (std::string_view n : r.params) {
    if (!n.empty()) names.push_back(n);
  }
  if (names.empty()) return "no query parameters";
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

const RouteInfo& info(Route route) {
  for (const RouteInfo& r : routes()) {
    if (r.route == route) return r;
  }
  return routes().front();  // not reached: every routed path has an entry
}

// The one check of query parameters, for every GET endpoint alike. Typos must
// not silently fall back to defaults ("gaol=..." would answer for the
// standard goal), so unknown parameters are refused, and so are repeats
// with different values (an identical repeat was already merged).
std::optional<Problem> check_params(const RouteInfo& route, const Request& req) {
  for (const auto& [name, value] : req.params) {
    if (std::find(route.params.begin(), route.params.end(), name) == route.params.end() ||
        name.empty()) {
      return unknown_parameter(name, list_names(route));
    }
  }
  for (std::string_view name : route.params) {
    if (name.empty()) continue;
    if (const auto n = req.params_named(name); n > 1) return repeated_parameter(name, n);
  }
  return std::nullopt;
}

// What a query asks about: the tables snapshot it is answered from, the
// table of that set that answers the goal and the goal's frame in it, and
// the board when the endpoint takes one.
struct Question {
  std::shared_ptr<const TableSet> tables;
  const Table* loaded = nullptr;  // owned by `tables`
  std::optional<GoalFrame> frame;
  Board board;
  bool search = false;  // a 4x4 question: searched within `budget`
  fifteen::SearchBudget budget;
};

// The most budget= may ask of this server (--max-budget); with searches
// off (0), budget= is still read, and ignored, up to kMaxSearchNodes.
std::uint64_t budget_ceiling(std::uint64_t max_budget) {
  return max_budget == 0 ? kMaxSearchNodes : max_budget;
}

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

// A question answered by search on a server whose searches are off.
Problem searches_off(const GoalFrame& frame, std::string_view parameter) {
  return {404, "search-disabled", "Searches disabled",
          "this server answers no questions by search (eight-server --max-budget 0), so none "
          "for goal " +
              to_string(frame.goal()) + "; 4x4 boards need a server that searches",
          parameter};
}

// The one place query parameters become a question, for every endpoint that
// asks about a goal. The core parser is the only judge of board text, limits
// included: its messages go to the client verbatim.
std::variant<Question, Problem> read_question(const TableSlot& slot, const Request& req,
                                              bool needs_board, std::uint64_t max_budget,
                                              const std::atomic<bool>& cancelled) {
  Question q;
  const auto budget = read_budget(req, max_budget);
  if (const auto* p = std::get_if<Problem>(&budget)) return *p;
  q.budget.max_nodes = std::get<std::uint64_t>(budget);
  q.budget.cancel = &cancelled;
  // shape=RxC: the shape of the board and goal texts, for cell counts several
  // shapes share (and the default goal's shape where no board is given).
  std::optional<Shape> shape;
  if (const std::string* text = req.param("shape")) {
    const auto parsed = parse_shape(*text);
    if (!parsed.ok()) return problem_from_error(parsed.error(), "shape");
    shape = *parsed;
  }
  if (needs_board) {
    const std::string* text = req.param("board");
    if (text == nullptr) return missing_parameter("board");
    const auto board = parse_board(*text, shape);
    if (!board.ok()) return problem_from_error(board.error(), "board");
    q.board = *board;
  }
  // The goal: as given, else the standard goal of the board's shape (or of
  // the shape named, or 3x3).
  Board goal =
      needs_board ? standard_goal(q.board.shape) : (shape ? standard_goal(*shape) : kStandardGoal);
  if (const std::string* text = req.param("goal")) {
    const auto parsed = parse_board(*text, shape);
    if (!parsed.ok()) return problem_from_error(parsed.error(), "goal");
    goal = *parsed;
  }
  if (needs_board) {
    if (const auto mismatch = shape_mismatch(q.board, goal)) {
      return problem_from_error(*mismatch, "goal");
    }
  }
  q.tables = slot.get();
  if (!q.tables) return not_ready();
  auto frame = q.tables->frame(goal);
  if (!frame.ok()) return problem_from_error(frame.error(), "goal");
  q.loaded = frame->table;
  q.frame = frame->frame;
  q.search = is_search_frame(*q.loaded, *q.frame);
  if (q.search && max_budget == 0) return searches_off(*q.frame, needs_board ? "board" : "shape");
  return q;
}

// A search that did not finish: 503 with how far it got, or, for a client
// that has gone, nothing anyone will read.
void stopped(const SearchReport& report, const Question& q, std::uint64_t max_budget,
             Response& res) {
  set_problem(res, budget_exceeded(report, q.budget.max_nodes, budget_ceiling(max_budget)));
  res.set_header("Cache-Control", kNoStore);
}

// What a 4x4 answer cost, for clients tuning their budget.
void add_search_header(const SearchReport& report, Response& res) {
  res.set_header("X-Search-Nodes", std::to_string(report.nodes));
}

// Sets the problem and returns null when `v` holds one.
const Question* question_or_problem(const std::variant<Question, Problem>& v, Response& res) {
  if (const auto* p = std::get_if<Problem>(&v)) {
    set_problem(res, *p);
    return nullptr;
  }
  return &std::get<Question>(v);
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

Problem bad_body(std::string detail) {
  return {400, "bad-body", "Bad request body", std::move(detail), {}};
}

// A yes/no query parameter: 1 or true, 0 or false.
std::optional<bool> parse_flag(std::string_view text) {
  if (text == "1" || text == "true") return true;
  if (text == "0" || text == "false") return false;
  return std::nullopt;
}

// A body nested deeper than kMaxJsonDepth.
struct TooDeep {};
// A key given twice in one object of a body.
struct DuplicateKey {
  std::string key;
};

// Parses a JSON body, refusing nesting past kMaxJsonDepth before building
// anything that deep (nlohmann's parser reports the depth of each value as
// it starts, through the callback), and a key repeated in one object at any
// level: nlohmann keeps the last value, so {"goal": A, "goal": B} would
// answer for B while a repeated query parameter is refused. The callback
// sees each object's keys in order; one set of keys per open object (at
// most kMaxJsonDepth of them) tells a repeat.
std::variant<nlohmann::json, Problem> parse_json_body(const std::string& body) {
  std::vector<std::set<std::string, std::less<>>> open_objects;
  const nlohmann::json::parser_callback_t check =
      [&open_objects](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        if (depth > kMaxJsonDepth) throw TooDeep{};
        using Event = nlohmann::json::parse_event_t;
        if (event == Event::object_start) {
          open_objects.emplace_back();
        } else if (event == Event::object_end) {
          open_objects.pop_back();
        } else if (event == Event::key && !open_objects.empty()) {
          // A set, not a scan: one object of a 2 MiB body may hold 200,000
          // keys, and a scan would make that quadratic.
          const auto& key = parsed.get_ref<const std::string&>();
          if (!open_objects.back().insert(key).second) throw DuplicateKey{key};
        }
        return true;
      };
  try {
    return nlohmann::json::parse(body, check);
  } catch (const TooDeep&) {
    return bad_body("body nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  } catch (const DuplicateKey& d) {
    return bad_body("body gives key " + quote(d.key, 32) +
                    " twice in one object; give each key once");
  } catch (const nlohmann::json::exception& e) {
    return bad_body(std::string("body is not valid JSON: ") + e.what());
  }
}

// CORS: every answer is public and needs no credentials, so any web page may
// read it. A preflight (OPTIONS) learns the route's methods and that
// Content-Type may be set (POST /solve sends JSON), and may cache that for a
// day. Downloads of /table expose their validators and ranges to scripts.
// /metrics never: it is for the operator's scraper, not for web pages, and
// a page must not read a server's internals through its visitors.
void add_cors_headers(const Request& req, Response& res) {
  if (route_of(req.path) == Route::kMetrics) return;
  res.set_header("Access-Control-Allow-Origin", "*");
  if (req.method == http::verb::options) {
    res.set_header("Access-Control-Allow-Methods",
                   std::string(allowed_methods(route_of(req.path))) + ", OPTIONS");
    res.set_header("Access-Control-Allow-Headers", "Content-Type, If-None-Match, Range, If-Range");
    res.set_header("Access-Control-Max-Age", "86400");
  } else {
    res.set_header("Access-Control-Expose-Headers",
                   "ETag, Content-Range, Content-Disposition, Accept-Ranges");
  }
}

// The name a table file is served under, in /tables and Content-Disposition:
// one file is eight.tbl, as it always was, whatever its path; of several
// (one folder, so the names differ), each keeps its own file name.
std::string served_name(const TableSet& tables, std::size_t i) {
  return tables.size() == 1 ? std::string("eight.tbl")
                            : std::filesystem::path(tables.table(i)->path()).filename().string();
}

}  // namespace

Service::Service(const TableSlot& table, const Metrics& metrics, std::uint64_t max_budget)
    : table_(table), metrics_(metrics), max_budget_(max_budget) {
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

bool Service::runs_long(const Request& req) const {
  const Route route = route_of(req.path);
  if (req.method == http::verb::post) return route == Route::kSolve;
  // Up to kMaxRandomCount draws.
  if (route == Route::kRandom && req.param("count") != nullptr) return true;
  if (route != Route::kSolve && route != Route::kDistance && route != Route::kHint &&
      route != Route::kRandom) {
    return false;
  }
  // A 4x4 question is a search, and a board drawn at random from a mod-3
  // section (2x5) is rejection sampling, up to a second: both run long.
  // The same parser the handler runs decides (a bounded parse of at most
  // kMaxBoardText bytes): a text that does not parse is refused quickly on
  // the I/O thread.
  std::optional<Shape> shape;
  if (const std::string* text = req.param("shape")) {
    const auto parsed = parse_shape(*text);
    if (parsed.ok()) shape = *parsed;
  }
  if (shape == kShape4x4) return true;
  std::optional<Board> goal;
  for (const char* name : {"board", "goal"}) {
    if (const std::string* text = req.param(name)) {
      const auto b = parse_board(*text, shape);
      if (b.ok() && b->shape == kShape4x4) return true;
      if (b.ok() && std::string_view(name) == "goal") goal = *b;
    }
  }
  if (route != Route::kRandom) return false;
  const auto tables = table_.get();
  if (!tables) return false;
  const auto frame = tables->frame(goal ? *goal : shape ? standard_goal(*shape) : kStandardGoal);
  return frame.ok() &&
         frame->table->view().section(frame->frame.section()).encoding != format::Encoding::kFull;
}

void Service::handle(const Request& req, Response& res, const std::atomic<bool>& cancelled) const {
  const Route route = route_of(req.path);
  res.route = route;
  try {
    dispatch(route, req, res, cancelled);
  } catch (const std::exception&) {
    // Handlers do not throw for any input; this is the last line of defence
    // (std::bad_alloc, say), so a bug shows as a problem, not a lost answer.
    res = Response();
    res.route = route;
    set_problem(res, problem_for_status(500, req.method_text, req.path));
  }
  add_cors_headers(req, res);
}

void Service::dispatch(Route route, const Request& req, Response& res,
                       const std::atomic<bool>& cancelled) const {
  // A preflight too learns that a path has no endpoint: a 204 would tell a
  // page the request may go ahead, to a 404. OPTIONS * asks about the
  // server as a whole (RFC 9110 9.3.7), which exists.
  if (route == Route::kOther && !(req.method == http::verb::options && req.path == "*")) {
    return set_problem(res, problem_for_status(404, req.method_text, req.path));
  }
  if (req.method == http::verb::options) {
    res.set_status(204);
    res.set_header("Allow", std::string(allowed_methods(route)) + ", OPTIONS");
    return;
  }
  const RouteInfo& r = info(route);
  const bool get = req.method == http::verb::get || req.method == http::verb::head;
  if (!get && !(r.post && req.method == http::verb::post)) {
    res.set_header("Allow", std::string(allowed_methods(route)));
    return set_problem(res, problem_for_status(405, req.method_text, req.path));
  }
  if (req.method == http::verb::post) return solve_batch(req, res, cancelled);
  if (auto p = check_params(r, req)) return set_problem(res, *p);
  switch (route) {
    case Route::kIndex:
      return index(req, res);
    case Route::kSolve:
      return solve(req, res, cancelled);
    case Route::kDistance:
      return distance(req, res, cancelled);
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
      return hint(req, res, cancelled);
    case Route::kRandom:
      return random(req, res, cancelled);
    case Route::kStats:
      return stats(req, res);
    case Route::kTables:
      return tables(req, res);
    case Route::kOther:
      break;
  }
}

void Service::refuse(Refusal why, std::string_view detail, Response& res) const {
  set_problem(res, problem_for_refusal(why, detail));
  if (why == Refusal::kOverloaded || why == Refusal::kStopping) {
    res.set_header("Retry-After", std::to_string(kRetryAfterSeconds));
  }
}

void Service::index(const Request& req, Response& res) const {
  res.set_status(200);
  // Caches must keep the two representations apart.
  res.set_header("Vary", "Accept");
  if (prefers_html(req.header("Accept"))) {
    // Compiled in: sent from the binary's own bytes, no copy.
    res.set_header("Content-Type", "text/html; charset=utf-8");
    res.external = playground_html_bytes();
    // The page is compiled into this binary and names no other origin.
    res.set_header("Content-Security-Policy",
                   "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                   "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'");
    res.set_header("Cache-Control", "no-cache");
    return;
  }
  res.set_content(index_json_, kJson);
}

void Service::solve(const Request& req, Response& res, const std::atomic<bool>& cancelled) const {
  answer(req, res, true, cancelled);
}

void Service::distance(const Request& req, Response& res,
                       const std::atomic<bool>& cancelled) const {
  answer(req, res, false, cancelled);
}

// The one path from query parameters to an answer for /solve and /distance.
void Service::answer(const Request& req, Response& res, bool with_path,
                     const std::atomic<bool>& cancelled) const {
  const auto v = read_question(table_, req, true, max_budget_, cancelled);
  const Question* q = question_or_problem(v, res);
  if (q == nullptr) return;
  SolveFields fields{with_path, false};
  if (const std::string* boards = req.param("boards")) {
    const auto flag = parse_flag(*boards);
    if (!flag) {
      return set_problem(
          res, {400, "bad-boards", "Bad boards flag",
                "boards must be 1 (the board after every move) or 0; got " + quote(*boards, 32),
                "boards"});
    }
    fields.boards = *flag;
  }
  // From a table, O(distance): one entry per move, nothing proportional to
  // the table; for 4x4, a search within the budget (on the compute pool).
  const auto answer = solve_board(*q->loaded, *q->frame, q->board, with_path, q->budget);
  if (!answer.ok()) return set_problem(res, problem_from_error(answer.error(), "board"));
  if (!answer->report.finished()) return stopped(answer->report, *q, max_budget_, res);
  res.set_content(solution_json(answer->solution, fields), kJson);
  if (q->search) add_search_header(answer->report, res);
  // A search's answer depends on its budget only through whether it is
  // found: an answer is the same for every budget that finds it.
  res.set_header("Cache-Control", kAnswerCacheControl);
}

void Service::hint(const Request& req, Response& res, const std::atomic<bool>& cancelled) const {
  const auto v = read_question(table_, req, true, max_budget_, cancelled);
  const Question* q = question_or_problem(v, res);
  if (q == nullptr) return;
  const SearchedMoves searched = board_moves(*q->loaded, *q->frame, q->board, q->budget);
  if (!searched.report.finished()) return stopped(searched.report, *q, max_budget_, res);
  res.set_content(hints_json(q->board, q->frame->goal(), searched.options), kJson);
  if (q->search) add_search_header(searched.report, res);
  res.set_header("Cache-Control", kAnswerCacheControl);
}

namespace {

// /random for a 4x4 goal: a uniformly random board (distance optional), or
// one exactly distance=D away, drawn and solved within the budget.
void random_searched(const Request& req, const Question& q, std::uint64_t max_budget,
                     Response& res) {
  if (const std::string* c_text = req.param("count")) {
    return set_problem(res, {400, "bad-count", "Bad count",
                             "count is for the boards tables answer; a 4x4 board is drawn by "
                             "search, one a request; got " +
                                 quote(*c_text, 32),
                             "count"});
  }
  std::optional<int> distance;
  if (const std::string* d_text = req.param("distance")) {
    const auto d = parse_decimal(*d_text);
    if (!d || *d > static_cast<std::uint64_t>(fifteen::kMaxSolutionLength)) {
      return set_problem(
          res, bad_number("distance", *d_text,
                          "a whole number from 0 to 80 for goal " + to_string(q.frame->goal())));
    }
    distance = static_cast<int>(*d);
  }
  const std::string* s_text = req.param("seed");
  const auto seed = read_seed(s_text);
  if (!seed) {
    return set_problem(res, bad_number("seed", *s_text, "a whole number from 0 to 2^64-1"));
  }
  Rng rng(*seed);
  const SearchedBoard drawn = random_search_board(*q.loaded, *q.frame, distance, rng, q.budget);
  if (distance && !drawn.report.finished()) return stopped(drawn.report, q, max_budget, res);
  nlohmann::ordered_json j;
  const Board goal = q.frame->goal();
  add_board_fields(j, &drawn.board, goal);
  // Without distance=, the board's distance when the search found it
  // within the budget, else null.
  j["distance"] = drawn.distance >= 0 ? nlohmann::ordered_json(drawn.distance) : nullptr;
  j["seed"] = std::to_string(*seed);
  set_json(res, j);
  add_search_header(drawn.report, res);
  res.set_header("Cache-Control", s_text != nullptr ? kAnswerCacheControl : kNoStore);
}

}  // namespace

void Service::random(const Request& req, Response& res, const std::atomic<bool>& cancelled) const {
  const auto v = read_question(table_, req, false, max_budget_, cancelled);
  const Question* q = question_or_problem(v, res);
  if (q == nullptr) return;
  if (q->search) return random_searched(req, *q, max_budget_, res);
  const int max = q->loaded->view().section(q->frame->section()).max_distance;
  const std::string* d_text = req.param("distance");
  if (d_text == nullptr) return set_problem(res, missing_parameter("distance"));
  const auto distance = parse_decimal(*d_text);
  if (!distance || *distance > static_cast<std::uint64_t>(max)) {
    return set_problem(res, bad_number("distance", *d_text,
                                       "a whole number from 0 to " + std::to_string(max) +
                                           " for goal " + to_string(q->frame->goal())));
  }
  const std::string* s_text = req.param("seed");
  const auto seed = read_seed(s_text);
  if (!seed) {
    return set_problem(res, bad_number("seed", *s_text, "a whole number from 0 to 2^64-1"));
  }
  // count=N: N draws from the one generator, in order, as `eight random
  // --seed S --count N` prints them.
  std::uint64_t count = 1;
  const std::string* c_text = req.param("count");
  if (c_text != nullptr) {
    const auto parsed = parse_decimal(*c_text);
    if (!parsed || *parsed < 1 || *parsed > kMaxRandomCount) {
      return set_problem(res, {400, "bad-count", "Bad count",
                               "count must be a whole number from 1 to " +
                                   std::to_string(kMaxRandomCount) + "; got " + quote(*c_text, 32),
                               "count"});
    }
    count = *parsed;
  }
  Rng rng(*seed);
  std::vector<Board> drawn;
  for (std::uint64_t i = 0; i < count; ++i) {
    // The client has gone, or the server stops: nobody reads the rest.
    if (cancelled.load(std::memory_order_relaxed)) {
      return set_problem(
          res, problem_from_error(make_error(ErrorCode::kCancelled, "the draws were cancelled"),
                                  "count"));
    }
    const auto board =
        random_board(*q->loaded, *q->frame, static_cast<int>(*distance), rng, &cancelled);
    if (!board.ok()) return set_problem(res, problem_from_error(board.error(), "distance"));
    drawn.push_back(*board);
  }
  nlohmann::ordered_json j;
  const Board goal = q->frame->goal();
  add_board_fields(j, &drawn.front(), goal);
  j["distance"] = *distance;
  // As a string: seeds go up to 2^64-1, past what JSON numbers carry exactly
  // in JavaScript.
  j["seed"] = std::to_string(*seed);
  if (c_text != nullptr) {
    auto boards = nlohmann::ordered_json::array();
    auto cells = nlohmann::ordered_json::array();
    for (const Board& b : drawn) {
      boards.push_back(to_string(b));
      cells.push_back(cells_json(b));
    }
    j["boards"] = std::move(boards);
    j["boards_cells"] = std::move(cells);
  }
  set_json(res, j);
  // A seeded draw is the same forever; an unseeded one must differ each time.
  res.set_header("Cache-Control", s_text != nullptr ? kAnswerCacheControl : kNoStore);
}

void Service::stats(const Request& req, Response& res) const {
  static const std::atomic<bool> kNotCancelled{false};
  const auto v = read_question(table_, req, false, max_budget_, kNotCancelled);
  const Question* q = question_or_problem(v, res);
  if (q == nullptr) return;
  if (q->search) {
    return set_problem(res, {404, "no-stats", "No statistics for this shape",
                             "4x4 positions are not tabulated (a search answers each question), "
                             "so there is no distance histogram for goal " +
                                 to_string(q->frame->goal()),
                             "shape"});
  }
  const auto& section = q->loaded->view().section(q->frame->section());
  const auto& histogram = q->loaded->index().histogram(q->frame->section());
  nlohmann::ordered_json j;
  add_board_fields(j, nullptr, q->frame->goal());
  j["solvable_positions"] = section.positions;
  j["unsolvable_positions"] = section.positions;
  j["max_distance"] = section.max_distance;
  j["histogram"] =
      std::vector<std::uint32_t>(histogram.begin(), histogram.begin() + section.max_distance + 1);
  auto hardest = nlohmann::ordered_json::array();
  auto hardest_cells = nlohmann::ordered_json::array();
  for (const Board& b : hardest_boards(q->loaded->index(), *q->frame)) {
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

void Service::solve_batch(const Request& req, Response& res,
                          const std::atomic<bool>& cancelled) const {
  if (!req.params.empty() || req.target.find('?') != std::string::npos) {
    return set_problem(res, bad_body("POST /solve takes its boards and goal in the JSON body, "
                                     "not in the query"));
  }
  if (req.body.empty()) {
    return set_problem(
        res, bad_body(R"(POST /solve needs a JSON body: {"boards": [...], "goal": "..."})"));
  }
  auto parsed = parse_json_body(req.body);
  if (const auto* p = std::get_if<Problem>(&parsed)) return set_problem(res, *p);
  const nlohmann::json& body = std::get<nlohmann::json>(parsed);
  if (!body.is_object()) {
    return set_problem(res,
                       bad_body(R"(body must be a JSON object: {"boards": [...], "goal": "..."})"));
  }
  for (const auto& [key, value] : body.items()) {
    if (key != "boards" && key != "goal" && key != "shape" && key != "budget") {
      return set_problem(res, bad_body("unknown field " + quote(key, 32) +
                                       "; the body takes boards, goal, shape and budget"));
    }
  }
  // "budget": the nodes all of the batch's 4x4 searches may expand together.
  fifteen::SearchBudget budget;
  const std::uint64_t ceiling = budget_ceiling(max_budget_);
  budget.max_nodes = std::min(kDefaultSearchNodes, ceiling);
  budget.cancel = &cancelled;
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
  std::optional<Shape> shape;
  if (const auto sh = body.find("shape"); sh != body.end()) {
    if (!sh->is_string()) return set_problem(res, bad_body("field 'shape' must be a string"));
    const auto parsed_shape = parse_shape(sh->get_ref<const std::string&>());
    if (!parsed_shape.ok()) {
      return set_problem(res, problem_from_error(parsed_shape.error(), "shape"));
    }
    shape = *parsed_shape;
  }
  const auto boards = body.find("boards");
  if (boards == body.end() || !boards->is_array()) {
    return set_problem(
        res,
        bad_body(R"(field 'boards' must be an array of boards, or of {"board": B, "goal": G})"));
  }
  if (boards->size() > kMaxBatchBoards) {
    return set_problem(res, {413,
                             "too-many-boards",
                             "Too many boards",
                             "at most " + std::to_string(kMaxBatchBoards) +
                                 " boards per request; got " + std::to_string(boards->size()),
                             {}});
  }
  // The batch's goal: the one given, else the standard goal of the shape
  // given. A batch that gives neither has none of its own: each item
  // without a goal takes its own shape's standard goal, as GET /solve does,
  // and the answer's "goal" is 123456780, the 3x3 items' (as it always was).
  const bool batch_goal = body.contains("goal") || shape.has_value();
  Board goal = shape ? standard_goal(*shape) : kStandardGoal;
  if (const auto g = body.find("goal"); g != body.end()) {
    if (!g->is_string()) return set_problem(res, bad_body("field 'goal' must be a string"));
    const auto parsed_goal = parse_board(g->get_ref<const std::string&>(), shape);
    if (!parsed_goal.ok()) return set_problem(res, problem_from_error(parsed_goal.error(), "goal"));
    goal = *parsed_goal;
  }
  const auto tables = table_.get();
  if (!tables) return set_problem(res, not_ready());
  // Each item is answered by the table its goal's frame names: items with
  // goals of their own may be answered from different files. A goal the
  // body gives must be answerable; the default goal of a batch without one
  // only for its 3x3 items (answered in place, as any item's goal).
  const Result<TableSet::Frame> frame = tables->frame(goal);
  if (batch_goal && !frame.ok()) {
    return set_problem(res, problem_from_error(frame.error(), "goal"));
  }
  // The frames of the other shapes' standard goals, found once per shape.
  std::vector<std::pair<Shape, Result<TableSet::Frame>>> shape_frames;
  const auto standard_frame = [&](Shape s) -> const Result<TableSet::Frame>& {
    if (s == goal.shape) return frame;
    for (const auto& [known, f] : shape_frames) {
      if (known == s) return f;
    }
    return shape_frames.emplace_back(s, tables->frame(standard_goal(s))).second;
  };
  // Written as it goes: 10,000 answers as JSON values would cost more
  // than solving them.
  nlohmann::ordered_json head;
  add_board_fields(head, nullptr, goal);
  std::string out = head.dump();
  out.pop_back();  // the closing brace: count and answers follow
  out += R"(,"count":)" + std::to_string(boards->size()) + R"(,"answers":[)";
  out.reserve(out.size() + boards->size() * 320);
  bool first = true;
  for (const auto& item : *boards) {
    // The client has gone: nobody will read the rest.
    if (cancelled.load(std::memory_order_relaxed)) return;
    if (!first) out += ',';
    first = false;
    // A board, or {"board": B, "goal": G} for a goal of its own.
    const nlohmann::json* board_text = &item;
    const nlohmann::json* goal_text = nullptr;
    if (item.is_object()) {
      const auto b = item.find("board");
      const auto g = item.find("goal");
      const std::size_t known = (b != item.end() ? 1u : 0u) + (g != item.end() ? 1u : 0u);
      const bool only_those = item.size() == known;
      if (b == item.end() || !only_those || (g != item.end() && !g->is_string())) {
        out += input_error_json(item, R"(an item is a board, or {"board": B, "goal": G})");
        continue;
      }
      board_text = &*b;
      if (g != item.end()) goal_text = &*g;
    }
    if (!board_text->is_string()) {
      out += input_error_json(item, "expected a board as a string");
      continue;
    }
    const auto board = parse_board(board_text->get_ref<const std::string&>(), shape);
    if (!board.ok()) {
      out += input_error_json(item, board.error().message);
      continue;
    }
    Result<TableSet::Frame> item_frame = frame;
    if (goal_text != nullptr) {
      const auto item_goal = parse_board(goal_text->get_ref<const std::string&>(), shape);
      if (!item_goal.ok()) {
        out += input_error_json(item, "goal: " + item_goal.error().message);
        continue;
      }
      if (const auto mismatch = shape_mismatch(*board, *item_goal)) {
        out += input_error_json(item, "goal: " + mismatch->message);
        continue;
      }
      item_frame = tables->frame(*item_goal);
      if (!item_frame.ok()) {
        out += input_error_json(item, "goal: " + item_frame.error().message);
        continue;
      }
    }
    if (goal_text == nullptr) {
      if (batch_goal) {
        if (const auto mismatch = shape_mismatch(*board, goal)) {
          out += input_error_json(item, "goal: " + mismatch->message);
          continue;
        }
      } else {
        item_frame = standard_frame(board->shape);
        if (!item_frame.ok()) {
          out += input_error_json(item, "goal: " + item_frame.error().message);
          continue;
        }
      }
    }
    if (max_budget_ == 0 && is_search_frame(*item_frame->table, item_frame->frame)) {
      out += input_error_json(item, searches_off(item_frame->frame, "board").detail);
      continue;
    }
    const auto answer = solve_board(*item_frame->table, item_frame->frame, *board, true, budget);
    if (!answer.ok()) return set_problem(res, problem_from_error(answer.error(), "board"));
    budget.max_nodes -= std::min(budget.max_nodes, answer->report.nodes);
    if (!answer->report.finished()) {
      // In place, as a bad board is: the rest of the batch is still answered
      // (table answers cost nothing; later searches get what is left).
      out += input_error_json(item, describe_stop(answer->report, total_budget) +
                                        " (the batch's budget, shared by its 4x4 boards)");
      if (budget.max_nodes == 0) budget.max_nodes = 1;  // a search needs a node to start
      continue;
    }
    append_solution_json(answer->solution, SolveFields{}, out);
  }
  out += "]}";
  res.set_status(200);
  res.set_content(std::move(out), kJson);
  res.set_header("Cache-Control", kNoStore);
}

void Service::table(const Request& req, Response& res) const {
  const auto tables = table_.get();
  if (!tables) return set_problem(res, not_ready());
  // shape=RxC: the file answering that shape. Without it: the only file, or
  // of several, the one answering 3x3 (else the first).
  std::size_t which = 0;
  const std::string* name = req.param("name");
  if (name != nullptr && req.param("shape") != nullptr) {
    return set_problem(res,
                       {400, "bad-request", "Bad request",
                        "give shape= or name=, not both: name= names one file already", "name"});
  }
  if (name != nullptr) {
    std::string names;
    for (which = 0; which < tables->size(); ++which) {
      if (served_name(*tables, which) == *name) break;
      names += (which == 0 ? "" : ", ") + served_name(*tables, which);
    }
    if (which == tables->size()) {
      return set_problem(
          res, {404, "table-not-found", "No such table file",
                "no table file is named " + quote(*name) + "; GET /tables lists them: " + names,
                "name"});
    }
  } else if (const std::string* text = req.param("shape")) {
    const auto shape = parse_shape(*text);
    if (!shape.ok()) return set_problem(res, problem_from_error(shape.error(), "shape"));
    const auto found = tables->table_for(*shape);
    if (!found.ok()) return set_problem(res, problem_from_error(found.error(), "shape"));
    which = *found;
  } else if (const auto found = tables->table_for(kShape3x3); found.ok()) {
    which = *found;
  }
  std::shared_ptr<const Table> loaded = tables->table(which);
  const auto bytes = loaded->view().bytes();
  const std::uint64_t size = bytes.size();
  // Validators and caching go on every outcome, 304 and 416 included.
  const std::string etag = etag_of(*loaded);
  res.set_header("ETag", etag);
  res.set_header("Cache-Control", kTableCacheControl);
  res.set_header("Accept-Ranges", "bytes");
  if (const auto inm = req.header("If-None-Match"); !inm.empty() && if_none_match(inm, etag)) {
    // No Content-Length: RFC 9110 8.6 allows only the 200's length, which
    // some clients then wait for as a body; the transport sends none on a 304.
    res.set_status(304);
    return;
  }
  const RangeDecision range = decide_range(req.header("Range"), req.header("If-Range"), etag, size);
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
  res.set_status(200);
  if (range.kind == RangeDecision::Kind::kPartial) {
    first = range.first;
    length = range.last - range.first + 1;
    res.set_status(206);
    res.set_header("Content-Range", "bytes " + std::to_string(range.first) + "-" +
                                        std::to_string(range.last) + "/" + std::to_string(size));
  }
  res.set_header("Content-Disposition",
                 "attachment; filename=\"" + served_name(*tables, which) + "\"");
  res.set_header("Content-Type", "application/octet-stream");
  // Served straight from the mapping: no copy of the table per request. The
  // response holds the snapshot so the mapping outlives the download.
  res.external = {reinterpret_cast<const char*>(bytes.data()) + first,
                  static_cast<std::size_t>(length)};
  res.owner = std::move(loaded);
}

void Service::tables(const Request&, Response& res) const {
  const auto tables = table_.get();
  if (!tables) return set_problem(res, not_ready());
  const auto main = tables->table_for(kShape3x3);
  const std::size_t default_file = main.ok() ? *main : 0;
  auto files = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < tables->size(); ++i) {
    const Table& t = *tables->table(i);
    const std::string name = served_name(*tables, i);
    auto shapes = nlohmann::ordered_json::array();
    for (const Shape s : t.answered_shapes()) shapes.push_back(to_string(s));
    files.push_back(
        {{"name", name},
         {"url", "/table?name=" + boost::urls::encode(name, boost::urls::unreserved_chars)},
         {"etag", etag_of(t)},
         {"checksum", t.checksum_hex()},
         {"bytes", t.view().bytes().size()},
         {"sections", t.view().section_count()},
         {"shapes", std::move(shapes)},
         {"default", i == default_file}});
  }
  nlohmann::ordered_json j;
  j["tables"] = std::move(files);
  set_json(res, j);
  // A reload (SIGHUP) may change the list at any time.
  res.set_header("Cache-Control", kNoStore);
}

void Service::healthz(const Request&, Response& res) const {
  res.set_status(200);
  res.set_content(R"({"status":"ok"})", kJson);
  res.set_header("Cache-Control", kNoStore);
}

void Service::readyz(const Request&, Response& res) const {
  const auto tables = table_.get();
  if (!tables) {
    set_problem(res, not_ready());
  } else {
    const auto shapes_json = [](const std::vector<Shape>& shapes) {
      auto out = nlohmann::ordered_json::array();
      for (const Shape s : shapes) out.push_back(to_string(s));
      return out;
    };
    nlohmann::ordered_json j;
    j["status"] = "ready";
    // "table": the file GET /table serves without shape=, as before sets.
    const auto main = tables->table_for(kShape3x3);
    const Table& first = *tables->table(main.ok() ? *main : 0);
    j["table"] = {{"checksum", first.checksum_hex()},
                  {"sections", first.view().section_count()},
                  {"bytes", first.view().bytes().size()}};
    j["shapes"] = shapes_json(tables->shapes());
    auto files = nlohmann::ordered_json::array();
    for (const auto& t : tables->tables()) {
      files.push_back({{"path", t->path()},
                       {"checksum", t->checksum_hex()},
                       {"sections", t->view().section_count()},
                       {"bytes", t->view().bytes().size()},
                       {"shapes", shapes_json(t->answered_shapes())}});
    }
    j["tables"] = std::move(files);
    set_json(res, j);
  }
  res.set_header("Cache-Control", kNoStore);
}

void Service::metrics(const Request&, Response& res) const {
  const auto tables = table_.get();
  res.set_status(200);
  res.set_content(metrics_.render(tables.get()), "text/plain; version=0.0.4; charset=utf-8");
  res.set_header("Cache-Control", kNoStore);
}

void Service::openapi(const Request&, Response& res) const {
  res.set_status(200);
  res.set_header("Content-Type", "application/yaml");
  res.external = openapi_yaml_bytes();
  res.set_header("Cache-Control", kTableCacheControl);
}

}  // namespace eight::server
