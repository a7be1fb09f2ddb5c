// Replays of what a hostile or merely heavy client did to eight-server at
// e6155ad, each against the real server on loopback with the exact bytes:
// connections that were never given back, chunk framing buffered without
// bound, slow draws on the I/O thread, one client owning the compute pool,
// a stop that dropped the answers it had promised. Times here are hang
// guards an order of magnitude above normal, never latency floors (those
// are in bench/).
#include <doctest/doctest.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "fifteen_fixture.h"
#include "server_fixture.h"
#include "support.h"

namespace {

using eight::test::DefaultTable;
using eight::test::RawConnection;
using eight::test::RawResponse;
using eight::test::ResponseEnd;
using eight::test::ServerProcess;
using eight::test::ServerSpec;
using eight::test::TempDir;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// The replays' GETs, whose Host is the loopback address.
std::string loopback_get(const std::string& target, const std::string& extra = "") {
  return eight::test::raw_get(target, extra, "127.0.0.1");
}

// A hard 4x4 question (80 moves from Korf's goal): with the default 6-6-3
// databases it runs past any budget a test waits for.
const std::string kHardSearch =
    "/solve?board=15,14,8,12/10,11,9,13/2,6,5,1/3,7,4,0&goal=0,1,2,3/4,5,6,7/8,9,10,11/"
    "12,13,14,15&budget=500000000";
// Four moves from the standard 4x4 goal.
const std::string kEasySearch = "/distance?board=1,2,3,4/5,0,6,8/9,10,7,11/13,14,15,12";

// Waits (a hang guard) until /metrics holds `line`; false if it never does.
bool metrics_show(const ServerProcess& server, const std::string& line) {
  auto cli = server.client();
  return eight::test::wait_until(
      [&] {
        auto m = cli.Get("/metrics");
        return m && m->body.find("\n" + line + "\n") != std::string::npos;
      },
      10s);
}

}  // namespace

TEST_CASE(
    "a server under a 128-descriptor limit answers 20 times its connection limit in "
    "sequential connections, closed by the client, by Connection: close and by the idle "
    "timeout") {
  // 128 descriptors: the server holds 64 connections (server.cpp's reserve).
  ServerProcess server(ServerSpec{.args = {"--idle-timeout", "1"}, .nofile = 128});
  const int limit = 64;
  REQUIRE(server.wait_for_stderr("up to " + std::to_string(limit) + " connections"));
  const int port = server.port();
  int answered = 0;
  // Closed by the client after its answer.
  for (int i = 0; i < 9 * limit; ++i) {
    RawConnection c(port);
    REQUIRE(c.send(loopback_get("/healthz")));
    RawResponse r;
    REQUIRE(c.read_response(r) == ResponseEnd::kComplete);
    REQUIRE(r.status == 200);
    ++answered;
  }
  // Closed by the server after Connection: close.
  for (int i = 0; i < 8 * limit; ++i) {
    RawConnection c(port);
    REQUIRE(c.send(loopback_get("/distance?board=867254301", "Connection: close\r\n")));
    RawResponse r;
    REQUIRE(c.read_response(r) == ResponseEnd::kComplete);
    REQUIRE(r.status == 200);
    ++answered;
  }
  // Closed by the idle timeout: rounds of connections left open after their
  // answer, until the server has closed every one of them.
  for (int round = 0; round < 4; ++round) {
    std::vector<RawConnection> idle;
    for (int i = 0; i < limit - 4; ++i) {
      idle.emplace_back(port);
      REQUIRE(idle.back().send(loopback_get("/healthz")));
      RawResponse r;
      REQUIRE(idle.back().read_response(r) == ResponseEnd::kComplete);
      REQUIRE(r.status == 200);
      ++answered;
    }
    const auto guard = Clock::now() + 20s;
    for (auto& c : idle) {
      while (!c.closed_by_server()) {
        REQUIRE(Clock::now() < guard);
        std::this_thread::sleep_for(20ms);
      }
    }
  }
  CHECK(answered >= 20 * limit);
  // And the count came back to the one connection asking: the gauge and
  // the limit read it.
  CHECK(metrics_show(server, "eight_connections_open 1"));
}

