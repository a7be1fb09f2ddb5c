// The batched access log: order, completeness, and a stalled reader.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "transport/access_log.h"

using eight::server::AccessLog;
using namespace std::chrono_literals;

namespace {

std::string drain(int fd) {
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

}  // namespace

TEST_CASE("the access log writes every line, whole and in order, from many threads") {
  int p[2];
  REQUIRE(::pipe2(p, O_CLOEXEC) == 0);
  std::string got;
  std::thread reader([&] { got = drain(p[0]); });
  std::atomic<std::uint64_t> dropped{0};
  {
    AccessLog log(p[1], &dropped);
    std::vector<std::thread> writers;
    for (int t = 0; t < 4; ++t) {
      writers.emplace_back([&log, t] {
        for (int i = 0; i < 5000; ++i) {
          log.append("thread " + std::to_string(t) + " line " + std::to_string(i));
        }
      });
    }
    for (auto& w : writers) w.join();
  }  // the destructor writes what is left
  ::close(p[1]);
  reader.join();
  ::close(p[0]);
  CHECK(dropped == 0);
  // Every line is there once, and each thread's lines keep their order.
  std::vector<int> next(4, 0);
  std::size_t pos = 0, lines = 0;
  bool in_order = true;
  while (pos < got.size()) {
    const auto end = got.find('\n', pos);
    REQUIRE(end != std::string::npos);
    const std::string line = got.substr(pos, end - pos);
    int t = -1, i = -1;
    REQUIRE(std::sscanf(line.c_str(), "thread %d line %d", &t, &i) == 2);
    REQUIRE((t >= 0 && t < 4));
    in_order = in_order && i == next[t];
    next[t] = i + 1;
    ++lines;
    pos = end + 1;
  }
  CHECK(in_order);
  CHECK(lines == 20000);
}

TEST_CASE("the access log shows lines within its flush interval, without being asked") {
  int p[2];
  REQUIRE(::pipe2(p, O_CLOEXEC | O_NONBLOCK) == 0);
  AccessLog log(p[1]);
  log.append("GET / 200 1us");
  std::string got;
  const auto deadline = std::chrono::steady_clock::now() + 2s;
  while (got.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
    char buf[256];
    const ssize_t n = ::read(p[0], buf, sizeof buf);
    if (n > 0) got.assign(buf, static_cast<std::size_t>(n));
  }
  CHECK(got == "GET / 200 1us\n");
  ::close(p[0]);  // the writer's next write fails; the log goes on without it
}

TEST_CASE("a stalled log reader neither blocks requests nor a stop, lost lines are counted") {
  int p[2];
  REQUIRE(::pipe2(p, O_CLOEXEC) == 0);  // nobody reads: the pipe fills at 64 KiB
  std::atomic<std::uint64_t> dropped{0};
  const std::string line(100, 'x');
  constexpr int kLines = 60000;  // 6 MB: past the pipe and the 4 MiB buffer
  const auto start = std::chrono::steady_clock::now();
  {
    AccessLog log(p[1], &dropped);
    for (int i = 0; i < kLines; ++i) log.append(line);
    CHECK(std::chrono::steady_clock::now() - start < 2s);  // append never waited on the pipe
  }  // the destructor gives up on the full pipe
  CHECK(std::chrono::steady_clock::now() - start < 3s);
  CHECK(dropped > 0);
  ::close(p[1]);
  const std::string got = drain(p[0]);
  ::close(p[0]);
  const auto written = static_cast<std::uint64_t>(std::count(got.begin(), got.end(), '\n'));
  CHECK(written + dropped == kLines);
}
