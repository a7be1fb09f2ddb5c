#include "io_thread.h"

#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <boost/asio/post.hpp>

#include <algorithm>
#include <ctime>

#include "response_writer.h"
#include "session.h"

namespace eight::server {

IoThread::IoThread(ServerState& state, int listen_fd)
    : state_(state),
      acceptor_(context_),
      sweep_timer_(context_),
      accept_pause_(context_),
      drain_timer_(context_) {
  const int fd = ::dup(listen_fd);
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  acceptor_.assign(addr.ss_family == AF_INET6 ? tcp::v6() : tcp::v4(), fd);
  update_date();
}

std::size_t IoThread::run() {
  asio::post(context_, [this] {
    accept();
    schedule_sweep();
  });
  context_.run();
  return cut_;
}

void IoThread::stop() {
  asio::post(context_, [this] { begin_stop(); });
}

void IoThread::add(Session* s) {
  s->prev = last_;
  s->next = nullptr;
  (last_ != nullptr ? last_->next : first_) = s;
  last_ = s;
}

void IoThread::remove(Session* s) {
  (s->prev != nullptr ? s->prev->next : first_) = s->next;
  (s->next != nullptr ? s->next->prev : last_) = s->prev;
  s->prev = s->next = nullptr;
  if (stopping_) finish_if_drained();
}

void IoThread::accept() {
  if (stopping_ || accepting_paused_) return;
  acceptor_.async_accept(context_, peer_,
                         [this](const boost::system::error_code& ec, tcp::socket socket) {
                           on_accept(ec, std::move(socket));
                         });
}

void IoThread::on_accept(const boost::system::error_code& ec, tcp::socket socket) {
  if (stopping_) {
    // The accept finished before the stop but its handler runs after it:
    // the socket is ours and may hold a request, so it is served like the
    // backlog begin_stop() took, and the session stops with the rest.
    if (ec || !socket.is_open()) return;
    auto session = std::make_shared<Session>(*this, std::move(socket));
    session->start();
    session->stop();
    return;
  }
  if (ec) {
    if (ec == asio::error::operation_aborted) return;
    if (ec == asio::error::no_descriptors || ec.value() == ENFILE ||
        ec == asio::error::no_buffer_space || ec == asio::error::no_memory) {
      // Out of descriptors or memory: accepting again at once would spin.
      // Wait a little; connections that end meanwhile make room.
      accepting_paused_ = true;
      accept_pause_.expires_after(std::chrono::milliseconds(100));
      accept_pause_.async_wait([this](const boost::system::error_code& e) {
        accepting_paused_ = false;
        if (!e) accept();
      });
      return;
    }
    accept();  // the connection failed before we took it (ECONNABORTED): next
    return;
  }
  if (static_cast<std::size_t>(std::max<std::int64_t>(
          0, state_.connections.load(std::memory_order_relaxed))) >= state_.max_connections &&
      !make_room()) {
    refuse_connection(socket);
  } else {
    std::make_shared<Session>(*this, std::move(socket))->start();
  }
  accept();
}

// At the connection limit, idle connections give way to new ones: the
// oldest idle connection of this thread is closed. False if none is idle.
bool IoThread::make_room() {
  for (Session* s = first_; s != nullptr; s = s->next) {
    if (s->idle()) {
      s->close();
      return true;
    }
  }
  return false;
}

// Every connection is busy and the limit reached: a short 503, then close.
void IoThread::refuse_connection(tcp::socket& socket) {
  Response res;
  state_.handler.refuse(Refusal::kOverloaded,
                        "the server holds its limit of " + std::to_string(state_.max_connections) +
                            " connections, all busy; retry in a moment",
                        res);
  Framing framing;
  framing.keep_alive = false;
  framing.date = date_;
  std::string out;
  write_response(res, framing, out);
  boost::system::error_code ec;
  socket.non_blocking(true, ec);
  socket.write_some(asio::buffer(out), ec);
  socket.shutdown(tcp::socket::shutdown_send, ec);
  socket.close(ec);
  state_.metrics.record(Route::kOther, 503, std::chrono::nanoseconds(0));
}

void IoThread::schedule_sweep() {
  sweep_timer_.expires_after(state_.limits.sweep_interval);
  sweep_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) sweep();
  });
}

void IoThread::sweep() {
  update_date();
  const Clock::time_point now = Clock::now();
  for (Session* s = first_; s != nullptr;) {
    Session* const next = s->next;  // a session closed here stays listed until it is destroyed
    s->sweep(now);
    s = next;
  }
  give_back_memory();
  if (stopping_ && first_ == nullptr) return finish_if_drained();
  schedule_sweep();
}

