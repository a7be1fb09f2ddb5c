// A loopback HTTP server answering as a test says (httplib::Server on a
// thread of its own, 127.0.0.1 only): the stand-in for what a sound
// eight-server never does, for the tests of `eight fetch` and `eight
// --server`.
#pragma once

#include <doctest/doctest.h>
#include <httplib.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "eight/table.h"
#include "support.h"

namespace eight::test {

// The table the stand-ins serve: the default one, 21 MB, so a download is
// more than one read.
inline const std::vector<std::uint8_t>& served() {
  return default_table_bytes();
}

// Its ETag as eight-server gives it: the checksum, quoted.
inline std::string etag_of(const std::vector<std::uint8_t>& table) {
  auto view = TableView::parse(table, "test", Check::kChecksum);
  REQUIRE(view.ok());
  char buf[24];
  std::snprintf(buf, sizeof buf, "\"%016llx\"", static_cast<unsigned long long>(view->checksum()));
  return buf;
}

struct FakeServer {
  httplib::Server http;
  std::thread thread;
  int port = -1;
  explicit FakeServer(const std::function<void(httplib::Server&)>& setup) {
    setup(http);
    port = http.bind_to_any_port("127.0.0.1");
    REQUIRE(port > 0);
    thread = std::thread([this] { http.listen_after_bind(); });
    for (int i = 0; i < 500 && !http.is_running(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    REQUIRE(http.is_running());
  }
  ~FakeServer() {
    http.stop();
    thread.join();
  }
  FakeServer(const FakeServer&) = delete;
  FakeServer& operator=(const FakeServer&) = delete;
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port); }
};

}  // namespace eight::test
