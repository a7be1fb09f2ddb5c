// The handlers called directly with hand-built requests: no sockets, as a
// fuzzer will call them.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "eight/json.h"
#include "eight/tablegen.h"
#include "http_server.h"
#include "server_fixture.h"
#include "service.h"
#include "support.h"

using eight::server::Loaded;
using eight::server::Metrics;
using eight::server::Route;
using eight::server::Service;
using eight::server::TableSlot;

namespace {

struct Fixture {
  TableSlot slot;
  Metrics metrics;
  Service service{slot, metrics};

  Fixture() {
    auto loaded = Loaded::open(eight::test::server_table_path());
    REQUIRE(loaded.ok());
    slot.set(*loaded);
  }

  httplib::Response call(Route route, std::vector<std::pair<std::string, std::string>> params = {},
                         httplib::Headers headers = {}) const {
    httplib::Request req;
    req.method = "GET";
    req.path = std::string(eight::server::route_label(route));
    for (auto& [k, v] : params) req.params.emplace(k, v);
    req.headers = std::move(headers);
    httplib::Response res;
    service.handle(route, req, res);
    return res;
  }
};

// The bytes a content provider would send.
std::string provided(httplib::Response& res) {
  REQUIRE(res.content_provider_);
  std::string out;
  httplib::DataSink sink;
  sink.write = [&out](const char* d, std::size_t n) {
    out.append(d, n);
    return true;
  };
  REQUIRE(res.content_provider_(0, res.content_length_, sink));
  return out;
}

nlohmann::json problem(const httplib::Response& res) {
  CHECK(res.get_header_value("Content-Type") == "application/problem+json");
  return nlohmann::json::parse(res.body);
}

}  // namespace

TEST_CASE("the solve handler answers exactly what solution_json says") {
  Fixture f;
  for (const char* board : {"867254301", "123456780", "213456780", "1 2 3 4 5 6 7 x 8"}) {
    CAPTURE(board);
    const auto res = f.call(Route::kSolve, {{"board", board}});
    CHECK(res.status == 200);
    CHECK(res.get_header_value("Content-Type") == "application/json");
    const auto& solver = eight::test::solver();
    const auto expected = eight::solution_json(
        solver.solve(eight::test::board(board), *solver.frame(eight::kStandardGoal), true), true);
    CHECK(res.body == expected.dump());
  }
}

TEST_CASE("the distance handler answers without moves, path or tiles") {
  Fixture f;
  const auto res = f.call(Route::kDistance, {{"board", "867254301"}, {"goal", "123456780"}});
  CHECK(res.status == 200);
  CHECK(res.body == R"({"board":"867254301","goal":"123456780","solvable":true,"distance":31})");
}

TEST_CASE("handlers turn each bad query into a problem naming the parameter") {
  Fixture f;
  auto res = f.call(Route::kSolve);
  CHECK(res.status == 400);
  auto p = problem(res);
  CHECK(p["type"] == "https://eight.invalid/problems/missing-parameter");
  CHECK(p["detail"] == "query parameter 'board' is required");

  res = f.call(Route::kSolve, {{"board", "123456780"}, {"board", "123456780"}});
  CHECK(res.status == 400);
  CHECK(problem(res)["detail"] == "query parameter 'board' is given 2 times; give it once");

  res = f.call(Route::kDistance, {{"board", "123456780"}, {"gaol", "123456780"}});
  CHECK(res.status == 400);
  p = problem(res);
  CHECK(p["type"] == "https://eight.invalid/problems/unknown-parameter");
  CHECK(p["detail"] == "unknown query parameter 'gaol'; this endpoint takes board and goal");

  res = f.call(Route::kSolve, {{"board", "123456780"}, {"goal", "1234567800"}});
  CHECK(res.status == 400);
  p = problem(res);
  CHECK(p["type"] == "https://eight.invalid/problems/bad-goal");
  CHECK(p["title"] == "Bad goal");
  CHECK(p["status"] == 400);
  CHECK(p["detail"] == "expected 9 cells, got 10");
  CHECK(p["parameter"] == "goal");
}

