#include "access_log.h"

#include <limits.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <optional>

#include "common/poll.h"
#include "common/text.h"

namespace eight::server {
namespace {

bool is_pipe_like(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

}  // namespace

AccessLog::AccessLog(int fd, std::atomic<std::uint64_t>* dropped, AccessLogFormat format)
    : fd_(fd), format_(format), pipe_like_(is_pipe_like(fd)), dropped_(dropped), writer_([this] {
        run();
      }) {}

AccessLog::~AccessLog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  hurry_ = true;
  wake_.notify_one();
  writer_.join();
}

void AccessLog::append(std::string_view line) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    if (pending_.size() + line.size() + 1 > kMaxBuffered) {
      if (dropped_ != nullptr) dropped_->fetch_add(1, std::memory_order_relaxed);
      return;
    }
    pending_.append(line);
    pending_ += '\n';
    wake = pending_.size() >= kFlushBytes;
  }
  if (wake) wake_.notify_one();
}

void AccessLog::flush() {
  hurry_ = true;
  write_pending();
}

void AccessLog::run() {
  for (;;) {
    bool last = false;
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, kFlushInterval,
                     [this] { return stopping_ || pending_.size() >= kFlushBytes; });
      last = stopping_;
    }
    write_pending();
    if (last) return;
  }
}

void AccessLog::write_pending() {
  std::lock_guard write_lock(write_mutex_);
  std::string batch;
  {
    std::lock_guard lock(mutex_);
    batch.swap(pending_);
  }
  using Clock = std::chrono::steady_clock;
  std::optional<Clock::time_point> give_up_at;
  std::size_t done = 0;
  while (done < batch.size()) {
    std::size_t n = batch.size() - done;
    if (pipe_like_) {
      // poll() first, then at most PIPE_BUF bytes, which a pipe that polled
      // writable takes without blocking: a stalled reader holds this thread
      // only as long as we choose to wait.
      const int r = wait_fd(fd_, POLLOUT, std::chrono::milliseconds(50));
      if (r < 0 || (r & (POLLERR | POLLNVAL)) != 0) break;
      if (r == 0) {
        if (!hurry_) continue;
        const auto now = Clock::now();
        if (!give_up_at) give_up_at = now + kGiveUp;
        if (now > *give_up_at) break;
        continue;
      }
      n = std::min<std::size_t>(n, PIPE_BUF);
    }
    const ssize_t w = ::write(fd_, batch.data() + done, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;  // the log is gone; requests go on without it
    done += static_cast<std::size_t>(w);
  }
  if (done < batch.size() && dropped_ != nullptr) {
    const auto lines =
        std::count(batch.begin() + static_cast<std::ptrdiff_t>(done), batch.end(), '\n');
    dropped_->fetch_add(static_cast<std::uint64_t>(lines), std::memory_order_relaxed);
  }
}

std::string access_log_line(const AccessRecord& r, AccessLogFormat format) {
  // Spaces too are escaped: the text format's fields are separated by them.
  const auto field = [](std::string_view s, std::size_t max) {
    return s.empty() ? std::string("-") : escape_bytes(s, max, true);
  };
  // RFC 3339, UTC, milliseconds.
  const auto since_epoch = r.time.time_since_epoch();
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch - seconds).count();
  const std::time_t t = static_cast<std::time_t>(seconds.count());
  std::tm utc{};
  ::gmtime_r(&t, &utc);
  char time[64];
  std::snprintf(time, sizeof time, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(millis));
  if (format == AccessLogFormat::kJson) {
    // The escaped fields are printable ASCII: nlohmann escapes '"' and '\\'.
    nlohmann::ordered_json j;
    j["time"] = time;
    j["client"] = field(r.client, 64);
    j["method"] = field(r.method, 16);
    j["target"] = field(r.target, 256);
    j["status"] = r.status;
    j["bytes"] = r.bytes;
    j["duration_us"] = r.elapsed.count();
    return j.dump();
  }
  std::string line = time;
  line += ' ';
  line += field(r.client, 64);
  line += ' ';
  line += field(r.method, 16);
  line += ' ';
  line += field(r.target, 256);
  line += ' ';
  line += std::to_string(r.status);
  line += ' ';
  line += std::to_string(r.bytes);
  line += ' ';
  line += std::to_string(r.elapsed.count());
  line += "us";
  return line;
}

}  // namespace eight::server
