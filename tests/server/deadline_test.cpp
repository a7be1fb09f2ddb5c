// Issue 41, finding 3: a search budget that did not bound time. Each
// measured case replayed against the real server with a short
// --job-deadline, so that each is quick: a 5x5 and a 10x10
// /solve?optimal=required and a 5x5 /hint at the largest budget, a batch of
// 10,000 4x4 boards at that budget, /random?shape=2x5&distance=54&count=1000,
// a 2x8 question of budget=1000; a client that leaves mid-search; and
// sixteen and more clients' batches beside another client's easy 4x4
// question. Every time here is a hang guard an order of magnitude above
// the deadline, never a latency bound (bench/reliability has the floors).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "fifteen_fixture.h"
#include "server_fixture.h"
#include "support.h"

namespace {

using eight::test::RawConnection;
using eight::test::RawResponse;
using eight::test::ResponseEnd;
using eight::test::ServerProcess;
using json = nlohmann::json;
using namespace std::chrono_literals;

// The deadline these servers keep (--job-deadline), and the hang guard on
// each answer: far above it, for a busy machine whose compute threads run
// at nice 19.
constexpr const char* kJobDeadline = "0.2";
constexpr auto kAnswerHangGuard = 60s;

std::string get_text(const std::string& target) {
  return eight::test::raw_get(target, "", "127.0.0.1");
}

// GET `target` on a connection of its own, read within the hang guard.
RawResponse answer_to(const ServerProcess& server, const std::string& target) {
  RawConnection c(server.port());
  REQUIRE(c.send(get_text(target)));
  RawResponse r;
  REQUIRE(c.read_response(r, kAnswerHangGuard) == ResponseEnd::kComplete);
  return r;
}

// A random board of `shape` as the server draws it (its canonical text).
std::string drawn_board(const ServerProcess& server, const std::string& shape) {
  const RawResponse r = answer_to(server, "/random?shape=" + shape + "&seed=41");
  REQUIRE(r.status == 200);
  return json::parse(r.body).at("board").get<std::string>();
}

// A search that stopped at the deadline: the 503 a budget's end gives, its
// detail saying it was the deadline, with fewer nodes than the budget.
void check_stopped_at_deadline(const RawResponse& r) {
  CAPTURE(r.body);
  CHECK(r.status == 503);
  CHECK(r.headers.at("cache-control") == "no-store");
  const json p = json::parse(r.body);
  CHECK(p.at("type") == "https://eight.invalid/problems/search-budget-exceeded");
  CHECK(p.at("detail").get<std::string>().starts_with(
      "the search stopped at its deadline of 0.2 s before its budget of 500000000 nodes: it "
      "searched "));
  CHECK(p.at("nodes").get<std::uint64_t>() < 500'000'000);
  CHECK(p.at("budget") == 500'000'000);
  CHECK(p.at("lower_bound").get<int>() > 0);
}

}  // namespace

TEST_CASE(
    "5x5 and 10x10 searches with optimal=required at the largest budget stop at the server's "
    "deadline and say so") {
  ServerProcess server(eight::test::DefaultTable().spec({"--job-deadline", kJobDeadline}));
  const std::string five = drawn_board(server, "5x5");
  const std::string ten = drawn_board(server, "10x10");
  // Measured before: 253 s, 198 s and 166 s of a compute thread each.
  for (const std::string& target : {"/solve?board=" + five + "&optimal=required&budget=500000000",
                                    "/hint?board=" + five + "&optimal=required&budget=500000000",
                                    "/solve?board=" + ten + "&optimal=required&budget=500000000"}) {
    CAPTURE(target);
    check_stopped_at_deadline(answer_to(server, target));
  }
  // The thread is free again: the next question is answered.
  CHECK(answer_to(server, "/solve?board=" + five).status == 200);
}

