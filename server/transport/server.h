// eight-server's transport: HTTP/1.1 on Boost.Beast and Boost.Asio.
//
// One io_context per I/O thread (default: one per core), each accepting on
// the one listening socket and serving its connections to the end
// (io_thread.h, session.h); table answers run inline on the I/O thread,
// long ones on a bounded compute pool (compute_pool.h). The API layer
// (api/handler.h) decides what each request means; this layer owns bytes,
// connections, limits and deadlines (limits.h).
//
// Lifetime: the handler, metrics and access log must outlive the Server.
// Thread safety: construct, then start() once and wait() once, from one
// thread; stop() from any thread (a signal handler's thread), any number of
// times.
#pragma once

#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

#include "api/handler.h"
#include "api/metrics.h"
#include "compute_pool.h"
#include "io_thread.h"
#include "limits.h"
#include "listener.h"

namespace eight::server {

class AccessLog;

struct ServerConfig {
  std::size_t io_threads = 1;
  std::size_t compute_threads = 1;
  std::size_t compute_queue = 64;  // requests waiting for the pool, at most
  std::size_t max_connections = 1024;
  // See ServerState::client_header.
  std::string client_header;
  Limits limits;
  AccessLog* access_log = nullptr;  // null: no access log
};

class Server {
 public:
  // Takes ownership of `listener.fd`.
  Server(const Handler& handler, Metrics& metrics, const ServerConfig& config,
         ListeningSocket listener);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Starts the I/O threads; they accept and serve until stop().
  void start();
  // Stops accepting and drains: idle connections close at once, requests in
  // flight are answered (with Connection: close), connections still busy
  // at the drain deadline are cut.
  void stop();
  // Waits for every I/O thread and the compute pool to finish; returns how
  // many connections had to be cut at the drain deadline, or -1 if an I/O
  // thread failed (an exception escaped it; the others are stopped).
  long wait();

 private:
  void close_listener();

  ComputePool compute_;
  ServerState state_;
  ListeningSocket listener_;
  std::vector<std::unique_ptr<IoThread>> io_;
  std::vector<std::thread> threads_;
  std::vector<long> results_;
};

// Each client's share of the compute pool under `config` (server.cpp says why).
ComputeShares compute_shares(const ServerConfig& config);

// Connections a process may hold given its descriptor limit, which it first
// raises to the hard limit: the limit less a reserve for the table, the log,
// the listening socket and each thread's epoll and timers.
std::size_t raise_descriptor_limit();

}  // namespace eight::server
