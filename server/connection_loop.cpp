#include "connection_loop.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace eight::server {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

class ConnectionStream;
thread_local ConnectionStream* current_stream = nullptr;
thread_local bool current_request_timed_out = false;

// poll() for one event on `fd`, waiting at most `timeout` (0: just look).
// Returns > 0 when ready (or closed, or in error: the next call reports
// that), 0 on timeout, < 0 on failure.
int wait_for(int fd, short events, Clock::duration timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    const auto left = std::max(Clock::duration::zero(), deadline - Clock::now());
    pollfd p{fd, events, 0};
    // Rounded up: a wait of 0.3 ms must not become a busy loop of 0 ms polls.
    const int r = ::poll(&p, 1, static_cast<int>(std::chrono::ceil<milliseconds>(left).count()));
    if (r >= 0 || errno != EINTR) return r;
  }
}

milliseconds to_ms(time_t sec, time_t usec) {
  return milliseconds(sec * 1000 + usec / 1000);
}

void endpoint(int fd, bool peer, std::string& ip, int& port) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  auto* sa = reinterpret_cast<sockaddr*>(&addr);
  if ((peer ? ::getpeername(fd, sa, &len) : ::getsockname(fd, sa, &len)) != 0) return;
  std::array<char, NI_MAXHOST> host{};
  if (::getnameinfo(sa, len, host.data(), host.size(), nullptr, 0, NI_NUMERICHOST) == 0) {
    ip = host.data();
  }
  if (addr.ss_family == AF_INET) port = ntohs(reinterpret_cast<sockaddr_in*>(sa)->sin_port);
  if (addr.ss_family == AF_INET6) port = ntohs(reinterpret_cast<sockaddr_in6*>(sa)->sin6_port);
}

// A connection's socket as an httplib::Stream for one request, made when the
// request's first byte has arrived.
//
// Reads wait at most the read timeout each, and never past the request's
// deadline (httplib reads nothing once it answers): the head timeout from the first byte
// for the line and headers; then, for the body, the head timeout again plus
// a second per min_body_rate bytes received. Once the deadline passed, the
// stream refuses to write, so a request that ran out of time gets no answer.
// The stream being read on a thread is current_stream, so that
// request_head_received() can reach it from the pre-routing handler.
//
// Like httplib 0.11's own stream, it lives for one request, and bytes it
// read past the request's end go with it: after a request line httplib
// cannot parse (400, 414), the rest of that request is dropped rather than
// read as further requests. (So, as before, pipelined requests are not
// supported; browsers and load balancers do not pipeline.)
class ConnectionStream final : public httplib::Stream {
 public:
  struct Limits {
    milliseconds read;
    milliseconds write;
    milliseconds head;
    std::size_t min_body_rate;  // bytes per second
  };

  ConnectionStream(int fd, Limits limits)
      : fd_(fd), limits_(limits), deadline_(Clock::now() + limits.head) {
    current_stream = this;
    current_request_timed_out = false;
  }
  ~ConnectionStream() override { current_stream = nullptr; }
  ConnectionStream(const ConnectionStream&) = delete;
  ConnectionStream& operator=(const ConnectionStream&) = delete;

  // The line and headers are in; the body (if any) follows.
  void head_received() {
    if (phase_ != Phase::kHead) return;
    phase_ = Phase::kBody;
    deadline_ = Clock::now() + limits_.head;
  }

  bool timed_out() const { return timed_out_; }
  bool has_buffered() const { return begin_ < end_; }

  bool is_readable() const override {
    return has_buffered() || wait_for(fd_, POLLIN, limits_.read) > 0;
  }
  bool is_writable() const override {
    return !timed_out_ && wait_for(fd_, POLLOUT, limits_.write) > 0;
  }

  ssize_t read(char* ptr, size_t size) override {
    if (has_buffered()) return take_buffered(ptr, size);
    if (!wait_readable()) return -1;
    const bool direct = size >= buffer_.size();  // httplib reads bodies 4 KiB at a time
    const ssize_t n = direct ? receive(ptr, size) : receive(buffer_.data(), buffer_.size());
    if (n <= 0) return n;
    if (phase_ == Phase::kBody) {
      deadline_ += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
          static_cast<double>(n) / static_cast<double>(limits_.min_body_rate)));
    }
    if (direct) return n;
    begin_ = 0;
    end_ = static_cast<std::size_t>(n);
    return take_buffered(ptr, size);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (timed_out_) return -1;
    if (wait_for(fd_, POLLOUT, limits_.write) <= 0) return -1;
    for (;;) {
      const ssize_t n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
      if (n >= 0 || errno != EINTR) return n;
    }
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    endpoint(fd_, true, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    endpoint(fd_, false, ip, port);
  }
  socket_t socket() const override { return fd_; }

 private:
  ssize_t take_buffered(char* ptr, std::size_t size) {
    const std::size_t n = std::min(size, end_ - begin_);
    std::memcpy(ptr, buffer_.data() + begin_, n);
    begin_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t receive(char* ptr, std::size_t size) {
    for (;;) {
      const ssize_t n = ::recv(fd_, ptr, size, 0);
      if (n >= 0 || errno != EINTR) return n;
    }
  }

  // Waits for bytes: at most the read timeout, and not past the request's
  // deadline.
  bool wait_readable() {
    Clock::duration wait = limits_.read;
    bool deadline_bound = false;
    const auto left = deadline_ - Clock::now();
    if (left <= Clock::duration::zero()) return expire();
    if (left < wait) {
      wait = left;
      deadline_bound = true;
    }
    const int r = wait_for(fd_, POLLIN, wait);
    if (r == 0 && deadline_bound) return expire();
    return r > 0;
  }

  bool expire() {
    timed_out_ = true;
    current_request_timed_out = true;
    return false;
  }

  enum class Phase { kHead, kBody };

  int fd_;
  Limits limits_;
  std::array<char, 4096> buffer_;  // not zeroed: only bytes recv() wrote are read
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  Phase phase_ = Phase::kHead;
  bool timed_out_ = false;
  Clock::time_point deadline_;
};

