// The compute pool: a few threads for answers that take long (a batch of
// 10,000 boards takes ~50 ms; searches and rejection sampling take longer),
// so the I/O threads, which answer table lookups in microseconds, never wait
// behind one.
//
// Bounded and fair. The queue holds at most `capacity` jobs, and each
// client (a key the caller chooses: the peer address, or what a trusted
// proxy says) at most `per_client_queued` of them and at most
// `per_client_running` running at once. Fair by thread time: a free worker
// takes the oldest job of the waiting client that has used the least
// thread time lately (its jobs' times, decayed by half every
// kUsageHalfLife, plus what its running jobs have taken so far; clients
// that used the same take turns, in the order they started waiting),
// skipping clients at their running share. Counting queue slots alone let
// sixteen clients' batches keep a seventeenth client's 4x4 /solve behind
// all of theirs (issue 41): now a client that has not held a thread goes
// first, and waits at most for the first thread to be free, which a job's
// deadline bounds (api/job.h). So one client holding many long searches
// leaves room in the queue, and (with per_client_running below the thread
// count) a worker, for everyone else; a job past a limit is refused at once
// and the caller answers 503 with Retry-After: an overload is a quick,
// honest refusal, never an unbounded wait or unbounded memory. A job that
// has not started may be withdrawn (its client left, it waited too long,
// the server stops); once started it runs to its end, which its own
// cancellation flag and deadline hasten.
//
// The workers run at nice kWorkerNice, below the I/O threads, so long jobs
// take the cores the table answers leave idle.
//
// Thread safety: try_submit(), withdraw() and queued() from any thread.
// stop() from one thread, once no try_submit() can race it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace eight::server {

// The compute workers' nice value (the I/O threads keep the process's).
inline constexpr int kWorkerNice = 19;
// How fast a client's thread time is forgotten: halved every this long.
// Long next to a job's deadline (10 s), so a client whose batches held a
// thread stays behind the others for minutes, not for one turn.
inline constexpr std::chrono::seconds kUsageHalfLife{60};
// Clients whose thread time is remembered at most (each a few dozen
// bytes); past it the least is forgotten first.
inline constexpr std::size_t kMaxClientsRemembered = 4096;

// A job handed to the pool: the handle its submitter keeps to withdraw it.
// Opaque outside the pool.
class ComputeTicket {
 public:
  // When it was queued, for a deadline on the wait.
  std::chrono::steady_clock::time_point queued_at() const { return queued_at_; }

 private:
  friend class ComputePool;
  std::function<void()> job_;
  std::string client_;
  std::chrono::steady_clock::time_point queued_at_;
  std::chrono::steady_clock::time_point started_at_;  // guarded by the pool's mutex
  bool started_ = false;                              // guarded by the pool's mutex
  bool gone_ = false;                                 // withdrawn; guarded by the pool's mutex
};

// Gauges the pool keeps current (for metrics); each, when given, must
// outlive the pool.
struct ComputeGauges {
  std::atomic<std::int64_t>* queued = nullptr;   // jobs waiting for a thread
  std::atomic<std::int64_t>* running = nullptr;  // jobs a thread has taken and not finished
};

// Jobs one client may have waiting, and running, at once; 0 means no limit
// of its own (the capacity, the thread count).
struct ComputeShares {
  std::size_t per_client_queued = 0;
  std::size_t per_client_running = 0;
};

class ComputePool {
 public:
  // Why try_submit() refused.
  enum class Refused { kNone, kFull, kClientQueued, kStopped };

  // `threads` >= 1 workers; at most `capacity` >= 1 jobs waiting.
  ComputePool(std::size_t threads, std::size_t capacity, ComputeGauges gauges = {},
              ComputeShares shares = {});
  // Runs every job still queued, then joins the workers.
  ~ComputePool();
  ComputePool(const ComputePool&) = delete;
  ComputePool& operator=(const ComputePool&) = delete;

  // Queues `job` for `client`. Null, with `job` dropped unrun and `*why`
  // (when given) saying which limit, when the queue or the client's share
  // of it is full or the pool has stopped.
  std::shared_ptr<ComputeTicket> try_submit(std::string client, std::function<void()> job,
                                            Refused* why = nullptr);
  // The same for a job with no client of its own (every such job shares
  // one client's shares).
  bool try_submit(std::function<void()> job) { return try_submit({}, std::move(job)) != nullptr; }

  // Takes `ticket`'s job out of the queue if it has not started: true when
  // it never will run (its function is destroyed here, on the caller's
  // thread); false when it has started or finished, or was withdrawn before.
  bool withdraw(const std::shared_ptr<ComputeTicket>& ticket);

  std::size_t queued() const;
  // Clients whose thread time is remembered: at most about twice
  // kMaxClientsRemembered, however many there were.
  std::size_t clients_remembered() const;
  std::size_t capacity() const { return capacity_; }
  std::size_t threads() const { return workers_.size(); }
  const ComputeShares& shares() const { return shares_; }

  // Stops taking jobs, runs those queued, joins the workers. Idempotent.
  void stop();

 private:
  using Clock = std::chrono::steady_clock;
  struct Client {
    std::deque<std::shared_ptr<ComputeTicket>> queued;
    std::size_t running = 0;
    // The start times of its running jobs, summed as seconds since the
    // clock's epoch, for the thread time they have taken so far.
    double running_since = 0;
  };
  // A client's thread time of finished jobs, in seconds, as of `at`.
  struct Usage {
    double seconds = 0;
    Clock::time_point at;
  };

  void work();
  // The index in turns_ of the waiting client below its running share that
  // has used the least thread time (the first of equals), or turns_.size()
  // when none may run now. REQUIRES: mutex_ held.
  std::size_t next_turn(Clock::time_point now) const;
  // That client's oldest job, taken to run; null when none may run now.
  // REQUIRES: mutex_ held.
  std::shared_ptr<ComputeTicket> take_next();
  // `name`'s thread time at `now`: its finished jobs' decayed, plus its
  // running jobs' so far. REQUIRES: mutex_ held.
  double thread_time(const std::string& name, const Client& c, Clock::time_point now) const;
  // Charges `name` for a job that ran `seconds`. REQUIRES: mutex_ held.
  void charge(const std::string& name, double seconds, Clock::time_point now);
  void publish_gauges();  // REQUIRES: mutex_ held

  const std::size_t capacity_;
  const ComputeGauges gauges_;
  ComputeShares shares_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, Client> clients_;  // clients with jobs queued or running; guarded
  std::deque<std::string> turns_;          // clients with jobs queued, next first; guarded
  std::map<std::string, Usage> usage_;     // thread time of finished jobs; guarded
  std::size_t queued_ = 0;                 // guarded by mutex_
  std::size_t running_ = 0;                // guarded by mutex_
  bool stopping_ = false;                  // guarded by mutex_
  std::vector<std::thread> workers_;
};

}  // namespace eight::server
