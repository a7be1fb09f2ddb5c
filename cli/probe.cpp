// eight probe: a minimal HTTP/1.1 GET for health checks, so a container image
// needs no curl or wget. It sends one request, reads the status line and exits
// 0 for a 2xx status, 1 for anything else (connection refused, timeout, non-2xx,
// malformed answer) and 2 for a usage error.
//
//   eight probe [--host H] [--port P] [--path /readyz] [--timeout-ms N]
//
// The port defaults to $EIGHT_PORT, else 8080; the host to 127.0.0.1 (the
// probe runs beside the server, whatever address the server binds).
#include "probe.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fcntl.h>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/option_reader.h"
#include "common/poll.h"
#include "common/text.h"

namespace eight::cli {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kProbeOk = 0;
constexpr int kProbeFailed = 1;

constexpr const char* kProbeUsageText =
    "usage: eight probe [--host H] [--port P] [--path /readyz] [--timeout-ms N]\n"
    "GETs http://H:P/PATH and exits 0 on a 2xx status, 1 otherwise.\n"
    "Defaults: host 127.0.0.1, port $EIGHT_PORT else 8080, path /readyz, timeout 2000 ms.\n";

struct ProbeOptions {
  std::string host = "127.0.0.1";
  std::string port = "8080";
  std::string path = "/readyz";
  int timeout_ms = 2000;
};

int probe_usage(const std::string& what) {
  return print_usage_error("eight probe", UsageError{what, {}, {}}, "eight probe --help");
}

bool parse_int(std::string_view s, int lo, int hi, int& out) {
  const auto v = parse_decimal(s);
  if (!v || *v < static_cast<std::uint64_t>(lo) || *v > static_cast<std::uint64_t>(hi))
    return false;
  out = static_cast<int>(*v);
  return true;
}

// Milliseconds left before `deadline`, at least 0.
int remaining_ms(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left > 0 ? static_cast<int>(left) : 0;
}

// Closes the socket on every return path.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Waits for `events` on fd until the deadline; false on timeout or error.
bool wait_for(int fd, short events, Clock::time_point deadline) {
  return wait_fd(fd, events, std::chrono::milliseconds(remaining_ms(deadline))) > 0;
}

// Connects a non-blocking socket to one of `host`'s addresses before the
// deadline. Returns the socket, or -1 with `error` set.
int connect_to(const ProbeOptions& opt, Clock::time_point deadline, std::string& error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  const int rc = ::getaddrinfo(opt.host.c_str(), opt.port.c_str(), &hints, &list);
  if (rc != 0) {
    error = std::string("cannot resolve: ") + ::gai_strerror(rc);
    return -1;
  }
  error = "no address";
  int result = -1;
  for (addrinfo* ai = list; ai != nullptr && result < 0; ai = ai->ai_next) {
    const int fd =
        ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      error = std::strerror(errno);
      continue;
    }
    int err = 0;
    if (::connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
      err = errno;
      if (err == EINPROGRESS) {
        if (!wait_for(fd, POLLOUT, deadline)) {
          err = ETIMEDOUT;
        } else {
          socklen_t len = sizeof err;
          if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
        }
      }
    }
    if (err == 0) {
      result = fd;
    } else {
      error = err == ETIMEDOUT ? "timed out connecting" : std::strerror(err);
      ::close(fd);
    }
  }
  ::freeaddrinfo(list);
  return result;
}

// "HTTP/1.x NNN reason" -> NNN, or -1.
int status_code(std::string_view line) {
  if (line.substr(0, 7) != "HTTP/1." || line.size() < 12 || line[8] != ' ') return -1;
  int code = 0;
  if (!parse_int(line.substr(9, 3), 100, 599, code)) return -1;
  if (line.size() > 12 && line[12] != ' ') return -1;
  return code;
}

