// `eight fetch` and what it leaves on disk (issue 41, findings 6 and 9):
// a listing past the format's maximum refused before a byte is asked for,
// a body whose first bytes are no table's header refused at its 32nd byte
// with nothing kept, and a symbolic link planted at DEST.part never
// written through (while the resume of a part of its own still works).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eight/table_format.h"
#include "server_fixture.h"
#include "stand_in_server.h"
#include "support.h"

using eight::test::etag_of;
using eight::test::FakeServer;
using eight::test::fetch_tables;
using eight::test::RunResult;
using eight::test::served;
using eight::test::TempDir;
using Bytes = std::vector<std::uint8_t>;

namespace {

// A listing of `count` tables named t0.tbl, t1.tbl, ... of `bytes` bytes
// each, all under `etag`.
std::string listing(int count, std::uint64_t bytes, const std::string& etag) {
  auto tables = nlohmann::json::array();
  for (int i = 0; i < count; ++i) {
    // Appended, not "t" + ...: GCC 12's -Wrestrict misfires on that (PR 105329).
    std::string name = std::to_string(i);
    name.insert(name.begin(), 't');
    name += ".tbl";
    tables.push_back({{"name", name},
                      {"url", "/table?name=" + name},
                      {"etag", etag},
                      {"bytes", bytes},
                      {"default", i == 0}});
  }
  return nlohmann::json{{"tables", tables}}.dump();
}

// A stand-in listing `list` and answering every /table with `length` bytes
// of zeros under `etag`, sent 64 KiB at a time for as long as the client
// reads; counts the /table requests and the bytes it managed to send.
struct ZeroServer {
  std::atomic<int> downloads{0};
  std::atomic<std::uint64_t> sent{0};
  FakeServer fake;
  ZeroServer(std::string list, std::uint64_t length, std::string etag)
      : fake([&, list = std::move(list), length, etag = std::move(etag)](httplib::Server& http) {
          http.Get("/tables", [list](const httplib::Request&, httplib::Response& res) {
            res.set_content(list, "application/json");
          });
          http.Get("/table", [this, length, etag](const httplib::Request&, httplib::Response& res) {
            ++downloads;
            res.set_header("ETag", etag);
            res.set_content_provider(
                length, "application/octet-stream",
                [this](std::size_t, std::size_t want, httplib::DataSink& sink) {
                  static const std::string zeros(1 << 16, '\0');
                  const std::size_t n = std::min(want, zeros.size());
                  if (!sink.write(zeros.data(), n)) return false;
                  sent += n;
                  return true;
                });
          });
        }) {}
  std::string url() const { return fake.url(); }
};

// The bytes under `dir`, every file and link counted by its own size.
std::uint64_t bytes_in(const std::string& dir) {
  std::uint64_t n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    struct stat st {};
    if (::lstat(e.path().c_str(), &st) == 0) n += static_cast<std::uint64_t>(st.st_size);
  }
  return n;
}

}  // namespace

