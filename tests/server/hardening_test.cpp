// Integration: eight-server against clients that hold connections, send
// slowly, or keep it busy while it stops (issue 6). The figures these tests
// print (MESSAGE) are the ones docs/reliability.md reports.
#include <doctest/doctest.h>
#include <signal.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <sstream>
#include <thread>
#include <vector>

#include "server_fixture.h"
#include "support.h"

using eight::test::raw_get;
using eight::test::RawConnection;
using eight::test::RawResponse;
using eight::test::ResponseEnd;
using eight::test::ServerProcess;
using eight::test::ServerSpec;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

// A request line and its first header, sent at once; a slow client then
// sends the rest of its headers a byte at a time and never finishes.
constexpr std::string_view kSlowHead = "GET /solve?board=123456780 HTTP/1.1\r\nHost: eight\r\n";
constexpr std::string_view kSlowTail = "X-Slow: 0123456789012345678901234567890123456789";

constexpr std::array<std::string_view, 6> kBoards = {"867254301", "413726580", "123456780",
                                                     "647850321", "806547231", "123804765"};

double to_ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

// Requests eight-server recorded with `status`, summed over routes, from
// its /metrics (lines `eight_http_requests_total{route="/x",status="N"} C`).
std::uint64_t requests_with_status(const ServerProcess& server, int status) {
  auto r = server.client().Get("/metrics");
  REQUIRE(r);
  REQUIRE(r->status == 200);
  const std::string series = "eight_http_requests_total{";
  const std::string label = ",status=\"" + std::to_string(status) + "\"} ";
  std::uint64_t sum = 0;
  std::istringstream lines(r->body);
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find(label);
    if (line.rfind(series, 0) == 0 && at != std::string::npos) {
      sum += std::stoull(line.substr(at + label.size()));
    }
  }
  return sum;
}

// How long a new client waits for GET `target` on a new connection; fails
// the test unless the answer is a 200.
Clock::duration new_client_get(const ServerProcess& server, const std::string& target) {
  const auto start = Clock::now();
  auto r = server.client().Get(target);
  const auto waited = Clock::now() - start;
  REQUIRE_MESSAGE(r, "no answer to " << target << " after " << to_ms(waited) << " ms");
  CHECK(r->status == 200);
  return waited;
}

// `count` connections, each sending kSlowHead at once and then kSlowTail a
// byte every `interval`, from one background thread, until destroyed. When
// the server closes one (its head timeout), it counts a cut-off and
// starts over on a new connection, as an attacker would.
class SlowClients {
 public:
  SlowClients(int port, int count, std::chrono::milliseconds interval)
      : thread_([this, port, count, interval] { run(port, count, interval); }) {}
  ~SlowClients() { stop(); }
  SlowClients(const SlowClients&) = delete;
  SlowClients& operator=(const SlowClients&) = delete;

  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  int cut_off() const { return cut_off_; }

 private:
  struct Slow {
    RawConnection conn;
    std::size_t sent = 0;  // bytes of kSlowTail sent
  };

  static Slow open(int port) {
    Slow s{RawConnection::try_open(port)};
    if (s.conn.open()) s.conn.send(kSlowHead);
    return s;
  }

  void run(int port, int count, std::chrono::milliseconds interval) {
    std::vector<Slow> slow;
    for (int i = 0; i < count; ++i) slow.push_back(open(port));
    const auto give_up = Clock::now() + 60s;  // bounded even if stop() never comes
    while (!stop_ && Clock::now() < give_up) {
      for (Slow& s : slow) {
        if (!s.conn.open() || s.conn.closed_by_server() ||
            !s.conn.send(kSlowTail.substr(s.sent++ % kSlowTail.size(), 1))) {
          ++cut_off_;
          s = open(port);
        }
      }
      std::this_thread::sleep_for(interval);
    }
  }

  std::atomic<bool> stop_{false};
  std::atomic<int> cut_off_{0};
  std::thread thread_;
};

// A new client every 100 ms for `duration`, each a GET /solve on a new
// connection, from a background thread: the worst wait and the failures.
class NewClients {
 public:
  NewClients(const ServerProcess& server, Clock::duration duration)
      : thread_([this, &server, duration] {
          for (const auto until = Clock::now() + duration; Clock::now() < until; ++clients_) {
            const auto start = Clock::now();
            auto r = server.client().Get("/solve?board=" +
                                         std::string(kBoards[clients_ % kBoards.size()]));
            worst_ = std::max(worst_, Clock::now() - start);
            if (!r || r->status != 200) ++failed_;
            std::this_thread::sleep_for(100ms);
          }
        }) {}
  ~NewClients() { join(); }
  NewClients(const NewClients&) = delete;
  NewClients& operator=(const NewClients&) = delete;

