#include "access_log.h"

#include <limits.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <optional>

#include "eight/poll.h"
#include "eight/text.h"

namespace eight::server {
namespace {

bool is_pipe_like(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

}  // namespace

AccessLog::AccessLog(int fd, std::atomic<std::uint64_t>* dropped)
    : fd_(fd), pipe_like_(is_pipe_like(fd)), dropped_(dropped), writer_([this] { run(); }) {}

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

std::string access_log_line(std::string_view method, std::string_view target, int status,
                            std::chrono::microseconds elapsed) {
  // Spaces too are escaped: the fields are separated by spaces.
  const auto field = [&](std::string_view s, std::size_t max) {
    return s.empty() ? std::string("-") : escape_bytes(s, max, true);
  };
  std::string line = field(method, 16);
  line += ' ';
  line += field(target, 256);
  line += ' ';
  line += std::to_string(status);
  line += ' ';
  line += std::to_string(elapsed.count());
  line += "us";
  return line;
}

}  // namespace eight::server
