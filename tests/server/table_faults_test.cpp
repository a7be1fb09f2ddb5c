// eight-server and its table file (issue 6): refusing to start on a bad
// file, a file replaced under a running server, and SIGHUP reloads. The
// figures these tests print (MESSAGE) are the ones docs/reliability.md
// reports.
#include <doctest/doctest.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "api/table_slot.h"
#include "eight/tablegen.h"
#include "server_fixture.h"
#include "support.h"

using eight::test::ExitInfo;
using eight::test::RawConnection;
using eight::test::RawResponse;
using eight::test::ResponseEnd;
using eight::test::ServerProcess;
using eight::test::ServerSpec;
using eight::test::TempDir;
using namespace std::chrono_literals;
using Bytes = std::vector<std::uint8_t>;

namespace {

// A sound table that differs from the default: one section, the goals with
// the blank in the centre, which the default table answers too.
const Bytes& centre_table() {
  static const Bytes bytes = eight::build_table(std::vector<int>{4});
  return bytes;
}

// `bytes` with its middle byte inverted: the checksum no longer matches.
Bytes with_middle_byte_flipped(Bytes bytes) {
  bytes[bytes.size() / 2] ^= 0xFF;
  return bytes;
}

// Replaces `path` as eight-tablegen does: a new file, renamed over it.
void replace_file(const std::string& path, const Bytes& bytes) {
  eight::test::write_file(path + ".tmp", bytes);
  std::filesystem::rename(path + ".tmp", path);
}

// The checksum /readyz reports.
std::string served_checksum(const ServerProcess& server) {
  auto r = server.client().Get("/readyz");
  REQUIRE(r);
  REQUIRE(r->status == 200);
  return nlohmann::json::parse(r->body)["table"]["checksum"];
}

// Requests every table here answers (the centre goal is in both), on
// `threads` keep-alive connections until stop(): any transport error or
// status other than 200/206 is a failure. Records which table checksums
// /readyz reported, to show a switch happened under load.
class SteadyLoad {
 public:
  SteadyLoad(const ServerProcess& server, int threads) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this, &server, i] { run(server, i); });
  }
  ~SteadyLoad() { stop(); }
  SteadyLoad(const SteadyLoad&) = delete;
  SteadyLoad& operator=(const SteadyLoad&) = delete;

  void stop() {
    stop_ = true;
    for (auto& t : threads_) {
      if (t.joinable()) t.join();
    }
  }
  // After stop():
  int answered() const { return answered_; }
  int failed() const { return failed_; }
  const std::set<std::string>& checksums_seen() const { return checksums_; }

 private:
  void run(const ServerProcess& server, int id) {
    static constexpr const char* kTargets[] = {
        "/solve?board=867254301&goal=123804765", "/distance?board=413726580&goal=123804765",
        "/hint?board=123456780&goal=123804765", "/readyz", "/table"};
    auto cli = server.client();
    cli.set_keep_alive(true);
    const auto give_up = std::chrono::steady_clock::now() + 20s;
    for (int i = id; !stop_ && std::chrono::steady_clock::now() < give_up; ++i) {
      const std::string target = kTargets[i % std::size(kTargets)];
      auto r = target == "/table" ? cli.Get(target, {{"Range", "bytes=0-63"}}) : cli.Get(target);
      if (!r || (r->status != 200 && r->status != 206)) {
        ++failed_;
        continue;
      }
      ++answered_;
      if (target == "/readyz") {
        std::lock_guard lock(mutex_);
        checksums_.insert(nlohmann::json::parse(r->body)["table"]["checksum"].get<std::string>());
      }
    }
  }

  std::atomic<bool> stop_{false};
  std::atomic<int> answered_{0};
  std::atomic<int> failed_{0};
  std::mutex mutex_;
  std::set<std::string> checksums_;
  std::vector<std::thread> threads_;
};

// A GET /table whose status line has arrived and whose body waits for the
// test to read it (a 4 KiB receive buffer): a download in flight.
RawConnection start_download(const ServerProcess& server) {
  RawConnection conn(server.port(), 4096);
  REQUIRE(conn.send("GET /table HTTP/1.1\r\nHost: eight\r\nConnection: close\r\n\r\n"));
  pollfd p{conn.fd(), POLLIN, 0};
  REQUIRE(::poll(&p, 1, 5000) == 1);
  return conn;
}