int run(const ProbeOptions& opt) {
  const std::string url = "http://" + opt.host + ":" + opt.port + opt.path;
  const auto deadline = Clock::now() + std::chrono::milliseconds(opt.timeout_ms);
  auto fail = [&](const std::string& why) {
    std::fprintf(stderr, "eight probe: %s: %s\n", url.c_str(), why.c_str());
    return kProbeFailed;
  };

  std::string error;
  Fd fd(connect_to(opt, deadline, error));
  if (fd.get() < 0) return fail(error);

  const bool v6 = opt.host.find(':') != std::string::npos;
  const std::string request = "GET " + opt.path +
                              " HTTP/1.1\r\nHost: " + (v6 ? "[" + opt.host + "]" : opt.host) + ":" +
                              opt.port +
                              "\r\nUser-Agent: eight-probe\r\nAccept: */*\r\n"
                              "Connection: close\r\n\r\n";
  std::size_t sent = 0;
  while (sent < request.size()) {
    const ssize_t n = ::send(fd.get(), request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!wait_for(fd.get(), POLLOUT, deadline)) return fail("timed out sending");
    } else {
      return fail(std::string("send: ") + std::strerror(errno));
    }
  }

  // Only the status line matters; read until its end (bounded).
  std::string head;
  char buf[512];
  while (head.find("\r\n") == std::string::npos) {
    if (head.size() > 4096) return fail("status line too long");
    const ssize_t n = ::recv(fd.get(), buf, sizeof buf, 0);
    if (n > 0) {
      head.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0) {
      return fail(head.empty() ? "connection closed without an answer" : "truncated answer");
    } else if (errno == EINTR) {
      continue;
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!wait_for(fd.get(), POLLIN, deadline)) return fail("timed out waiting for the answer");
    } else {
      return fail(std::string("recv: ") + std::strerror(errno));
    }
  }
  const std::string line = head.substr(0, head.find("\r\n"));
  const int code = status_code(line);
  if (code < 0) return fail("not an HTTP answer: '" + line.substr(0, 80) + "'");
  if (code < 200 || code > 299) return fail("status " + std::to_string(code));
  std::printf("%s: %d\n", url.c_str(), code);
  return kProbeOk;
}

}  // namespace

int run_probe(std::span<const std::string> args) {
  ProbeOptions opt;
  if (const char* env = std::getenv("EIGHT_PORT"); env != nullptr && *env != '\0') opt.port = env;
  static const po::options_description options = [] {
    po::options_description d;
    d.add_options()("host", po::value<std::string>())("port", po::value<std::string>())(
        "path", po::value<std::string>())("timeout-ms", po::value<std::string>())("help,h", "");
    return d;
  }();
  auto read = read_options(args, options, false);
  if (const auto* e = std::get_if<UsageError>(&read)) {
    return print_usage_error("eight probe", *e, "eight probe --help");
  }
  for (const GivenOption& given : std::get<std::vector<GivenOption>>(read)) {
    const std::string value = given.value.value_or("");
    if (given.name == "help") {
      std::fputs(kProbeUsageText, stdout);
      return kProbeOk;
    } else if (given.name == "host") {
      std::string host = value;
      if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
        host = host.substr(1, host.size() - 2);
      }
      if (host.empty()) return probe_usage("empty host");
      opt.host = host;
    } else if (given.name == "port") {
      opt.port = value;
    } else if (given.name == "path") {
      opt.path = value;
      if (opt.path.empty() || opt.path.front() != '/' ||
          opt.path.find_first_of(" \r\n") != std::string::npos) {
        return probe_usage("the path must start with / and hold no spaces");
      }
    } else if (given.name == "timeout-ms") {
      if (!parse_int(value, 1, 600000, opt.timeout_ms)) {
        return probe_usage("bad timeout '" + value + "'");
      }
    }
  }
  int port = 0;
  if (!parse_int(opt.port, 1, 65535, port)) return probe_usage("bad port '" + opt.port + "'");
  return run(opt);
}

}  // namespace eight::cli
