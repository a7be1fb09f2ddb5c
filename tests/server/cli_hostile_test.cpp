// `eight --server URL ...` and `eight fetch` against hostile stand-in servers
// on 127.0.0.1, each replaying one finding of issue 18 ("the client trusts
// any server") with its exact bytes: a field of the wrong type (the client
// died of an uncaught nlohmann::type_error), a gzip answer (inflated to 2.1
// GB), a 400 MB body (1.35 GB), a drip of bytes (outlived --timeout-ms by
// minutes), a table longer than listed (300 MB written), a gzip table (a 1
// GiB .part) and listed names that are not table file names (.bashrc). Each
// checks the exit status, the message, and that nothing was left behind.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

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

constexpr std::uint64_t kAnswerCap = 32ull << 20;  // cli/server_client.h kMaxAnswerBytes

// `bytes` zero bytes as one gzip member: a few kB that inflate a thousand
// times over (made here with zlib, in milliseconds).
std::string gzip_of_zeros(std::size_t bytes) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) == Z_OK);
  const std::string zeros(1 << 20, '\0');
  std::string out;
  char buf[1 << 16];
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t n = std::min(zeros.size(), bytes - done);
    done += n;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(zeros.data()));
    z.avail_in = static_cast<uInt>(n);
    const int flush = done == bytes ? Z_FINISH : Z_NO_FLUSH;
    do {
      z.next_out = reinterpret_cast<Bytef*>(buf);
      z.avail_out = sizeof buf;
      REQUIRE(deflate(&z, flush) != Z_STREAM_ERROR);
      out.append(buf, sizeof buf - z.avail_out);
    } while (z.avail_out == 0);
  }
  deflateEnd(&z);
  return out;
}

RunResult remote(const std::string& url, const std::vector<std::string>& args) {
  std::vector<std::string> all = {"--server", url, "--timeout-ms", "10000"};
  all.insert(all.end(), args.begin(), args.end());
  return eight::test::run_program("eight", all);
}

// An honest GET /stats answer for the 3x3 goal, as eight-server gives it.
void honest_stats(httplib::Server& http) {
  http.Get("/stats", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"goal":"123456780","max_distance":31})", "application/json");
  });
}

// Streams `total` bytes of JSON-looking text (or, with total 0, twice the
// client's cap without a Content-Length), until the client goes away. Never
// without end: a client that regressed fails the test, not the machine.
void stream_body(httplib::Response& res, std::uint64_t total, const char* type) {
  const auto piece = std::make_shared<std::string>(1 << 16, ' ');
  if (total > 0) {
    res.set_content_provider(total, type,
                             [piece](std::size_t, std::size_t length, httplib::DataSink& sink) {
                               return sink.write(piece->data(), std::min(length, piece->size()));
                             });
  } else {
    res.set_chunked_content_provider(type, [piece](std::size_t offset, httplib::DataSink& sink) {
      if (offset >= 2 * kAnswerCap) {
        sink.done();
        return true;
      }
      return sink.write(piece->data(), piece->size());
    });
  }
}

// Runs build/bin/eight with `args` (no input; its standard error into a
// file), as run_program does, and also returns the largest resident size it
// reached, in kB (wait4's, for this one process).
struct Measured {
  RunResult run;
  long max_rss_kb = 0;
};
Measured run_measured(const std::vector<std::string>& args) {
  TempDir dir;
  const std::string exe = std::string(EIGHT_BIN_DIR) + "/eight";
  std::vector<std::string> all = {exe};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, dir.file("out").c_str(), O_WRONLY | O_CREAT, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, dir.file("err").c_str(), O_WRONLY | O_CREAT, 0600);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE(rc == 0);
  int status = 0;
  rusage usage{};
  REQUIRE(::wait4(pid, &status, 0, &usage) == pid);
  Measured m;
  m.run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  const auto text = [](const Bytes& b) { return std::string(b.begin(), b.end()); };
  m.run.out = text(eight::test::read_file(dir.file("out")));
  m.run.err = text(eight::test::read_file(dir.file("err")));
  m.max_rss_kb = usage.ru_maxrss;
  return m;
}

// What GET /tables lists for one table `name` of served()'s size and ETag.
std::string listing_of(const std::string& name) {
  return nlohmann::json{{"tables",
                         {{{"name", name},
                           {"url", "/table?name=x.tbl"},
                           {"etag", etag_of(served())},
                           {"bytes", served().size()},
                           {"default", true}}}}}
      .dump();
}

}  // namespace

