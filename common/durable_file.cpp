#include "common/durable_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "common/workers.h"

namespace eight {
namespace {

Error io_error(const std::string& path, const std::string& step, int err) {
  return make_error(ErrorCode::kIo, path + ": " + step + ": " + std::strerror(err));
}

}  // namespace

Result<std::monostate> write_file_atomically(const std::string& path,
                                             std::span<const std::uint8_t> bytes,
                                             const WriteCheck& check) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return io_error(tmp, "cannot create", errno);
  const auto abandon = [&](const std::string& step, int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return io_error(tmp, step, err);
  };
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      return abandon("cannot write", errno);
    }
    done += static_cast<std::size_t>(w);
  }
  // The check reads what the kernel now holds for the file, the very bytes
  // the fsync makes durable: the two run at once.
  int sync_errno = 0;
  std::optional<Result<std::monostate>> checked;
  run_workers(2, [&](unsigned which) {
    if (which == 1) {
      if (::fsync(fd) != 0) sync_errno = errno;
    } else if (check) {
      checked = check(tmp);
    }
  });
  if (sync_errno != 0) return abandon("cannot fsync", sync_errno);
  if (checked && !checked->ok()) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return checked->error();
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return io_error(tmp, "cannot close", err);
  }
  auto renamed = rename_durably(tmp, path);
  if (!renamed.ok()) ::unlink(tmp.c_str());
  return renamed;
}

Result<std::monostate> rename_durably(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return io_error(to, "cannot rename " + from + " over it", errno);
  }
  // Make the rename itself durable.
  const auto slash = to.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : to.substr(0, slash + 1);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return std::monostate{};
}

}  // namespace eight
