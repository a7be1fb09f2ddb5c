// The access log: one line per request, written to a file descriptor
// (stderr) by a background thread in batches.
//
// A write(2) per request cost 5-12% of the server's requests per second in
// bench/http (to a file); batching costs a mutex and a string append per
// request and one write every few milliseconds, and measured no cost. Lines keep their order and
// are never split or interleaved. They reach the descriptor within kFlushInterval. If the reader of
// the descriptor stalls (a full pipe), requests are not held up: past kMaxBuffered bytes new lines
// are dropped and counted instead, and flush() and the destructor give up on a descriptor that
// stays full for kGiveUp, so a stuck log never holds up a stop.
//
// Thread safety: append() and flush() may be called from any thread at once.
// Lifetime: the destructor writes everything still buffered and stops the
// writer thread; nothing may call append() after that.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace eight::server {

// What the access log says of one request.
struct AccessRecord {
  std::chrono::system_clock::time_point time;  // when its answer was handed to the kernel
  std::string_view client;                     // the peer address, or the proxy's header's
  std::string_view method;
  std::string_view target;
  int status = 0;
  std::uint64_t bytes = 0;  // the answer's bytes, head and body
  std::chrono::microseconds elapsed{0};
};

enum class AccessLogFormat { kText, kJson };

class AccessLog {
 public:
  static constexpr std::chrono::milliseconds kFlushInterval{20};
  static constexpr std::size_t kFlushBytes = 32 * 1024;  // write early past this
  static constexpr std::size_t kMaxBuffered = 4 << 20;   // drop new lines past this
  static constexpr std::chrono::milliseconds kGiveUp{200};

  // Writes to `fd`, which must stay open for the life of the log. Lines
  // dropped for lack of room are added to `*dropped` when given.
  explicit AccessLog(int fd, std::atomic<std::uint64_t>* dropped = nullptr,
                     AccessLogFormat format = AccessLogFormat::kText);
  ~AccessLog();
  AccessLog(const AccessLog&) = delete;
  AccessLog& operator=(const AccessLog&) = delete;

  AccessLogFormat format() const { return format_; }

  // Queues `line` and a newline. Never blocks on the descriptor.
  void append(std::string_view line);

  // Writes everything queued so far before returning (for exits that skip
  // destructors).
  void flush();

 private:
  void run();
  void write_pending();

  const int fd_;
  const AccessLogFormat format_;
  const bool pipe_like_;  // pipe or socket: write at most PIPE_BUF after poll()
  std::atomic<std::uint64_t>* const dropped_;
  std::atomic<bool> hurry_{false};  // flush() or the destructor is waiting
  std::mutex write_mutex_;          // taken before mutex_: keeps batches in order
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string pending_;    // guarded by mutex_
  bool stopping_ = false;  // guarded by mutex_
  std::thread writer_;
};

// The access log line for one request, without the newline. Text:
//   2026-12-01T22:24:50.123Z 127.0.0.1 GET /solve?board=123456780 200 312 41us
// (RFC 3339 time in UTC to the millisecond, client, method, target, status,
// bytes, duration); JSON, one object a line:
//   {"time":"2026-12-01T22:24:50.123Z","client":"127.0.0.1","method":"GET",
//    "target":"/solve?board=123456780","status":200,"bytes":312,"duration_us":41}
// The client, method and target are shown as received (empty ones as "-"),
// with bytes outside printable ASCII (and spaces) as \xNN and the target cut
// after 256 characters, so a line is always one line and JSON always valid.
std::string access_log_line(const AccessRecord& record, AccessLogFormat format);

}  // namespace eight::server
