// The connection loop's worker pool, without sockets.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <set>
#include <thread>

#include "connection_loop.h"

using eight::server::WorkerPool;
using namespace std::chrono_literals;

// Waits until all `n` workers of `pool` wait for a job.
bool all_idle(const WorkerPool& pool, std::size_t n) {
  for (int i = 0; i < 5000 && pool.idle() < n; ++i) std::this_thread::sleep_for(1ms);
  return pool.idle() == n;
}

TEST_CASE("the worker pool gives each job to the worker that went idle last") {
  WorkerPool pool(16);
  std::set<std::thread::id> used;
  for (int i = 0; i < 20; ++i) {
    REQUIRE(all_idle(pool, 16));
    std::promise<std::thread::id> ran;
    pool.enqueue([&ran] { ran.set_value(std::this_thread::get_id()); });
    used.insert(ran.get_future().get());
  }
  // One job at a time keeps one warm thread busy, not all 16 in turn.
  CHECK(used.size() == 1);
  pool.shutdown();
}

TEST_CASE(
    "the worker pool says when a job waits for a worker, and runs every job before "
    "shutting down") {
  WorkerPool pool(1);
  std::promise<void> started;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> done{0};
  pool.enqueue([&] {
    started.set_value();
    released.wait();
    ++done;
  });
  started.get_future().wait();  // the only worker is busy, nothing waits
  CHECK(!pool.starved());
  pool.enqueue([&] { ++done; });
  pool.enqueue([&] { ++done; });
  CHECK(pool.starved());
  release.set_value();
  for (int i = 0; i < 1000 && pool.starved(); ++i) std::this_thread::sleep_for(1ms);
  CHECK(!pool.starved());
  pool.shutdown();
  CHECK(done == 3);
}
