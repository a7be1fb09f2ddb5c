// A session's clock (session.h): the sweep that holds each connection to
// its deadlines (the head, the body's rate, idling, a stalled reader, the
// compute pool's queue, a stop), and lingering after the last answer.
#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <string>

#include "session.h"

namespace eight::server {

// The last answer is out: end our side, then read what the client still
// sends until it closes, the linger time passes or too much arrives, so the
// kernel does not reset the connection over unread bytes and destroy the
// answer still in flight to the client.
void Session::linger() {
  if (lingering_ || closed_) return;
  lingering_ = true;
  linger_until_ = Clock::now() +
                  (stopping_ || io_.stopping() ? state_.limits.stop_linger : state_.limits.linger);
  boost::system::error_code ec;
  socket_.shutdown(boost::asio::ip::tcp::socket::shutdown_send, ec);
  if (ec) {
    close();
    return;
  }
  in_.consume(in_.size());
  if (!reading_) in_.shrink_to_fit();
  read();
}

void Session::sweep(Clock::time_point now) {
  if (closed_) return;
  const Limits& limits = state_.limits;
  if (lingering_) {
    if (now > linger_until_) close();
    return;
  }
  if (writing_) {
    if (now - progress_at_ > limits.write_stall) close();  // the client stopped reading
    return;
  }
  if (computing_) {
    // Waiting in the pool's queue too long: a quick 503 beats a slow answer.
    // Once running, the request's own budget bounds it.
    if (ticket_ && now - ticket_->queued_at() > limits.queue_wait &&
        state_.compute.withdraw(ticket_)) {
      answer_computing(Refusal::kOverloaded,
                       "the request waited " + std::to_string(limits.queue_wait.count() / 1000) +
                           " s for a compute thread, all busy with other long requests; retry in "
                           "a moment",
                       computing_keep_alive_);
      drive();
    }
    return;
  }
  switch (reader_.phase()) {
    case RequestReader::Phase::kIdle:
      if (now - phase_since_ > limits.idle_timeout) close();
      // Stopping: idle past the grace, and nothing sent that still waits in
      // the kernel to be read.
      if (stopping_ && now > idle_until_ && idle()) {
        boost::system::error_code ec;
        if (socket_.available(ec) == 0) close();
      }
      break;
    case RequestReader::Phase::kHead:
      if (now - phase_since_ > limits.head_timeout) timed_out();
      break;
    case RequestReader::Phase::kBody: {
      const auto allowed =
          limits.head_timeout +
          std::chrono::duration_cast<Clock::duration>(
              std::chrono::duration<double>(static_cast<double>(reader_.body_received()) /
                                            static_cast<double>(limits.min_body_rate)));
      if (now - phase_since_ > allowed) timed_out();
      break;
    }
    case RequestReader::Phase::kDone:
      break;
  }
}

}  // namespace eight::server
