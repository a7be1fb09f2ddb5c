// What one run of a request (Handler::run) may spend: search nodes up to
// the server's --max-budget, time up to its --job-deadline, and nothing
// more once its client has gone. Service::run() makes one when the run
// starts (on a compute thread, once the request left the queue, whose wait
// has its own deadline), and every endpoint that works long honours all
// three: the searches (their SearchBudget), a batch between its items, a
// run of draws between draws, the body's parse.
//
// Why a deadline as well as a node budget: nodes bound a search, not time.
// A 5x5 node costs several times a 4x4 one, a 10x10 one more; a batch's
// budget is spent over thousands of items; table draws and database
// builds count no nodes at all. 500,000,000 nodes held a thread 253 s on
// a 5x5 board (issue 41).
//
// Thread safety: a plain value, read by the one thread running the job;
// `cancelled` is written by another.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "eight/answer.h"
#include "eight/fifteen_search.h"

namespace eight::server {

// The time one request may hold a compute thread unless the operator says
// otherwise (eight-server --job-deadline): the documented 15 s at most,
// with room for the work after a search stops (writing the answer, a
// reduction's path) on a slow machine.
inline constexpr std::chrono::milliseconds kDefaultJobDeadline{10'000};
// The range --job-deadline takes: 10 ms (tests) to an hour.
inline constexpr std::chrono::milliseconds kMinJobDeadline{10};
inline constexpr std::chrono::milliseconds kMaxJobDeadline{3'600'000};

struct Job {
  using Clock = std::chrono::steady_clock;

  // The server's --max-budget: the most nodes a request's searches may
  // expand; 0 turns searches off.
  std::uint64_t max_budget = kMaxSearchNodes;
  // The server's --job-deadline, for messages ("its deadline of 10 s").
  std::chrono::milliseconds time_limit = kDefaultJobDeadline;
  // When the run must stop: its start plus time_limit.
  Clock::time_point deadline = Clock::time_point::max();
  // True once the client has gone or the server stops. Never null once
  // made by start().
  const std::atomic<bool>* cancelled = nullptr;

  // A job starting now.
  static Job start(std::uint64_t max_budget, std::chrono::milliseconds time_limit,
                   const std::atomic<bool>& cancelled) {
    return Job{max_budget, time_limit, Clock::now() + time_limit, &cancelled};
  }
  bool is_cancelled() const { return cancelled->load(std::memory_order_relaxed); }
  bool past_deadline() const { return Clock::now() >= deadline; }
  // A search's budget: `nodes`, this job's deadline and cancel flag. A
  // pattern shape's databases not built yet are built in the background
  // meanwhile, never on the job's time (grid_search.h).
  fifteen::SearchBudget search_budget(std::uint64_t nodes) const {
    fifteen::SearchBudget b;
    b.max_nodes = nodes;
    b.deadline = deadline;
    b.cancel = cancelled;
    b.build_in_background = true;
    return b;
  }
};

}  // namespace eight::server
