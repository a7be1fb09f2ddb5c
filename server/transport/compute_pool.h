// The compute pool: a few threads for answers that take long (a batch of
// 10,000 boards takes ~50 ms; searches take longer), so the I/O threads,
// which answer table lookups in microseconds, never wait behind one.
//
// The queue is bounded: when `capacity` jobs already wait, try_submit()
// refuses at once and the caller answers 503 with Retry-After, so an
// overload is a quick, honest refusal, never an unbounded wait or unbounded
// memory. Jobs run in arrival order. The workers run at nice kWorkerNice,
// below the I/O threads, so long jobs take the cores the table answers
// leave idle.
//
// Thread safety: try_submit() and queued() from any thread. stop() from one
// thread, once no try_submit() can race it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace eight::server {

// The compute workers' nice value (the I/O threads keep the process's).
inline constexpr int kWorkerNice = 19;

class ComputePool {
 public:
  // `threads` >= 1 workers; at most `capacity` >= 1 jobs waiting. `depth`,
  // when given, is kept equal to the number waiting (a metrics gauge) and
  // must outlive the pool.
  ComputePool(std::size_t threads, std::size_t capacity,
              std::atomic<std::int64_t>* depth = nullptr);
  // Runs every job still queued, then joins the workers.
  ~ComputePool();
  ComputePool(const ComputePool&) = delete;
  ComputePool& operator=(const ComputePool&) = delete;

  // Queues `job`; false, with `job` dropped unrun, when the queue is full or
  // the pool has stopped.
  bool try_submit(std::function<void()> job);

  std::size_t queued() const;
  std::size_t capacity() const { return capacity_; }

  // Stops taking jobs, runs those queued, joins the workers. Idempotent.
  void stop();

 private:
  void work();

  const std::size_t capacity_;
  std::atomic<std::int64_t>* const depth_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;  // guarded by mutex_
  bool stopping_ = false;                   // guarded by mutex_
  std::vector<std::thread> workers_;
};

}  // namespace eight::server
