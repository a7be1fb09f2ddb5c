// The compute pool: bounded, in order, and done with its queue when it stops.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

#include "transport/compute_pool.h"

using eight::server::ComputePool;
using namespace std::chrono_literals;

namespace {

// A latch the test opens: jobs that wait on it hold their worker.
struct Gate {
  std::mutex mutex;
  std::condition_variable cv;
  bool open = false;
  void wait() {
    std::unique_lock lock(mutex);
    cv.wait(lock, [this] { return open; });
  }
  void release() {
    {
      std::lock_guard lock(mutex);
      open = true;
    }
    cv.notify_all();
  }
};

}  // namespace

TEST_CASE("a full compute queue refuses at once instead of waiting") {
  std::atomic<std::int64_t> depth{0};
  ComputePool pool(1, 2, &depth);
  Gate gate;
  std::atomic<int> ran{0};
  std::atomic<bool> started{false};
  REQUIRE(pool.try_submit([&] {
    started = true;
    gate.wait();
    ++ran;
  }));
  while (!started) std::this_thread::yield();  // the worker holds the first job
  CHECK(pool.try_submit([&] { ++ran; }));
  CHECK(pool.try_submit([&] { ++ran; }));
  CHECK(depth == 2);
  // A try_submit that waited for room would wait for the first job, which
  // waits for the gate: "at once" is "returned with the gate still closed".
  // The watchdog opens it after 10 s so such a wait ends (a hang guard, not
  // a time bound: a busy machine may be slow, never out of order).
  std::jthread watchdog([&gate](const std::stop_token& stop) {
    for (int i = 0; i < 1000 && !stop.stop_requested(); ++i) std::this_thread::sleep_for(10ms);
    gate.release();
  });
  CHECK_FALSE(pool.try_submit([&] { ++ran; }));  // two waiting: full
  {
    std::lock_guard lock(gate.mutex);
    CHECK_FALSE(gate.open);
  }
  CHECK(ran == 0);
  CHECK(pool.queued() == 2);
  gate.release();
  pool.stop();
  CHECK(ran == 3);
  CHECK(depth == 0);
}

TEST_CASE("compute jobs run in arrival order on one thread, and stop runs what is queued") {
  ComputePool pool(1, 100);
  std::vector<int> order;
  std::mutex mutex;
  for (int i = 0; i < 50; ++i) {
    REQUIRE(pool.try_submit([&, i] {
      std::lock_guard lock(mutex);
      order.push_back(i);
    }));
  }
  pool.stop();
  REQUIRE(order.size() == 50);
  for (int i = 0; i < 50; ++i) CHECK(order[static_cast<std::size_t>(i)] == i);
  CHECK_FALSE(pool.try_submit([] {}));  // stopped
}

TEST_CASE("the compute pool runs jobs on all its threads at once") {
  ComputePool pool(4, 16);
  Gate gate;
  std::atomic<int> running{0};
  for (int i = 0; i < 4; ++i) {
    REQUIRE(pool.try_submit([&] {
      ++running;
      gate.wait();
    }));
  }
  for (int i = 0; i < 200 && running < 4; ++i) std::this_thread::sleep_for(5ms);
  CHECK(running == 4);
  gate.release();
}
