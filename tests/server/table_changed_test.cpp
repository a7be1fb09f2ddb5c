// eight-server and a table file changed in place under it (issue 41,
// finding 5): zeroed, truncated or copied over while served. The server
// read the file into its own memory at start, so its answers and /table's
// bytes stay the checked table's and nothing can raise SIGBUS; a SIGHUP
// that finds the served file damaged stops serving it (503
// table-unavailable, /readyz not ready) until a reload finds a sound file.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "api/table_slot.h"
#include "eight/tablegen.h"
#include "server_fixture.h"
#include "support.h"

using eight::test::ServerProcess;
using eight::test::ServerSpec;
using eight::test::TempDir;
using namespace std::chrono_literals;
using Bytes = std::vector<std::uint8_t>;

namespace {

// Writes `bytes` into the file at `path` in place: the same inode, opened
// without truncating, as a careless `dd` or an editor would.
void overwrite_in_place(const std::string& path, const Bytes& bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY);
  REQUIRE(fd >= 0);
  REQUIRE(::pwrite(fd, bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size()));
  ::close(fd);
}

// `cp other path`: the same inode, truncated, then other bytes.
void copy_over(const std::string& path, const Bytes& bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC);
  REQUIRE(fd >= 0);
  REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
  ::close(fd);
}

// The three ways of the finding, in turn: round r's change of `path`, which
// holds `table`.
std::string change_in_place(const std::string& path, const Bytes& table, int round) {
  switch (round % 3) {
    case 0:
      overwrite_in_place(path, Bytes(table.size(), 0));
      return "zeroed";
    case 1:
      REQUIRE(::truncate(path.c_str(), static_cast<off_t>(table.size() / 3)) == 0);
      return "truncated";
    default: {
      // Another file: a table whose middle byte was flipped (same size, fails
      // its checksum), as `cp` of a damaged copy over the served one.
      Bytes other = table;
      other[other.size() / 2] ^= 0xFF;
      copy_over(path, other);
      return "copied over";
    }
  }
}

// How many times `needle` is in the server's stderr.
std::size_t times_said(const ServerProcess& server, const std::string& needle) {
  const std::string text = server.stderr_text();
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Waits (a hang guard, 10 s) until the server has said `needle` `n` times.
bool wait_said(const ServerProcess& server, const std::string& needle, std::size_t n) {
  return eight::test::wait_until([&] { return times_said(server, needle) >= n; }, 10s);
}

// The answers of the checked table, whatever the file holds now.
void check_answers_are_the_tables(const ServerProcess& server, const Bytes& table) {
  auto cli = server.client();
  auto r = cli.Get("/distance?board=867254301");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body.find("\"distance\":31") != std::string::npos);
  r = cli.Get("/hint?board=867254301");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body.find("\"distance\":31") != std::string::npos);
  r = cli.Get("/table");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("ETag") == eight::test::etag_of(table));
  CHECK(r->body == std::string(table.begin(), table.end()));  // the bytes of that ETag
  r = cli.Get("/table", {{"Range", "bytes=0-31"}});
  REQUIRE(r);
  CHECK(r->status == 206);
  CHECK(r->body == std::string(table.begin(), table.begin() + 32));
}

// Every table-dependent endpoint: 503 table-unavailable naming the file.
void check_unavailable(const ServerProcess& server, const std::string& path) {
  auto cli = server.client();
  for (const char* target :
       {"/distance?board=867254301", "/hint?board=867254301", "/solve?board=867254301", "/table",
        "/tables", "/readyz", "/random?distance=5", "/stats"}) {
    CAPTURE(target);
    auto r = cli.Get(target);
    REQUIRE(r);
    CHECK(r->status == 503);
    CHECK(r->body.find("table-unavailable") != std::string::npos);
    CHECK(r->body.find(path) != std::string::npos);
    CHECK(r->get_header_value("Cache-Control").find("max-age=86400") == std::string::npos);
  }
  auto r = cli.Post("/solve", R"({"boards":["867254301"]})", "application/json");
  REQUIRE(r);
  CHECK(r->status == 503);
  CHECK(r->body.find("table-unavailable") != std::string::npos);
  r = cli.Get("/healthz");  // alive, not ready
  REQUIRE(r);
  CHECK(r->status == 200);
}

}  // namespace

