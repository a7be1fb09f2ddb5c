// Running the real eight-server for integration tests.
//
// ServerProcess starts build/bin/eight-server as a child (posix_spawn) on
// 127.0.0.1 with --port 0, reads the port it prints, and waits for /readyz.
// The child's stderr (startup line and access log) is drained continuously
// into a buffer the test can read, so the child never blocks on a full pipe.
// The destructor kills the child if it is still running: no test leaves a
// process behind. Only ever talks to 127.0.0.1.
#pragma once

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace eight::test {

using namespace std::chrono_literals;

// A sound table file shared by the tests of one process.
const std::string& server_table_path();

struct ServerSpec {
  std::vector<std::string> args = {};  // after the program name; see defaults below
  // Environment entries for the child. The child gets the test's
  // environment without any EIGHT_* variable, plus these.
  std::vector<std::pair<std::string, std::string>> env = {};
  // Add --table server_table_path(), --host 127.0.0.1 and --port 0 in front
  // of `args` (later arguments override them).
  bool default_args = true;
  bool quiet = true;       // add --quiet
  bool wait_ready = true;  // wait for the listening line and /readyz
};

struct ExitInfo {
  int status = -1;  // exit status, or -1 if it did not exit normally
  int signal = 0;   // the signal that killed it, if any
  std::chrono::milliseconds elapsed{0};
  bool timed_out = false;
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

// Percent-encodes every byte except unreserved characters (RFC 3986).
std::string url_encode(const std::string& s);

}  // namespace eight::test
