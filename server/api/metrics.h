// Request counters and latency histograms, rendered in the Prometheus text
// exposition format (version 0.0.4).
//
// record() runs on every request, so it only bumps relaxed atomics in fixed
// arrays: no lock, no allocation, and labels cannot grow without bound
// (routes are a fixed list, statuses a fixed range). render() reads the
// atomics one by one, so a scrape racing with requests may see a count one
// request ahead of a bucket; Prometheus tolerates that.
//
// Thread safety: every member function may be called from any thread at once.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "routes.h"

namespace eight {
class TableSet;
}

namespace eight::server {

class Metrics {
 public:
  // Upper bounds of the latency buckets, in microseconds (then +Inf). A
  // /solve answer takes tens of microseconds; /table downloads take longer.
  static constexpr std::array<std::uint64_t, 14> kBucketMicros = {
      25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 1000000};
  static constexpr int kMinStatus = 100;
  static constexpr int kMaxStatus = 599;

  Metrics();

  // Counts one finished request. Statuses outside 100..599 count as 599.
  void record(Route route, int status, std::chrono::nanoseconds elapsed);

  // The exposition text: request counters, latency histograms, and facts
  // about `tables` (skipped when null) and the process.
  std::string render(const TableSet* tables) const;

  // Requests counted so far for one route and status (for tests).
  std::uint64_t requests(Route route, int status) const;

  // Access log lines dropped because the log's reader fell behind.
  std::atomic<std::uint64_t>& access_log_dropped() { return access_log_dropped_; }

  // Gauges the transport keeps current: connections open now, requests
  // waiting in the compute pool's queue now and running on its threads
  // now; and the sizes they are bounded by, set once at start.
  std::atomic<std::int64_t>& open_connections() { return open_connections_; }
  std::atomic<std::int64_t>& compute_queue_depth() { return compute_queue_depth_; }
  std::atomic<std::int64_t>& compute_running() { return compute_running_; }
  // Long requests whose client left before the answer: dropped before they
  // started, or stopped early.
  std::atomic<std::uint64_t>& compute_cancelled() { return compute_cancelled_; }
  // Bytes the connections hold for requests and answers now, and the
  // budget they are held to (transport/limits.h, memory_budget).
  std::atomic<std::int64_t>& memory_accounted() { return memory_accounted_; }
  void set_memory_budget(std::int64_t bytes) { memory_budget_ = bytes; }
  // The background build of the 4x4 pattern databases (--pdb-dir,
  // pdb_build.h): kNone without --pdb-dir; kBuilding while it builds (or
  // waits for another server building into the same folder); kReady once
  // the file is served (found sound at start, or built and switched in);
  // kFailed when it could not be built or switched in (the log says why).
  enum class PdbBuild : int { kNone, kBuilding, kReady, kFailed };
  void set_pdb_build(PdbBuild state) { pdb_build_.store(static_cast<int>(state)); }
  PdbBuild pdb_build() const { return static_cast<PdbBuild>(pdb_build_.load()); }

  void set_limits(std::int64_t max_connections, std::int64_t compute_queue_capacity,
                  std::int64_t compute_threads) {
    max_connections_ = max_connections;
    compute_queue_capacity_ = compute_queue_capacity;
    compute_threads_ = compute_threads;
  }

 private:
  static constexpr std::size_t kStatuses = kMaxStatus - kMinStatus + 1;
  static constexpr std::size_t kBuckets = kBucketMicros.size() + 1;  // + the +Inf bucket

  std::array<std::array<std::atomic<std::uint64_t>, kStatuses>, kRouteCount> requests_{};
  // Per-bucket (not cumulative) counts; render() accumulates them.
  std::array<std::array<std::atomic<std::uint64_t>, kBuckets>, kRouteCount> buckets_{};
  std::array<std::atomic<std::uint64_t>, kRouteCount> latency_sum_ns_{};
  std::atomic<std::uint64_t> access_log_dropped_{0};
  std::atomic<std::int64_t> open_connections_{0};
  std::atomic<std::int64_t> compute_queue_depth_{0};
  std::atomic<std::int64_t> compute_running_{0};
  std::atomic<std::uint64_t> compute_cancelled_{0};
  std::atomic<std::int64_t> memory_accounted_{0};
  std::atomic<std::int64_t> memory_budget_{0};
  std::atomic<int> pdb_build_{0};
  std::atomic<std::int64_t> max_connections_{0};
  std::atomic<std::int64_t> compute_queue_capacity_{0};
  std::atomic<std::int64_t> compute_threads_{0};
  std::chrono::system_clock::time_point started_;
};

}  // namespace eight::server
