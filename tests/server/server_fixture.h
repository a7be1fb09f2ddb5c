// Running the real eight-server for integration tests.
//
// ServerProcess starts build/bin/eight-server as a child (posix_spawn) on
// 127.0.0.1 with --port 0, reads the port it prints, and waits for /readyz.
// The child's stderr (startup line and access log) is drained continuously
// into a buffer the test can read, so the child never blocks on a full pipe.
// The destructor kills the child if it is still running: no test leaves a
// process behind. Only ever talks to 127.0.0.1.
#pragma once

#include <doctest/doctest.h>
#include <httplib.h>
#include <sys/types.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "support.h"

namespace eight::test {

using namespace std::chrono_literals;

// Whether the tests (and the server, built alike) run under address
// sanitizer, whose shadow memory and quarantine make resident sizes say
// nothing about the program's own: tests of memory check the accounting
// then, not RSS.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitized = true;
#else
inline constexpr bool kAddressSanitized = false;
#endif
#else
inline constexpr bool kAddressSanitized = false;
#endif

// A sound table file shared by the tests of one process.
const std::string& server_table_path();

// A --queue-wait (seconds) for tests whose answers queue for compute threads
// but that test something else (order, memory, bytes): a hang guard. Their
// searches run at nice 19, and a busy host (.ci/run's suite beside the
// sanitizer build) starves them far past the default 5 s, which would give
// 503s. The tests of the 503 itself set their own short wait.
inline constexpr const char* kQueueWaitHangGuard = "600";
// The --job-deadline (as $EIGHT_JOB_DEADLINE) of every server a test
// starts, unless its spec sets one: a hang guard. A request's deadline is
// wall-clock time, and a busy host starves the compute threads (nice 19)
// far past the default 10 s, so a draw or a search that the test expects
// answered would meet it; the tests of the deadline set their own
// (deadline_test.cpp), and bench/reliability measures the default.
inline constexpr const char* kJobDeadlineHangGuard = "600";

struct ServerSpec {
  std::vector<std::string> args = {};  // after the program name; see defaults below
  // Environment entries for the child. The child gets the test's
  // environment without any EIGHT_* variable, plus
  // EIGHT_JOB_DEADLINE=kJobDeadlineHangGuard unless set here, plus these.
  std::vector<std::pair<std::string, std::string>> env = {};
  // Add --table server_table_path(), --host 127.0.0.1 and --port 0 in front
  // of `args` (later arguments override them).
  bool default_args = true;
  bool quiet = true;       // add --quiet
  bool wait_ready = true;  // wait for the listening line and /readyz
  // > 0: the child's descriptor limit, soft and hard (run under prlimit).
  int nofile = 0;
};

struct ExitInfo {
  int status = -1;  // exit status, or -1 if it did not exit normally
  int signal = 0;   // the signal that killed it, if any
  std::chrono::milliseconds elapsed{0};
  bool timed_out = false;
};

// The default table (every shape up to 10 cells, 2x5 among them; the 4x4,
// 2x7 and 3x5 pattern databases) as a file, for a server of it.
struct DefaultTable {
  std::string path = default_table_path();
  // --table path, --host 127.0.0.1, --port 0, then `more`.
  ServerSpec spec(std::vector<std::string> more = {}) const {
    ServerSpec s{.args = {"--table", path, "--host", "127.0.0.1", "--port", "0"},
                 .default_args = false};
    s.args.insert(s.args.end(), more.begin(), more.end());
    return s;
  }
};

class ServerProcess {
 public:
  explicit ServerProcess(ServerSpec spec = {});
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }

  // A client for this server: 127.0.0.1, no URL re-encoding (targets go out
  // exactly as written), 5 s timeouts.
  httplib::Client client() const;
  // The value of the unlabelled series `name` in this server's /metrics
  // (REQUIREd to be there).
  std::int64_t metric(const std::string& name) const;

  // Everything the child wrote to stderr so far.
  std::string stderr_text() const;
  // Waits until stderr contains `needle`.
  bool wait_for_stderr(const std::string& needle, std::chrono::milliseconds timeout = 5s) const;

  // Sends `sig` and waits for the child to exit.
  ExitInfo stop(int sig, std::chrono::milliseconds timeout = 5s);
  // Waits for the child to exit by itself.
  ExitInfo wait_exit(std::chrono::milliseconds timeout = 5s);
  bool running() const { return pid_ > 0; }

 private:
  void wait_ready();
  void cleanup();

  pid_t pid_ = -1;
  int port_ = -1;
  int stderr_fd_ = -1;
  std::thread reader_;
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  std::string stderr_;
  bool stderr_closed_ = false;
};

// Starts a server that is expected to exit by itself (refusing to start)
// and waits for it; `err` gets its stderr.
ExitInfo run_to_exit(ServerSpec spec, std::string& err);

