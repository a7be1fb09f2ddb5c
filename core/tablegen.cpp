#include "eight/tablegen.h"

#include <fcntl.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <cstring>
#include <optional>
#include <thread>

#include "eight/goal.h"
#include "eight/rank.h"
#include "eight/table.h"
#include "eight/table_format.h"
#include "section_search.h"

namespace eight {
namespace {

Error io_error(const std::string& path, const std::string& step, int err) {
  return make_error(ErrorCode::kIo, path + ": " + step + ": " + std::strerror(err));
}

}  // namespace

std::vector<std::uint32_t> generate_section(int blank) {
  assert(blank >= 0 && blank < kCells);
  std::vector<std::uint32_t> entries(kPositions, 0);
  const std::uint32_t goal_rank = rank(canonical_goal(blank));
  entries[goal_rank] = format::pack_entry({goal_rank, Move::kUp, 0});
  // Each position's parent is the one it was first found from; the search
  // tries moves in a fixed order, so the bytes are the same every run.
  detail::section_search(
      blank,
      [&entries](const detail::Step& step, std::uint32_t parent, std::uint8_t distance) {
        entries[step.rank] = format::pack_entry({parent, opposite(step.move), distance});
        return true;
      },
      detail::Ignore{});
  return entries;
}

std::vector<std::uint8_t> build_table(std::span<const int> blanks) {
  const std::size_t n = blanks.size();
  std::vector<std::vector<std::uint32_t>> sections(n);
  {
    std::vector<std::jthread> workers;
    for (std::size_t i = 0; i < n; ++i) {
      workers.emplace_back([&sections, &blanks, i] { sections[i] = generate_section(blanks[i]); });
    }
  }
  std::vector<std::uint8_t> file(format::file_size_for(n), 0);
  format::Header header;
  header.section_count = static_cast<std::uint16_t>(n);
  header.file_size = file.size();
  for (std::size_t i = 0; i < n; ++i) {
    format::SectionRecord rec;
    rec.goal = canonical_goal(blanks[i]);
    rec.offset = format::section_offset(n, i);
    rec.count = kPositions;
    std::uint8_t* out = file.data() + rec.offset;
    for (std::uint32_t v : sections[i]) {
      rec.max_distance = std::max(rec.max_distance, format::unpack_entry(v).distance);
      format::put_u32(out, v);
      out += format::kEntrySize;
    }
    format::encode_section_record(
        rec, file.data() + format::kHeaderSize + i * format::kSectionRecordSize);
  }
  format::encode_header(header, file.data());
  header.checksum = format::compute_checksum(file);
  format::encode_header(header, file.data());
  return file;
}

Status write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes,
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
  std::optional<Status> checked;
  {
    std::jthread sync([&] {
      if (::fsync(fd) != 0) sync_errno = errno;
    });
    if (check) checked = check(tmp);
  }
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
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return io_error(path, "cannot rename " + tmp + " over it", err);
  }
  // Make the rename itself durable.
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return std::monostate{};
}

Status write_table(const std::string& path, std::span<const int> blanks) {
  const auto bytes = build_table(blanks);
  return write_file_atomically(path, bytes, [&path](const std::string& tmp) -> Status {
    auto table = Table::open(tmp, Check::kFull);
    if (!table.ok()) {
      return make_error(table.error().code, "wrote a table that does not prove sound, so " + path +
                                                " was left as it was: " + table.error().message);
    }
    return std::monostate{};
  });
}

}  // namespace eight