TEST_CASE("a chunk extension that never ends is refused at the chunk-line limit, not buffered") {
  ServerProcess server;
  RawConnection c(server.port());
  REQUIRE(
      c.send("POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             "Transfer-Encoding: chunked\r\n\r\n1;a="));
  // 64 KiB of it, sixteen times the limit: refused as it passes 4 KiB.
  const std::string more(1024, 'b');
  for (int i = 0; i < 64 && c.send(more); ++i) {
  }
  RawResponse r;
  REQUIRE(c.read_response(r) == ResponseEnd::kComplete);
  CHECK(r.status == 400);
  CHECK(r.body.find("chunk-size line") != std::string::npos);
  CHECK(r.headers["connection"] == "close");
}

TEST_CASE("chunk extensions past 16 KiB in all are refused, however they are split") {
  ServerProcess server;
  RawConnection c(server.port());
  REQUIRE(
      c.send("POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             "Transfer-Encoding: chunked\r\n\r\n"));
  // Each line is under the 4 KiB line limit, with one byte of body each.
  const std::string chunk = "1;x=" + std::string(3000, 'c') + "\r\n \r\n";
  for (int i = 0; i < 8; ++i) {
    if (!c.send(chunk)) break;
  }
  RawResponse r;
  REQUIRE(c.read_response(r) == ResponseEnd::kComplete);
  CHECK(r.status == 400);
  CHECK(r.body.find("chunk extensions are longer than 16384 bytes") != std::string::npos);
}

TEST_CASE("a trailer section that never ends is refused with 431 at its limit") {
  ServerProcess server;
  RawConnection c(server.port());
  REQUIRE(
      c.send("POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nX-Trailer: "));
  const std::string more(1024, 'd');
  for (int i = 0; i < 64 && c.send(more); ++i) {
  }
  RawResponse r;
  REQUIRE(c.read_response(r) == ResponseEnd::kComplete);
  CHECK(r.status == 431);
  CHECK(r.body.find("trailer section") != std::string::npos);
}

TEST_CASE("slow 2x5 draws pipelined on two connections leave a fresh 3x3 client answered at once") {
  DefaultTable table;
  // One client runs on every compute thread but one, so with two threads
  // b's first draw waits for a's: a sanitized build's draw takes several
  // seconds, past the default 5 s queue wait. What is tested is the order,
  // so the wait is a hang guard too.
  ServerProcess server(table.spec({"--queue-wait", eight::test::kQueueWaitHangGuard}));
  // The seed that makes one draw take most of a second (SplitMix64
  // simulated to a long rejection run), ten deep on each of two connections.
  std::string pipelined;
  for (int i = 0; i < 10; ++i) {
    pipelined += loopback_get("/random?shape=2x5&distance=54&seed=1049905442998443423");
  }
  RawConnection a(server.port());
  RawConnection b(server.port());
  REQUIRE(a.send(pipelined));
  REQUIRE(b.send(pipelined));
  std::this_thread::sleep_for(50ms);
  // Order, not wall time, is what this proves, so that it holds on a busy
  // machine too: the 20 draws take some 17 s of compute, and before the fix
  // the lookup waited behind one connection's ten. Now it is answered while
  // they have barely begun.
  auto cli = server.client();
  cli.set_read_timeout(60, 0);  // a hang guard: the lookup takes well under 1 ms
  auto r = cli.Get("/distance?board=867254301");
  REQUIRE(r);
  CHECK(r->status == 200);
  // The draws answered so far (no series until the first is).
  const auto draws_answered = [&cli] {
    auto m = cli.Get("/metrics");
    REQUIRE(m);
    const std::string drawn = "eight_http_requests_total{route=\"/random\",status=\"200\"} ";
    const auto at = m->body.find(drawn);
    return at == std::string::npos ? 0 : std::stoi(m->body.substr(at + drawn.size()));
  };
  CHECK(draws_answered() < 10);
  // And the draws are still answered, in order, on their connections. The
  // compute threads run at nice 19: on a busy machine a draw takes many times
  // its 0.9 s, so this wait is a hang guard, far above it.
  RawResponse first;
  REQUIRE(a.read_response(first, 180s) == ResponseEnd::kComplete);
  CHECK(first.status == 200);
  // The series counted above is the draws' own: it counts this one (a hang
  // guard: a request is counted once its response is written).
  CHECK(eight::test::wait_until([&] { return draws_answered() >= 1; }, 10s));
}

TEST_CASE(
    "one client holding 66 hard 4x4 searches leaves another client's 4-move question "
    "answered, and its own surplus is refused at once with Retry-After") {
  eight::test::fifteen::FifteenDir dir;
  ServerProcess server(dir.spec({"--compute-threads", "2", "--compute-queue", "64"}));
  std::vector<RawConnection> hog;
  for (int i = 0; i < 66; ++i) {
    hog.push_back(RawConnection::open_from(server.port(), "127.0.0.1"));
    REQUIRE(hog.back().send(loopback_get(kHardSearch)));
  }
  // One runs, eight (its share of the queue) wait, the rest are refused.
  int refused = 0;
  for (auto& c : hog) {
    RawResponse r;
    if (c.read_response(r, 300ms) == ResponseEnd::kComplete) {
      CHECK(r.status == 503);
      CHECK(r.headers.count("retry-after") == 1);
      ++refused;
    }
  }
  CHECK(refused >= 66 - 1 - 8);
  RawConnection other = RawConnection::open_from(server.port(), "127.0.0.2");
  REQUIRE(other.send(loopback_get(kEasySearch)));
  RawResponse r;
  // A hang guard: before, no answer after 55 s; now milliseconds.
  REQUIRE(other.read_response(r, 10s) == ResponseEnd::kComplete);
  CHECK(r.status == 200);
  CHECK(r.body.find("\"distance\":4") != std::string::npos);
}

TEST_CASE(
    "a client's long request that waits past the queue deadline is answered 503 with "
    "Retry-After") {
  eight::test::fifteen::FifteenDir dir;
  // One compute thread: the hog's search holds it, the other waits, for
  // the shortest deadline an operator may set (the default, 5 s, is
  // options_test's).
  ServerProcess server(dir.spec({"--compute-threads", "1", "--queue-wait", "1"}));
  RawConnection hog = RawConnection::open_from(server.port(), "127.0.0.1");
  REQUIRE(hog.send(loopback_get(kHardSearch)));
  // The other is sent once the hog's search runs (a hang guard for a busy
  // machine): sent before, it could be read first and run itself.
  REQUIRE(
      eight::test::wait_until([&] { return server.metric("eight_compute_running") == 1; }, 60s));
  RawConnection other = RawConnection::open_from(server.port(), "127.0.0.2");
  REQUIRE(other.send(loopback_get(kEasySearch)));
  RawResponse r;
  REQUIRE(other.read_response(r, 30s) == ResponseEnd::kComplete);
  CHECK(r.status == 503);
  CHECK(r.headers["retry-after"] == "1");
  CHECK(r.body.find("waited 1 s for a compute thread") != std::string::npos);
}

TEST_CASE("behind a trusted proxy, --client-header gives each forwarded client its own share") {
  eight::test::fifteen::FifteenDir dir;
  ServerProcess server(dir.spec({"--compute-threads", "2", "--client-header", "X-Forwarded-For"}));
  // Both come through one proxy (one peer address); the header tells them
  // apart, its last address counting.
  std::vector<RawConnection> hog;
  for (int i = 0; i < 12; ++i) {
    hog.emplace_back(server.port());
    REQUIRE(hog.back().send(loopback_get(kHardSearch, "X-Forwarded-For: 6.6.6.6, 10.0.0.1\r\n")));
  }
  RawConnection other(server.port());
  REQUIRE(other.send(loopback_get(kEasySearch, "X-Forwarded-For: 10.0.0.2\r\n")));
  RawResponse r;
  REQUIRE(other.read_response(r, 10s) == ResponseEnd::kComplete);
  CHECK(r.status == 200);
}

TEST_CASE("draws whose clients left free the compute threads at once") {
  DefaultTable table;
  ServerProcess server(table.spec({"--compute-threads", "2"}));
  for (const char* source : {"127.0.0.3", "127.0.0.4"}) {
    RawConnection c = RawConnection::open_from(server.port(), source);
    REQUIRE(c.send(loopback_get("/random?shape=2x5&distance=54&count=300&seed=7")));
    std::this_thread::sleep_for(100ms);
    c.close();  // the client leaves while its 300 draws (about 19 s) run
  }
  std::this_thread::sleep_for(200ms);
  // Both threads are free again: a batch (which runs on the pool) is
  // answered within a hang guard far below the 19 s the draws would take.
  auto cli = server.client();
  auto r = cli.Post("/solve", R"({"boards":["867254301"]})", "application/json");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(metrics_show(server, "eight_compute_cancelled_total 2"));
}

TEST_CASE("--max-budget caps budget= and a batch's budget, and --max-budget 0 turns searches off") {
  eight::test::fifteen::FifteenDir dir;
  {
    ServerProcess server(dir.spec({"--max-budget", "1000000"}));
    auto cli = server.client();
    auto r = cli.Get(kEasySearch + "&budget=1000001");
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(r->body.find("from 1 to 1000000; got") != std::string::npos);
    auto ok = cli.Get(kEasySearch + "&budget=1000000");
    REQUIRE(ok);
    CHECK(ok->status == 200);
    auto batch =
        cli.Post("/solve", R"({"boards":["867254301"],"budget":2000000})", "application/json");
    REQUIRE(batch);
    CHECK(batch->status == 400);
  }
  {
    ServerProcess server(dir.spec({"--max-budget", "0"}));
    auto cli = server.client();
    auto r = cli.Get(kEasySearch);
    REQUIRE(r);
    CHECK(r->status == 404);
    CHECK(r->body.find("search-disabled") != std::string::npos);
    auto table = cli.Get("/distance?board=867254301");  // tables still answer
    REQUIRE(table);
    CHECK(table->status == 200);
    auto batch =
        cli.Post("/solve",
                 R"({"boards":["867254301",{"board":"1,2,3,4/5,0,6,8/9,10,7,11/13,14,15,12",)"
                 R"("goal":"1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,0"}]})",
                 "application/json");
    REQUIRE(batch);
    CHECK(batch->status == 200);
    CHECK(batch->body.find("no questions by search") != std::string::npos);
  }
}

// CI's busy suite, 2026-12-07: a compute thread (nice 19) starved past the
// stop's 500 ms grace had its client's connection closed with no answer.
// With no grace at all every running search is still running when it ends.
TEST_CASE("a stop answers 503 for a search still running past its grace, never a silent close") {
  eight::test::fifteen::FifteenDir dir;
  ServerProcess server(
      dir.spec({"--compute-threads", "2", "--compute-queue", "8", "--stop-compute-grace", "0"}));
  std::vector<RawConnection> clients;
  for (int a = 0; a < 4; ++a) {
    const std::string source = "127.0.2." + std::to_string(a + 1);
    clients.push_back(RawConnection::open_from(server.port(), source.c_str()));
    REQUIRE(clients.back().send(loopback_get(kHardSearch)));
  }
  // Two run (the rest queue): the searches run past any stop's deadline.
  REQUIRE(metrics_show(server, "eight_compute_running 2"));
  ::kill(server.pid(), SIGTERM);
  for (auto& c : clients) {
    RawResponse r;
    REQUIRE(c.read_response(r, 10s) == ResponseEnd::kComplete);
    CHECK(r.status == 503);
    CHECK(r.headers["connection"] == "close");
    CHECK(r.headers.count("retry-after") == 1);
    CHECK(r.body.find("stopping") != std::string::npos);
  }
  const auto exit = server.wait_exit(10s);
  CHECK(exit.status == 0);
}

TEST_CASE("SIGTERM with a full compute pool answers every request already received") {
  eight::test::fifteen::FifteenDir dir;
  ServerProcess server(dir.spec({"--compute-threads", "2", "--compute-queue", "64"}));
  // Eight clients (addresses) of eight searches each: 2 run, the queue fills.
  std::vector<RawConnection> clients;
  for (int a = 0; a < 8; ++a) {
    const std::string source = "127.0.1." + std::to_string(a + 1);
    for (int i = 0; i < 8; ++i) {
      clients.push_back(RawConnection::open_from(server.port(), source.c_str()));
      REQUIRE(clients.back().send(loopback_get(kHardSearch)));
    }
  }
  std::this_thread::sleep_for(300ms);
  ::kill(server.pid(), SIGTERM);
  int ok = 0;
  int stopping = 0;
  for (auto& c : clients) {
    RawResponse r;
    // Every one gets a whole answer: none is closed without one.
    REQUIRE(c.read_response(r, 10s) == ResponseEnd::kComplete);
    if (r.status == 503) {
      CHECK(r.headers["connection"] == "close");
      CHECK(r.headers.count("retry-after") == 1);
      ++stopping;
    } else {
      CHECK(r.status == 200);
      ++ok;
    }
  }
  CHECK(ok + stopping == 64);
  const auto exit = server.wait_exit(10s);
  CHECK(exit.status == 0);
}
