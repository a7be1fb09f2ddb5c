#include "server.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <exception>

#include "response_writer.h"

namespace eight::server {

// Each client's share of the compute pool: an eighth of the queue (so eight
// clients can fill it, never one), and one thread fewer than the pool has,
// so one client's long searches always leave a thread for the others (with
// one thread, that thread; a second client then waits for the job running).
ComputeShares compute_shares(const ServerConfig& config) {
  ComputeShares shares;
  shares.per_client_queued = std::max<std::size_t>(1, config.compute_queue / 8);
  shares.per_client_running = std::max<std::size_t>(2, config.compute_threads) - 1;
  return shares;
}

Server::Server(const Handler& handler, Metrics& metrics, const ServerConfig& config,
               ListeningSocket listener)
    : compute_(std::max<std::size_t>(1, config.compute_threads),
               std::max<std::size_t>(1, config.compute_queue),
               {.queued = &metrics.compute_queue_depth(), .running = &metrics.compute_running()},
               compute_shares(config)),
      state_{handler,
             metrics,
             config.access_log,
             compute_,
             config.limits,
             keep_alive_header(config.limits),
             config.client_header,
             config.max_connections,
             metrics.open_connections(),
             metrics.memory_accounted()},
      listener_(std::move(listener)) {
  metrics.set_limits(static_cast<std::int64_t>(config.max_connections),
                     static_cast<std::int64_t>(compute_.capacity()),
                     static_cast<std::int64_t>(compute_.threads()));
  metrics.set_memory_budget(static_cast<std::int64_t>(config.limits.memory_budget));
  for (std::size_t i = 0; i < std::max<std::size_t>(1, config.io_threads); ++i) {
    io_.push_back(std::make_unique<IoThread>(state_, listener_.fd));
  }
  // Each thread holds its own duplicate: when the last of them closes at a
  // stop, the listening socket closes and new connections are refused.
  close_listener();
}

Server::~Server() {
  if (!threads_.empty()) {
    stop();
    wait();
  }
  io_.clear();
  close_listener();
}

void Server::start() {
  results_.assign(io_.size(), 0);
  for (std::size_t i = 0; i < io_.size(); ++i) {
    threads_.emplace_back([this, i] {
      try {
        results_[i] = static_cast<long>(io_[i]->run());
      } catch (const std::exception&) {
        results_[i] = -1;
        stop();  // one thread down: bring the rest down with it, cleanly
      }
    });
  }
}

void Server::stop() {
  for (auto& io : io_) io->stop();
}

void Server::close_listener() {
  if (listener_.fd >= 0) ::close(listener_.fd);
  listener_.fd = -1;
}

long Server::wait() {
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
  compute_.stop();  // every I/O thread is done: no more jobs can come
  long cut = 0;
  for (long r : results_) {
    if (r < 0) return -1;
    cut += r;
  }
  return cut;
}

std::size_t raise_descriptor_limit() {
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &lim);
    ::getrlimit(RLIMIT_NOFILE, &lim);
  }
  // 64 for everything that is not a connection: the table mapping's file
  // (closed after mmap), stdio, the listening socket and its duplicates,
  // each I/O thread's epoll, eventfd and timerfd, a SIGHUP reload's file.
  constexpr rlim_t kReserve = 64;
  const rlim_t n = lim.rlim_cur == RLIM_INFINITY ? rlim_t{1} << 20 : lim.rlim_cur;
  return n > kReserve * 2 ? static_cast<std::size_t>(n - kReserve)
                          : static_cast<std::size_t>(n / 2);
}

}  // namespace eight::server
