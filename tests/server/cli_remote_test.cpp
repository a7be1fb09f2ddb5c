// `eight --server URL solve|hint|random` against the real eight-server on a
// loopback port: the same bytes on standard output and standard error, and
// the same exit status, as the offline tool reading the same table file.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "eight/board.h"
#include "eight/shape.h"
#include "fifteen_fixture.h"
#include "server_fixture.h"
#include "support.h"

using eight::test::RunResult;
using eight::test::ServerProcess;
using eight::test::ServerSpec;
using eight::test::TempDir;

namespace {

// Every exchange of `eight --server` waits up to this long: a hang guard. An
// answer past 16 cells is a search on a compute thread at nice 19, which a
// busy host (.ci/run's suite beside the sanitizer build) can starve past the
// client's 10 s default (and, for the servers here, past the default queue
// wait: kQueueWaitHangGuard); the comparison with the offline tool is about
// bytes, not speed.
constexpr const char* kHangGuardMs = "300000";
using eight::test::kQueueWaitHangGuard;

// The default table (every shape up to 10 cells) in a file, served by a
// server of its own.
struct DefaultTableServer {
  // `more`: the server's options beside those.
  explicit DefaultTableServer(std::vector<std::string> options = {}) : more(std::move(options)) {}
  std::string table = eight::test::default_table_path();
  std::vector<std::string> more;
  ServerProcess server{[this] {
    ServerSpec spec{.args = {"--table", table, "--host", "127.0.0.1", "--port", "0", "--queue-wait",
                             kQueueWaitHangGuard},
                    .default_args = false};
    spec.args.insert(spec.args.end(), more.begin(), more.end());
    return spec;
  }()};
  std::string url() const { return "http://127.0.0.1:" + std::to_string(server.port()); }

  // The same command offline (--table) and against the server (--server).
  std::pair<RunResult, RunResult> both(const std::vector<std::string>& args,
                                       const std::string& input = "") const {
    std::vector<std::string> offline = args;
    offline.insert(offline.begin() + 1, {"--table", table});
    std::vector<std::string> remote = {"--server", url(), "--timeout-ms", kHangGuardMs};
    remote.insert(remote.end(), args.begin(), args.end());
    return {eight::test::run_program("eight", offline, input),
            eight::test::run_program("eight", remote, input)};
  }
};

void check_same(const std::pair<RunResult, RunResult>& runs) {
  const auto& [offline, remote] = runs;
  CHECK(remote.status == offline.status);
  CHECK(remote.err == offline.err);
  REQUIRE(remote.out.size() == offline.out.size());
  CHECK(remote.out == offline.out);
}

// 1,000 input lines: boards of every shape the default table serves, half
// reached by random walks from the goal (every distance near the goal and
// many far), half shuffled uniformly (so about half cannot reach it), with
// some lines that name their own goal and some that are not boards at all.
std::string thousand_lines() {
  const eight::Shape shapes[] = {{3, 3}, {2, 2}, {2, 3}, {3, 2}, {2, 4},
                                 {4, 2}, {2, 5}, {5, 2}, {3, 3}, {3, 3}};
  std::mt19937 rng(20260113);
  std::string lines;
  int n = 0;
  for (int i = 0; n < 1000; ++i) {
    const eight::Shape shape = shapes[static_cast<std::size_t>(i) % std::size(shapes)];
    eight::GridBoard b = eight::standard_goal(shape);
    if (i % 2 == 0) {
      const int steps = static_cast<int>(rng() % 70);
      for (int s = 0; s < steps; ++s) {
        if (auto next = eight::apply_move(b, eight::kAllMoves[rng() % 4])) b = *next;
      }
    } else {
      std::vector<std::uint8_t> cells(b.cells.begin(), b.cells.begin() + shape.cells());
      std::shuffle(cells.begin(), cells.end(), rng);
      b = eight::test::board_of_cells(cells, shape);
    }
    if (i % 97 == 5) {
      lines += "12345678\n";  // a bad line: answered "error", reported on stderr
    } else if (i % 41 == 3 && shape == eight::Shape{3, 3}) {
      lines += eight::to_string(b) + " 123804765\n";  // a line with its own goal
    } else {
      lines += eight::to_string(b) + "\n";
    }
    ++n;
  }
  return lines;
}

}  // namespace

