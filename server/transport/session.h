// One client connection: reads requests (request_reader.h), has the API
// answer them, inline or on the compute pool, and writes the answers in
// order, each in one write (response_writer.h).
//
// HTTP/1.1 as RFC 9112 asks: keep-alive up to Limits::requests_per_connection
// requests; pipelined requests answered in order, several answers batched
// into one write when they arrive together; HTTP/1.0 answered as 1.0 and
// closed unless it asked for keep-alive; HEAD without a body; Expect:
// 100-continue; after a refusal of the framing, the connection closes (its
// bytes can no longer be trusted to start a request).
//
// Deadlines (limits.h), checked by the I/O thread's sweep: the request head
// from its first byte, the body's minimum rate, a write that stops making
// progress, the idle timeout between requests, the linger after a close. A
// request cut off at its deadline gets no answer and is counted as 408.
//
// While a request waits for the compute pool the connection keeps reading,
// so a client that leaves is noticed: its work is cancelled (withdrawn if it
// has not started). Bytes of pipelined requests behind it are held, up to
// Limits::pipeline_bytes, and answered after it. A request that waits in
// the pool's queue past Limits::queue_wait is answered 503 with
// Retry-After. The pool knows the client by its peer address, or by the
// header a trusted proxy sets (ServerState::client_header).
//
// Memory (Limits::memory_budget): a session counts what it holds for
// requests and answers in ServerState::memory, kept current at the end of
// each turn of drive() and taken off when it is destroyed: its read buffer,
// the body arriving, the body of its request while it computes, and its
// answers waiting to be written. Over the budget, a body arriving (at its
// head; a chunked one as it grows) is refused 503 with Retry-After and the
// connection closes after the answer (the client may still send what it
// had, which is read and dropped: Limits::linger); a request with a body, or
// one that would run on the compute pool, is refused 503 too. A read buffer
// a body grew is given back once the body is read.
//
// Fairness between connections of one thread: a session answers at most
// kAnswersPerTurn pipelined requests before it lets the others' handlers
// run (every answer given inline is bounded in advance; the rest run on the
// pool).
//
// At a stop, every request already received is answered: inline ones as
// usual (with Connection: close), long ones by their end if it comes
// within the drain deadline; there, a job still queued is withdrawn and a
// job running cut, and either is answered 503 (Connection: close,
// Retry-After).
//
// Lifetime: owned by the handlers of its pending operations (shared_ptr);
// registered with its IoThread from start() to destruction. Thread safety:
// every member function runs on its IoThread; the compute pool reaches it
// only by posting there.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "api/request.h"
#include "api/response.h"
#include "io_thread.h"
#include "request_reader.h"

namespace eight::server {

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(IoThread& io, tcp::socket socket);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void start();
  // Checks the deadline of whatever the connection is doing at `now`.
  void sweep(Clock::time_point now);
  // The server is stopping: close now if idle, else after the answer in hand.
  void stop();
  // Closes now, whatever it is doing.
  void close();
  // Between requests, with nothing received, computing or being written.
  bool idle() const;
  // Waiting for the compute pool to answer its request.
  bool computing() const { return computing_; }
  // The server's drain deadline has passed while this connection's request
  // is computing: its job is withdrawn if it has not started, else told to
  // stop, and the request is answered 503 (Connection: close, Retry-After)
  // unless it finished first.
  void stop_computing();
  // REQUIRES: computing(), and the stop's grace after stop_computing() has
  // passed. The computation has still not returned: its request is answered
  // 503 (Connection: close, Retry-After) now, without waiting for it; its
  // result is dropped when it arrives.
  void answer_stopped();
  // Its last answer is out; only waiting for the client to close.
  bool lingering() const { return lingering_; }

  // The IoThread's list of its sessions.
  Session* prev = nullptr;
  Session* next = nullptr;

 private:
  // Why serve() stopped.
  enum class Pause { kNeedMore, kComputing, kOutputFull, kClosing, kYield };
  // An answer in out_ waiting to be written, for the metrics and the log.
  struct Sent {
    std::string client;  // these three only with an access log
    std::string method;
    std::string target;
    Route route;
    int status;
    std::uint64_t bytes;
    Clock::time_point start;
  };

  void read();
  void on_read(const boost::system::error_code& ec, std::size_t n);
  void drive();
  void drive_turn();
  Pause serve();
  // The bytes this connection holds for requests and answers now.
  std::size_t held() const;
  // Brings this connection's share of ServerState::memory up to held().
  void account();
  // Whether the connections hold more than the budget, counting `extra`
  // bytes not yet accounted.
  bool over_budget(std::size_t extra = 0) const;
  void refuse_for_memory(Clock::time_point start);
  // The detail of a 503 for memory.
  std::string over_budget_detail() const;
  bool answer(Request req, Clock::time_point start);
  void respond(Response& res, const Request& req, bool keep_alive, Clock::time_point start);
  void refused(const ReadStep& step, Clock::time_point start);
  void on_computed(Response res, bool finished);
  // Answers the request waiting for the pool with a refusal instead (it was
  // withdrawn from the queue, or the stop cut its computation).
  void answer_computing(Refusal why, const std::string& detail, bool keep_alive);
  std::string client_key(const Request& req) const;
  bool has_output() const { return out_sent_ < out_.size() || !external_.empty(); }
  bool write_now();
  void write_async();
  void on_written(const boost::system::error_code& ec, std::size_t n);
  void advance(std::size_t n);
  void finish_write();
  void linger();
  void timed_out();
  void note_phase(Clock::time_point now);
  bool keeps_alive(const Request& req) const;

  IoThread& io_;
  ServerState& state_;
  tcp::socket socket_;
  boost::beast::flat_buffer in_;
  RequestReader reader_;
  std::string out_;  // answers not yet written, from out_sent_
  std::size_t out_sent_ = 0;
  std::span<const char> external_;  // an external body following out_, not yet written
  std::shared_ptr<const void> external_owner_;
  std::vector<Sent> sent_;                     // the answers in out_ and external_
  std::shared_ptr<std::atomic<bool>> cancel_;  // the compute job's, while computing_
  std::shared_ptr<ComputeTicket> ticket_;      // the compute job, while computing_
  // The request the compute pool is answering, while computing_.
  std::shared_ptr<const Request> computing_request_;
  bool computing_keep_alive_ = false;
  Clock::time_point computing_start_;
  std::string peer_;  // the client's address, for the pool's fair share and the log
  std::size_t served_ = 0;
  bool yielding_ = false;        // a drive() is posted: other connections go first
  bool stop_cancelled_ = false;  // the stop cut the computation
  bool reading_ = false;
  bool writing_ = false;
  bool computing_ = false;
  bool close_after_write_ = false;
  bool lingering_ = false;
  bool closed_ = false;
  bool stopping_ = false;
  std::size_t lingered_bytes_ = 0;
  std::size_t external_held_ = 0;  // bytes of a computed answer external_ points into
  std::size_t accounted_ = 0;      // this connection's share of ServerState::memory
  std::size_t body_admitted_ = 0;  // bytes of the body arriving let in under the budget
  RequestReader::Phase phase_ = RequestReader::Phase::kIdle;
  Clock::time_point phase_since_;  // when the reader entered phase_
  Clock::time_point progress_at_;  // the last write progress
  Clock::time_point linger_until_;
  Clock::time_point idle_until_;  // while stopping: closed when idle past this
};

}  // namespace eight::server
