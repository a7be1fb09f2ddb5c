// `eight fetch` against the real eight-server on a loopback port (and, for
// what a sound server never does, small loopback stand-ins written with
// httplib::Server): the first download, an unchanged second run, a resumed
// download, corrupted downloads refused with the old table kept, and the
// errors for an unreachable port, a server that is not eight's, a timeout.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>

#include "server_fixture.h"
#include "stand_in_server.h"
#include "support.h"

using eight::test::etag_of;
using eight::test::FakeServer;
using eight::test::read_file;
using eight::test::RunResult;
using eight::test::served;
using eight::test::ServerProcess;
using eight::test::ServerSpec;
using eight::test::TempDir;
using eight::test::write_file;
using Bytes = std::vector<std::uint8_t>;

namespace {

// A real eight-server of served(), its access log on (not --quiet).
struct RealServer {
  TempDir dir;
  std::string table = dir.file("served.tbl");
  ServerProcess server{[this] {
    write_file(table, served());
    return ServerSpec{.args = {"--table", table, "--host", "127.0.0.1", "--port", "0"},
                      .default_args = false,
                      .quiet = false};
  }()};
  std::string url() const { return "http://127.0.0.1:" + std::to_string(server.port()); }
  bool logged(const std::string& line) const { return server.wait_for_stderr(line + " "); }
};

// What GET /tables of a server of `table` lists.
std::string listing(const Bytes& table) {
  return nlohmann::json{{"tables",
                         {{{"name", "eight.tbl"},
                           {"url", "/table?name=eight.tbl"},
                           {"etag", etag_of(table)},
                           {"bytes", table.size()},
                           {"default", true}}}}}
      .dump();
}

// The stand-in of an eight-server serving `bytes` under the ETag of
// `etag_table`, cutting each download after `cut` bytes (0: never).
void serve_table(httplib::Server& http, Bytes bytes, const Bytes& etag_table, std::size_t cut) {
  const std::string list = listing(etag_table);
  const std::string etag = etag_of(etag_table);
  http.Get("/tables", [list](const httplib::Request&, httplib::Response& res) {
    res.set_content(list, "application/json");
  });
  http.Get("/table", [bytes = std::move(bytes), etag, cut](const httplib::Request&,
                                                           httplib::Response& res) {
    res.set_header("ETag", etag);
    res.set_content_provider(
        bytes.size(), "application/octet-stream",
        [&bytes, cut](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
          const std::size_t end = cut > 0 ? std::min(cut, offset + length) : offset + length;
          if (end > offset)
            sink.write(reinterpret_cast<const char*>(bytes.data()) + offset, end - offset);
          return cut == 0 || end < cut;  // false: the connection is dropped
        });
  });
}

RunResult fetch(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"fetch"};
  all.insert(all.end(), args.begin(), args.end());
  return eight::test::run_program("eight", all);
}

struct FileId {
  ino_t inode = 0;
  timespec mtime{};
  timespec ctime{};
  bool operator==(const FileId& o) const {
    return inode == o.inode && mtime.tv_sec == o.mtime.tv_sec && mtime.tv_nsec == o.mtime.tv_nsec &&
           ctime.tv_sec == o.ctime.tv_sec && ctime.tv_nsec == o.ctime.tv_nsec;
  }
};

FileId id_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return {st.st_ino, st.st_mtim, st.st_ctim};
}

// A loopback port nothing listens on.
int closed_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// A loopback socket that takes connections (the kernel completes them) but
// never reads or answers.
struct SilentListener {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int port = 0;
  SilentListener() {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(::listen(fd, 8) == 0);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
  }
  ~SilentListener() { ::close(fd); }
};

}  // namespace