TEST_CASE(
    "eight --server solve prints exactly what eight solve prints, for 1,000 boards of "
    "every shape, in every format") {
  DefaultTableServer s;
  const std::string input = thousand_lines();
  REQUIRE(std::count(input.begin(), input.end(), '\n') == 1000);
  for (const std::vector<std::string>& args : {std::vector<std::string>{"solve"},
                                               {"solve", "--format", "distance"},
                                               {"solve", "--format", "json"},
                                               {"solve", "--format", "json", "--boards"}}) {
    CAPTURE(args.back());
    const auto runs = s.both(args, input);
    check_same(runs);
    CHECK(runs.first.status == 1);  // the bad lines
    CHECK(std::count(runs.first.out.begin(), runs.first.out.end(), '\n') == 1000);
    if (args.size() == 1) CHECK(runs.first.out.find("unsolvable") != std::string::npos);
  }
  // Another goal for every line, boards as arguments, and a shape by name.
  check_same(s.both({"solve", "--goal", "123804765", "867254301", "12", "213456780"}));
  check_same(s.both({"solve", "--shape", "2x3", "--format", "json", "123405", "123450"}));
}

TEST_CASE("eight --server solve and hint --fast ask the server for the fast answers") {
  // A far 5x5 board: --fast is the beam without the 5x5 databases (neither
  // process builds them), offline and asked of the server (fast=1). A
  // server not asked so would wait for its databases' build (up to half its
  // deadline, here 300 s) and answer another path.
  const DefaultTableServer s({"--job-deadline", "600"});
  const std::string board = "3,7,12,4,5/1,14,10,8,16/24,11,2,9,19/6,17,13,0,20/21,22,15,23,18";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"solve", "--fast", "--format", "json", board},
        {"hint", "--fast", "--format", "json", board},
        {"hint", "--fast", board},
        {"solve", "--fast", "--format", "distance", "867254301", "123/405"}}) {
    CAPTURE(args[0]);
    const auto runs = s.both(args);
    check_same(runs);
    CHECK(runs.first.status == 0);
  }
  const auto json_runs = s.both({"solve", "--fast", "--format", "json", board});
  CHECK(json_runs.first.out.find(R"("method":"beam-search")") != std::string::npos);
}

TEST_CASE(
    "eight --server solve and hint --path send the known path and print what offline prints") {
  DefaultTableServer s;
  const std::string other = "uurdlldrrullurrdldluurddluurrdd";  // 867254301's, optimal
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"solve", "--path", other, "867254301"},
        {"solve", "--path", other, "--format", "json", "867254301"},
        {"hint", "--path", other, "--format", "json", "867254301"},
        {"solve", "--path", "d", "867254301"},
        {"hint", "--path", "d", "867254301"}}) {
    CAPTURE(args[0]);
    CAPTURE(args[2]);
    const auto runs = s.both(args);
    check_same(runs);
    CHECK(runs.first.status == (args[2] == "d" ? 1 : 0));
  }
  CHECK(s.both({"solve", "--path", other, "867254301"}).first.out == other + "\n");
}

TEST_CASE("eight --server hint and random print exactly what they print offline") {
  DefaultTableServer s;
  for (const char* board : {"867254301", "123456708", "123456780", "213456780", "123/405",
                            "12345/67809", "1 2 3 4 5 6 7 0 8"}) {
    CAPTURE(board);
    check_same(s.both({"hint", board}));
    check_same(s.both({"hint", "--format", "json", board}));
  }
  check_same(s.both({"hint", "--goal", "123804765", "867254301"}));
  // Seeded draws are the same boards, several in a row, from every kind of
  // section (full 3x3, full 2x4, mod-3 2x5).
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"random", "--distance", "20", "--seed", "12345", "--count", "40"},
        {"random", "--distance", "0", "--seed", "1"},
        {"random", "--distance", "30", "--goal", "123804765", "--seed", "7", "--count", "5"},
        {"random", "--shape", "2x4", "--distance", "25", "--seed", "3", "--count", "30"},
        {"random", "--shape", "2x5", "--distance", "30", "--seed", "9", "--count", "10"}}) {
    CAPTURE(args[2]);
    const auto runs = s.both(args);
    check_same(runs);
    CHECK(runs.first.status == 0);
  }
}

