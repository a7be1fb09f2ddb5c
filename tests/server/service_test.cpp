// The handlers called directly with hand-built requests: no sockets, as a
// fuzzer will call them.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "api/negotiation.h"
#include "api/problem.h"
#include "api/service.h"
#include "eight/tablegen.h"
#include "json/answer_json.h"
#include "service_fixture.h"
#include "support.h"
#include "transport/access_log.h"

using eight::server::make_request;
using eight::server::Metrics;
using eight::server::Refusal;
using eight::server::Request;
using eight::server::Response;
using eight::server::Route;
using eight::server::Service;
using eight::server::TableSlot;
using eight::test::body_of;
using eight::test::call;
using eight::test::get;
namespace http = boost::beast::http;

namespace {

using Fixture = eight::test::ServiceFixture;

nlohmann::json problem(const Response& res) {
  CHECK(res.header("Content-Type") == "application/problem+json");
  return nlohmann::json::parse(res.body);
}

// The cells of a board text, as the answers write them.
nlohmann::json cells_of(const nlohmann::json& board_text) {
  return nlohmann::json::parse(
      eight::cells_json(eight::test::board(board_text.get<std::string>())).dump());
}

Response post_solve(const Service& service, std::string body) {
  return call(service, make_request(http::verb::post, "/solve", {}, std::move(body)));
}

}  // namespace

TEST_CASE("the solve handler answers exactly what solution_json says") {
  Fixture f;
  for (const char* board : {"867254301", "123456780", "213456780", "1 2 3 4 5 6 7 x 8"}) {
    CAPTURE(board);
    const auto res = f.call(Route::kSolve, {{"board", board}});
    CHECK(res.status() == 200);
    CHECK(res.header("Content-Type") == "application/json");
    CHECK(res.route == Route::kSolve);
    const auto& solver = eight::test::solver();
    const auto expected = eight::solution_json(
        *solver.solve(eight::test::board(board), eight::test::frame(eight::kStandardGoal), true));
    CHECK(res.body == expected);
  }
}

TEST_CASE("the distance handler answers without moves, path or tiles") {
  Fixture f;
  const auto res = f.call(Route::kDistance, {{"board", "867254301"}, {"goal", "123456780"}});
  CHECK(res.status() == 200);
  CHECK(
      res.body ==
      R"({"board":"867254301","goal":"123456780","shape":"3x3","board_cells":[8,6,7,2,5,4,3,0,1],"goal_cells":[1,2,3,4,5,6,7,8,0],"solvable":true,"distance":31,"optimal":true,"lower_bound":31,"method":"table"})");
}

TEST_CASE("handlers turn each bad query into a problem naming the parameter") {
  Fixture f;
  auto res = f.call(Route::kSolve);
  CHECK(res.status() == 400);
  auto p = problem(res);
  CHECK(p["type"] == "https://eight.invalid/problems/missing-parameter");
  CHECK(p["detail"] == "query parameter 'board' is required");

  res = f.call(Route::kSolve, {{"board", "123456780"}, {"board", "123456708"}});
  CHECK(res.status() == 400);
  CHECK(problem(res)["detail"] == "query parameter 'board' is given 2 times; give it once");
  // The same pair twice asks the same thing once.
  res = f.call(Route::kSolve, {{"board", "123456780"}, {"board", "123456780"}});
  CHECK(res.status() == 200);

  res = f.call(Route::kDistance, {{"board", "123456780"}, {"gaol", "123456780"}});
  CHECK(res.status() == 400);
  p = problem(res);
  CHECK(p["type"] == "https://eight.invalid/problems/unknown-parameter");
  CHECK(p["detail"] ==
        "unknown query parameter 'gaol'; this endpoint takes board, goal, shape, budget, optimal, "
        "fast and path");

  res = f.call(Route::kSolve, {{"board", "123456780"}, {"goal", "1234567800"}});
  CHECK(res.status() == 400);
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
  auto loaded = eight::server::load_tables({dir.file("centre.tbl"), false});
  REQUIRE(loaded.ok());
  TableSlot slot(*loaded);
  Metrics metrics;
  Service service(slot, metrics);
  auto res = call(service, get("/solve", {{"board", "123456780"}}));
  CHECK(res.status() == 422);
  const auto p = problem(res);
  CHECK(p["type"] == "https://eight.invalid/problems/goal-not-covered");
  CHECK(p["detail"] == "the table has no section for goal 123456780 (blank on cell 8)");
  // The centre goal itself is answered.
  res = call(service, get("/distance", {{"board", "123456780"}, {"goal", "123405678"}}));
  CHECK(res.status() == 200);
}