TEST_CASE(
    "eight fetch downloads every table into the folder, then a second run gets a 304 and "
    "writes nothing") {
  RealServer s;
  TempDir into;
  const std::string dest = into.file("eight.tbl");
  auto r = fetch({s.url(), "--tables", into.path()});
  CAPTURE(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == dest + ": downloaded " + std::to_string(served().size()) + " bytes, checksum " +
                     etag_of(served()).substr(1, 16) + ", checked\n");
  CHECK(read_file(dest) == served());
  CHECK(eight::test::names_in(into.path()) ==
        std::vector<std::string>{"eight.tbl"});  // no .part left
  CHECK(s.logged("GET /tables 200"));
  CHECK(s.logged("GET /table?name=eight.tbl 200"));
  // The copy is what the tool reads.
  const auto solved = eight::test::run_program("eight", {"solve", "--table", dest, "867254301"});
  CHECK(solved.out == "ruulddruuldldrrullurrdlldruurdd\n");

  const FileId before = id_of(dest);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a write would show in the times
  r = fetch({s.url(), "--tables", into.path()});
  CAPTURE(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == dest + ": unchanged, checksum " + etag_of(served()).substr(1, 16) + "\n");
  CHECK(s.logged("GET /table?name=eight.tbl 304"));
  CHECK(id_of(dest) == before);
  CHECK(eight::test::names_in(into.path()) == std::vector<std::string>{"eight.tbl"});
}

TEST_CASE(
    "eight fetch --table PATH and $EIGHT_TABLE take the server's default table into that "
    "file") {
  RealServer s;
  TempDir into;
  auto r = fetch({s.url(), "--table", into.file("mine.tbl")});
  CAPTURE(r.err);
  CHECK(r.status == 0);
  CHECK(read_file(into.file("mine.tbl")) == served());
  r = eight::test::run_program("eight",
                               {"--server", s.url(), "fetch", "--table", into.file("mine.tbl")});
  CHECK(r.status == 0);
  CHECK(r.out ==
        into.file("mine.tbl") + ": unchanged, checksum " + etag_of(served()).substr(1, 16) + "\n");
  // Without --table or --tables, $EIGHT_TABLE names the file (the one
  // `eight solve` then reads).
  ::setenv("EIGHT_TABLE", into.file("env.tbl").c_str(), 1);
  r = fetch({s.url()});
  ::unsetenv("EIGHT_TABLE");
  CAPTURE(r.err);
  CHECK(r.status == 0);
  CHECK(read_file(into.file("env.tbl")) == served());
  CHECK(eight::test::names_in(into.path()) == std::vector<std::string>{"env.tbl", "mine.tbl"});
}

TEST_CASE("an interrupted download is kept as .part and the next run resumes it with a Range") {
  TempDir into;
  const std::string dest = into.file("eight.tbl");
  const std::size_t cut = served().size() / 3;
  {
    // A server that drops the connection a third of the way in.
    FakeServer cutting([&](httplib::Server& http) { serve_table(http, served(), served(), cut); });
    const auto r = fetch({cutting.url(), "--tables", into.path()});
    CAPTURE(r.out);
    CHECK(r.status == 5);
    CHECK(r.err.find("was cut at byte") != std::string::npos);
    CHECK(r.err.find("kept in " + dest + ".part") != std::string::npos);
  }
  CHECK_FALSE(std::filesystem::exists(dest));
  const Bytes part = read_file(dest + ".part");
  REQUIRE(part.size() > 16);
  REQUIRE(part.size() <= cut);
  CHECK(std::equal(part.begin(), part.end(), served().begin()));

  RealServer s;
  const auto r = fetch({s.url(), "--tables", into.path()});
  CAPTURE(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == dest + ": resumed at byte " + std::to_string(part.size()) + ", " +
                     std::to_string(served().size() - part.size()) + " more bytes, checksum " +
                     etag_of(served()).substr(1, 16) + ", checked\n");
  CHECK(s.logged("GET /table?name=eight.tbl 206"));
  CHECK(read_file(dest) == served());
  CHECK(eight::test::names_in(into.path()) == std::vector<std::string>{"eight.tbl"});
}

