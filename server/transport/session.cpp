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
// Pipelined requests answered in one turn before the other connections of
// the thread get theirs: each inline answer is microseconds, so a turn is
// tens of microseconds at most, and a client pipelining hundreds of
// requests cannot hold the thread while a fresh client waits.
constexpr int kAnswersPerTurn = 4;
// The 503's detail for a request whose computation a stop cut short.
constexpr const char* kStopCutDetail =
    "the server is stopping and cut this request short at its drain deadline; retry it";

// The route of a target, for counting a request cut off before it parsed.
Route route_of_target(std::string_view target) {
  return route_of(target.substr(0, target.find('?')));
}

}  // namespace

Session::Session(IoThread& io, tcp::socket socket)
    : io_(io), state_(io.state()), socket_(std::move(socket)), reader_(state_.limits) {
  state_.connections.fetch_add(1, std::memory_order_relaxed);
  boost::system::error_code ec;
  const auto peer = socket_.remote_endpoint(ec);
  if (!ec) peer_ = peer.address().to_string();
}

Session::~Session() {
  state_.memory.fetch_sub(static_cast<std::int64_t>(accounted_), std::memory_order_relaxed);
  io_.remove(this);
  state_.connections.fetch_sub(1, std::memory_order_relaxed);
}

void Session::start() {
  io_.add(this);
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
  if (cancel_) cancel_->store(true, std::memory_order_relaxed);
  // A job not started yet never will: nobody would read its answer.
  if (ticket_ && state_.compute.withdraw(ticket_)) {
    state_.metrics.compute_cancelled().fetch_add(1, std::memory_order_relaxed);
    ticket_.reset();
    computing_request_.reset();
  }
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
  // A request waiting for the pool stays in its queue: it may still be
  // answered within the drain deadline (stop_computing()).
}

void Session::stop_computing() {
  if (!computing_ || closed_) return;
  if (ticket_ && state_.compute.withdraw(ticket_)) {
    // Still queued at the drain deadline: it will not be started now.
    answer_computing(Refusal::kStopping,
                     "the server is stopping and had not started this request; retry it", false);
    drive();
    return;
  }
  stop_cancelled_ = true;
  if (cancel_) cancel_->store(true, std::memory_order_relaxed);
}

void Session::answer_stopped() {
  assert(computing_);
  if (!computing_ || closed_) return;
  if (cancel_) cancel_->store(true, std::memory_order_relaxed);
  answer_computing(Refusal::kStopping, kStopCutDetail, false);
  drive();
}

