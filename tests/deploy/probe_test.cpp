// `eight probe`, the container health check, against small fake HTTP servers on
// loopback: 2xx is healthy (exit 0); non-2xx, refused, silent or garbage is not
// (exit 1); bad arguments are a usage error (exit 2).
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "support.h"

using eight::test::run_program;

namespace {

int listen_loopback(int& port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(fd, 16) == 0);
  socklen_t len = sizeof addr;
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
  port = ntohs(addr.sin_port);
  return fd;
}

// Answers every connection with `answer` (after reading the request head), or
// never answers when `answer` is empty. Records the last request head.
class FakeServer {
 public:
  explicit FakeServer(std::string answer) : answer_(std::move(answer)) {
    fd_ = listen_loopback(port_);
    thread_ = std::thread([this] { serve(); });
  }
  ~FakeServer() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  FakeServer(const FakeServer&) = delete;
  FakeServer& operator=(const FakeServer&) = delete;
  std::string port() const { return std::to_string(port_); }
  std::string request() const { return request_; }

 private:
  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) continue;
      std::string head;
      char buf[1024];
      while (head.find("\r\n\r\n") == std::string::npos && !stop_) {
        pollfd q{c, POLLIN, 0};
        if (::poll(&q, 1, 50) <= 0) continue;
        const ssize_t n = ::recv(c, buf, sizeof buf, 0);
        if (n <= 0) break;
        head.append(buf, static_cast<std::size_t>(n));
      }
      request_ = head;
      if (answer_.empty()) {
        while (!stop_) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      } else {
        (void)::send(c, answer_.data(), answer_.size(), MSG_NOSIGNAL);
      }
      ::close(c);
    }
  }

  std::string answer_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::string request_;
  std::thread thread_;
};

}  // namespace

TEST_CASE("eight probe exits 0 on a 2xx answer and sends a well-formed GET") {
  FakeServer server("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n");
  const auto r = run_program("eight", {"probe", "--port", server.port(), "--path", "/readyz"});
  CHECK(r.status == 0);
  CHECK(r.out == "http://127.0.0.1:" + server.port() + "/readyz: 200\n");
  const std::string req = server.request();
  CHECK(req.rfind("GET /readyz HTTP/1.1\r\n", 0) == 0);
  CHECK(req.find("\r\nHost: 127.0.0.1:" + server.port() + "\r\n") != std::string::npos);
  CHECK(req.find("\r\nConnection: close\r\n") != std::string::npos);
}

TEST_CASE("eight probe takes its port from EIGHT_PORT and its path defaults to /readyz") {
  FakeServer server("HTTP/1.0 204 No Content\r\n\r\n");
  ::setenv("EIGHT_PORT", server.port().c_str(), 1);
  const auto r = run_program("eight", {"probe"});
  ::unsetenv("EIGHT_PORT");
  CHECK(r.status == 0);
  CHECK(server.request().rfind("GET /readyz HTTP/1.1\r\n", 0) == 0);
}

TEST_CASE("eight probe exits 1 on a non-2xx answer") {
  FakeServer server("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n");
  const auto r = run_program("eight", {"probe", "--port", server.port(), "--path", "/healthz"});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err.find("/healthz: status 503") != std::string::npos);
}

TEST_CASE("eight probe exits 1 on an answer that is not HTTP") {
  FakeServer server("SSH-2.0-OpenSSH\r\n");
  const auto r = run_program("eight", {"probe", "--port", server.port()});
  CHECK(r.status == 1);
  CHECK(r.err.find("not an HTTP answer") != std::string::npos);
}

TEST_CASE("eight probe exits 1 when nothing listens") {
  int port = 0;
  const int fd = listen_loopback(port);
  ::close(fd);  // the port is free again: connecting is refused
  const auto r = run_program("eight", {"probe", "--port", std::to_string(port)});
  CHECK(r.status == 1);
  CHECK(r.err.find("refused") != std::string::npos);
}

TEST_CASE("eight probe gives up at its timeout when the server never answers") {
  FakeServer server("");
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_program("eight", {"probe", "--port", server.port(), "--timeout-ms", "300"});
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(r.status == 1);
  CHECK(r.err.find("timed out") != std::string::npos);
  CHECK(took >= std::chrono::milliseconds(250));
  CHECK(took < std::chrono::seconds(3));
}

TEST_CASE("eight probe rejects bad arguments with exit 2") {
  CHECK(run_program("eight", {"probe", "--port", "0"}).status == 2);
  CHECK(run_program("eight", {"probe", "--port", "http"}).status == 2);
  CHECK(run_program("eight", {"probe", "--path", "readyz"}).status == 2);
  CHECK(run_program("eight", {"probe", "--timeout-ms", "-5"}).status == 2);
  CHECK(run_program("eight", {"probe", "--bogus"}).status == 2);
  const auto help = run_program("eight", {"probe", "--help"});
  CHECK(help.status == 0);
  CHECK(help.out.find("usage: eight probe") != std::string::npos);
}