TEST_CASE("a corrupted download is refused and the table already there is kept") {
  RealServer s;
  TempDir into;
  const std::string dest = into.file("eight.tbl");
  // An older sound table (the 3x3 one), and a part of the served table with
  // one wrong byte past its header: resumed, the whole fails its checksum.
  const Bytes& old = eight::test::table_bytes();
  write_file(dest, old);
  Bytes part(served().begin(), served().begin() + 100000);
  part[50000] ^= 0x40;
  write_file(dest + ".part", part);
  const FileId before = id_of(dest);
  auto r = fetch({s.url(), "--tables", into.path()});
  CHECK(r.status == 3);
  CHECK(r.out.empty());
  CHECK(r.err.find(dest + ": refused the download from " + s.url() + "/table?name=eight.tbl: ") !=
        std::string::npos);
  CHECK(r.err.find("checksum") != std::string::npos);
  CHECK(r.err.find("the table already there is kept") != std::string::npos);
  CHECK(s.logged("GET /table?name=eight.tbl 206"));  // it was a resume
  CHECK(read_file(dest) == old);
  CHECK(id_of(dest) == before);
  CHECK(eight::test::names_in(into.path()) ==
        std::vector<std::string>{"eight.tbl"});  // the bad part is gone
  // The next run starts afresh and gets the sound table.
  r = fetch({s.url(), "--tables", into.path()});
  CHECK(r.status == 0);
  CHECK(read_file(dest) == served());
}

TEST_CASE(
    "a server sending corrupted table bytes under a sound ETag gets them refused, nothing "
    "written") {
  Bytes bad = served();
  bad[bad.size() / 2] ^= 0x01;
  FakeServer fake([&](httplib::Server& http) { serve_table(http, bad, served(), 0); });
  TempDir into;
  const auto r = fetch({fake.url(), "--tables", into.path()});
  CHECK(r.status == 3);
  CHECK(r.err.find("refused the download") != std::string::npos);
  CHECK(r.err.find("checksum mismatch") != std::string::npos);
  CHECK(r.err.find("nothing was written") != std::string::npos);
  CHECK(eight::test::names_in(into.path()).empty());
}

TEST_CASE(
    "eight fetch and eight --server name an unreachable server, one that is not eight's, "
    "and a timeout, each with its exit status") {
  TempDir into;
  SUBCASE("nothing listens on the port: 5") {
    const std::string url = "http://127.0.0.1:" + std::to_string(closed_port());
    auto r = fetch({url, "--tables", into.path()});
    CHECK(r.status == 5);
    CHECK(r.err == "eight: cannot connect to " + url +
                       ": connection refused, no such host, or no route to it\n");
    r = eight::test::run_program("eight", {"--server", url, "solve", "123456780"});
    CHECK(r.status == 5);
    CHECK(r.out.empty());
  }
  SUBCASE("an HTTP server that is not eight's: 7") {
    FakeServer web([](httplib::Server& http) {
      http.Get(".*", [](const httplib::Request&, httplib::Response& res) {
        res.set_content("<html><body>Welcome</body></html>", "text/html");
      });
      http.Post(".*", [](const httplib::Request&, httplib::Response& res) {
        res.status = 404;
        res.set_content("not here", "text/plain");
      });
    });
    auto r = fetch({web.url(), "--tables", into.path()});
    CHECK(r.status == 7);
    CHECK(r.err == "eight: " + web.url() +
                       "/tables: not an eight server's answer: status 200 with 'text/html', not "
                       "JSON\n");
    r = eight::test::run_program("eight", {"--server", web.url(), "hint", "123456708"});
    CHECK(r.status == 7);
    CHECK(r.err.find("not an eight server's answer") != std::string::npos);
    CHECK(eight::test::names_in(into.path()).empty());
  }
  SUBCASE("a server that takes the connection and never answers: 6") {
    SilentListener silent;
    const std::string url = "http://127.0.0.1:" + std::to_string(silent.port);
    const auto start = std::chrono::steady_clock::now();
    auto r = fetch({url, "--tables", into.path(), "--timeout-ms", "300"});
    const auto took = std::chrono::steady_clock::now() - start;
    CHECK(r.status == 6);
    CHECK(r.err ==
          "eight: " + url + "/tables: no answer within 300 ms (--timeout-ms sets the wait)\n");
    CHECK(took < std::chrono::seconds(5));
    r = eight::test::run_program(
        "eight", {"--server", url, "--timeout-ms", "300", "random", "--distance", "3"});
    CHECK(r.status == 6);
  }
  SUBCASE("a URL that is not one: 2") {
    const auto r = fetch({"ftp://127.0.0.1/", "--tables", into.path()});
    CHECK(r.status == 2);
    CHECK(r.err.find("must start with http:// or https://") != std::string::npos);
  }
}