TEST_CASE("an empty table slot makes queries and readiness 503 but leaves liveness alone") {
  TableSlot slot;
  Metrics metrics;
  Service service(slot, metrics);
  for (const char* path : {"/solve?board=123456780", "/table", "/readyz"}) {
    CAPTURE(path);
    const auto res = call(service, make_request(http::verb::get, path));
    CHECK(res.status() == 503);
    CHECK(problem(res)["type"] == "https://eight.invalid/problems/not-ready");
  }
  CHECK(call(service, make_request(http::verb::get, "/healthz")).status() == 200);
}

TEST_CASE("the table handler serves the mapping, whole or in part, and answers 304 and 416") {
  Fixture f;
  const auto& bytes = eight::test::table_bytes();
  const std::string file(bytes.begin(), bytes.end());
  auto res = f.call(Route::kTable);
  CHECK(res.status() == 200);
  CHECK(res.body_size() == file.size());
  CHECK(body_of(res) == file);
  // Straight from the mapping, which the response keeps alive.
  CHECK(res.owner != nullptr);
  CHECK(res.body.empty());

  const std::string etag(res.header("ETag"));
  res = f.call(Route::kTable, {}, {{"If-None-Match", etag}});
  CHECK(res.status() == 304);
  CHECK(res.body_size() == 0);

  res = f.call(Route::kTable, {}, {{"Range", "bytes=8-15"}});
  CHECK(res.status() == 206);
  CHECK(res.header("Content-Range") == "bytes 8-15/" + std::to_string(file.size()));
  CHECK(body_of(res) == file.substr(8, 8));

  res = f.call(Route::kTable, {}, {{"Range", "bytes=" + std::to_string(file.size()) + "-"}});
  CHECK(res.status() == 416);
  CHECK(res.header("Content-Range") == "bytes */" + std::to_string(file.size()));
}

TEST_CASE("a table download keeps its mapping alive after the slot moves on") {
  Fixture f;
  auto res = f.call(Route::kTable, {}, {{"Range", "bytes=0-7"}});
  f.slot.set(nullptr);  // as a reload would
  CHECK(body_of(res) == std::string("\x89"
                                    "EIGHT\r\n",
                                    8));
}

TEST_CASE("another method on a route is a 405 naming the allowed ones, an unknown path a 404") {
  Fixture f;
  auto res = call(f.service, make_request(http::verb::post, "/table"));
  CHECK(res.status() == 405);
  CHECK(res.header("Allow") == "GET, HEAD");
  CHECK(problem(res)["detail"] == "method 'POST' is not allowed on '/table'; use GET, HEAD");
  // /solve also takes POST (batches), and says so.
  res = call(f.service, make_request(http::verb::delete_, "/solve"));
  CHECK(res.status() == 405);
  CHECK(res.header("Allow") == "GET, HEAD, POST");
  CHECK(problem(res)["detail"] ==
        "method 'DELETE' is not allowed on '/solve'; use GET, HEAD, POST");

  res = call(f.service, make_request(http::verb::get, "/x%00%0A%FF"));
  CHECK(res.status() == 404);
  CHECK(problem(res)["detail"] == "no endpoint at '/x\\x00\\x0A\\xFF'; GET / lists the endpoints");
  CHECK(res.route == Route::kOther);
}