TEST_CASE(
    "a table file zeroed, truncated or copied over in place under a running server: answers and "
    "/table stay the checked table's, SIGHUP stops serving, a sound file and SIGHUP serve again") {
  TempDir dir;
  const std::string path = dir.file("eight.tbl");
  const Bytes& table = eight::test::table_bytes();
  eight::test::write_file(path, table);
  ServerProcess server(ServerSpec{.args = {"--table", path}});

  // A client asking without pause throughout: every 200 is the table's
  // answer, every other status a 503 table-unavailable.
  std::atomic<bool> stop{false};
  std::atomic<int> right{0}, wrong{0}, refused{0};
  std::thread asker([&] {
    auto cli = server.client();
    cli.set_keep_alive(true);
    const auto give_up = std::chrono::steady_clock::now() + 120s;  // hang guard
    while (!stop && std::chrono::steady_clock::now() < give_up) {
      auto r = cli.Get("/distance?board=867254301");
      if (r && r->status == 200 && r->body.find("\"distance\":31") != std::string::npos) {
        ++right;
      } else if (r && r->status == 503 && r->body.find("table-unavailable") != std::string::npos) {
        ++refused;
      } else {
        ++wrong;
      }
    }
  });

  const int kRounds = 12;  // four of each change
  for (int round = 0; round < kRounds; ++round) {
    const std::string how = change_in_place(path, table, round);
    CAPTURE(round);
    CAPTURE(how);
    check_answers_are_the_tables(server, table);
    // /readyz still reports the table served, which is still the checked one.
    auto r = server.client().Get("/readyz");
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->body.find(eight::test::checksum_hex(table)) != std::string::npos);

    ::kill(server.pid(), SIGHUP);
    REQUIRE(wait_said(server, "SIGHUP: stopped serving " + path, round + 1));
    check_unavailable(server, path);

    // A sound table again, written in place this time, then a reload.
    copy_over(path, table);
    ::kill(server.pid(), SIGHUP);
    REQUIRE(wait_said(server, "SIGHUP: reloaded table " + path, round + 1));
    check_answers_are_the_tables(server, table);
  }
  stop = true;
  asker.join();
  MESSAGE(kRounds << " changes in place and " << 2 * kRounds << " reloads: " << right.load()
                  << " right answers, " << refused.load() << " 503 table-unavailable, "
                  << wrong.load() << " wrong");
  CHECK(wrong == 0);
  CHECK(right > 0);
  CHECK(server.running());
  CHECK(server.stderr_text().find("SIGHUP: stopped serving " + path + " (checksum " +
                                  eight::test::checksum_hex(table) +
                                  "): the served table file was changed in place and no table "
                                  "is served: " +
                                  path +
                                  ": not an eight table (bad magic); a reload (SIGHUP) "
                                  "serves again once every file is sound") != std::string::npos);
  CHECK(server.stop(SIGTERM).status == 0);  // not a SIGBUS
}

TEST_CASE("a table file truncated under a running server many times over raises no SIGBUS") {
  // Today's mapping died here at the first request past the cut: the file
  // truncated and grown back 50 times, /table and answers asked after each.
  TempDir dir;
  const std::string path = dir.file("eight.tbl");
  const Bytes& table = eight::test::table_bytes();
  eight::test::write_file(path, table);
  ServerProcess server(ServerSpec{.args = {"--table", path}});
  for (int i = 0; i < 50; ++i) {
    CAPTURE(i);
    REQUIRE(::truncate(path.c_str(), static_cast<off_t>(table.size() * (i % 10) / 10)) == 0);
    check_answers_are_the_tables(server, table);
    copy_over(path, table);
  }
  CHECK(server.running());
  CHECK(server.stop(SIGTERM).status == 0);
}