void check_download(RawConnection& conn, const Bytes& expected) {
  RawResponse r;
  REQUIRE(conn.read_response(r) == ResponseEnd::kComplete);
  CHECK(r.status == 200);
  CHECK(r.headers["etag"] == eight::test::etag_of(expected));
  CHECK(r.body == std::string(expected.begin(), expected.end()));
}

}  // namespace

TEST_CASE(
    "a missing, empty, truncated, corrupted or foreign table file stops the server at "
    "start with exit status 3 and a message naming the file and the fault") {
  TempDir dir;
  const Bytes& table = eight::test::table_bytes();
  const Bytes png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
  const Bytes text = {'h', 'e', 'l', 'l', 'o', '\n'};
  struct Fault {
    const char* name;
    std::optional<Bytes> bytes;  // none: no file at all
    std::string message;         // after "PATH: "
  };
  const std::vector<Fault> faults = {
      {"missing", std::nullopt, "cannot open: No such file or directory"},
      {"empty", Bytes{}, "file is empty"},
      {"truncated", Bytes(table.begin(), table.begin() + 1000000),
       "header says 2178492 bytes but the file has 1000000\n"},
      {"header cut", Bytes(table.begin(), table.begin() + 20),
       "file is truncated: 20 bytes, shorter than the"},
      {"corrupted", with_middle_byte_flipped(table), "checksum mismatch"},
      {"text", text, "not an eight table (bad magic)"},
      {"png", png, "not an eight table (bad magic)"},
  };
  for (const Fault& f : faults) {
    CAPTURE(std::string(f.name));
    const std::string path = dir.file(std::string(f.name) + ".tbl");
    if (f.bytes) eight::test::write_file(path, *f.bytes);
    std::string err;
    const ExitInfo e = eight::test::run_to_exit({.args = {"--table", path}}, err);
    CAPTURE(err);
    CHECK(e.status == 3);
    CHECK(err.find("eight-server: " + path + ": " + f.message) != std::string::npos);
    CHECK(err.find("refusing to start without a sound table") != std::string::npos);
    CHECK(err.find("listening") == std::string::npos);
  }
  std::string err;
  CHECK(eight::test::run_to_exit({.args = {"--table", dir.path()}}, err).status == 3);
  CHECK(err.find(dir.path() + ": not a regular file") != std::string::npos);
}

TEST_CASE("replacing or deleting the table file under a running server does not disturb it") {
  TempDir dir;
  const std::string path = dir.file("eight.tbl");
  const Bytes& table = eight::test::table_bytes();
  eight::test::write_file(path, table);
  ServerProcess server(ServerSpec{.args = {"--table", path}});
  const auto still_serves_the_original = [&] {
    CHECK(served_checksum(server) == eight::test::checksum_hex(table));
    // The standard goal: answered by the original table, not by the new one.
    auto r = server.client().Get("/distance?board=867254301");
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->body.find("\"distance\":31") != std::string::npos);
    r = server.client().Get("/table");
    REQUIRE(r);
    CHECK(r->body == std::string(table.begin(), table.end()));
  };
  SUBCASE("by a sound new table") {
    replace_file(path, centre_table());
    still_serves_the_original();
  }
  SUBCASE("by other bytes, and again, then deleted") {
    replace_file(path, {'n', 'o', 't', ' ', 'a', ' ', 't', 'a', 'b', 'l', 'e'});
    still_serves_the_original();
    replace_file(path, with_middle_byte_flipped(table));
    still_serves_the_original();
    std::filesystem::remove(path);
    still_serves_the_original();
  }
}

