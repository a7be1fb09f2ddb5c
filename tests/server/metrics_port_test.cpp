// /metrics on an address of its own (--metrics-port, --metrics-host), and
// never with CORS headers, on either port (the public port's answers asked
// of the Service in process, service_fixture.h); --version.
#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <thread>

#include "server_fixture.h"
#include "service_fixture.h"
#include "support.h"

using eight::test::run_to_exit;
using eight::test::ServerProcess;
using eight::test::ServerSpec;
using eight::test::ServiceFixture;
using namespace std::chrono_literals;

namespace {

// The metrics port the server announced on stderr before its listening line.
int metrics_port(const ServerProcess& server) {
  static const std::regex kLine(R"(metrics on http://127\.0\.0\.1:(\d+)/metrics only)");
  std::smatch m;
  const std::string err = server.stderr_text();
  REQUIRE_MESSAGE(std::regex_search(err, m, kLine), err);
  return std::stoi(m[1]);
}

httplib::Client loopback(int port) {
  httplib::Client cli("127.0.0.1", port);
  cli.set_connection_timeout(5);
  cli.set_read_timeout(5);
  return cli;
}

}  // namespace

TEST_CASE("--metrics-port: /metrics is answered there only, 404 on the public port") {
  ServerProcess server({.args = {"--metrics-port", "0"}});
  const int port = metrics_port(server);
  CHECK(port != server.port());
  auto pub = server.client();
  auto met = loopback(port);

  // The public port: everything but /metrics, and that as an unknown path.
  auto r = pub.Get("/solve?board=867254301");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Access-Control-Allow-Origin") == "*");
  for (const char* path : {"/metrics", "/metrics?x=1"}) {
    CAPTURE(path);
    r = pub.Get(path);
    REQUIRE(r);
    CHECK(r->status == 404);
    CHECK(r->body.find("eight_") == std::string::npos);
    CHECK_FALSE(r->has_header("Access-Control-Allow-Origin"));
  }
  r = pub.Head("/metrics");
  REQUIRE(r);
  CHECK(r->status == 404);

  // The metrics port: /metrics, counting the public port's requests. A
  // request is counted once its response has gone out, a moment after the
  // client has it: scrape until it shows (or 2 s pass).
  for (int i = 0; i < 200; ++i) {
    r = met.Get("/metrics");
    REQUIRE(r);
    if (r->body.find("eight_http_requests_total{route=\"/solve\",status=\"200\"} 1\n") !=
        std::string::npos) {
      break;
    }
    std::this_thread::sleep_for(10ms);
  }
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Content-Type") == "text/plain; version=0.0.4; charset=utf-8");
  CHECK(r->get_header_value("Cache-Control") == "no-store");
  CHECK_FALSE(r->has_header("Access-Control-Allow-Origin"));
  CHECK(r->body.find("eight_table_info{path=\"" + eight::test::server_table_path()) !=
        std::string::npos);
  CHECK(r->body.find("eight_http_requests_total{route=\"/solve\",status=\"200\"} 1\n") !=
        std::string::npos);
  r = met.Head("/metrics");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK_FALSE(r->has_header("Access-Control-Allow-Origin"));
  // ...and nothing else: no answers, no table, no index.
  for (const char* path : {"/solve?board=867254301", "/", "/table", "/healthz", "/nowhere"}) {
    CAPTURE(path);
    r = met.Get(path);
    REQUIRE(r);
    CHECK(r->status == 404);
    CHECK_FALSE(r->has_header("Access-Control-Allow-Origin"));
  }
  r = met.Post("/metrics", "{}", "application/json");
  REQUIRE(r);
  CHECK(r->status == 405);
  CHECK(r->get_header_value("Allow") == "GET, HEAD");
  r = met.Options("/metrics",
                  {{"Origin", "https://example.org"}, {"Access-Control-Request-Method", "GET"}});
  REQUIRE(r);
  CHECK(r->status == 405);
  CHECK_FALSE(r->has_header("Access-Control-Allow-Origin"));
  // Unknown parameters are refused as on every endpoint.
  r = met.Get("/metrics?format=json");
  REQUIRE(r);
  CHECK(r->status == 400);

  // SIGTERM stops both.
  const auto e = server.stop(SIGTERM);
  CHECK(e.status == 0);
  auto gone = loopback(port);
  CHECK_FALSE(gone.Get("/metrics"));
}

TEST_CASE("EIGHT_METRICS_PORT and EIGHT_METRICS_HOST set the metrics address") {
  ServerProcess server({.env = {{"EIGHT_METRICS_PORT", "0"}, {"EIGHT_METRICS_HOST", "127.0.0.1"}}});
  auto r = loopback(metrics_port(server)).Get("/metrics");
  REQUIRE(r);
  CHECK(r->status == 200);
  r = server.client().Get("/metrics");
  REQUIRE(r);
  CHECK(r->status == 404);
}

TEST_CASE("--metrics-host without --metrics-port, or a taken metrics port, refuses to start") {
  std::string err;
  auto e = run_to_exit({.args = {"--metrics-host", "127.0.0.1"}}, err);
  CHECK(e.status == 2);
  CHECK(err.find("--metrics-host (EIGHT_METRICS_HOST) needs --metrics-port") != std::string::npos);
  ServerProcess first;
  e = run_to_exit({.args = {"--metrics-port", std::to_string(first.port())}}, err);
  CHECK(e.status == 4);
  CHECK(err.find("metrics address: cannot listen on 127.0.0.1:" + std::to_string(first.port())) !=
        std::string::npos);
}

TEST_CASE("/metrics carries no CORS header on the public port either, nor its preflight") {
  ServiceFixture server;
  auto cli = server.client();
  auto r = cli.Get("/metrics", {{"Origin", "https://example.org"}});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK_FALSE(r->has_header("Access-Control-Allow-Origin"));
  CHECK_FALSE(r->has_header("Access-Control-Expose-Headers"));
  r = cli.Options("/metrics",
                  {{"Origin", "https://example.org"}, {"Access-Control-Request-Method", "GET"}});
  REQUIRE(r);
  CHECK_FALSE(r->has_header("Access-Control-Allow-Origin"));
  CHECK_FALSE(r->has_header("Access-Control-Allow-Methods"));
  // Every other answer still has them.
  r = cli.Get("/stats", {{"Origin", "https://example.org"}});
  REQUIRE(r);
  CHECK(r->get_header_value("Access-Control-Allow-Origin") == "*");
}

TEST_CASE("eight-server and eight-tablegen --version print their name and the project's version") {
  for (const std::string name : {"eight-server", "eight-tablegen"}) {
    CAPTURE(name);
    const auto r = eight::test::run_program(name, {"--version"});
    CHECK(r.status == 0);
    CHECK(r.out == name + " " EIGHT_PROJECT_VERSION "\n");
    CHECK(r.err.empty());
  }
}
