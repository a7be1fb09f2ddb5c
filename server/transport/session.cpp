#include "session.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>

#include <algorithm>
#include <array>
#include <cassert>

#include "access_log.h"
#include "response_writer.h"

namespace eight::server {
namespace {

namespace beast = boost::beast;

// Bytes asked of the kernel per read. A request is a few hundred bytes, so
// one read takes a whole request (or several pipelined); a body grows the
// buffer to a larger read. Each connection's buffer is held while it waits,
// so this is also most of an idle connection's memory.
constexpr std::size_t kReadSize = 2048;
constexpr std::size_t kBodyReadSize = 64 * 1024;
// Past this many bytes of answers waiting, stop answering pipelined
// requests and write first.
constexpr std::size_t kMaxPendingOutput = 256 * 1024;
// A write buffer that grew past this for one large answer is released
// afterwards, so a connection does not keep megabytes it used once.
constexpr std::size_t kKeptOutputCapacity = 64 * 1024;

// The route of a target, for counting a request cut off before it parsed.
Route route_of_target(std::string_view target) {
  return route_of(target.substr(0, target.find('?')));
}

}  // namespace

Session::Session(IoThread& io, tcp::socket socket)
    : io_(io), state_(io.state()), socket_(std::move(socket)), reader_(state_.limits) {}

Session::~Session() {
  io_.remove(this);
  if (!closed_) state_.metrics.open_connections().fetch_sub(1, std::memory_order_relaxed);
}

void Session::start() {
  io_.add(this);
  state_.metrics.open_connections().fetch_add(1, std::memory_order_relaxed);
  boost::system::error_code ec;
  // Non-blocking, so write_now() can try a write without waiting for it.
  socket_.non_blocking(true, ec);
  phase_since_ = Clock::now();
  read();
}

bool Session::idle() const {
  return !closed_ && !lingering_ && !writing_ && !computing_ && !has_output() &&
         reader_.phase() == RequestReader::Phase::kIdle && in_.size() == 0;
}

void Session::close() {
  if (closed_) return;
  closed_ = true;
  state_.metrics.open_connections().fetch_sub(1, std::memory_order_relaxed);
  if (cancel_) cancel_->store(true, std::memory_order_relaxed);
  boost::system::error_code ec;
  socket_.close(ec);  // pending operations end with operation_aborted
}

void Session::stop() {
  stopping_ = true;
  const auto now = Clock::now();
  if (lingering_) linger_until_ = std::min(linger_until_, now + state_.limits.stop_linger);
  // An idle connection closes once it has stayed idle a moment longer
  // (sweep()): a client that sends its next request just as the stop
  // begins, as busy keep-alive clients do, gets it answered (with
  // Connection: close) rather than lost in the close.
  idle_until_ = now + state_.limits.stop_idle_grace;
}

void Session::read() {
  if (closed_ || reading_) return;
  const std::size_t size =
      reader_.phase() == RequestReader::Phase::kBody ? kBodyReadSize : kReadSize;
  reading_ = true;
  socket_.async_read_some(in_.prepare(size),
                          [self = shared_from_this()](const boost::system::error_code& ec,
                                                      std::size_t n) { self->on_read(ec, n); });
}

void Session::on_read(const boost::system::error_code& ec, std::size_t n) {
  reading_ = false;
  if (closed_) return;
  if (ec || n == 0) {
    // The client has gone (or closed its side): nothing more will come, and
    // nobody will read an answer still being computed.
    close();
    return;
  }
  in_.commit(n);
  if (lingering_) {
    lingered_bytes_ += n;
    in_.consume(in_.size());
    if (lingered_bytes_ > state_.limits.linger_bytes) {
      close();
    } else {
      read();
    }
    return;
  }
  drive();
}

// The one loop every event comes back to: answer what is buffered, write
// what is answered, and read when there is room.
void Session::drive() {
  for (;;) {
    if (closed_ || lingering_) return;
    Pause pause = Pause::kNeedMore;
    if (!computing_ && !writing_ && !close_after_write_) pause = serve();
    if (closed_) return;
    if (writing_) break;
    if (has_output()) {
      if (!write_now()) {
        if (!closed_) write_async();
        break;
      }
      if (pause == Pause::kOutputFull) continue;  // room again: answer the rest
    }
    if (close_after_write_) {
      linger();
      return;
    }
    break;
  }
  if (closed_ || lingering_) return;
  // Read on, except while answers wait to be written (the client is not
  // reading them; let it wait) and past the bytes held behind a computation.
  if (!writing_ && !close_after_write_ &&
      (!computing_ || in_.size() < state_.limits.pipeline_bytes)) {
    read();
  }
}

Session::Pause Session::serve() {
  while (!closed_) {
    const Clock::time_point now = Clock::now();
    const auto data = in_.data();
    const std::string_view bytes(static_cast<const char*>(data.data()), data.size());
    ReadStep step = reader_.read(bytes);
    in_.consume(step.consumed);
    switch (step.kind) {
      case ReadStep::Kind::kNeedMore:
        note_phase(now);
        return Pause::kNeedMore;
      case ReadStep::Kind::kContinue:
        note_phase(now);
        out_ += kContinueResponse;
        return Pause::kNeedMore;
      case ReadStep::Kind::kRefused:
        refused(step, now);
        if (close_after_write_) return Pause::kClosing;
        break;
      case ReadStep::Kind::kRequest:
        if (!answer(reader_.take(), now)) return Pause::kComputing;
        if (close_after_write_) return Pause::kClosing;
        break;
    }
    note_phase(now);
    if (!external_.empty() || out_.size() - out_sent_ > kMaxPendingOutput) {
      return Pause::kOutputFull;
    }
  }
  return Pause::kClosing;
}

// Tracks when the reader entered its phase, for the deadlines.
void Session::note_phase(Clock::time_point now) {
  const auto phase = reader_.phase();
  if (phase != phase_) {
    phase_ = phase;
    phase_since_ = now;
  }
}

// Answers one request, inline or on the compute pool. Returns false when it
// went to the pool: serving pauses until its answer is back.
// Whether the connection stays open after answering `req`. While the
// server stops, only to answer requests the client already sent behind it:
// the last of them says Connection: close.
bool Session::keeps_alive(const Request& req) const {
  if (!wants_keep_alive(req) || served_ >= state_.limits.requests_per_connection) return false;
  return !(stopping_ || io_.stopping()) || in_.size() > 0;
}

bool Session::answer(Request req, Clock::time_point start) {
  ++served_;
  const bool keep_alive = keeps_alive(req);
  if (!state_.handler.runs_long(req)) {
    Response res;
    static const std::atomic<bool> kNotCancelled{false};
    state_.handler.handle(req, res, kNotCancelled);
    respond(res, req, keep_alive, start);
    return true;
  }
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  auto shared_req = std::make_shared<const Request>(std::move(req));
  // The work guard keeps this thread's io_context running until the answer
  // has been posted back, even while the server drains.
  auto guard = std::make_shared<asio::executor_work_guard<asio::io_context::executor_type>>(
      io_.context().get_executor());
  auto job = [self = shared_from_this(), cancel, shared_req, keep_alive, start, guard] {
    auto res = std::make_shared<Response>();
    // Dropped unrun if the client left while it waited.
    if (!cancel->load(std::memory_order_relaxed)) {
      self->state_.handler.handle(*shared_req, *res, *cancel);
    }
    if (cancel->load(std::memory_order_relaxed)) {
      self->state_.metrics.compute_cancelled().fetch_add(1, std::memory_order_relaxed);
      return;
    }
    asio::post(self->io_.context(), [self, res, shared_req, keep_alive, start] {
      self->on_computed(std::move(*res), shared_req, keep_alive, start);
    });
  };
  if (!state_.compute.try_submit(std::move(job))) {
    Response res;
    state_.handler.refuse(Refusal::kOverloaded,
                          "the server is busy with other long requests (" +
                              std::to_string(state_.compute.capacity()) +
                              " are waiting); retry in a moment",
                          res);
    res.route = route_of(shared_req->path);
    respond(res, *shared_req, keep_alive, start);
    return true;
  }
  cancel_ = std::move(cancel);
  computing_ = true;
  return false;
}

void Session::on_computed(Response res, std::shared_ptr<const Request> req, bool keep_alive,
                          Clock::time_point start) {
  computing_ = false;
  cancel_.reset();
  if (closed_) return;
  respond(res, *req, keep_alive && keeps_alive(*req), start);
  drive();
}

void Session::respond(Response& res, const Request& req, bool keep_alive, Clock::time_point start) {
  Framing framing;
  framing.version = req.version;
  framing.keep_alive = keep_alive;
  framing.head_only = req.method == http::verb::head;
  framing.date = io_.date();
  framing.keep_alive_value = state_.keep_alive_value;
  const auto external = write_response(res, framing, out_);
  if (!external.empty()) {
    external_ = external;
    external_owner_ = std::move(res.owner);
  }
  sent_.push_back({state_.access_log != nullptr ? req.method_text : std::string(),
                   state_.access_log != nullptr ? req.target : std::string(), res.route,
                   res.status(), start});
  if (!keep_alive) close_after_write_ = true;
}

void Session::refused(const ReadStep& step, Clock::time_point start) {
  Response res;
  state_.handler.refuse(step.why, step.detail, res);
  Request req;  // what is known of the request: its version, method and target
  req.version = reader_.version();
  req.method_text = std::string(reader_.method());
  req.target = std::string(reader_.target());
  res.route = route_of_target(req.target);
  const Request* whole = reader_.refused_request();
  const bool keep_alive = !step.close && whole != nullptr && keeps_alive(*whole);
  reader_.reset();
  respond(res, req, keep_alive, start);
  if (step.close) close_after_write_ = true;
}

// One non-blocking write of everything pending; true when all of it went.
bool Session::write_now() {
  const std::array<asio::const_buffer, 2> buffers = {
      asio::buffer(out_.data() + out_sent_, out_.size() - out_sent_),
      asio::buffer(external_.data(), external_.size())};
  boost::system::error_code ec;
  const std::size_t n = socket_.write_some(buffers, ec);
  if (ec == asio::error::would_block || ec == asio::error::try_again) return false;
  if (ec) {
    close();
    return false;
  }
  advance(n);
  return !has_output();
}

void Session::write_async() {
  writing_ = true;
  progress_at_ = Clock::now();
  const std::array<asio::const_buffer, 2> buffers = {
      asio::buffer(out_.data() + out_sent_, out_.size() - out_sent_),
      asio::buffer(external_.data(), external_.size())};
  socket_.async_write_some(
      buffers, [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n) {
        self->on_written(ec, n);
      });
}

void Session::on_written(const boost::system::error_code& ec, std::size_t n) {
  writing_ = false;
  if (closed_) return;
  if (ec) {
    close();
    return;
  }
  progress_at_ = Clock::now();
  advance(n);
  if (has_output()) {
    write_async();
    return;
  }
  drive();
}

void Session::advance(std::size_t n) {
  const std::size_t from_out = std::min(n, out_.size() - out_sent_);
  out_sent_ += from_out;
  n -= from_out;
  if (n > 0) external_ = external_.subspan(n);
  if (!has_output()) finish_write();
}

// Everything answered so far is in the kernel's hands: count and log it.
void Session::finish_write() {
  const Clock::time_point now = Clock::now();
  for (const Sent& s : sent_) {
    const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(now - s.start);
    state_.metrics.record(s.route, s.status, elapsed);
    if (state_.access_log != nullptr) {
      state_.access_log->append(
          access_log_line(s.method, s.target, s.status,
                          std::chrono::duration_cast<std::chrono::microseconds>(elapsed)));
    }
  }
  sent_.clear();
  out_.clear();
  out_sent_ = 0;
  if (out_.capacity() > kKeptOutputCapacity) out_.shrink_to_fit();
  external_ = {};
  external_owner_.reset();
}

// The last answer is out: end our side, then read what the client still
// sends until it closes, the linger time passes or too much arrives, so the
// kernel does not reset the connection over unread bytes and destroy the
// answer still in flight to the client.
void Session::linger() {
  if (lingering_ || closed_) return;
  lingering_ = true;
  linger_until_ = Clock::now() + (stopping_ || io_.stopping() ? state_.limits.stop_linger
                                                               : state_.limits.linger);
  boost::system::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_send, ec);
  if (ec) {
    close();
    return;
  }
  in_.consume(in_.size());
  read();
}

// A request that ran out of time while it was still arriving: no answer,
// counted and logged as 408.
void Session::timed_out() {
  const std::string target(reader_.target());
  state_.metrics.record(route_of_target(target), 408, std::chrono::nanoseconds(0));
  if (state_.access_log != nullptr) {
    state_.access_log->append(
        access_log_line(reader_.method(), target, 408, std::chrono::microseconds(0)));
  }
  close();
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
  if (computing_) return;  // the pool's own budget bounds it
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