TEST_CASE("each refusal of the transport is its own status and problem type") {
  Fixture f;
  const struct {
    Refusal why;
    int status;
    const char* type;
  } cases[] = {
      {Refusal::kMalformed, 400, "bad-request"},
      {Refusal::kRequestLineTooLong, 414, "query-too-long"},
      {Refusal::kHeadersTooLarge, 431, "headers-too-large"},
      {Refusal::kBodyTooLarge, 413, "payload-too-large"},
      {Refusal::kEncodedBody, 415, "unsupported-content-encoding"},
      {Refusal::kUnknownTransferCoding, 501, "unsupported-transfer-coding"},
      {Refusal::kExpectation, 417, "expectation-failed"},
      {Refusal::kOverloaded, 503, "overloaded"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.type);
    Response res;
    f.service.refuse(c.why, "what was wrong", res);
    CHECK(res.status() == c.status);
    const auto p = problem(res);
    CHECK(p["type"] == std::string("https://eight.invalid/problems/") + c.type);
    CHECK(p["detail"] == "what was wrong");
    CHECK(p["status"] == c.status);
    CHECK(res.header("Retry-After") == (c.why == Refusal::kOverloaded ? "1" : ""));
  }
}

TEST_CASE("unknown query parameters are refused on every endpoint alike") {
  Fixture f;
  for (const auto& r : eight::server::routes()) {
    CAPTURE(r.path);
    const auto res = call(f.service, get(r.path, {{"foo", "1"}}));
    CHECK(res.status() == 400);
    CHECK(problem(res)["type"] == "https://eight.invalid/problems/unknown-parameter");
  }
}

TEST_CASE("a POST batch and a counted /random run long, every other GET runs inline") {
  Fixture f;
  CHECK(f.service.runs_long(make_request(http::verb::post, "/solve")));
  CHECK(f.service.runs_long(make_request(http::verb::get, "/random?distance=5&count=10")));
  CHECK_FALSE(f.service.runs_long(make_request(http::verb::get, "/random?distance=5")));
  CHECK_FALSE(f.service.runs_long(make_request(http::verb::get, "/solve?board=123456780")));
  CHECK_FALSE(f.service.runs_long(make_request(http::verb::post, "/table")));
}

TEST_CASE("a batch body nested past the depth limit is refused without answering it") {
  Fixture f;
  for (int depth : {eight::server::kMaxJsonDepth + 1, 100000}) {
    CAPTURE(depth);
    const std::string body =
        "{\"boards\":" + std::string(depth, '[') + std::string(depth, ']') + "}";
    auto res = call(f.service, make_request(http::verb::post, "/solve", {}, body));
    CHECK(res.status() == 400);
    CHECK(problem(res)["detail"] == "body nests deeper than 64 levels");
  }
  // At the limit it is an ordinary body: the nested arrays are answered in place.
  const int depth = eight::server::kMaxJsonDepth - 1;
  const std::string body =
      "{\"boards\":[" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "]}";
  const auto res = call(f.service, make_request(http::verb::post, "/solve", {}, body));
  CHECK(res.status() == 200);
}

TEST_CASE("a cancelled batch stops early, its answer is never sent") {
  Fixture f;
  std::string body = R"({"boards":[)";
  for (int i = 0; i < 1000; ++i) body += std::string(i ? "," : "") + "\"867254301\"";
  body += "]}";
  const std::atomic<bool> cancelled{true};
  Response res;
  f.service.handle(make_request(http::verb::post, "/solve", {}, body), res, cancelled);
  CHECK(res.body.size() < 1000);
}

TEST_CASE("metrics count requests by route and status and fill the latency histogram") {
  Metrics m;
  m.record(Route::kSolve, 200, std::chrono::microseconds(40));
  m.record(Route::kSolve, 200, std::chrono::microseconds(3000));
  m.record(Route::kSolve, 400, std::chrono::microseconds(10));
  m.record(Route::kOther, 404, std::chrono::microseconds(10));
  CHECK(m.requests(Route::kSolve, 200) == 2);
  auto loaded = eight::server::load_tables({eight::test::server_table_path(), false});
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
      (*loaded)->table(0)->checksum_hex() + "\"} 1");
  has("eight_table_bytes " + std::to_string(eight::test::table_bytes().size()));
  has("eight_table_sections 3");
  has(R"(eight_table_section_max_distance{goal="123456780"} 31)");
  CHECK(text.find("route=\"/table\"") == std::string::npos);  // never asked: not listed
}