TEST_CASE(
    "a batch of 10,000 boards, hard 4x4 ones but for one, at the largest budget stops searching "
    "at the deadline and answers every item in place") {
  eight::test::fifteen::FifteenDir dir;
  // 2 s, not kJobDeadline: the body's parse (400 KB) is the job's work too
  // (since the merge), and in a loaded suite (ctest -j3 beside Chromium)
  // this batch was refused 503 at 0.2 s, though it passed alone: a nice-19
  // compute thread's parse may outlast 0.2 s there.
  ServerProcess server(dir.spec({"--job-deadline", "2"}));
  // 80 moves from the standard goal: past what 6-6-3 finds in 2 s.
  std::string body = R"({"budget":500000000,"boards":[)";
  for (int i = 0; i < 9'999; ++i) {
    if (i > 0) body += ',';
    body += "\"" + std::string(eight::test::fifteen::kHardest) + "\"";
  }
  body += R"(,"867254301"]})";
  RawConnection c(server.port());
  REQUIRE(c.send(eight::test::raw_post(body)));
  RawResponse r;
  // Measured before: 59 s.
  REQUIRE(c.read_response(r, kAnswerHangGuard) == ResponseEnd::kComplete);
  REQUIRE(r.status == 200);
  const json answer = json::parse(r.body);
  const json& items = answer.at("answers");
  REQUIRE(items.size() == 10'000);
  // The first searched until the deadline, the rest not at all; the table
  // item is still answered.
  const std::string first = items[0].at("error").get<std::string>();
  CAPTURE(first);
  CHECK(first.starts_with("the search stopped at its deadline of 2 s"));
  int unsearched = 0;
  for (std::size_t i = 1; i < 9'999; ++i) {
    const std::string e = items[i].value("error", "");
    if (e ==
        "not searched: the batch stopped at this server's deadline of 2 s a request; "
        "send the rest in another batch") {
      ++unsearched;
    }
  }
  CHECK(unsearched == 9'998);
  CHECK(items[9'999].at("distance") == 31);
}

TEST_CASE("1,000 draws of far 2x5 boards stop at the deadline with a 503 saying how far they got") {
  ServerProcess server(eight::test::DefaultTable().spec({"--job-deadline", kJobDeadline}));
  // Measured before: over 60 s.
  const RawResponse r = answer_to(server, "/random?shape=2x5&distance=54&count=1000&seed=1");
  CAPTURE(r.body);
  CHECK(r.status == 503);
  CHECK(r.headers.count("retry-after") == 0);
  const json p = json::parse(r.body);
  CHECK(p.at("type") == "https://eight.invalid/problems/deadline-exceeded");
  const std::string detail = p.at("detail").get<std::string>();
  CHECK(
      detail.starts_with("the draws stopped at this server's deadline of 0.2 s a request after "));
  CHECK(detail.find(" of 1000 boards; ask for fewer (count=N)") != std::string::npos);
}

TEST_CASE(
    "2x8 questions of budget=1000 are answered within their budget while the databases are "
    "built in the background, many times over") {
  // Measured before: the first 2x8 question paid the databases' build
  // (4.5 s a goal), whatever its budget. A server with no 2x8 databases in
  // its table; two goals (two sets), each asked 20 times.
  ServerProcess server(eight::test::DefaultTable().spec({"--job-deadline", "10"}));
  const std::string board = drawn_board(server, "2x8");
  int answered = 0;
  for (int i = 0; i < 40; ++i) {
    const std::string goal = i % 2 == 0 ? "" : "&goal=1,0,2,3,4,5,6,7/8,9,10,11,12,13,14,15";
    const RawResponse r =
        answer_to(server, "/solve?board=" + board + goal + "&budget=1000&optimal=required");
    CAPTURE(r.body);
    if (r.status == 200) {
      ++answered;
      continue;
    }
    CHECK(r.status == 503);
    const json p = json::parse(r.body);
    // Stopped by its 1000 nodes, never by the deadline nor cancelled.
    CHECK(p.at("detail").get<std::string>().starts_with(
        "the search stopped at its budget of 1000 nodes: it searched 1000 nodes"));
    ++answered;
  }
  CHECK(answered == 40);
}

TEST_CASE("a client that leaves mid-search frees the only compute thread for the next request") {
  // A deadline of an hour: only the client's leaving can end the search.
  ServerProcess server(
      eight::test::DefaultTable().spec({"--compute-threads", "1", "--job-deadline", "3600"}));
  const std::string five = drawn_board(server, "5x5");
  for (int round = 0; round < 5; ++round) {
    {
      RawConnection leaving = RawConnection::open_from(server.port(), "127.0.0.3");
      REQUIRE(
          leaving.send(get_text("/solve?board=" + five + "&optimal=required&budget=500000000")));
      REQUIRE(eight::test::wait_until([&] { return server.metric("eight_compute_running") == 1; },
                                      kAnswerHangGuard));
    }  // closed mid-search
    RawConnection next = RawConnection::open_from(server.port(), "127.0.0.4");
    REQUIRE(next.send(get_text("/solve?board=" + five)));
    RawResponse r;
    REQUIRE(next.read_response(r, kAnswerHangGuard) == ResponseEnd::kComplete);
    CHECK(r.status == 200);
  }
  // Each counted once its thread let it go (a hang guard).
  CHECK(eight::test::wait_until([&] { return server.metric("eight_compute_cancelled_total") == 5; },
                                kAnswerHangGuard));
}

TEST_CASE(
    "32 clients sending batches that hold both compute threads leave another client's easy 4x4 "
    "question answered, every time") {
  // Measured before: with 16 clients sending batches, another client's
  // easy 4x4 /solve got a 503 after 5 s in 8 of 9 tries: the clients took
  // turns by queue slots, and it waited behind every other client's batch.
  // Now the client that has used the least thread time goes first: it waits
  // for the first thread to come free, which the deadline bounds.
  eight::test::fifteen::FifteenDir dir;
  ServerProcess server(dir.spec({"--compute-threads", "2", "--job-deadline", "0.5"}));
  std::string batch = R"({"budget":500000000,"boards":[)";
  for (int i = 0; i < 100; ++i) {
    if (i > 0) batch += ',';
    batch += "\"" + std::string(eight::test::fifteen::kHardest) + "\"";
  }
  batch += "]}";
  constexpr int kClients = 32;
  std::atomic<bool> stop{false};
  std::vector<std::atomic<int>> batches(kClients);  // answered 200, per client
  std::vector<std::jthread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      const std::string source = "127.0.0." + std::to_string(10 + c);
      while (!stop) {
        RawConnection conn = RawConnection::open_from(server.port(), source.c_str());
        while (!stop && conn.send(eight::test::raw_post(batch))) {
          RawResponse r;
          if (conn.read_response(r, kAnswerHangGuard) != ResponseEnd::kComplete) break;
          if (r.status == 200) ++batches[static_cast<std::size_t>(c)];
        }
      }
    });
  }
  // Every one of them has held a thread (before that, one that has not is
  // as entitled to the next thread as the other client), both threads are
  // held and batches wait for them.
  REQUIRE(eight::test::wait_until(
      [&] {
        for (const auto& n : batches) {
          if (n == 0) return false;
        }
        return true;
      },
      300s));
  REQUIRE(eight::test::wait_until([&] { return server.metric("eight_compute_queue_depth") >= 16; },
                                  kAnswerHangGuard));
  int answered = 0;
  for (int i = 0; i < 9; ++i) {
    RawConnection other = RawConnection::open_from(server.port(), "127.0.1.1");
    REQUIRE(other.send(get_text("/distance?board=1,2,3,4/5,0,6,8/9,10,7,11/13,14,15,12")));
    RawResponse r;
    REQUIRE(other.read_response(r, kAnswerHangGuard) == ResponseEnd::kComplete);
    CAPTURE(r.body);
    CHECK(r.status == 200);
    if (r.status == 200 && r.body.find("\"distance\":4") != std::string::npos) ++answered;
  }
  stop = true;
  CHECK(answered == 9);
}