// One HTTP exchange over a raw socket to 127.0.0.1:port, for requests no
// client library would send (raw bytes, malformed lines). `request` is sent
// as is; the response is read until the server closes the connection or
// `timeout` passes.
struct RawResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  std::string raw;
};
// Checks `r` is a problem+json of `status` and type kProblemBase + `type`,
// with a title and a detail; returns the parsed body.
nlohmann::json check_problem(const httplib::Result& r, int status, const std::string& type);

RawResponse raw_exchange(int port, const std::string& request,
                         std::chrono::milliseconds timeout = 5s);

// A TCP connection to 127.0.0.1:port (fails the test if it cannot connect).
// `rcvbuf` > 0 sets a small receive buffer, to keep a large response in
// flight while the test does not read.
int connect_loopback(int port, int rcvbuf = 0);
// The same, returning -1 when it cannot connect (from threads other than the
// test's, where a failed assertion must not throw).
int try_connect_loopback(int port, int rcvbuf = 0);

// How a response read by RawConnection::read_response ended.
enum class ResponseEnd {
  kComplete,  // status line, headers and the whole Content-Length body
  kNone,      // the connection closed (or reset) before any byte of a response
  kCut,       // closed or timed out after part of a response: a truncation
  kTimeout,   // no byte at all within the timeout, connection still open
};

// One client connection held open for as long as the test wants: idle
// keep-alive clients, requests sent a byte at a time, responses whose end
// the test must see (complete or cut). Closes on destruction. Not thread
// safe; one thread per connection.
class RawConnection {
 public:
  explicit RawConnection(int port, int rcvbuf = 0) : fd_(connect_loopback(port, rcvbuf)) {}
  // A connection that is open() only if 127.0.0.1:port accepted it.
  static RawConnection try_open(int port) {
    return RawConnection(Adopt{}, try_connect_loopback(port));
  }
  // A connection to 127.0.0.1:port from the loopback address `source`
  // (127.0.0.2, say): another client, as the server tells clients apart.
  static RawConnection open_from(int port, const char* source);
  ~RawConnection();
  RawConnection(RawConnection&& other) noexcept;
  RawConnection& operator=(RawConnection&& other) noexcept;
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  int fd() const { return fd_; }
  bool open() const { return fd_ >= 0; }
  // Sends all of `bytes`; false if the connection is closed or reset.
  bool send(std::string_view bytes);
  // Whether the server has closed its side (EOF waiting to be read), without
  // consuming response bytes.
  bool closed_by_server() const;
  // Reads one response, framed by its Content-Length (none means no body;
  // `head_only`: the answer to a HEAD, whose Content-Length has no body).
  // `out.raw` gets the response's bytes, whole or as far as they came.
  ResponseEnd read_response(RawResponse& out, std::chrono::milliseconds timeout = 5s,
                            bool head_only = false);
  void close();

 private:
  struct Adopt {};
  RawConnection(Adopt, int fd) : fd_(fd) {}

  int fd_;
  std::string pending_;  // bytes received past the last response
};

// The resident set size of process `pid` in KiB (VmRSS), or 0.
std::size_t rss_kib(pid_t pid);
// Its peak resident set size so far in KiB (VmHWM), or 0.
std::size_t peak_rss_kib(pid_t pid);

// Raises this process's descriptor limit to its hard limit (tests that hold
// thousands of connections); returns the new soft limit.
std::size_t raise_descriptor_limit();

// Percent-encodes every byte except unreserved characters (RFC 3986).
std::string url_encode(const std::string& s);

// The bytes a client sends for a GET of `target` with Host `host`, then
// `extra` header lines (each ending in \r\n), then the blank line.
std::string raw_get(std::string_view target, std::string_view extra = "",
                    std::string_view host = "eight");
// The same for a POST /solve of `body`: Host: eight, its Content-Length,
// then `extra` header lines, the blank line and the body.
std::string raw_post(std::string_view body, std::string_view extra = "");

// A table file's checksum as /readyz and the ETag of /table show it: 16
// lower-case hex digits. REQUIRES: `table` passes the checksum check.
std::string checksum_hex(const std::vector<std::uint8_t>& table);
// The strong ETag /table sends for `table`: its checksum in double quotes.
std::string etag_of(const std::vector<std::uint8_t>& table);

// GET `target` from `cli` (an httplib::Client or service_fixture.h's
// in-process client): the answer must have status `status`, a 200 must be
// application/json, and its body is returned parsed.
template <class Client>
nlohmann::json get_json(Client& cli, const std::string& target, int status = 200) {
  auto r = cli.Get(target);
  REQUIRE(r);
  CAPTURE(target);
  CAPTURE(r->body);
  REQUIRE(r->status == status);
  if (status == 200) CHECK(r->get_header_value("Content-Type") == "application/json");
  return nlohmann::json::parse(r->body);
}

}  // namespace eight::test