TEST_CASE(
    "eight --server refuses a /stats answer whose fields have other types with exit 7, "
    "naming the field, never aborting") {
  // The finding: {"goal":123} ended the client with an uncaught
  // nlohmann::type_error (SIGABRT).
  struct Case {
    std::string body;
    std::string why;
  };
  const std::vector<Case> cases = {
      {R"({"goal":123})", "field 'goal' is 123, expected a string"},
      {R"({"goal":"123456780"})",
       "field 'max_distance' is missing, expected a whole number from 0"},
      {R"({"goal":null,"max_distance":31})", "field 'goal' is null, expected a string"},
      {R"({"goal":"123456780","max_distance":"31"})",
       "field 'max_distance' is \"31\", expected a whole number from 0"},
      {R"({"goal":"123456780","max_distance":-1})",
       "field 'max_distance' is -1, expected a whole number from 0"},
      {R"({"goal":["123456780"],"max_distance":31})",
       "field 'goal' is [\"123456780\"], expected a string"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.body);
    FakeServer fake([&](httplib::Server& http) {
      http.Get("/stats", [&](const httplib::Request&, httplib::Response& res) {
        res.set_content(c.body, "application/json");
      });
    });
    for (const std::vector<std::string>& args : {std::vector<std::string>{"solve", "123456780"},
                                                 {"hint", "123456708"},
                                                 {"random", "--distance", "3"}}) {
      CAPTURE(args[0]);
      const RunResult r = remote(fake.url(), args);
      CHECK(r.status == 7);
      CHECK(r.err == "eight: " + fake.url() +
                         "/stats?goal=123456780: not an eight server's answer: " + c.why + "\n");
      CHECK(r.out.empty());
    }
  }
}

TEST_CASE(
    "eight --server random of a search shape refuses a /random answer without a board of the "
    "goal's shape, and a no-stats refusal that is not eight's, with exit 7") {
  const std::string no_stats =
      R"({"type":"https://eight.invalid/problems/no-stats","title":"No statistics",)"
      R"("status":404,"detail":"5x5 positions are not tabulated"})";
  struct Case {
    std::string random_body;
    std::string why;
  };
  const std::vector<Case> cases = {
      {R"({"board":123})", "field 'board' is 123, expected a string"},
      {R"({"boards":["1,2,3/4,5,6/7,8,0"]})", "field 'board' is missing, expected a string"},
      {R"({"board":"1,2,3/4,5,6/7,8,0"})", "a board that is not one of the goal's shape"},
      {R"({"board":"not a board"})", "a board that is not one of the goal's shape"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.random_body);
    FakeServer fake([&](httplib::Server& http) {
      http.Get("/stats", [&](const httplib::Request&, httplib::Response& res) {
        res.status = 404;
        res.set_content(no_stats, "application/problem+json");
      });
      http.Get("/random", [&](const httplib::Request&, httplib::Response& res) {
        res.set_content(c.random_body, "application/json");
      });
    });
    const RunResult r = remote(fake.url(), {"random", "--shape", "5x5", "--count", "3"});
    CHECK(r.status == 7);
    CHECK(r.err.find("/random?goal=") != std::string::npos);
    CHECK(r.err.find("not an eight server's answer: " + c.why + "\n") != std::string::npos);
    CHECK(r.out.empty());
  }
  // A 404 whose problem type is not eight's frames nothing: not eight's answer.
  FakeServer fake([&](httplib::Server& http) {
    http.Get("/stats", [&](const httplib::Request&, httplib::Response& res) {
      res.status = 404;
      res.set_content(R"({"type":"https://example.invalid/no-stats","detail":"x"})",
                      "application/problem+json");
    });
  });
  const RunResult r = remote(fake.url(), {"random", "--shape", "5x5"});
  CHECK(r.status == 7);
  CHECK(r.err.find("not an eight server's answer: status 404") != std::string::npos);
}