TEST_CASE("eight fetch refuses a listing of a 200 GB table before asking for a byte of it") {
  // The finding: a listing of 200 GB streaming zeros left a 1.42 GB
  // eight.tbl.part at the timeout, and 50 such listings 11.7 GiB.
  for (int count : {1, 50}) {
    CAPTURE(count);
    ZeroServer zeros(listing(count, 200'000'000'000ull, etag_of(served())), 200'000'000'000ull,
                     etag_of(served()));
    TempDir into;
    const RunResult r = fetch_tables(zeros.url(), into.path());
    CHECK(r.status == 7);
    CHECK(r.err == "eight: " + zeros.url() +
                       "/tables: not an eight server's answer: it lists t0.tbl at 200000000000 "
                       "bytes, more than a table may have (" +
                       std::to_string(eight::format::kMaxFileSize) + ")\n");
    CHECK(zeros.downloads == 0);
    CHECK(eight::test::names_in(into.path()).empty());
  }
  // Many tables each under the maximum, more than it in all: refused too.
  ZeroServer many(listing(50, 1ull << 30, etag_of(served())), 1ull << 30, etag_of(served()));
  TempDir into;
  const RunResult r = fetch_tables(many.url(), into.path());
  CHECK(r.status == 7);
  CHECK(r.err.find("bytes of tables in all") != std::string::npos);
  CHECK(many.downloads == 0);
  CHECK(eight::test::names_in(into.path()).empty());
}

TEST_CASE("eight fetch refuses a body of zeros at its header and keeps nothing of it") {
  // Listings within the maximum, each answered with zeros: each refused at
  // its first 32 bytes (bad magic), nothing on disk, 50 times.
  const std::uint64_t length = 64u << 20;
  ZeroServer zeros(listing(50, length, etag_of(served())), length, etag_of(served()));
  TempDir into;
  const RunResult r = fetch_tables(zeros.url(), into.path());
  CHECK(r.status == 3);
  CHECK(zeros.downloads == 50);
  for (int i = 0; i < 50; ++i) {
    std::string name = std::to_string(i);  // see listing() for why not "t" + ...
    name.insert(name.begin(), 't');
    name += ".tbl";
    CHECK(r.err.find("eight: " + into.file(name) + ": refused the download from " + zeros.url() +
                     "/table?name=" + name + ": " + name +
                     ": not an eight table (bad magic) (checked at its first 32 bytes; "
                     "nothing of it was kept)\n") != std::string::npos);
  }
  CHECK(eight::test::names_in(into.path()).empty());
  CHECK(bytes_in(into.path()) == 0);
  MESSAGE("50 listings of 64 MiB of zeros: " << zeros.sent.load()
                                             << " bytes sent before the refusals, "
                                             << bytes_in(into.path()) << " kept");
}

TEST_CASE("eight fetch refuses a header that disagrees with the listing, keeping nothing") {
  // A sound table's bytes, listed at another size, or under another ETag
  // than its header's checksum: refused at byte 32.
  const Bytes& table = served();
  const std::string etag = etag_of(table);
  SUBCASE("the size") {
    FakeServer fake([&](httplib::Server& http) {
      http.Get("/tables", [&](const httplib::Request&, httplib::Response& res) {
        res.set_content(listing(1, table.size() + 1, etag), "application/json");
      });
      http.Get("/table", [&](const httplib::Request&, httplib::Response& res) {
        res.set_header("ETag", etag);
        std::string body(table.begin(), table.end());
        body += '\0';
        res.set_content(body, "application/octet-stream");
      });
    });
    TempDir into;
    const RunResult r = fetch_tables(fake.url(), into.path());
    CHECK(r.status == 3);
    CHECK(r.err.find("t0.tbl: header says " + std::to_string(table.size()) +
                     " bytes but the file has " + std::to_string(table.size() + 1)) !=
          std::string::npos);
    CHECK(eight::test::names_in(into.path()).empty());
  }
  SUBCASE("the ETag") {
    const std::string other = "\"0123456789abcdef\"";
    FakeServer fake([&](httplib::Server& http) {
      http.Get("/tables", [&](const httplib::Request&, httplib::Response& res) {
        res.set_content(listing(1, table.size(), other), "application/json");
      });
      http.Get("/table", [&](const httplib::Request&, httplib::Response& res) {
        res.set_header("ETag", other);
        res.set_content(reinterpret_cast<const char*>(table.data()), table.size(),
                        "application/octet-stream");
      });
    });
    TempDir into;
    const RunResult r = fetch_tables(fake.url(), into.path());
    CHECK(r.status == 3);
    CHECK(r.err.find("its header's checksum " + etag + " is not the ETag " + other) !=
          std::string::npos);
    CHECK(eight::test::names_in(into.path()).empty());
  }
}

TEST_CASE("eight fetch keeps no part cut inside its header") {
  // The connection dropped after 20 bytes: too few to check, so not kept.
  const Bytes& table = served();
  const std::string etag = etag_of(table);
  FakeServer fake([&](httplib::Server& http) {
    http.Get("/tables", [&](const httplib::Request&, httplib::Response& res) {
      res.set_content(listing(1, table.size(), etag), "application/json");
    });
    http.Get("/table", [&](const httplib::Request&, httplib::Response& res) {
      res.set_header("ETag", etag);
      res.set_content_provider(table.size(), "application/octet-stream",
                               [&](std::size_t, std::size_t, httplib::DataSink& sink) {
                                 sink.write(reinterpret_cast<const char*>(table.data()), 20);
                                 return false;  // the connection is dropped
                               });
    });
  });
  TempDir into;
  const RunResult r = fetch_tables(fake.url(), into.path());
  CHECK(r.status == 5);
  CHECK(r.err.find("nothing of it was kept (it was cut inside the header)") != std::string::npos);
  CHECK(eight::test::names_in(into.path()).empty());
}

TEST_CASE("eight fetch never writes through a symbolic link planted at DEST.part") {
  // The finding: DEST.part was opened with O_CREAT, following a link there.
  eight::test::ServerProcess server(eight::test::ServerSpec{
      .args = {"--table", eight::test::default_table_path(), "--host", "127.0.0.1", "--port", "0"},
      .default_args = false});
  const std::string url = "http://127.0.0.1:" + std::to_string(server.port());
  TempDir into;
  TempDir elsewhere;
  const std::string victim = elsewhere.file("victim");
  const Bytes victim_bytes{'k', 'e', 'e', 'p', ' ', 'm', 'e'};
  const std::string part = into.file("eight.tbl.part");
  for (int i = 0; i < 3; ++i) {
    eight::test::write_file(victim, victim_bytes);
    std::filesystem::create_symlink(victim, part);
    const RunResult r = fetch_tables(url, into.path());
    CHECK(r.status == 3);
    CHECK(r.err == "eight: " + part +
                       ": refusing to write through a symbolic link there (not a file of ours); "
                       "remove it and try again\n");
    CHECK(eight::test::read_file(victim) == victim_bytes);
    CHECK(std::filesystem::is_symlink(part));
    CHECK_FALSE(std::filesystem::exists(into.file("eight.tbl")));
    // A link to a part of the served table itself is no part of ours either:
    // never resumed (its bytes are the victim's, not this run's).
    std::filesystem::remove(part);
    const Bytes& table = served();
    eight::test::write_file(victim, Bytes(table.begin(), table.begin() + 1000));
    std::filesystem::create_symlink(victim, part);
    const RunResult again = fetch_tables(url, into.path());
    CHECK(again.status == 3);
    CHECK(eight::test::read_file(victim) == Bytes(table.begin(), table.begin() + 1000));
    std::filesystem::remove(part);
  }
  // Without the link: fetched whole.
  const RunResult r = fetch_tables(url, into.path());
  CHECK(r.status == 0);
  CHECK(eight::test::read_file(into.file("eight.tbl")) == served());
}

TEST_CASE("eight fetch drops a part whose header is not the listed table's, and fetches anew") {
  eight::test::ServerProcess server(eight::test::ServerSpec{
      .args = {"--table", eight::test::default_table_path(), "--host", "127.0.0.1", "--port", "0"},
      .default_args = false,
      .quiet = false});
  const std::string url = "http://127.0.0.1:" + std::to_string(server.port());
  TempDir into;
  // 1 MB of zeros, as a hostile server's answer might have left before.
  eight::test::write_file(into.file("eight.tbl.part"), Bytes(1 << 20, 0));
  const RunResult r = fetch_tables(url, into.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("downloaded") != std::string::npos);  // not resumed
  CHECK(server.wait_for_stderr("GET /table?name=eight.tbl 200 "));
  CHECK(eight::test::read_file(into.file("eight.tbl")) == served());
  CHECK(eight::test::names_in(into.path()) == std::vector<std::string>{"eight.tbl"});
}