TEST_CASE("a goal the table has no section for is a 422, not a server error") {
  eight::test::TempDir dir;
  const int centre_only[] = {4};
  eight::test::write_file(dir.file("centre.tbl"), eight::build_table(centre_only));
  auto loaded = Loaded::open(dir.file("centre.tbl"));
  REQUIRE(loaded.ok());
  TableSlot slot(*loaded);
  Metrics metrics;
  Service service(slot, metrics);
  httplib::Request req;
  req.params.emplace("board", "123456780");
  httplib::Response res;
  service.solve(req, res);
  CHECK(res.status == 422);
  const auto p = problem(res);
  CHECK(p["type"] == "https://eight.invalid/problems/goal-not-covered");
  CHECK(p["detail"] == "the table has no section for goal 123456780 (blank on cell 8)");
  // The centre goal itself is answered.
  res = httplib::Response();
  req.params.emplace("goal", "123405678");
  service.distance(req, res);
  CHECK(res.status == 200);
}

TEST_CASE("an empty table slot makes queries and readiness 503 but leaves liveness alone") {
  TableSlot slot;
  Metrics metrics;
  Service service(slot, metrics);
  httplib::Request req;
  req.params.emplace("board", "123456780");
  for (Route r : {Route::kSolve, Route::kTable, Route::kReadyz}) {
    httplib::Response res;
    service.handle(r, req, res);
    CHECK(res.status == 503);
    CHECK(problem(res)["type"] == "https://eight.invalid/problems/not-ready");
  }
  httplib::Response res;
  service.healthz(req, res);
  CHECK(res.status == 200);
}

TEST_CASE("the table handler serves the mapping, whole or in part, and answers 304 and 416") {
  Fixture f;
  const auto& bytes = eight::test::table_bytes();
  const std::string file(bytes.begin(), bytes.end());
  auto res = f.call(Route::kTable);
  CHECK(res.status == 200);
  CHECK(res.content_length_ == file.size());
  CHECK(provided(res) == file);

  const std::string etag = res.get_header_value("ETag");
  res = f.call(Route::kTable, {}, {{"If-None-Match", etag}});
  CHECK(res.status == 304);
  CHECK_FALSE(res.content_provider_);

  res = f.call(Route::kTable, {}, {{"Range", "bytes=8-15"}});
  CHECK(res.status == 206);
  CHECK(res.get_header_value("Content-Range") == "bytes 8-15/" + std::to_string(file.size()));
  CHECK(provided(res) == file.substr(8, 8));

  res = f.call(Route::kTable, {}, {{"Range", "bytes=" + std::to_string(file.size()) + "-"}});
  CHECK(res.status == 416);
  CHECK(res.get_header_value("Content-Range") == "bytes */" + std::to_string(file.size()));
}

TEST_CASE("a table download keeps its mapping alive after the slot moves on") {
  Fixture f;
  auto res = f.call(Route::kTable, {}, {{"Range", "bytes=0-7"}});
  f.slot.set(nullptr);  // as a reload would
  CHECK(provided(res) == std::string("\x89"
                                     "EIGHT\r\n",
                                     8));
}

TEST_CASE(
    "the error handler gives bodiless 4xx responses a problem and turns 404 on a route into 405") {
  Fixture f;
  httplib::Request req;
  req.method = "POST";
  req.path = "/table";
  httplib::Response res;
  f.service.method_not_allowed(req, res);
  CHECK(res.status == 405);
  CHECK(res.get_header_value("Allow") == "GET, HEAD");
  CHECK(problem(res)["detail"] == "method 'POST' is not allowed on '/table'; use GET, HEAD");
  // /solve also takes POST (batches), and says so.
  req.method = "DELETE";
  req.path = "/solve";
  res = httplib::Response();
  f.service.method_not_allowed(req, res);
  CHECK(res.status == 405);
  CHECK(res.get_header_value("Allow") == "GET, HEAD, POST");
  CHECK(problem(res)["detail"] == "method 'DELETE' is not allowed on '/solve'; use GET, HEAD, POST");

  req.method = "GET";
  req.path = std::string("/x\0\n\xff", 5);
  res = httplib::Response();
  res.status = 404;
  f.service.error(req, res);
  CHECK(res.status == 404);
  CHECK(problem(res)["detail"] == "no endpoint at '/x\\x00\\x0A\\xFF'; GET / lists the endpoints");

  res = httplib::Response();
  res.status = 414;  // httplib's status for a request line over 8 KiB
  f.service.error(httplib::Request(), res);
  CHECK(res.status == 400);
  CHECK(problem(res)["type"] == "https://eight.invalid/problems/query-too-long");

  res = httplib::Response();
  res.status = 400;
  res.body = "kept";
  f.service.error(req, res);
  CHECK(res.body == "kept");
}