TEST_CASE(
    "eight --server hint refuses a hint whose tile is \"eight\" with exit 7, and solve and "
    "random refuse answers of the wrong type") {
  // The finding: "tile":"eight" in a hint's move ended the client with an
  // uncaught nlohmann::type_error. The hint is an honest one (the offline
  // tool's own answer) with that one field changed.
  TempDir dir;
  const std::string table = dir.file("eight.tbl");
  eight::test::write_file(table, served());
  const RunResult honest = eight::test::run_program(
      "eight", {"hint", "--table", table, "--format", "json", "123456708"});
  REQUIRE(honest.status == 0);
  nlohmann::json hint = nlohmann::json::parse(honest.out);
  REQUIRE(hint["moves"].size() >= 1);
  hint["moves"][0]["tile"] = "eight";
  hint["hints"][0]["tile"] = "eight";
  FakeServer fake([&](httplib::Server& http) {
    honest_stats(http);
    http.Get("/hint", [&](const httplib::Request&, httplib::Response& res) {
      res.set_content(hint.dump(), "application/json");
    });
    http.Post("/solve", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"answers":"all solved"})", "application/json");
    });
    http.Get("/random", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"boards":{"0":"123456780"}})", "application/json");
    });
  });
  RunResult r = remote(fake.url(), {"hint", "123456708"});
  CHECK(r.status == 7);
  CHECK(r.err == "eight: " + fake.url() +
                     "/hint?board=123456708&goal=123456780: not an eight server's answer: "
                     "moves[0]: field 'tile' is \"eight\", expected a whole number from 0\n");
  CHECK(r.out.empty());
  r = remote(fake.url(), {"solve", "123456708"});
  CHECK(r.status == 7);
  CHECK(r.err == "eight: " + fake.url() +
                     "/solve: not an eight server's answer: field 'answers' is \"all solved\", "
                     "expected an array\n");
  CHECK(r.out.empty());
  r = remote(fake.url(), {"random", "--distance", "3"});
  CHECK(r.status == 7);
  CHECK(r.err.find("/random?distance=3&goal=123456780&count=1: not an eight server's answer: "
                   "field 'boards' is {\"0\":\"123456780\"}, expected an array\n") !=
        std::string::npos);
  CHECK(r.out.empty());
}

TEST_CASE(
    "eight --server refuses a gzip answer before reading it: it asks for identity and never "
    "inflates") {
  // The finding: a 1 MB gzip answer inflated to 2.1 GB, then bad_alloc.
  // Here 64 MiB of zeros in about 64 kB.
  const std::string bomb = gzip_of_zeros(64u << 20);
  REQUIRE(bomb.size() < 1u << 20);
  std::string accept_encoding = "(none)";
  FakeServer fake([&](httplib::Server& http) {
    http.Get("/stats", [&](const httplib::Request& req, httplib::Response& res) {
      accept_encoding = req.get_header_value("Accept-Encoding");
      res.set_header("Content-Encoding", "gzip");
      res.set_content(bomb, "application/json");
    });
  });
  const auto [r, rss_kb] = run_measured({"--server", fake.url(), "solve", "123456780"});
  CHECK(rss_kb < 256 * 1024);  // nothing inflated (the finding: 2.1 GB)
  CHECK(r.status == 7);
  CHECK(r.err == "eight: " + fake.url() +
                     "/stats?goal=123456780: not an eight server's answer: Content-Encoding "
                     "'gzip', but the client asked for identity (it never inflates)\n");
  CHECK(r.out.empty());
  CHECK(accept_encoding == "identity");
}

TEST_CASE(
    "eight --server refuses an answer over the size cap as it arrives, with or without a "
    "Content-Length, and memory never holds it") {
  // The finding: a 400 MB body took 1.35 GB. Streamed here, never held.
  SUBCASE("400 MB with its Content-Length: refused at the headers") {
    FakeServer fake([](httplib::Server& http) {
      http.Get("/stats", [](const httplib::Request&, httplib::Response& res) {
        stream_body(res, 400000000, "application/json");
      });
    });
    const auto [r, rss_kb] = run_measured({"--server", fake.url(), "solve", "123456780"});
    CHECK(rss_kb < 256 * 1024);  // far under the 1.35 GB the finding took
    CHECK(r.status == 7);
    CHECK(r.err == "eight: " + fake.url() +
                       "/stats?goal=123456780: not an eight server's answer: a body of 400000000 "
                       "bytes (Content-Length), over the " +
                       std::to_string(kAnswerCap) + " bytes an answer may have\n");
  }
  SUBCASE("chunked, without end: refused at the cap") {
    FakeServer fake([](httplib::Server& http) {
      honest_stats(http);
      http.Get("/hint", [](const httplib::Request&, httplib::Response& res) {
        stream_body(res, 0, "application/json");
      });
    });
    const auto [r, rss_kb] = run_measured({"--server", fake.url(), "hint", "123456708"});
    // The cap (32 MiB) and the tool itself: far under the findings' GBs.
    CHECK(rss_kb < 256 * 1024);
    CHECK(r.status == 7);
    CHECK(r.err == "eight: " + fake.url() +
                       "/hint?board=123456708&goal=123456780: not an eight server's answer: a "
                       "body of more than the " +
                       std::to_string(kAnswerCap) + " bytes an answer may have\n");
  }
}

