// eight-idle-clients: holds many idle keep-alive connections open to a
// server on loopback, and meanwhile measures how long a new client waits.
//
//   eight-idle-clients --port P [--connections 10000] [--seconds 30]
//
// Opens the connections one after another, each sending one GET /healthz and
// reading its answer, so each is an ordinary keep-alive connection gone
// idle. Prints "ready N" once all are open. Then, until --seconds pass or
// SIGTERM/SIGINT, every 100 ms a new client connects, asks
// /solve?board=867254301 and reads the answer. At the end it prints
//   RESULT idle=N still_open=N probes=N probe_p50_us=A probe_p99_us=B probe_max_us=C failed=F
// Only ever connects to 127.0.0.1; every loop is bounded in count and time.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

std::atomic<bool> stop_requested{false};

int connect_loopback(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  const int yes = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  return fd;
}

// Sends `request` and reads one whole answer (framed by Content-Length)
// within 2 s; false on anything else.
bool exchange(int fd, std::string_view request) {
  if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    return false;
  }
  std::string in;
  const auto deadline = Clock::now() + std::chrono::seconds(2);
  char buf[8192];
  for (;;) {
    const auto head_end = in.find("\r\n\r\n");
    if (head_end != std::string::npos) {
      const auto at = in.find("Content-Length: ");
      if (at == std::string::npos || at > head_end) return false;
      const std::size_t length = std::strtoull(in.c_str() + at + 16, nullptr, 10);
      if (in.size() >= head_end + 4 + length) return in.rfind("HTTP/1.1 200", 0) == 0;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{fd, POLLIN, 0};
    if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) return false;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    in.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace

int main(int argc, char** argv) {
  int port = 0;
  int connections = 10000;
  int seconds = 30;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view arg = argv[i];
    if (arg == "--port") port = std::atoi(argv[i + 1]);
    if (arg == "--connections") connections = std::atoi(argv[i + 1]);
    if (arg == "--seconds") seconds = std::atoi(argv[i + 1]);
  }
  if (port <= 0 || connections < 0 || connections > 100000 || seconds < 1 || seconds > 3600) {
    std::fprintf(stderr,
                 "usage: eight-idle-clients --port P [--connections 10000] [--seconds 30]\n");
    return 2;
  }
  std::signal(SIGTERM, [](int) { stop_requested = true; });
  std::signal(SIGINT, [](int) { stop_requested = true; });
  std::signal(SIGPIPE, SIG_IGN);
  rlimit lim{};
  ::getrlimit(RLIMIT_NOFILE, &lim);
  lim.rlim_cur = lim.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &lim);

  const std::string hello = "GET /healthz HTTP/1.1\r\nHost: idle\r\n\r\n";
  std::vector<int> idle;
  idle.reserve(static_cast<std::size_t>(connections));
  for (int i = 0; i < connections && !stop_requested; ++i) {
    const int fd = connect_loopback(port);
    if (fd < 0 || !exchange(fd, hello)) {
      std::fprintf(stderr, "eight-idle-clients: connection %d failed: %s\n", i,
                   std::strerror(errno));
      if (fd >= 0) ::close(fd);
      break;
    }
    idle.push_back(fd);
  }
  std::printf("ready %zu\n", idle.size());
  std::fflush(stdout);

  const std::string probe = "GET /solve?board=867254301 HTTP/1.1\r\nHost: probe\r\n\r\n";
  std::vector<long> waits;
  int failed = 0;
  const auto until = Clock::now() + std::chrono::seconds(seconds);
  while (!stop_requested && Clock::now() < until) {
    const auto start = Clock::now();
    const int fd = connect_loopback(port);
    const bool ok = fd >= 0 && exchange(fd, probe);
    waits.push_back(static_cast<long>(
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count()));
    if (!ok) ++failed;
    if (fd >= 0) ::close(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  // An idle connection still open has nothing to read (no EOF waiting).
  std::size_t still_open = 0;
  for (int fd : idle) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 0) == 0) ++still_open;
    ::close(fd);
  }
  std::sort(waits.begin(), waits.end());
  const auto at = [&waits](double q) {
    return waits.empty()
               ? 0L
               : waits[static_cast<std::size_t>(q * static_cast<double>(waits.size() - 1))];
  };
  std::printf(
      "RESULT idle=%zu still_open=%zu probes=%zu probe_p50_us=%ld probe_p99_us=%ld "
      "probe_max_us=%ld failed=%d\n",
      idle.size(), still_open, waits.size(), at(0.5), at(0.99), waits.empty() ? 0L : waits.back(),
      failed);
  return failed == 0 && idle.size() == static_cast<std::size_t>(connections) ? 0 : 1;
}