// Closes a connection so that its last response arrives whole. close() on a
// socket with unread received bytes makes Linux send a reset and discard
// whatever of the response is still unsent; so first end our side (FIN
// after the queued bytes), then read what the client sent meanwhile.
// Bounded: at most 64 KiB is read, without waiting.
void close_connection(int fd) {
  ::shutdown(fd, SHUT_WR);
  char buf[4096];
  for (int i = 0; i < 16 && ::recv(fd, buf, sizeof buf, MSG_DONTWAIT) > 0; ++i) {
  }
  ::close(fd);
}

}  // namespace

void request_head_received() {
  if (current_stream != nullptr) current_stream->head_received();
}

bool request_timed_out() {
  return current_request_timed_out;
}

WorkerPool::WorkerPool(std::size_t threads) {
  workers_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) {
    workers_.push_back(std::make_unique<Worker>());
    Worker& w = *workers_.back();
    w.thread = std::thread([this, &w] { work(w); });
  }
}

WorkerPool::~WorkerPool() {
  shutdown();
}

void WorkerPool::enqueue(std::function<void()> fn) {
  std::lock_guard lock(mutex_);
  if (idle_.empty()) {
    jobs_.push_back(std::move(fn));
    starved_.store(true, std::memory_order_relaxed);
    return;
  }
  Worker* w = idle_.back();
  idle_.pop_back();
  w->job = std::move(fn);
  w->wake.notify_one();
}

void WorkerPool::shutdown() {
  {
    std::lock_guard lock(mutex_);
    shutdown_ = true;
    for (Worker* w : idle_) w->wake.notify_one();
  }
  for (auto& w : workers_) {
    if (w->thread.joinable()) w->thread.join();
  }
}

void WorkerPool::work(Worker& self) {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (!self.job && !jobs_.empty()) {
      self.job = std::move(jobs_.front());
      jobs_.pop_front();
      starved_.store(!jobs_.empty(), std::memory_order_relaxed);
    }
    if (!self.job) {
      if (shutdown_) return;  // and every queued job is done
      idle_.push_back(&self);
      self.wake.wait(lock, [&] { return self.job || shutdown_; });
      if (!self.job) {  // woken by shutdown(): leave the idle stack
        idle_.erase(std::find(idle_.begin(), idle_.end(), &self));
        continue;
      }
    }
    auto job = std::move(self.job);
    self.job = nullptr;
    lock.unlock();
    job();
    lock.lock();
  }
}

HttpServer::HttpServer() {
  new_task_queue = [this] {
    auto* pool = new WorkerPool(std::max<std::size_t>(1, threads_));
    pool_.store(pool, std::memory_order_release);
    return pool;
  };
}

bool HttpServer::process_and_close_socket(socket_t sock) {
  const ConnectionStream::Limits limits{to_ms(read_timeout_sec_, read_timeout_usec_),
                                        to_ms(write_timeout_sec_, write_timeout_usec_),
                                        head_timeout_, min_body_rate_};
  const WorkerPool* const pool = pool_.load(std::memory_order_acquire);
  const auto stopping = [this] { return svr_sock_ == INVALID_SOCKET; };
  const milliseconds keep_alive(keep_alive_timeout_sec_ * 1000);

  // Step 1 of the loop (see the header): whether a request has arrived.
  // `served`: whether this connection has served one already.
  const auto await_request = [&](bool served) {
    const auto deadline = Clock::now() + keep_alive;
    for (;;) {
      const auto left = deadline - Clock::now();
      if (left <= Clock::duration::zero()) return false;
      const int r = wait_for(sock, POLLIN, std::min<Clock::duration>(kIdleCheck, left));
      if (r != 0) return r > 0;  // a request, or EOF/error for process_request to see
      // Idle for kIdleCheck now.
      if (stopping() || (served && pool != nullptr && pool->starved())) return false;
    }
  };

  bool ok = true;
  for (std::size_t served = 0; served < keep_alive_max_count_; ++served) {
    if (!await_request(served > 0)) break;
    const bool last = stopping() || served + 1 == keep_alive_max_count_;
    bool client_closes = false;
    ConnectionStream strm(sock, limits);
    ok = process_request(strm, last, client_closes, nullptr);
    if (!ok || client_closes || last || strm.timed_out()) break;
  }
  close_connection(sock);
  return ok;
}

}  // namespace eight::server