// Once the connections have let go of kTrimStep bytes since the last look,
// the allocator's free pages go back to the system: glibc keeps what the
// threads free in their arenas, so after 100 slow readers of batch answers
// left, 14 MB stayed resident (bench: docs/performance.md). At most once a
// second (a trim walks the heap, and the pages it gives back are faulted in
// again by the next large answer: not after every batch of a busy server);
// a fall seen meanwhile is trimmed at the next sweep after that. One thread
// does it (the one that sees the fall first).
void IoThread::give_back_memory() {
  constexpr std::int64_t kTrimStep = 4 * 1024 * 1024;
  constexpr std::int64_t kTrimEveryNs = 1'000'000'000;
  const std::int64_t held = state_.memory.load(std::memory_order_relaxed);
  std::int64_t high = state_.memory_high.load(std::memory_order_relaxed);
  const std::int64_t now =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
  if (held > high) {
    state_.memory_high.compare_exchange_strong(high, held, std::memory_order_relaxed);
  } else if (high - held >= kTrimStep &&
             now - state_.memory_trimmed_at.load(std::memory_order_relaxed) >= kTrimEveryNs &&
             state_.memory_high.compare_exchange_strong(high, held, std::memory_order_relaxed)) {
    state_.memory_trimmed_at.store(now, std::memory_order_relaxed);
#if defined(__GLIBC__)
    ::malloc_trim(0);
#endif
  }
}

void IoThread::update_date() {
  const auto seconds = static_cast<long long>(std::time(nullptr));
  if (seconds == date_second_) return;
  date_second_ = seconds;
  date_ = http_date(seconds);
}

void IoThread::begin_stop() {
  if (stopping_) return;
  stopping_ = true;
  boost::system::error_code ec;
  // Connections the kernel has accepted but this thread has not taken yet
  // may have sent their request already: take them first, so such a request
  // is answered (with Connection: close) instead of reset with the socket.
  acceptor_.non_blocking(true, ec);
  for (;;) {
    tcp::socket socket(context_);
    acceptor_.accept(socket, peer_, ec);
    if (ec) break;
    std::make_shared<Session>(*this, std::move(socket))->start();
  }
  acceptor_.close(ec);
  accept_pause_.cancel();
  for (Session* s = first_; s != nullptr;) {
    Session* const next = s->next;
    s->stop();
    s = next;
  }
  drain_timer_.expires_after(state_.limits.drain_deadline);
  drain_timer_.async_wait([this](const boost::system::error_code& e) {
    if (e) return;
    // Whatever is still busy now (a stalled download, a client still
    // sending) is cut, so a stop always ends; a computation is told to stop
    // and its request answered 503 when it has.
    for (Session* s = first_; s != nullptr;) {
      Session* const next = s->next;
      if (s->computing()) {
        s->stop_computing();
      } else {
        if (!s->idle() && !s->lingering()) ++cut_;
        s->close();
      }
      s = next;
    }
    drain_timer_.expires_after(state_.limits.stop_compute_grace);
    drain_timer_.async_wait([this](const boost::system::error_code& e2) {
      if (e2) return;
      // A computation still running past the grace (a starved thread on a
      // busy host) is not waited for: its request is answered 503 now, so
      // no request received goes unanswered; the rest is cut.
      for (Session* s = first_; s != nullptr;) {
        Session* const next = s->next;
        if (s->computing()) {
          s->answer_stopped();
        } else {
          if (!s->idle() && !s->lingering()) ++cut_;
          s->close();
        }
        s = next;
      }
      // Those answers are a few hundred bytes each, written at once but to
      // a client that may not read them: what is left after a linger more
      // is closed, so a stop always ends.
      drain_timer_.expires_after(state_.limits.stop_linger + state_.limits.sweep_interval);
      drain_timer_.async_wait([this](const boost::system::error_code& e3) {
        if (e3) return;
        for (Session* s = first_; s != nullptr;) {
          Session* const next = s->next;
          if (!s->idle() && !s->lingering()) ++cut_;
          s->close();
          s = next;
        }
      });
    });
  });
  finish_if_drained();
}

// Once stopping and every connection is gone, nothing is left to wait for:
// the timers go, and run() returns when the last handler has.
void IoThread::finish_if_drained() {
  if (first_ != nullptr) return;
  sweep_timer_.cancel();
  drain_timer_.cancel();
  accept_pause_.cancel();
}

}  // namespace eight::server