TEST_CASE("access log lines show time, client, method, target, status, bytes and microseconds") {
  using eight::server::AccessLogFormat;
  using eight::server::AccessRecord;
  // 2026-12-01T22:24:50.123Z
  const auto at = std::chrono::system_clock::time_point(std::chrono::milliseconds(1796163890123));
  CHECK(eight::server::access_log_line({at, "127.0.0.1", "GET", "/solve?board=1 2\n\x01", 200, 312,
                                        std::chrono::microseconds(41)},
                                       AccessLogFormat::kText) ==
        "2026-12-01T22:24:50.123Z 127.0.0.1 GET /solve?board=1\\x202\\x0A\\x01 200 312 41us");
  const std::string line = eight::server::access_log_line(
      {at, "::1", "GET", std::string(1000, 'a'), 400, 0, std::chrono::microseconds(7)},
      AccessLogFormat::kText);
  CHECK(line == "2026-12-01T22:24:50.123Z ::1 GET " + std::string(256, 'a') + "... 400 0 7us");
  CHECK(eight::server::access_log_line({at, "", "", "", 400, 0, {}}, AccessLogFormat::kText) ==
        "2026-12-01T22:24:50.123Z - - - 400 0 0us");
  // JSON lines: one object, every field, the same escaping, valid JSON
  // whatever the target held.
  CHECK(eight::server::access_log_line(
            {at, "10.0.0.7", "GET", "/x?\"\\\xff", 404, 150, std::chrono::microseconds(9)},
            AccessLogFormat::kJson) ==
        R"({"time":"2026-12-01T22:24:50.123Z","client":"10.0.0.7","method":"GET",)"
        R"("target":"/x?\"\\x5C\\xFF","status":404,"bytes":150,"duration_us":9})");
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

TEST_CASE("a batch board without a goal takes its own shape's standard goal, as GET /solve does") {
  Fixture f(eight::test::default_table_path());
  // The issue's replay: this batch answered "goal: the board is 2x3 and the
  // goal 3x3" while GET /solve?board=123/405 solved it.
  const auto single = f.call(Route::kSolve, {{"board", "123/405"}});
  REQUIRE(single.status() == 200);
  auto res = post_solve(f.service, R"({"boards":["123/405"]})");
  REQUIRE(res.status() == 200);
  // The batch's own goal stays the 3x3 default (its 3x3 items' goal); each
  // answer says the goal it was solved against.
  CHECK(res.body == R"({"goal":"123456780","shape":"3x3","goal_cells":[1,2,3,4,5,6,7,8,0],)"
                    R"("count":1,"answers":[)" +
                        single.body + "]}");
  // Several shapes in one batch, each to its own standard goal, 3x3 included.
  res = post_solve(f.service, R"({"boards":["867254301","123/405","21/30","21345/6789x"]})");
  REQUIRE(res.status() == 200);
  const auto a = nlohmann::json::parse(res.body)["answers"];
  CHECK(a[0]["goal"] == "123456780");
  CHECK(a[0]["distance"] == 31);
  CHECK(a[1]["goal"] == "123/450");
  CHECK(a[1]["distance"] == 1);
  CHECK(a[2]["goal"] == "12/30");
  CHECK(a[2]["shape"] == "2x2");
  CHECK(a[3]["goal"] == "12345/67890");
  CHECK(a[3]["shape"] == "2x5");
  CHECK(a[3]["goal_cells"] == nlohmann::json::parse("[1,2,3,4,5,6,7,8,9,0]"));
  // A goal or a shape in the body still applies to every item without its own.
  res = post_solve(f.service, R"({"boards":["123/405"],"goal":"123456780"})");
  REQUIRE(res.status() == 200);
  CHECK(nlohmann::json::parse(res.body)["answers"][0]["error"] ==
        "goal: the board is 2x3 and the goal 3x3: a goal has the board's shape");
  res = post_solve(f.service, R"({"boards":["123405","12/30"],"shape":"2x3"})");
  REQUIRE(res.status() == 200);
  const auto s = nlohmann::json::parse(res.body);
  CHECK(s["goal"] == "123/450");
  CHECK(s["shape"] == "2x3");
  CHECK(s["answers"][0]["distance"] == 1);
  CHECK(s["answers"][1]["error"] == "expected 6 cells for 2x3, got 4");
}