TEST_CASE("SIGHUP after the served file was changed in place to another sound table serves it") {
  TempDir dir;
  const std::string path = dir.file("eight.tbl");
  const Bytes& table = eight::test::table_bytes();
  const Bytes centre = eight::build_table(std::vector<int>{4});
  eight::test::write_file(path, table);
  ServerProcess server(ServerSpec{.args = {"--table", path}});
  copy_over(path, centre);
  check_answers_are_the_tables(server, table);  // until the reload
  ::kill(server.pid(), SIGHUP);
  REQUIRE(wait_said(server, "SIGHUP: reloaded table " + path, 1));
  auto r = server.client().Head("/table");
  REQUIRE(r);
  CHECK(r->get_header_value("ETag") == eight::test::etag_of(centre));
}

TEST_CASE("twenty reloads of a table hold one table's memory, not two") {
  // Tables are the process's own memory now: main() once kept its first
  // load for the server's life, so after a SIGHUP two tables stayed
  // resident (58 MB for the default table, where 32 MB is one). Here the
  // suite's default sections (3.7 MB): with the copy kept this failed at
  // 21.1 MB against a bound of 14.5.
  const eight::test::DefaultTable table;
  const auto size = static_cast<std::size_t>(std::filesystem::file_size(table.path));
  ServerProcess server(table.spec());
  // The table loaded and checked, and one answer given: the baseline.
  REQUIRE(wait_said(server, "listening on", 1));
  auto first = server.client().Get("/distance?board=867254301");
  REQUIRE(first);
  REQUIRE(first->status == 200);
  const std::size_t start_kib = eight::test::rss_kib(server.pid());
  REQUIRE(start_kib > 0);
  for (int round = 1; round <= 20; ++round) {
    ::kill(server.pid(), SIGHUP);
    REQUIRE(wait_said(server, "SIGHUP: reloaded table " + table.path, round));
    auto r = server.client().Get("/distance?board=867254301");
    REQUIRE(r);
    CHECK(r->status == 200);
  }
  // The last table before it is freed by whichever thread drops the last
  // reference, which a busy machine can leave for a moment after the answer
  // arrives (seen: 1 run in 4 beside two busy loops): the bound is waited
  // for, up to a hang guard, not moved.
  const std::size_t bound_kib = start_kib + size / 1024 / 2;
  std::size_t end_kib = eight::test::rss_kib(server.pid());
  const auto guard = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (end_kib >= bound_kib && std::chrono::steady_clock::now() < guard) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    end_kib = eight::test::rss_kib(server.pid());
  }
  CAPTURE(size);
  CAPTURE(start_kib);
  CAPTURE(end_kib);
  // Under AddressSanitizer resident sizes say nothing of the program's own.
  if (!eight::test::kAddressSanitized) CHECK(end_kib < bound_kib);
  CHECK(server.stop(SIGTERM).status == 0);
}

TEST_CASE("TableSlot stops serving a file damaged in place and serves the next sound load") {
  TempDir dir;
  const std::string path = dir.file("eight.tbl");
  const Bytes& table = eight::test::table_bytes();
  eight::test::write_file(path, table);
  auto first = eight::server::load_tables({path, false});
  REQUIRE(first.ok());
  eight::server::TableSlot slot(*first);
  const auto before = slot.get();
  for (int round = 0; round < 9; ++round) {
    CAPTURE(round);
    change_in_place(path, table, round);
    auto r = slot.reload({path, false});
    REQUIRE(!r.ok());
    CHECK(slot.get() == nullptr);
    CHECK(slot.unavailable().find("changed in place") != std::string::npos);
    CHECK(slot.unavailable().find(r.error().message) != std::string::npos);
    // A snapshot taken before answers from the bytes it checked.
    auto frame = before->frame(eight::kStandardGoal);
    REQUIRE(frame.ok());
    CHECK(frame->table->solver().distance(eight::test::board("867254301"), frame->frame) == 31);
    copy_over(path, table);
    r = slot.reload({path, false});
    REQUIRE(r.ok());
    CHECK(slot.get() == *r);
    CHECK(slot.unavailable().empty());
  }
  // A file renamed over the path, even a damaged one, leaves the served
  // file (and so the serving) as it was.
  Bytes bad = table;
  bad[bad.size() / 2] ^= 0xFF;
  eight::test::write_file(path + ".new", bad);
  std::filesystem::rename(path + ".new", path);
  const auto served = slot.get();
  CHECK(!slot.reload({path, false}).ok());
  CHECK(slot.get() == served);
  CHECK(slot.unavailable().empty());
}