TEST_CASE("--timeout-ms bounds the whole answer: a drip of bytes ends with exit 6") {
  // The finding: a byte every 3 s outlived --timeout-ms 10000 by minutes,
  // as httplib's timeouts bound each read. Here a byte every 50 ms (each
  // read well within the timeout) for up to 60 s, against --timeout-ms
  // 1000: the client must give up near 1 s. The bound checked is only a
  // hang guard, far above that.
  std::atomic<bool> done{false};
  FakeServer fake([&](httplib::Server& http) {
    honest_stats(http);
    http.Get("/hint", [&](const httplib::Request&, httplib::Response& res) {
      res.set_chunked_content_provider("application/json",
                                       [&](std::size_t offset, httplib::DataSink& sink) {
                                         if (done || offset >= 1200) {
                                           sink.done();
                                           return true;
                                         }
                                         std::this_thread::sleep_for(std::chrono::milliseconds(50));
                                         return sink.write(offset == 0 ? "{" : " ", 1);
                                       });
    });
  });
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = eight::test::run_program(
      "eight", {"--server", fake.url(), "--timeout-ms", "1000", "hint", "123456708"});
  const auto took = std::chrono::steady_clock::now() - start;
  done = true;
  CHECK(r.status == 6);
  CHECK(r.err == "eight: " + fake.url() +
                     "/hint?board=123456708&goal=123456780: no whole answer within 1000 ms "
                     "(--timeout-ms bounds the whole exchange)\n");
  CHECK(r.out.empty());
  CHECK(took < std::chrono::seconds(30));  // a hang guard, not a latency bound
}

// A loopback socket that answers its first connection with `head`, then
// `line` again and again (up to `limit` bytes in all, never without end),
// on a thread of its own.
struct RawAnswer {
  int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  std::string url;
  std::atomic<bool> done{false};
  std::thread thread;
  RawAnswer(std::string head, std::string line, std::size_t limit,
            std::chrono::milliseconds pause) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(::listen(listener, 8) == 0);
    socklen_t len = sizeof addr;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
    url = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
    thread = std::thread([this, head = std::move(head), line = std::move(line), limit, pause] {
      const int c = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) return;
      char request[4096];
      (void)::recv(c, request, sizeof request, 0);
      // A client gone may leave a send blocked (its socket shut down, not
      // reset): sends time out so that `done` is seen.
      const timeval wait{0, 50000};
      ::setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof wait);
      const auto send_all = [&](const std::string& piece) {
        for (std::size_t at = 0; at < piece.size();) {
          if (done) return false;
          const ssize_t n = ::send(c, piece.data() + at, piece.size() - at, MSG_NOSIGNAL);
          if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
          if (n <= 0) return false;
          at += static_cast<std::size_t>(n);
        }
        return true;
      };
      std::size_t sent = 0;
      for (const std::string* piece = &head; sent < limit && send_all(*piece); piece = &line) {
        sent += piece->size();
        if (pause.count() > 0) std::this_thread::sleep_for(pause);
      }
      ::close(c);
    });
  }
  ~RawAnswer() {
    done = true;
    ::shutdown(listener, SHUT_RDWR);  // wakes an accept() no client answered
    thread.join();
    ::close(listener);
  }
};

TEST_CASE(
    "eight --server refuses endless headers past the answer's cap, which httplib would read "
    "without a bound") {
  // httplib 0.11.4 reads header lines, and a header line, to their end
  // however long: before the byte count, an endless header line took 270
  // MB in 3 s (and went on until --timeout-ms).
  const std::string expected_tail =
      "/stats?goal=123456780: not an eight server's answer: more than " +
      std::to_string(kAnswerCap + 65536) + " bytes in all: the " + std::to_string(kAnswerCap) +
      " bytes an answer may have, and 65536 bytes of headers\n";
  // Endless header lines, then one endless header line.
  const std::vector<std::string> lines = {"X-Pad: " + std::string(200, 'a') + "\r\n",
                                          std::string(4096, 'a')};
  for (const std::string& line : lines) {
    CAPTURE(line.size());
    RawAnswer flood("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Pad: ", line,
                    4 * kAnswerCap, std::chrono::milliseconds(0));
    const auto [r, rss_kb] = run_measured({"--server", flood.url, "solve", "123456780"});
    CHECK(r.status == 7);
    CHECK(r.err == "eight: " + flood.url + expected_tail);
    CHECK(r.out.empty());
    CHECK(rss_kb < 256 * 1024);
  }
}

