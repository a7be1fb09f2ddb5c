#include "service.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <vector>

#include "downloads.h"
#include "negotiation.h"
#include "problem.h"
#include "question.h"

namespace eight::server {
namespace {

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

void healthz(Response& res) {
  res.set_status(200);
  res.set_content(R"({"status":"ok"})", kJsonType);
  res.set_header("Cache-Control", kNoStore);
}

void openapi(Response& res) {
  res.set_status(200);
  res.set_header("Content-Type", "application/yaml");
  res.external = openapi_yaml_bytes();
  res.set_header("Cache-Control", kTableCacheControl);
}

}  // namespace

Service::Service(const TableSlot& table, const Metrics& metrics, std::uint64_t max_budget,
                 std::chrono::milliseconds job_deadline)
    : table_(table), metrics_(metrics), max_budget_(max_budget), job_deadline_(job_deadline) {
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
  index["description"] =
      "Sliding-puzzle answers: exact from tables up to 10 cells (12 from tables generated on "
      "request), optimal by search on 4x4, every board up to 10x10 with a proven lower bound";
#ifdef EIGHT_VERSION
  index["version"] = EIGHT_VERSION;
#endif
  index["docs"] = "/openapi.yaml";
  index["endpoints"] = std::move(endpoints);
  index_json_ = index.dump();
}

Plan Service::plan(const Request& req) const {
  Plan p;
  p.route = route_of(req.path);
  try {
    // A preflight too learns that a path has no endpoint: a 204 would tell a
    // page the request may go ahead, to a 404. OPTIONS * asks about the
    // server as a whole (RFC 9110 9.3.7), which exists.
    const bool asks_server = req.method == http::verb::options && req.path == "*";
    if (p.route == Route::kOther && !asks_server) {
      p.step = Plan::Step::kNotFound;
    } else if (req.method == http::verb::options) {
      p.step = Plan::Step::kPreflight;
    } else if (const RouteInfo& r = info(p.route);
               !(req.method == http::verb::get || req.method == http::verb::head) &&
               !(r.post && req.method == http::verb::post)) {
      p.step = Plan::Step::kWrongMethod;
    } else if (req.method == http::verb::post) {
      p.step = Plan::Step::kBatch;
    } else if (auto problem = check_params(r, req)) {
      p.step = Plan::Step::kRefuse;
      p.problem = std::move(problem);
    } else {
      p.step = Plan::Step::kEndpoint;
      const bool needs_board =
          p.route == Route::kSolve || p.route == Route::kDistance || p.route == Route::kHint;
      if (needs_board || p.route == Route::kRandom || p.route == Route::kStats) {
        auto v = read_question(table_, req, needs_board, max_budget_);
        if (auto* q = std::get_if<Question>(&v)) {
          // The endpoint's own parameters too: run() reads none again.
          if (auto refused = read_asks(p.route, req, *q)) {
            p.step = Plan::Step::kRefuse;
            p.problem = std::move(refused);
          } else {
            p.question = std::move(*q);
          }
        } else {
          p.step = Plan::Step::kRefuse;
          p.problem = std::move(std::get<Problem>(v));
        }
      }
    }
  } catch (const std::exception&) {
    // Planning does not throw for any input; this is the last line of
    // defence (std::bad_alloc, say), answered 500 by run().
    const Route route = p.route;
    p = Plan();
    p.route = route;
    p.step = Plan::Step::kFailed;
  }
  p.runs_long = eight::server::runs_long(p);  // plan.h: the one definition
  return p;
}

void Service::run(const Request& req, const Plan& plan, Response& res,
                  const std::atomic<bool>& cancelled) const {
  res.route = plan.route;
  try {
    // The job's time starts now, on the thread that runs it: a wait in the
    // compute pool's queue has a deadline of its own.
    dispatch(req, plan, res, Job::start(max_budget_, job_deadline_, cancelled));
  } catch (const std::exception&) {
    // Handlers do not throw for any input; this is the last line of defence
    // (std::bad_alloc, say), so a bug shows as a problem, not a lost answer.
    res = Response();
    res.route = plan.route;
    set_problem(res, problem_for_status(500, req.method_text, req.path));
  }
  add_cors_headers(req, res);
}

void Service::dispatch(const Request& req, const Plan& plan, Response& res, const Job& job) const {
  switch (plan.step) {
    case Plan::Step::kNotFound:
      return set_problem(res, problem_for_status(404, req.method_text, req.path));
    case Plan::Step::kPreflight:
      res.set_status(204);
      res.set_header("Allow", std::string(allowed_methods(plan.route)) + ", OPTIONS");
      return;
    case Plan::Step::kWrongMethod:
      res.set_header("Allow", std::string(allowed_methods(plan.route)));
      return set_problem(res, problem_for_status(405, req.method_text, req.path));
    case Plan::Step::kRefuse:
      return set_problem(res, *plan.problem);
    case Plan::Step::kBatch:
      return solve_batch(table_, job, req, res);
    case Plan::Step::kFailed:
      return set_problem(res, problem_for_status(500, req.method_text, req.path));
    case Plan::Step::kEndpoint:
      break;
  }
  const Question* q = plan.question ? &*plan.question : nullptr;
  switch (plan.route) {
    case Route::kIndex:
      return index(req, res);
    case Route::kSolve:
      return answer_solve(*q, true, job, res);
    case Route::kDistance:
      return answer_solve(*q, false, job, res);
    case Route::kTable:
      return serve_table(table_, req, res);
    case Route::kHealthz:
      return healthz(res);
    case Route::kReadyz:
      return readyz(res);
    case Route::kMetrics:
      return metrics(res);
    case Route::kOpenapi:
      return openapi(res);
    case Route::kHint:
      return answer_hint(*q, job, res);
    case Route::kRandom:
      return answer_random(*q, job, res);
    case Route::kStats:
      return answer_stats(*q, res);
    case Route::kTables:
      return list_tables(table_, res);
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
  res.set_content(index_json_, kJsonType);
}

void Service::readyz(Response& res) const {
  const auto tables = table_.get();
  if (!tables) {
    set_problem(res, no_tables(table_));
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

void Service::metrics(Response& res) const {
  const auto tables = table_.get();
  res.set_status(200);
  res.set_content(metrics_.render(tables.get()), "text/plain; version=0.0.4; charset=utf-8");
  res.set_header("Cache-Control", kNoStore);
}

}  // namespace eight::server
