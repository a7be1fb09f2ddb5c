// The container's health check against the real eight-server: the image's
// HEALTHCHECK runs exactly `eight probe --path /readyz --timeout-ms 2000`
// with EIGHT_PORT from the image's environment.
#include <doctest/doctest.h>

#include <csignal>
#include <cstdlib>
#include <string>

#include "server/server_fixture.h"
#include "support.h"

using eight::test::run_program;
using eight::test::ServerProcess;

TEST_CASE("eight probe finds the real server ready and alive, and a missing route not") {
  ServerProcess server;
  const std::string port = std::to_string(server.port());
  CHECK(run_program("eight", {"probe", "--port", port}).status == 0);
  CHECK(run_program("eight", {"probe", "--port", port, "--path", "/healthz"}).status == 0);
  const auto missing = run_program("eight", {"probe", "--port", port, "--path", "/no-such-route"});
  CHECK(missing.status == 1);
  CHECK(missing.err.find("status 404") != std::string::npos);
}

TEST_CASE("the image's HEALTHCHECK command, with EIGHT_PORT as the image sets it, passes") {
  ServerProcess server;
  ::setenv("EIGHT_PORT", std::to_string(server.port()).c_str(), 1);
  const auto r = run_program("eight", {"probe", "--path", "/readyz", "--timeout-ms", "2000"});
  ::unsetenv("EIGHT_PORT");
  CHECK(r.status == 0);
  CHECK(r.out.find("/readyz: 200") != std::string::npos);
}

TEST_CASE("eight probe reports the server unhealthy once SIGTERM has stopped it") {
  ServerProcess server;
  const std::string port = std::to_string(server.port());
  REQUIRE(run_program("eight", {"probe", "--port", port}).status == 0);
  const auto exit = server.stop(SIGTERM);
  CHECK(exit.status == 0);
  CHECK(exit.elapsed < std::chrono::seconds(1));
  CHECK(run_program("eight", {"probe", "--port", port, "--timeout-ms", "500"}).status == 1);
}