  void join() {
    if (thread_.joinable()) thread_.join();
  }
  // After join():
  Clock::duration worst() const { return worst_; }
  int clients() const { return clients_; }
  int failed() const { return failed_; }

 private:
  Clock::duration worst_{};
  int clients_ = 0;
  int failed_ = 0;
  std::thread thread_;
};

// The scenario of issue 6: 20 slow clients and 100 idle keep-alive
// connections held open while new clients come for 3 s (past the idle
// connections' keep-alive timeout and the slow ones' head timeout), then
// everyone leaves and the server must be as before.
void idle_and_slow_clients(const ServerSpec& spec, const std::string& setting) {
  ServerProcess server(spec);
  SlowClients slow(server.port(), 20, 300ms);
  std::this_thread::sleep_for(100ms);  // the slow clients are on their threads
  // The 100 idle clients send at once, then read their answers: all are
  // open together, and new clients come from the start.
  NewClients fresh(server, 3s);
  std::vector<RawConnection> idle;
  for (int i = 0; i < 100; ++i) {
    idle.emplace_back(server.port());
    REQUIRE(idle.back().send(raw_get("/healthz")));
  }
  const auto idle_start = Clock::now();
  for (RawConnection& conn : idle) {
    RawResponse r;
    REQUIRE(conn.read_response(r) == ResponseEnd::kComplete);
    REQUIRE(r.status == 200);
  }
  const auto idle_answered = Clock::now() - idle_start;
  fresh.join();
  MESSAGE(setting << ": with 100 idle and 20 slow clients held open, the worst wait of "
                  << fresh.clients() << " new clients was " << to_ms(fresh.worst())
                  << " ms; the idle clients' own requests were all answered within "
                  << to_ms(idle_answered) << " ms");
  CHECK(fresh.failed() == 0);
  CHECK(fresh.worst() < 2s);
  CHECK(idle_answered < 2s);
  // Every slow client was cut off by the head timeout at least once.
  CHECK(eight::test::wait_until([&] { return slow.cut_off() >= 20; }, 30s));

  slow.stop();
  idle.clear();
  // Recovery: a burst on one keep-alive connection, a new client, metrics.
  auto cli = server.client();
  cli.set_keep_alive(true);
  const auto burst_start = Clock::now();
  for (int i = 0; i < 500; ++i) {
    auto r = cli.Get("/distance?board=" + std::string(kBoards[i % kBoards.size()]));
    REQUIRE(r);
    REQUIRE(r->status == 200);
  }
  const auto burst = Clock::now() - burst_start;
  const auto after = new_client_get(server, "/solve?board=867254301");
  MESSAGE(setting << ": after they left, 500 requests in " << to_ms(burst)
                  << " ms, a new client waited " << to_ms(after) << " ms");
  CHECK(after < 500ms);
  // The slow clients' requests cut off were counted as timed out.
  CHECK(requests_with_status(server, 408) >= 20);
}

}  // namespace

TEST_CASE("with 100 idle and 20 slow clients held open, new clients are answered within 2 s") {
  idle_and_slow_clients({}, "default threads");
}

TEST_CASE(
    "with 64 threads, as in the Kubernetes Deployment, idle and slow clients still leave "
    "room for new clients") {
  idle_and_slow_clients({.args = {"--threads", "64"}}, "64 threads");
}

// Sends `head`, then `tail` a byte every `interval` until the server closes
// the connection (or 20 s, a hang guard: 10 times the 2 s timeouts); returns
// how long the server let it go on, from the first byte. The server must
// not have answered.
Clock::duration trickle_until_cut(const ServerProcess& server, std::string_view head,
                                  std::string_view tail, std::chrono::milliseconds interval) {
  RawConnection conn(server.port());
  const auto start = Clock::now();
  REQUIRE(conn.send(head));
  for (std::size_t sent = 0; !conn.closed_by_server() && Clock::now() - start < 20s &&
                             conn.send(tail.substr(sent++ % tail.size(), 1));) {
    std::this_thread::sleep_for(interval);
  }
  const auto held = Clock::now() - start;
  RawResponse r;
  CHECK(conn.read_response(r, 1s) == ResponseEnd::kNone);  // no answer, just the close
  return held;
}