TEST_CASE("SIGHUP switches to a sound new table under load without a failed request") {
  TempDir dir;
  const std::string path = dir.file("eight.tbl");
  const Bytes& table = eight::test::table_bytes();
  eight::test::write_file(path, table);
  ServerProcess server(ServerSpec{.args = {"--table", path}});
  RawConnection download = start_download(server);  // on the old table
  SteadyLoad load(server, 4);
  std::this_thread::sleep_for(200ms);

  replace_file(path, centre_table());
  const auto signalled = std::chrono::steady_clock::now();
  ::kill(server.pid(), SIGHUP);
  REQUIRE(server.wait_for_stderr("SIGHUP: reloaded table " + path + " (checksum " +
                                 eight::test::checksum_hex(centre_table()) + ", was " +
                                 eight::test::checksum_hex(table) + ")"));
  const auto switched = std::chrono::steady_clock::now() - signalled;
  std::this_thread::sleep_for(200ms);
  load.stop();

  MESSAGE("SIGHUP with a sound new table: switched within "
          << std::chrono::duration<double, std::milli>(switched).count() << " ms; "
          << load.answered() << " requests answered on 4 connections around it, " << load.failed()
          << " failed");
  CHECK(load.failed() == 0);
  CHECK(load.checksums_seen() == std::set<std::string>{eight::test::checksum_hex(table),
                                                       eight::test::checksum_hex(centre_table())});
  CHECK(served_checksum(server) == eight::test::checksum_hex(centre_table()));
  auto r = server.client().Head("/table");
  REQUIRE(r);
  CHECK(r->get_header_value("ETag") == eight::test::etag_of(centre_table()));
  // The download that began before the switch finishes from the old mapping.
  check_download(download, table);
}

TEST_CASE("SIGHUP with a corrupted or missing table file keeps the current table and says why") {
  TempDir dir;
  const std::string path = dir.file("eight.tbl");
  const Bytes& table = eight::test::table_bytes();
  eight::test::write_file(path, table);
  ServerProcess server(ServerSpec{.args = {"--table", path}});
  SteadyLoad load(server, 4);
  std::this_thread::sleep_for(100ms);
  const std::string kept =
      "SIGHUP: kept the current table (checksum " + eight::test::checksum_hex(table) + "): ";

  replace_file(path, with_middle_byte_flipped(table));
  ::kill(server.pid(), SIGHUP);
  REQUIRE(server.wait_for_stderr(kept + path + ": checksum mismatch"));
  std::filesystem::remove(path);
  ::kill(server.pid(), SIGHUP);
  REQUIRE(server.wait_for_stderr(kept + path + ": cannot open: No such file or directory"));
  std::this_thread::sleep_for(100ms);
  load.stop();

  MESSAGE("SIGHUP with a corrupted, then a missing table: "
          << load.answered() << " requests answered, " << load.failed() << " failed");
  CHECK(load.failed() == 0);
  CHECK(load.checksums_seen() == std::set<std::string>{eight::test::checksum_hex(table)});
  CHECK(served_checksum(server) == eight::test::checksum_hex(table));
  CHECK(server.stderr_text().find("reloaded") == std::string::npos);
}

TEST_CASE("TableSlot::reload switches only to a sound table, and old snapshots stay readable") {
  TempDir dir;
  const Bytes& table = eight::test::table_bytes();
  eight::test::write_file(dir.file("old.tbl"), table);
  eight::test::write_file(dir.file("bad.tbl"), with_middle_byte_flipped(table));
  eight::test::write_file(dir.file("new.tbl"), centre_table());
  auto first = eight::server::load_tables({dir.file("old.tbl"), false});
  REQUIRE(first.ok());
  eight::server::TableSlot slot(*first);
  const auto before = slot.get();

  auto r = slot.reload({dir.file("bad.tbl"), false});
  REQUIRE(!r.ok());
  CHECK(r.error().message.find(dir.file("bad.tbl") + ": checksum mismatch") == 0);
  CHECK(slot.get() == before);

  r = slot.reload({dir.file("new.tbl"), false});
  REQUIRE(r.ok());
  CHECK(slot.get() == *r);
  CHECK(slot.get()->table(0)->checksum_hex() == eight::test::checksum_hex(centre_table()));
  // The snapshot taken before still maps and answers from the old table,
  // even with its file gone.
  std::filesystem::remove(dir.file("old.tbl"));
  const auto bytes = before->table(0)->view().bytes();
  CHECK(Bytes(bytes.begin(), bytes.end()) == table);
  auto frame = before->frame(eight::kStandardGoal);
  REQUIRE(frame.ok());
  CHECK(frame->table->solver().distance(eight::test::board("867254301"), frame->frame) == 31);
}