TEST_CASE("metrics count requests by route and status and fill the latency histogram") {
  Metrics m;
  m.record(Route::kSolve, 200, std::chrono::microseconds(40));
  m.record(Route::kSolve, 200, std::chrono::microseconds(3000));
  m.record(Route::kSolve, 400, std::chrono::microseconds(10));
  m.record(Route::kOther, 404, std::chrono::microseconds(10));
  CHECK(m.requests(Route::kSolve, 200) == 2);
  auto loaded = Loaded::open(eight::test::server_table_path());
  REQUIRE(loaded.ok());
  const std::string text = m.render(loaded->get());
  auto has = [&text](const std::string& line) {
    CAPTURE(line);
    CHECK(text.find(line + "\n") != std::string::npos);
  };
  has("# TYPE eight_http_requests_total counter");
  has(R"(eight_http_requests_total{route="/solve",status="200"} 2)");
  has(R"(eight_http_requests_total{route="/solve",status="400"} 1)");
  has(R"(eight_http_requests_total{route="other",status="404"} 1)");
  has("# TYPE eight_http_request_duration_seconds histogram");
  has(R"(eight_http_request_duration_seconds_bucket{route="/solve",le="0.000025"} 1)");
  has(R"(eight_http_request_duration_seconds_bucket{route="/solve",le="0.00005"} 2)");
  has(R"(eight_http_request_duration_seconds_bucket{route="/solve",le="0.0025"} 2)");
  has(R"(eight_http_request_duration_seconds_bucket{route="/solve",le="0.005"} 3)");
  has(R"(eight_http_request_duration_seconds_bucket{route="/solve",le="+Inf"} 3)");
  has(R"(eight_http_request_duration_seconds_sum{route="/solve"} 0.003050000)");
  has(R"(eight_http_request_duration_seconds_count{route="/solve"} 3)");
  has("eight_table_info{path=\"" + eight::test::server_table_path() + "\",checksum=\"" +
      (*loaded)->checksum_hex() + "\"} 1");
  has("eight_table_bytes " + std::to_string(eight::test::table_bytes().size()));
  has("eight_table_sections 3");
  has(R"(eight_table_section_max_distance{goal="123456780"} 31)");
  CHECK(text.find("route=\"/table\"") == std::string::npos);  // never asked: not listed
}

TEST_CASE("access log lines show method, target, status and microseconds, with bytes escaped") {
  httplib::Request req;
  req.method = "GET";
  req.target = "/solve?board=1 2\n\x01";
  CHECK(eight::server::access_log_line(req, 200, std::chrono::microseconds(41)) ==
        "GET /solve?board=1\\x202\\x0a\\x01 200 41us");
  req.target = std::string(1000, 'a');
  const std::string line = eight::server::access_log_line(req, 400, std::chrono::microseconds(7));
  CHECK(line == "GET " + std::string(256, 'a') + "... 400 7us");
  CHECK(eight::server::access_log_line(httplib::Request(), 400, {}) == "- - 400 0us");
}

TEST_CASE("content negotiation prefers HTML only when the client asks for it over JSON") {
  using eight::server::prefers_html;
  CHECK(prefers_html("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"));
  CHECK(prefers_html("text/html"));
  CHECK(prefers_html("application/json;q=0.5, text/html"));
  CHECK_FALSE(prefers_html(""));
  CHECK_FALSE(prefers_html("*/*"));
  CHECK_FALSE(prefers_html("application/json"));
  CHECK_FALSE(prefers_html("text/html;q=0.5, application/json"));
  CHECK_FALSE(prefers_html("text/html;q=0"));
}
