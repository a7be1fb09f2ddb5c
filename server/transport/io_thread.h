// One I/O thread of the server: its own io_context, its own acceptor on the
// shared listening socket, the connections it accepted, and a sweep that
// keeps their deadlines.
//
// A connection lives on the thread that accepted it, for its whole life, so
// nothing a connection does needs a lock. Deadlines are checked by one timer
// per thread (every Limits::sweep_interval) instead of a timer per request:
// arming a timer per request costs system calls on the hot path, and every
// deadline here is seconds long, so 50 ms of slack is free.
//
// Thread safety: run() on one thread; stop() from any thread; everything
// else only from the thread running run() (the sessions).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "api/handler.h"
#include "api/metrics.h"
#include "compute_pool.h"
#include "limits.h"

namespace eight::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

class AccessLog;
class Session;

// What every I/O thread and connection of one server shares. Owned by the
// Server, it outlives them all.
struct ServerState {
  const Handler& handler;
  Metrics& metrics;
  AccessLog* access_log;  // null: no access log
  ComputePool& compute;
  const Limits limits;
  const std::string keep_alive_value;  // the Keep-Alive header (response_writer.h)
  // The request header a trusted reverse proxy sets to the client's
  // address (X-Forwarded-For: its last address), or empty: the client is
  // the peer. Names the client for the compute pool's fair share and the
  // access log.
  const std::string client_header;
  const std::size_t max_connections;
  // Connections open now, over all threads: the one count, which the limit
  // and the eight_connections_open gauge both read (it is the Metrics'
  // gauge). A Session adds itself when it is made and takes itself off
  // when it is destroyed, so every way a connection ends (the client's
  // close, Connection: close, a deadline, a stop) gives its place back.
  std::atomic<std::int64_t>& connections;
  // Bytes the connections hold now, counted against limits.memory_budget:
  // each Session adds what it holds and takes it off when it is destroyed
  // (the Metrics' gauge, eight_memory_accounted_bytes).
  std::atomic<std::int64_t>& memory;
  // The most `memory` held since the allocator last gave memory back
  // (IoThread::give_back_memory).
  std::atomic<std::int64_t> memory_high{0};
  // When it last did, in nanoseconds of Clock.
  std::atomic<std::int64_t> memory_trimmed_at{0};
};

class IoThread {
 public:
  // `listen_fd` is the server's listening socket; this thread accepts on a
  // duplicate of it, which it owns.
  IoThread(ServerState& state, int listen_fd);
  IoThread(const IoThread&) = delete;
  IoThread& operator=(const IoThread&) = delete;

  // Accepts and serves until stop() has drained every connection; returns
  // how many connections were still busy at the drain deadline and were cut.
  std::size_t run();
  // Stops accepting; closes idle connections now and the others once their
  // answer is out, or at the drain deadline. Safe from any thread.
  void stop();

  // For sessions, on this thread:
  asio::io_context& context() { return context_; }
  ServerState& state() { return state_; }
  bool stopping() const { return stopping_; }
  // The Date header for answers sent now (updated by the sweep).
  std::string_view date() const { return date_; }
  void add(Session* s);
  void remove(Session* s);

 private:
  void accept();
  void on_accept(const boost::system::error_code& ec, tcp::socket socket);
  bool make_room();
  void refuse_connection(tcp::socket& socket);
  void schedule_sweep();
  void sweep();
  void give_back_memory();
  void update_date();
  void begin_stop();
  void finish_if_drained();

  ServerState& state_;
  // Declared before context_: sessions that context_'s destructor still
  // destroys (on an abnormal exit) unlist themselves from here.
  Session* first_ = nullptr;  // the connections, oldest first (an intrusive list)
  Session* last_ = nullptr;
  std::string date_;
  long long date_second_ = -1;
  bool stopping_ = false;
  bool accepting_paused_ = false;
  std::size_t cut_ = 0;
  asio::io_context context_{1};  // run by one thread: Asio may skip some locking
  tcp::acceptor acceptor_;
  tcp::endpoint peer_;  // filled by each accept
  asio::steady_timer sweep_timer_;
  asio::steady_timer accept_pause_;
  asio::steady_timer drain_timer_;
};

}  // namespace eight::server
