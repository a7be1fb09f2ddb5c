// The per-connection loop of eight-server, in place of httplib 0.11's.
//
// httplib 0.11 serves each accepted connection on one pool thread, from
// accept to close, and offers no hook between requests. Its own loop has
// three weaknesses a public server cannot keep (issue 6):
//   - no deadline for a request: its read timeout applies to each recv, so
//     a client trickling a header a byte a second holds a thread for hours;
//   - an idle keep-alive connection keeps its thread for the whole keep-alive
//     timeout even while new connections queue for one;
//   - a stop leaves idle connections waiting out the keep-alive timeout.
// HttpServer overrides the one virtual httplib calls per connection
// (process_and_close_socket) with a loop that fixes those, and otherwise
// hands every request to httplib's own parser, router and writer
// (process_request) over a socket stream like httplib's, so request handling
// is exactly httplib's.
//
// The loop, per connection:
//   1. Wait for the next request's first byte: at most the keep-alive timeout
//      (httplib's set_keep_alive_timeout). A connection idle for kIdleCheck
//      gives its thread up (closes) when the server is stopping, and, if it
//      has served a request, when other connections wait for a thread. (Not
//      sooner: a busy client sends its next request microseconds after the
//      last answer, and must not find its connection closed.) A request
//      already received is always served.
//   2. Serve it with process_request. From its first byte, the request line
//      and headers must arrive within the head timeout; a body, after them,
//      at the minimum body rate on average (the head timeout's worth of
//      grace, plus a second per min_body_rate bytes received). A client
//      still sending past its deadline is closed without an answer and the
//      request is logged as 408. Each read also waits at most the read
//      timeout. (The pre-routing handler must call request_head_received():
//      httplib reads a body after it, and offers no other sign.)
//   3. Repeat up to the keep-alive count; while stopping, the request in hand
//      is answered with "Connection: close" and the loop ends.
//   4. Close: shut down sending, read what the client sent meanwhile, close
//      (so the kernel sends FIN after the last response, not a reset that
//      could discard its unsent bytes).
//
// Thread safety: configure (set_* of httplib and of this class) before
// listening; everything else is called by httplib's threads.
#pragma once

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace eight::server {

// httplib's TaskQueue for connections: a fixed set of worker threads. A job
// goes to the worker that went idle last (or, with none idle, waits in
// arrival order for the next worker to finish), so a load that needs 64
// threads keeps using the same 64, warm, and the rest of a large pool never
// touches more than its first stack pages: memory follows the connections
// served at once, not the pool size. It can also tell whether a job is
// waiting for a worker. shutdown() lets the workers finish every queued
// job, then joins them.
class WorkerPool final : public httplib::TaskQueue {
 public:
  explicit WorkerPool(std::size_t threads);
  ~WorkerPool() override;
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void enqueue(std::function<void()> fn) override;
  void shutdown() override;

  // Whether a job is waiting for a worker (all are busy).
  bool starved() const { return starved_.load(std::memory_order_relaxed); }
  // How many workers wait for a job now.
  std::size_t idle() const {
    std::lock_guard lock(mutex_);
    return idle_.size();
  }

 private:
  struct Worker {
    std::condition_variable wake;
    std::function<void()> job;  // handed over by enqueue(); empty when none
    std::thread thread;
  };

  void work(Worker& self);

  mutable std::mutex mutex_;
  std::deque<std::function<void()>> jobs_;  // waiting: no worker was idle
  std::vector<Worker*> idle_;               // a stack: back() went idle last
  bool shutdown_ = false;
  std::atomic<bool> starved_{false};
  std::vector<std::unique_ptr<Worker>> workers_;
};

class HttpServer : public httplib::Server {
 public:
  // How often a connection waiting between requests checks for a stop and
  // for connections waiting for a thread: the delay of either reaction.
  static constexpr std::chrono::milliseconds kIdleCheck{25};

  HttpServer();

  // Worker threads = connections served at once. Default 64.
  void set_threads(std::size_t threads) { threads_ = threads; }
  // The time a request line and headers may take to arrive from the
  // request's first byte. Default 2 s.
  void set_head_timeout(std::chrono::milliseconds timeout) { head_timeout_ = timeout; }
  // The average rate, in bytes per second, below which a request body is
  // cut off (after the head timeout's worth of grace). Default 64 KiB/s.
  void set_min_body_rate(std::size_t bytes_per_second) {
    min_body_rate_ = std::max<std::size_t>(1, bytes_per_second);
  }

 private:
  bool process_and_close_socket(socket_t sock) override;

  std::size_t threads_ = 64;
  std::chrono::milliseconds head_timeout_{2000};
  std::size_t min_body_rate_ = 64 * 1024;
  // The pool of the running listen loop; set by new_task_queue, which
  // httplib calls at the start of listen and deletes the pool at its end,
  // after every worker (the only readers of this pointer) has returned.
  std::atomic<WorkerPool*> pool_{nullptr};
};

// Tells the connection loop that the request now handled on this thread has
// its line and headers in: what follows is its body, if any. Call from the
// pre-routing handler; a no-op on a thread that is not serving a connection.
void request_head_received();

// Whether the request now being handled on this thread was cut off while it
// was read, past its deadline (the logger records such a request as 408).
bool request_timed_out();

}  // namespace eight::server