void Session::answer_computing(Refusal why, const std::string& detail, bool keep_alive) {
  computing_ = false;
  ticket_.reset();
  cancel_.reset();
  const auto req = std::move(computing_request_);
  Response res;
  state_.handler.refuse(why, detail, res);
  res.route = route_of(req->path);
  respond(res, *req, keep_alive, computing_start_);
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
// what is answered, and read when there is room; then count what the
// connection holds.
void Session::drive() {
  drive_turn();
  account();
}

void Session::drive_turn() {
  for (;;) {
    if (closed_ || lingering_) return;
    Pause pause = Pause::kNeedMore;
    if (!computing_ && !writing_ && !close_after_write_ && !yielding_) pause = serve();
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
    if (pause == Pause::kYield) {
      // Its turn is over: the thread's other connections go first.
      yielding_ = true;
      asio::post(io_.context(), [self = shared_from_this()] {
        self->yielding_ = false;
        self->drive();
      });
      return;
    }
    break;
  }
  if (closed_ || lingering_ || yielding_) return;
  // Read on, except while answers wait to be written (the client is not
  // reading them; let it wait) and past the bytes held behind a computation.
  if (!writing_ && !close_after_write_ &&
      (!computing_ || in_.size() < state_.limits.pipeline_bytes)) {
    // A buffer a body grew is given back between bodies (no read is
    // pending on it now).
    if (!reading_ && in_.size() == 0 && in_.capacity() > kReadSize &&
        reader_.phase() != RequestReader::Phase::kBody) {
      in_.shrink_to_fit();
    }
    read();
  }
}

Session::Pause Session::serve() {
  for (int answered = 0; !closed_; ++answered) {
    if (answered == kAnswersPerTurn) return Pause::kYield;
    const Clock::time_point now = Clock::now();
    const auto data = in_.data();
    const std::string_view bytes(static_cast<const char*>(data.data()), data.size());
    ReadStep step = reader_.read(bytes);
    in_.consume(step.consumed);
    // A body arriving that grew (Beast reserved a declared length, or a
    // chunked body's buffer grew): let in only under the memory budget.
    if ((step.kind == ReadStep::Kind::kNeedMore || step.kind == ReadStep::Kind::kContinue) &&
        reader_.phase() == RequestReader::Phase::kBody && reader_.body_held() > body_admitted_) {
      account();
      if (over_budget()) {
        refuse_for_memory(now);
        return Pause::kClosing;
      }
      body_admitted_ = reader_.body_held();
    }
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
        body_admitted_ = 0;
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

// Whether the connection stays open after answering `req`. While the
// server stops, only to answer requests the client already sent behind it:
// the last of them says Connection: close.
bool Session::keeps_alive(const Request& req) const {
  if (!wants_keep_alive(req) || served_ >= state_.limits.requests_per_connection) return false;
  return !(stopping_ || io_.stopping()) || in_.size() > 0;
}

// Answers one request: the handler plans it here, then runs the plan
// inline, or on the compute pool when the plan says it runs long. Returns
// false when it went to the pool: serving pauses until its answer is back.
bool Session::answer(Request req, Clock::time_point start) {
  ++served_;
  const bool keep_alive = keeps_alive(req);
  Plan plan = state_.handler.plan(req);
  if (plan.runs_long || !req.body.empty()) {
    // New work that holds memory (a body, a batch's answer): only under the
    // budget. Its body, out of the reader now, is counted here.
    account();
    if (over_budget(req.body.capacity())) {
      Response res;
      state_.handler.refuse(Refusal::kOverloaded, over_budget_detail(), res);
      res.route = route_of(req.path);
      respond(res, req, keep_alive, start);
      return true;
    }
  }
  if (!plan.runs_long) {
    Response res;
    static const std::atomic<bool> kNotCancelled{false};
    state_.handler.run(req, plan, res, kNotCancelled);
    respond(res, req, keep_alive, start);
    return true;
  }
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  auto shared_req = std::make_shared<const Request>(std::move(req));
  auto shared_plan = std::make_shared<const Plan>(std::move(plan));
  // The work guard keeps this thread's io_context running until the answer
  // has been posted back, even while the server drains.
  auto guard = std::make_shared<asio::executor_work_guard<asio::io_context::executor_type>>(
      io_.context().get_executor());
  auto job = [self = shared_from_this(), cancel, shared_req, shared_plan, guard]() mutable {
    auto res = std::make_shared<Response>();
    if (self->over_budget()) {
      // Answers computed since it was let in hold the budget now: a job
      // starts only under it, so what the connections hold passes the
      // budget by the answers of running jobs at most.
      self->state_.handler.refuse(Refusal::kOverloaded, self->over_budget_detail(), *res);
      res->route = route_of(shared_req->path);
    } else {
      self->state_.handler.run(*shared_req, *shared_plan, *res, *cancel);
    }
    // Counted from now, before the next job starts: the session takes the
    // count over when the answer arrives (on_computed).
    const std::size_t answer_bytes = res->body.capacity();
    self->state_.memory.fetch_add(static_cast<std::int64_t>(answer_bytes),
                                  std::memory_order_relaxed);
    // Cancelled before it finished: the answer may be cut short.
    const bool finished = !cancel->load(std::memory_order_relaxed);
    // Always posted back, and `self` moved along, so the session is
    // released on its own thread, never on a worker.
    auto& context = self->io_.context();
    asio::post(context,
               [self = std::move(self), res, finished, answer_bytes, guard = std::move(guard)] {
                 self->accounted_ += answer_bytes;
                 self->on_computed(std::move(*res), finished);
                 self->account();
               });
  };
  ComputePool::Refused why = ComputePool::Refused::kNone;
  auto ticket = state_.compute.try_submit(client_key(*shared_req), std::move(job), &why);
  if (!ticket) {
    Response res;
    if (why == ComputePool::Refused::kStopped) {
      state_.handler.refuse(Refusal::kStopping, "the server is stopping; retry this request", res);
    } else if (why == ComputePool::Refused::kClientQueued) {
      state_.handler.refuse(
          Refusal::kOverloaded,
          "this client already has " + std::to_string(state_.compute.shares().per_client_queued) +
              " long requests waiting, the most one client may; retry when one is answered",
          res);
    } else {
      state_.handler.refuse(Refusal::kOverloaded,
                            "the server is busy with other long requests (" +
                                std::to_string(state_.compute.capacity()) +
                                " are waiting); retry in a moment",
                            res);
    }
    res.route = route_of(shared_req->path);
    respond(res, *shared_req, keep_alive && why != ComputePool::Refused::kStopped, start);
    return true;
  }
  ticket_ = std::move(ticket);
  cancel_ = std::move(cancel);
  computing_request_ = std::move(shared_req);
  computing_keep_alive_ = keep_alive;
  computing_start_ = start;
  computing_ = true;
  return false;
}

// The request's client, for the pool's fair share: the peer, or the last
// address a trusted proxy's header names (the one that proxy saw; earlier
// ones are the client's own word).
std::string Session::client_key(const Request& req) const {
  if (!state_.client_header.empty()) {
    std::string_view v = req.header(state_.client_header);
    if (const auto comma = v.rfind(','); comma != std::string_view::npos) v = v.substr(comma + 1);
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
    if (!v.empty()) return std::string(v.substr(0, 64));
  }
  return peer_;
}

void Session::on_computed(Response res, bool finished) {
  if (!computing_request_) return;  // withdrawn meanwhile (cannot happen once started)
  if (closed_) {
    // The client left: nobody reads the answer.
    state_.metrics.compute_cancelled().fetch_add(1, std::memory_order_relaxed);
    computing_ = false;
    ticket_.reset();
    cancel_.reset();
    computing_request_.reset();
    return;
  }
  if (stop_cancelled_ && !finished) {
    answer_computing(Refusal::kStopping, kStopCutDetail, false);
    drive();
    return;
  }
  computing_ = false;
  ticket_.reset();
  cancel_.reset();
  const auto req = std::move(computing_request_);
  // A large answer (a batch's: megabytes) is written from where it was
  // built, not copied after the headers: one copy of it is held, not two.
  std::size_t answer_held = 0;
  if (res.external.data() == nullptr && res.body.size() > kKeptOutputCapacity) {
    auto owned = std::make_shared<std::string>(std::move(res.body));
    res.external = {owned->data(), owned->size()};
    answer_held = owned->capacity();
    res.owner = std::move(owned);
  }
  respond(res, *req, computing_keep_alive_ && keeps_alive(*req), computing_start_);
  if (!external_.empty()) external_held_ = answer_held;
  drive();
}

void Session::respond(Response& res, const Request& req, bool keep_alive, Clock::time_point start) {
  Framing framing;
  framing.version = req.version;
  framing.keep_alive = keep_alive;
  framing.head_only = req.method == http::verb::head;
  framing.date = io_.date();
  framing.keep_alive_value = state_.keep_alive_value;
  const std::size_t before = out_.size();
  const auto external = write_response(res, framing, out_);
  const std::uint64_t bytes = out_.size() - before + external.size();
  if (!external.empty()) {
    external_ = external;
    external_owner_ = std::move(res.owner);
  }
  if (state_.access_log != nullptr) {
    sent_.push_back(
        {client_key(req), req.method_text, req.target, res.route, res.status(), bytes, start});
  } else {
    sent_.push_back({{}, {}, {}, res.route, res.status(), bytes, start});
  }
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
  body_admitted_ = 0;
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
  const auto wall = std::chrono::system_clock::now();
  for (const Sent& s : sent_) {
    const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(now - s.start);
    state_.metrics.record(s.route, s.status, elapsed);
    if (state_.access_log != nullptr) {
      state_.access_log->append(
          access_log_line({wall, s.client, s.method, s.target, s.status, s.bytes,
                           std::chrono::duration_cast<std::chrono::microseconds>(elapsed)},
                          state_.access_log->format()));
    }
  }
  sent_.clear();
  out_.clear();
  out_sent_ = 0;
  if (out_.capacity() > kKeptOutputCapacity) out_.shrink_to_fit();
  external_ = {};
  external_owner_.reset();
  external_held_ = 0;
}

// A request that ran out of time while it was still arriving: no answer,
// counted and logged as 408.
void Session::timed_out() {
  const std::string target(reader_.target());
  state_.metrics.record(route_of_target(target), 408, std::chrono::nanoseconds(0));
  if (state_.access_log != nullptr) {
    state_.access_log->append(
        access_log_line({std::chrono::system_clock::now(), peer_, reader_.method(), target, 408, 0,
                         std::chrono::microseconds(0)},
                        state_.access_log->format()));
  }
  close();
}

}  // namespace eight::server