TEST_CASE("a client sending its headers a byte at a time is cut off at the 2 s head timeout") {
  ServerProcess server;
  const auto held = trickle_until_cut(server, kSlowHead, kSlowTail, 50ms);
  MESSAGE("headers trickled a byte every 50 ms: cut off after " << to_ms(held) << " ms");
  // Cut by the head timeout: not before it (the server's clock started at
  // accept, a moment before this one), by the server and not by the
  // client's 20 s give-up, and counted as a 408. How late after 2 s depends
  // on how busy the machine is, so that is not checked.
  CHECK(held >= 1900ms);
  CHECK(held < 20s);
  CHECK(requests_with_status(server, 408) == 1);
}

TEST_CASE("a request body trickled a byte at a time is cut off, one sent at 100 KB/s is not") {
  ServerProcess server;
  const auto held =
      trickle_until_cut(server,
                        "POST /solve HTTP/1.1\r\nHost: eight\r\nContent-Type: application/json\r\n"
                        "Content-Length: 100000\r\n\r\n",
                        R"({"boards": ["867254301", "413726580", "123456780", )", 50ms);
  MESSAGE("a body trickled a byte every 50 ms: cut off after " << to_ms(held) << " ms");
  // Cut at the body's 2 s of grace (a few bytes earn no more): not before
  // it, by the server and not by the client's 20 s give-up, and counted as
  // a 408. How late after 2 s depends on how busy the machine is.
  CHECK(held >= 1900ms);
  CHECK(held < 20s);
  CHECK(requests_with_status(server, 408) == 1);

  // 9,000 boards padded with JSON whitespace to 300 KB, sent at 100 KB/s:
  // 3 s, longer than the head timeout, faster than the 64 KiB/s a body needs.
  std::string body = R"({"boards": [)";
  for (int i = 0; i < 9000; ++i) {
    if (i > 0) body += ",                ";
    body += R"("1 2 3 4 5 6 7 8 x")";
  }
  body += "]}";
  RawConnection conn(server.port());
  REQUIRE(
      conn.send("POST /solve HTTP/1.1\r\nHost: eight\r\nContent-Type: application/json\r\n"
                "Content-Length: " +
                std::to_string(body.size()) + "\r\n\r\n"));
  const auto start = Clock::now();
  for (std::size_t at = 0; at < body.size(); at += 10000) {
    REQUIRE(conn.send(std::string_view(body).substr(at, 10000)));
    std::this_thread::sleep_for(100ms);
  }
  RawResponse r;
  REQUIRE(conn.read_response(r, 5s) == ResponseEnd::kComplete);
  MESSAGE("a " << body.size() << "-byte body sent at 100 KB/s was answered after "
               << to_ms(Clock::now() - start) << " ms");
  CHECK(r.status == 200);
  CHECK(r.body.find(R"("count":9000)") != std::string::npos);
}

TEST_CASE("idle keep-alive connections stay open and never hold up a new client") {
  ServerProcess server(ServerSpec{.args = {"--threads", "1"}});
  std::vector<RawConnection> idle;
  for (int i = 0; i < 50; ++i) {
    idle.emplace_back(server.port());
    REQUIRE(idle.back().send(raw_get("/healthz")));
    RawResponse r;
    REQUIRE(idle.back().read_response(r) == ResponseEnd::kComplete);
  }
  const auto waited = new_client_get(server, "/solve?board=867254301");
  MESSAGE("with 50 idle connections on the one I/O thread, a new client waited " << to_ms(waited)
                                                                                 << " ms");
  // A hang guard, not a latency (0.2 ms when answered): held up, the new
  // client would wait out the idle connections' 75 s timeout, and they
  // would be gone, which the checks below see.
  CHECK(waited < 2s);
  // Each idle connection is still there and answers its next request.
  for (RawConnection& conn : idle) {
    CHECK_FALSE(conn.closed_by_server());
    REQUIRE(conn.send(raw_get("/healthz")));
    RawResponse r;
    REQUIRE(conn.read_response(r) == ResponseEnd::kComplete);
    CHECK(r.status == 200);
  }
}