TEST_CASE("--timeout-ms bounds the whole answer: a drip of the status line ends with exit 6") {
  // The same drip before the headers end, from a raw loopback socket: the
  // status line a byte every 50 ms, for up to 60 s.
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(listener, 8) == 0);
  socklen_t len = sizeof addr;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
  std::atomic<bool> done{false};
  std::thread dripper([&] {
    const int c = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) return;
    char request[4096];
    (void)::recv(c, request, sizeof request, 0);
    const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Pad: ";
    for (std::size_t i = 0; i < 1200 && !done; ++i) {
      const char byte = i < head.size() ? head[i] : 'a';
      if (::send(c, &byte, 1, MSG_NOSIGNAL) != 1) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::close(c);
  });
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = eight::test::run_program(
      "eight", {"--server", url, "--timeout-ms", "1000", "solve", "123456780"});
  const auto took = std::chrono::steady_clock::now() - start;
  done = true;
  ::shutdown(listener, SHUT_RDWR);  // wakes an accept() no client answered
  dripper.join();
  ::close(listener);
  CHECK(r.status == 6);
  CHECK(r.err == "eight: " + url +
                     "/stats?goal=123456780: no answer within 1000 ms (--timeout-ms sets the "
                     "wait)\n");
  CHECK(r.out.empty());
  CHECK(took < std::chrono::seconds(30));  // a hang guard, not a latency bound
}

TEST_CASE(
    "eight fetch refuses a table longer than /tables lists before it reaches the disk, and "
    "removes the .part") {
  TempDir into;
  const std::string list = listing_of("eight.tbl");
  const std::string etag = etag_of(served());
  SUBCASE("a 200 whose Content-Length is past the listed size") {
    // The finding: 300 MB written for a table listed at 21,008,364 bytes.
    FakeServer fake([&](httplib::Server& http) {
      http.Get("/tables", [&](const httplib::Request&, httplib::Response& res) {
        res.set_content(list, "application/json");
      });
      http.Get("/table", [&](const httplib::Request&, httplib::Response& res) {
        res.set_header("ETag", etag);
        stream_body(res, 300000000, "application/octet-stream");
      });
    });
    const RunResult r = fetch_tables(fake.url(), into.path());
    CHECK(r.status == 7);
    CHECK(r.err == "eight: " + fake.url() +
                       "/table?name=x.tbl: not an eight server's answer: a body of 300000000 "
                       "bytes (Content-Length), over the " +
                       std::to_string(served().size()) + " bytes /tables lists for eight.tbl\n");
    CHECK(r.out.empty());
    CHECK(eight::test::names_in(into.path()).empty());
  }
  SUBCASE("a resumed 206 without a length that goes on past the listed size") {
    // The part holds the table's first bytes, so the client asks for the
    // rest; the answer sends the rest and then more, chunked.
    const std::size_t have = 100000;
    eight::test::write_file(into.file("eight.tbl.part"),
                            Bytes(served().begin(), served().begin() + have));
    std::string range = "(none)";
    FakeServer fake([&](httplib::Server& http) {
      http.Get("/tables", [&](const httplib::Request&, httplib::Response& res) {
        res.set_content(list, "application/json");
      });
      http.Get("/table", [&](const httplib::Request& req, httplib::Response& res) {
        range = req.get_header_value("Range");
        res.status = 206;
        res.set_header("ETag", etag);
        res.set_header("Content-Range", "bytes " + std::to_string(have) + "-" +
                                            std::to_string(served().size() - 1) + "/" +
                                            std::to_string(served().size()));
        res.set_chunked_content_provider(
            "application/octet-stream", [&](std::size_t offset, httplib::DataSink& sink) {
              const std::size_t at = have + offset;
              if (at < served().size()) {
                const std::size_t n = std::min<std::size_t>(65536, served().size() - at);
                return sink.write(reinterpret_cast<const char*>(served().data()) + at, n);
              }
              // Then zeros, up to 8 MiB past the end (never without end:
              // a client that regressed fails the test, not the disk).
              if (at >= served().size() + (8u << 20)) {
                sink.done();
                return true;
              }
              static const std::string zeros(65536, '\0');
              return sink.write(zeros.data(), zeros.size());
            });
      });
    });
    const RunResult r = fetch_tables(fake.url(), into.path());
    CHECK(range == "bytes=" + std::to_string(have) + "-");
    CHECK(r.status == 7);
    CHECK(r.err == "eight: " + fake.url() +
                       "/table?name=x.tbl: not an eight server's answer: a body of more than the " +
                       std::to_string(served().size()) + " bytes /tables lists for eight.tbl\n");
    CHECK(eight::test::names_in(into.path()).empty());
  }
}

