// Integration: metrics, the access log, compression and socket settings.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <regex>
#include <thread>

#include "server_fixture.h"

using eight::test::ServerProcess;
using eight::test::ServerSpec;

TEST_CASE("/metrics counts requests by route and status in Prometheus text") {
  ServerProcess server;
  auto cli = server.client();
  for (int i = 0; i < 3; ++i) REQUIRE(cli.Get("/solve?board=123456780"));
  REQUIRE(cli.Get("/solve?board=12"));
  REQUIRE(cli.Get("/nowhere"));
  // Requests are counted once their response has gone out, a moment after the
  // client has it: scrape until all show (or 2 s pass).
  httplib::Result r{nullptr, httplib::Error::Unknown};
  for (int i = 0; i < 200; ++i) {
    r = cli.Get("/metrics");
    REQUIRE(r);
    if (r->body.find("route=\"other\",status=\"404\"} 1\n") != std::string::npos &&
        r->body.find("eight_http_request_duration_seconds_count{route=\"/solve\"} 4\n") !=
            std::string::npos &&
        r->body.find("route=\"/readyz\",status=\"200\"}") != std::string::npos) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Content-Type") == "text/plain; version=0.0.4; charset=utf-8");
  const std::string& m = r->body;
  CAPTURE(m);
  CHECK(m.find("eight_http_requests_total{route=\"/solve\",status=\"200\"} 3\n") !=
        std::string::npos);
  CHECK(m.find("eight_http_requests_total{route=\"/solve\",status=\"400\"} 1\n") !=
        std::string::npos);
  CHECK(m.find("eight_http_requests_total{route=\"other\",status=\"404\"} 1\n") !=
        std::string::npos);
  // The readiness probes of the fixture were counted too.
  CHECK(std::regex_search(
      m, std::regex(R"(eight_http_requests_total\{route="/readyz",status="200"\} [1-9])")));
  CHECK(m.find("eight_http_request_duration_seconds_count{route=\"/solve\"} 4\n") !=
        std::string::npos);
  CHECK(m.find("eight_http_request_duration_seconds_bucket{route=\"/solve\",le=\"+Inf\"} 4\n") !=
        std::string::npos);
  CHECK(m.find("eight_table_sections 3\n") != std::string::npos);
  CHECK(m.find("eight_table_info{path=\"") != std::string::npos);
}

TEST_CASE(
    "the access log has one line per request with time, client, method, target, status, bytes and "
    "microseconds") {
  ServerProcess server(ServerSpec{.quiet = false});
  auto cli = server.client();
  auto solved = cli.Get("/solve?board=8+6+7+2+5+4+3+x+1");
  REQUIRE(solved);
  REQUIRE(cli.Get("/solve?board=12"));
  REQUIRE(cli.Head("/table"));
  // A line is written once its response has gone out, so lines of requests
  // on different connections may land in any order: wait for each.
  REQUIRE(server.wait_for_stderr("GET /solve?board=8+6+7+2+5+4+3+x+1 200 "));
  REQUIRE(server.wait_for_stderr("GET /solve?board=12 400 "));
  REQUIRE(server.wait_for_stderr("HEAD /table 200 "));
  const std::string log = server.stderr_text();
  CHECK(log.find("GET /solve?board=12 ") == log.rfind("GET /solve?board=12 "));  // one line
  const std::string time = R"(\n\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z 127\.0\.0\.1 )";
  std::smatch m;
  REQUIRE(std::regex_search(
      log, m,
      std::regex(time + R"(GET /solve\?board=8\+6\+7\+2\+5\+4\+3\+x\+1 200 (\d+) \d+us\n)")));
  // The bytes are the whole answer's: its head and its body.
  CHECK(std::stoul(m[1].str()) > solved->body.size());
  CHECK(std::regex_search(log, std::regex(time + R"(GET /solve\?board=12 400 \d+ \d+us\n)")));
  CHECK(std::regex_search(log, std::regex(time + R"(HEAD /table 200 \d+ \d+us\n)")));
}

TEST_CASE("--access-log-format json writes one JSON object a line with every field") {
  ServerProcess server(ServerSpec{.args = {"--access-log-format", "json"}, .quiet = false});
  auto cli = server.client();
  REQUIRE(cli.Get("/solve?board=%22%5C%FF"));
  REQUIRE(server.wait_for_stderr("\"status\":400"));
  const std::string log = server.stderr_text();
  // The fixture's own /readyz comes first: the line of the request asked.
  const auto start = log.rfind("{\"time\":", log.find("%22%5C%FF"));
  REQUIRE(start != std::string::npos);
  const auto line = nlohmann::json::parse(log.substr(start, log.find('\n', start) - start));
  CHECK(line["client"] == "127.0.0.1");
  CHECK(line["method"] == "GET");
  CHECK(line["target"] == "/solve?board=%22%5C%FF");
  CHECK(line["status"] == 400);
  CHECK(line["bytes"].get<std::uint64_t>() > 100);
  CHECK(line["duration_us"].is_number_unsigned());
  CHECK(std::regex_match(line["time"].get<std::string>(),
                         std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")));
}

TEST_CASE("--quiet turns the access log off") {
  ServerProcess server(ServerSpec{.quiet = true});
  auto cli = server.client();
  REQUIRE(cli.Get("/solve?board=123456780"));
  REQUIRE(cli.Get("/healthz"));
  const auto exit = server.stop(SIGTERM);
  CHECK(exit.status == 0);
  const std::string log = server.stderr_text();
  CHECK(log.find("GET /solve") == std::string::npos);
  CHECK(log.find("GET /readyz") == std::string::npos);
  CHECK(log.find("listening on") != std::string::npos);
}

TEST_CASE("answers are never compressed, even when the client accepts gzip or br") {
  ServerProcess server;
  auto cli = server.client();
  for (const char* enc : {"gzip", "br", "gzip, deflate, br"}) {
    auto r = cli.Get("/solve?board=867254301", {{"Accept-Encoding", enc}});
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK_FALSE(r->has_header("Content-Encoding"));
    CHECK(r->body.rfind("{\"board\":\"867254301\"", 0) == 0);
  }
}

TEST_CASE("keep-alive responses come without the ~40 ms Nagle delay") {
  // Should an answer leave in two writes, without TCP_NODELAY each response
  // after the first would wait for a delayed ACK (~40 ms), so 20 requests on
  // one connection would take 800 ms or more.
  // The delayed ACK is a timer, so it slows every round the same; a busy
  // machine slows a round now and then. So the check is on the best of 5
  // rounds of 20 requests (each a few ms when answered at once): the delay,
  // if there, is in all five.
  ServerProcess server;
  auto cli = server.client();
  cli.set_keep_alive(true);
  REQUIRE(cli.Get("/healthz"));
  auto best = std::chrono::steady_clock::duration::max();
  for (int round = 0; round < 5; ++round) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 20; ++i) {
      auto r = cli.Get("/solve?board=867254301");
      REQUIRE(r);
      REQUIRE(r->status == 200);
    }
    best = std::min(best, std::chrono::steady_clock::now() - start);
  }
  CHECK(best < std::chrono::milliseconds(500));
}

TEST_CASE("responses say how long connections are kept alive") {
  ServerProcess server;
  auto cli = server.client();
  cli.set_keep_alive(true);
  auto r = cli.Get("/healthz");
  REQUIRE(r);
  CHECK(r->get_header_value("Keep-Alive") == "timeout=75, max=1000");
}