namespace {

// What clients saw around a stop.
struct StopTally {
  std::atomic<int> in_flight{0};  // sent, no response yet
  std::atomic<int> complete{0};
  std::atomic<int> complete_after_signal{0};
  std::atomic<int> not_answered{0};  // connection closed before any byte of an answer
  std::atomic<int> cut{0};           // a response that started and did not finish
  std::atomic<int> not_ok{0};        // a complete response other than 200
  std::atomic<bool> signalled{false};
};

// Sends /solve requests one after another on a keep-alive connection,
// reconnecting when the server closes it, until it cannot connect any more
// (the server has stopped) or 10 s passed.
void hammer(int port, int id, StopTally& t) {
  RawConnection conn = RawConnection::try_open(port);
  const auto give_up = Clock::now() + 10s;
  for (int i = id; conn.open() && Clock::now() < give_up; ++i) {
    if (!conn.send(raw_get("/solve?board=" + std::string(kBoards[i % kBoards.size()])))) {
      ++t.not_answered;
      conn = RawConnection::try_open(port);
      continue;
    }
    ++t.in_flight;
    RawResponse r;
    const ResponseEnd end = conn.read_response(r, 3s);
    --t.in_flight;
    if (end == ResponseEnd::kComplete) {
      ++t.complete;
      if (t.signalled) ++t.complete_after_signal;
      if (r.status != 200) ++t.not_ok;
      if (r.headers["connection"] == "close") conn = RawConnection::try_open(port);
    } else if (end == ResponseEnd::kNone) {
      ++t.not_answered;
      conn = RawConnection::try_open(port);
    } else {
      ++t.cut;
      conn.close();
    }
  }
}

}  // namespace

TEST_CASE(
    "SIGTERM under load: every response already started completes and the server exits "
    "0 within a second") {
  ServerProcess server;
  StopTally tally;
  // A /table download whose status line has arrived but whose body waits
  // for this client to read (a 4 KiB receive buffer), read after the signal.
  RawConnection download(server.port(), 4096);
  REQUIRE(download.send(raw_get("/table", "Connection: close\r\n")));
  ResponseEnd download_end = ResponseEnd::kTimeout;
  RawResponse table;
  std::thread reader([&] {
    while (!tally.signalled) std::this_thread::sleep_for(1ms);
    download_end = download.read_response(table, 3s);
  });
  // 20 idle keep-alive connections, which a stop must not wait for.
  std::vector<RawConnection> idle;
  for (int i = 0; i < 20; ++i) {
    idle.emplace_back(server.port());
    REQUIRE(idle.back().send(raw_get("/healthz")));
    RawResponse r;
    REQUIRE(idle.back().read_response(r) == ResponseEnd::kComplete);
  }
  std::vector<std::thread> load;
  for (int i = 0; i < 16; ++i) load.emplace_back(hammer, server.port(), i, std::ref(tally));
  for (int i = 0; i < 100 && tally.complete < 1000; ++i) std::this_thread::sleep_for(10ms);

  const int in_flight = tally.in_flight + 1;  // + the download
  const int complete_before = tally.complete;
  tally.signalled = true;
  ::kill(server.pid(), SIGTERM);
  const auto exit = server.wait_exit(3s);
  for (auto& t : load) t.join();
  reader.join();

  const int cut = tally.cut;
  MESSAGE("at SIGTERM: " << in_flight << " requests in flight (on 16 load connections and a "
                         << "/table download; 20 idle connections open), " << complete_before
                         << " answered before; after it " << tally.complete_after_signal.load()
                         << " answered whole, " << cut << " cut, " << tally.not_answered.load()
                         << " closed unanswered; exit status " << exit.status << " after "
                         << exit.elapsed.count() << " ms");
  CHECK(complete_before > 0);
  CHECK(exit.status == 0);
  // Within the drain deadline (800 ms), which the stderr checks below
  // prove: "stopped", and no connection "still open" to cut at the deadline.
  // The download's connection lingers only limits.h's stop_linger (100 ms)
  // once its answer is out. How far inside depends on how busy the machine
  // is; this bound is only a hang guard.
  CHECK(exit.elapsed < 3s);
  CHECK(cut == 0);
  CHECK(tally.not_ok.load() == 0);
  REQUIRE(download_end == ResponseEnd::kComplete);
  CHECK(table.status == 200);
  const auto& bytes = eight::test::table_bytes();
  CHECK(table.body == std::string(bytes.begin(), bytes.end()));
  // Drained: every connection ended by itself, none had to be cut by exiting.
  CHECK(server.stderr_text().find("eight-server: stopped") != std::string::npos);
  CHECK(server.stderr_text().find("still open") == std::string::npos);
}
