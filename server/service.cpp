#include "service.h"

#include <nlohmann/json.hpp>

#include "conditional.h"
#include "eight/board.h"
#include "eight/json.h"
#include "problem.h"

namespace eight::server {
namespace {

constexpr const char* kJson = "application/json";
constexpr std::string_view kAnswerParameters = "board and goal";

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
    e["methods"] = {"GET", "HEAD"};
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

void Service::index(const httplib::Request&, httplib::Response& res) const {
  res.status = 200;
  res.set_content(index_json_, kJson);
}

void Service::solve(const httplib::Request& req, httplib::Response& res) const {
  answer(req, res, true);
}

void Service::distance(const httplib::Request& req, httplib::Response& res) const {
  answer(req, res, false);
}

// The one path from query parameters to an answer for /solve and /distance.
void Service::answer(const httplib::Request& req, httplib::Response& res, bool with_path) const {
  // Typos must not silently fall back to defaults ("gaol=..." would answer
  // for the standard goal), so unknown parameters are refused.
  for (const auto& [name, value] : req.params) {
    if (name != "board" && name != "goal") {
      return set_problem(res, unknown_parameter(name, kAnswerParameters));
    }
  }
  const auto board_it = req.params.find("board");
  if (board_it == req.params.end()) return set_problem(res, missing_parameter("board"));
  if (const auto n = req.params.count("board"); n > 1) {
    return set_problem(res, repeated_parameter("board", n));
  }
  if (const auto n = req.params.count("goal"); n > 1) {
    return set_problem(res, repeated_parameter("goal", n));
  }
  // The core parser is the only judge of board text, limits included: its
  // messages go to the client verbatim.
  const auto board = parse_board(board_it->second);
  if (!board.ok()) return set_problem(res, problem_from_error(board.error(), "board"));
  Board goal = kStandardGoal;
  if (const auto goal_it = req.params.find("goal"); goal_it != req.params.end()) {
    const auto parsed = parse_board(goal_it->second);
    if (!parsed.ok()) return set_problem(res, problem_from_error(parsed.error(), "goal"));
    goal = *parsed;
  }
  const auto loaded = table_.get();
  if (!loaded) return set_problem(res, not_ready());
  const auto frame = loaded->frame(goal);
  if (!frame.ok()) return set_problem(res, problem_from_error(frame.error(), "goal"));
  // O(distance): one table entry per move, nothing proportional to the table.
  const Solution solution = loaded->solver().solve(*board, *frame, with_path);
  set_json(res, solution_json(solution, with_path));
  res.set_header("Cache-Control", kAnswerCacheControl);
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
    res.set_header("Allow", std::string(kAllowedMethods));
    return set_problem(res, problem_for_status(405, req.method, req.path));
  }
  set_problem(res, problem_for_status(res.status, req.method, req.path));
}

}  // namespace eight::server