TEST_CASE("eight fetch refuses a gzip table before writing a byte") {
  // The finding: a gzip answer left a 1 GiB .part. Here 64 MiB of zeros.
  const std::string bomb = gzip_of_zeros(64u << 20);
  const std::string list = listing_of("eight.tbl");
  const std::string etag = etag_of(served());
  FakeServer fake([&](httplib::Server& http) {
    http.Get("/tables", [&](const httplib::Request&, httplib::Response& res) {
      res.set_content(list, "application/json");
    });
    http.Get("/table", [&](const httplib::Request&, httplib::Response& res) {
      res.set_header("ETag", etag);
      res.set_header("Content-Encoding", "gzip");
      res.set_content(bomb, "application/octet-stream");
    });
  });
  TempDir into;
  const RunResult r = fetch_tables(fake.url(), into.path());
  CHECK(r.status == 7);
  CHECK(r.err == "eight: " + fake.url() +
                     "/table?name=x.tbl: not an eight server's answer: Content-Encoding 'gzip', "
                     "but the client asked for identity (it never inflates)\n");
  CHECK(r.out.empty());
  CHECK(eight::test::names_in(into.path()).empty());
}

TEST_CASE(
    "eight fetch refuses a listing whose names are not table file names, before anything is "
    "written") {
  // The finding: any plain name a listing gave was written (.bashrc).
  const std::vector<std::string> names = {
      ".bashrc",  "../x.tbl", "a/b.tbl", "eight.tbl/",
      "x.tbl.sh", ".tbl",     "-rf.tbl", std::string(200, 'a') + ".tbl"};
  for (const std::string& name : names) {
    CAPTURE(name);
    std::atomic<int> downloads{0};
    const std::string list = listing_of(name);
    FakeServer fake([&](httplib::Server& http) {
      http.Get("/tables", [&](const httplib::Request&, httplib::Response& res) {
        res.set_content(list, "application/json");
      });
      http.Get("/table", [&](const httplib::Request&, httplib::Response& res) {
        ++downloads;
        res.set_header("ETag", etag_of(served()));
        res.set_content(reinterpret_cast<const char*>(served().data()), served().size(),
                        "application/octet-stream");
      });
    });
    TempDir parent;
    const std::string into = parent.file("tables");
    std::filesystem::create_directory(into);
    const RunResult r = fetch_tables(fake.url(), into);
    CHECK(r.status == 7);
    CHECK(r.err.find("eight: " + fake.url() +
                     "/tables: not an eight server's answer: tables[0]: "
                     "the name '") == 0);
    CHECK(r.err.find("' is not a table file name") != std::string::npos);
    CHECK(downloads == 0);
    CHECK(eight::test::names_in(into).empty());
    CHECK(eight::test::names_in(parent.path()) == std::vector<std::string>{"tables"});
  }
  // A listing entry with a field of another type names it.
  FakeServer fake([](httplib::Server& http) {
    http.Get("/tables", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"tables":[{"name":"eight.tbl","url":"/table","etag":"\"0\"",)"
                      R"("bytes":"21008364","default":true}]})",
                      "application/json");
    });
  });
  TempDir into;
  const RunResult r = fetch_tables(fake.url(), into.path());
  CHECK(r.status == 7);
  CHECK(r.err == "eight: " + fake.url() +
                     "/tables: not an eight server's answer: tables[0]: field 'bytes' is "
                     "\"21008364\", expected a whole number from 0\n");
  CHECK(eight::test::names_in(into.path()).empty());
}

TEST_CASE("eight --version prints the program and its version") {
  const RunResult r = eight::test::run_program("eight", {"--version"});
  CHECK(r.status == 0);
  CHECK(r.out == "eight " EIGHT_VERSION "\n");
  CHECK(r.err.empty());
}