TEST_CASE("a batch without a goal answers a shape no table holds in place, not as a 404") {
  // The 3x3-only table: a 2x2 item's own goal is not served.
  Fixture f;
  const auto res = post_solve(f.service, R"({"boards":["867254301","1230"]})");
  REQUIRE(res.status() == 200);
  const auto a = nlohmann::json::parse(res.body)["answers"];
  CHECK(a[0]["distance"] == 31);
  CHECK(a[1]["error"] ==
        "goal: the table answers 3x3 boards, not 2x2 ones such as goal 12/30; `eight-tablegen` "
        "generates them");
}

TEST_CASE("a key given twice in one object of a batch body is refused, at any level") {
  Fixture f;
  const struct {
    const char* body;
    const char* key;
  } cases[] = {
      {R"({"boards":["867254301"],"goal":"123456780","goal":"123804765"})", "goal"},
      {R"({"boards":["867254301"],"boards":["123456780"]})", "boards"},
      {R"({"boards":[{"board":"867254301","board":"123456780"}]})", "board"},
      {R"({"boards":[{"board":"867254301","goal":"123456780","goal":"123804765"}]})", "goal"},
      {R"({"boards":[[{"x":1,"x":2}]]})", "x"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.body);
    const auto res = post_solve(f.service, c.body);
    CHECK(res.status() == 400);
    const auto p = problem(res);
    CHECK(p["type"] == "https://eight.invalid/problems/bad-body");
    CHECK(p["detail"] ==
          std::string("body gives key '") + c.key + "' twice in one object; give each key once");
  }
  // The same key in different objects is no repeat.
  const auto res =
      post_solve(f.service, R"({"boards":[{"board":"867254301"},{"board":"123456780"}]})");
  CHECK(res.status() == 200);
}

TEST_CASE("a preflight of an unknown path is a 404, of a route or of the server, a 204") {
  Fixture f;
  auto res = call(f.service, make_request(http::verb::options, "/nonexistent"));
  CHECK(res.status() == 404);
  CHECK(problem(res)["type"] == "https://eight.invalid/problems/not-found");
  CHECK(res.route == Route::kOther);
  res = call(f.service, make_request(http::verb::options, "/solve"));
  CHECK(res.status() == 204);
  CHECK(res.header("Allow") == "GET, HEAD, POST, OPTIONS");
  res = call(f.service, make_request(http::verb::options, "*"));
  CHECK(res.status() == 204);
}

TEST_CASE("/random, /stats and /hint carry the shape and the cells of every board") {
  Fixture f(eight::test::default_table_path());
  auto res =
      f.call(Route::kRandom, {{"distance", "3"}, {"shape", "2x3"}, {"seed", "7"}, {"count", "2"}});
  REQUIRE(res.status() == 200);
  auto j = nlohmann::json::parse(res.body);
  CHECK(j["shape"] == "2x3");
  CHECK(j["goal_cells"] == nlohmann::json::parse("[1,2,3,4,5,0]"));
  CHECK(j["board_cells"] == cells_of(j["board"]));
  REQUIRE(j["boards_cells"].size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(j["boards_cells"][i] == cells_of(j["boards"][i]));
  }
  res = f.call(Route::kStats, {{"shape", "2x2"}});
  REQUIRE(res.status() == 200);
  j = nlohmann::json::parse(res.body);
  CHECK(j["shape"] == "2x2");
  CHECK(j["goal_cells"] == nlohmann::json::parse("[1,2,3,0]"));
  CHECK_FALSE(j.contains("board_cells"));
  REQUIRE(j["hardest"]["boards_cells"].size() == j["hardest"]["boards"].size());
  CHECK(j["hardest"]["boards_cells"][0] == cells_of(j["hardest"]["boards"][0]));
  res = f.call(Route::kHint, {{"board", "21345/6789x"}});
  REQUIRE(res.status() == 200);
  j = nlohmann::json::parse(res.body);
  CHECK(j["shape"] == "2x5");
  CHECK(j["board_cells"] == nlohmann::json::parse("[2,1,3,4,5,6,7,8,9,0]"));
  for (const auto& m : j["moves"]) {
    CHECK(m["board_cells"] == cells_of(m["board"]));
  }
}
