#include "common/durable_file.h"

#include <fcntl.h>
#include <sys/stat.h>
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

// What lstat says is at a name that is not a regular file.
const char* kind_of(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "a device";
}

Error not_ours(const std::string& path, const std::string& what) {
  return make_error(ErrorCode::kIo, path + ": refusing to write through " + what +
                                        " there (not a file of ours); remove it and try again");
}

}  // namespace

Result<int> create_new_file(const std::string& path) {
  // Twice at most: a regular file left there is removed once; one that
  // comes back is someone else's doing, refused.
  for (int attempt = 0;; ++attempt) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) return fd;
    if (errno != EEXIST || attempt == 1) return io_error(path, "cannot create", errno);
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
      if (errno == ENOENT) continue;  // gone meanwhile: create it
      return io_error(path, "cannot create", errno);
    }
    if (!S_ISREG(st.st_mode)) return not_ours(path, kind_of(st.st_mode));
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      return io_error(path, "cannot remove the file an earlier run left", errno);
    }
  }
}

Result<int> open_own_file(const std::string& path) {
  struct stat before {};
  if (::lstat(path.c_str(), &before) != 0) return io_error(path, "cannot open", errno);
  if (!S_ISREG(before.st_mode)) return not_ours(path, kind_of(before.st_mode));
  if (before.st_uid != ::geteuid() || before.st_nlink != 1) {
    return not_ours(path, before.st_uid != ::geteuid() ? "another user's file"
                                                       : "a file with other names (hard links)");
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return io_error(path, "cannot open", errno);
  struct stat now {};
  if (::fstat(fd, &now) != 0 || now.st_dev != before.st_dev || now.st_ino != before.st_ino) {
    ::close(fd);
    return not_ours(path, "a file that changed while it was opened");
  }
  return fd;
}

Result<std::monostate> write_file_atomically(const std::string& path,
                                             std::span<const std::uint8_t> bytes,
                                             const WriteCheck& check) {
  const std::string tmp = path + ".tmp";
  auto created = create_new_file(tmp);
  if (!created.ok()) return created.error();
  const int fd = *created;
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