// A server of `args` (its tables), and the same command offline with the
// same tables option.
struct TablesServer {
  std::vector<std::string> tables;
  ServerProcess server;
  explicit TablesServer(std::vector<std::string> tables_args)
      : tables(std::move(tables_args)), server([this] {
          ServerSpec spec{.args = tables, .default_args = false};
          spec.args.insert(spec.args.end(), {"--host", "127.0.0.1", "--port", "0", "--queue-wait",
                                             kQueueWaitHangGuard});
          return spec;
        }()) {}
  std::pair<RunResult, RunResult> both(const std::vector<std::string>& args) const {
    std::vector<std::string> offline = args;
    offline.insert(offline.begin() + 1, tables.begin(), tables.end());
    std::vector<std::string> remote = {"--server",
                                       "http://127.0.0.1:" + std::to_string(server.port()),
                                       "--timeout-ms", kHangGuardMs};
    remote.insert(remote.end(), args.begin(), args.end());
    return {eight::test::run_program("eight", offline), eight::test::run_program("eight", remote)};
  }
};

TEST_CASE(
    "eight --server hint, solve and random answer 4x4 and boards past 16 cells as offline, "
    "even from a server without 3x3 tables") {
  const char* b4 = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,0,15";
  const char* b5 = "1,19,14,12,10/7,0,20,4,17/3,22,11,8,18/16,15,6,24,23/5,9,2,13,21";
  const char* b7 =
      "8,2,3,4,5,6,7/1,10,9,11,12,13,14/15,16,17,18,19,20,21/22,23,24,25,26,27,28/"
      "29,30,31,32,33,34,35/36,37,38,39,40,41,42/43,44,45,46,47,48,0";
  eight::test::fifteen::FifteenDir dir;
  for (const auto& tables : {std::vector<std::string>{"--tables", dir.dir.path()},
                             {"--table", eight::test::fifteen_table_path()}}) {
    CAPTURE(tables.front());
    TablesServer s(tables);
    for (const char* board : {b4, b5, b7}) {
      CAPTURE(board);
      auto runs = s.both({"hint", board});
      check_same(runs);
      CHECK(runs.first.status == 0);
      check_same(s.both({"hint", "--format", "json", board}));
      runs = s.both({"solve", "--format", "json", board});
      check_same(runs);
      CHECK(runs.first.status == 0);
    }
    // Drawn by search: without a distance (any board), by distance where
    // distances are exact (4x4), one board a seed.
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"random", "--shape", "5x5", "--seed", "7"},
          {"random", "--shape", "10x10", "--seed", "8"},
          {"random", "--shape", "4x4", "--seed", "9"},
          {"random", "--shape", "4x4", "--distance", "20", "--seed", "5"}}) {
      CAPTURE(args[2]);
      const auto runs = s.both(args);
      check_same(runs);
      CHECK(runs.first.status == 0);
      CHECK(std::count(runs.first.out.begin(), runs.first.out.end(), '\n') == 1);
    }
    // Refused alike: a distance for a shape whose distances are not exact.
    const auto runs = s.both({"random", "--shape", "7x7", "--distance", "20"});
    check_same(runs);
    CHECK(runs.first.status == 2);
  }
  // Unseeded draws are several requests; a seeded one would differ from the
  // offline row of boards past the first, so it is refused.
  TablesServer s({"--table", eight::test::fifteen_table_path()});
  const std::string url = "http://127.0.0.1:" + std::to_string(s.server.port());
  auto r = eight::test::run_program("eight",
                                    {"--server", url, "random", "--shape", "6x6", "--count", "3"});
  CHECK(r.status == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 3);
  r = eight::test::run_program(
      "eight", {"--server", url, "random", "--shape", "6x6", "--count", "3", "--seed", "1"});
  CHECK(r.status == 2);
  CHECK(r.err.find("takes --count 1") != std::string::npos);
}

TEST_CASE(
    "eight --server refuses as the offline tool does: a shape the tables lack, a bad goal "
    "or distance, a board of another shape") {
  DefaultTableServer s;
  // A 12-cell goal: exit 3 with the same message the server's tables give.
  auto runs = s.both({"solve", "--goal", "1,2,3,4/5,6,7,8/9,10,11,0", "1"});
  check_same(runs);
  CHECK(runs.first.status == 3);
  CHECK(runs.first.err.find("not 3x4 ones") != std::string::npos);
  runs = s.both({"random", "--distance", "32"});
  check_same(runs);
  CHECK(runs.first.status == 2);
  runs = s.both({"hint", "--goal", "123/450", "123456780"});
  check_same(runs);
  CHECK(runs.first.status == 1);
  check_same(s.both({"solve", "--goal", "12", "123456780"}));
  check_same(s.both({"hint", "12"}));
}
