#include "eight/tablegen.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <memory>
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

// For the asserts: build_table's REQUIRES, 1..9 distinct cells on the board.
[[maybe_unused]] bool are_section_blanks(std::span<const int> blanks) {
  if (blanks.empty() || blanks.size() > format::kMaxSections) return false;
  unsigned seen = 0;
  for (int b : blanks) {
    if (b < 0 || b >= kCells || (seen >> b & 1) != 0) return false;
    seen |= 1u << b;
  }
  return true;
}

}  // namespace

namespace {

// Writes the section of canonical_goal(blank) as little-endian entries into
// `out` (kPositions * kEntrySize bytes), straight from the search; returns
// its max distance.
int write_section(int blank, detail::SearchSpace& space, std::uint8_t* out) {
  const std::uint32_t goal_rank = rank(canonical_goal(blank));
  format::put_u32(out + format::kEntrySize * goal_rank,
                  format::pack_entry({goal_rank, Move::kUp, 0}));
  // A move that finds nothing writes its entry here instead, so the
  // search's loop writes without a branch. The moves out of the last level
  // find nothing and come with distance 32 in the 31-move section: masked,
  // so pack_entry's fields stay in range (no entry found is that far, and
  // the mask is constant over a level).
  std::uint8_t sink[format::kEntrySize];
  const auto base = reinterpret_cast<std::uintptr_t>(out);
  const auto drop = reinterpret_cast<std::uintptr_t>(sink);
  // Each position's parent is the one it was first found from; the search
  // tries moves in a fixed order, so the bytes are the same every run.
  return detail::section_search(
      blank, space,
      [base, drop](std::uint32_t r, std::uint32_t parent, Move m, std::uint8_t distance, bool found) {
        const std::uintptr_t at = base + format::kEntrySize * r;
        const std::uintptr_t to = drop ^ ((at ^ drop) & (0 - static_cast<std::uintptr_t>(found)));
        format::put_u32(
            reinterpret_cast<std::uint8_t*>(to),
            format::pack_entry({parent, opposite(m), static_cast<std::uint8_t>(distance & 31)}));
      });
}

}  // namespace

std::vector<std::uint32_t> generate_section(int blank) {
  assert(blank >= 0 && blank < kCells);
  std::vector<std::uint8_t> bytes(kPositions * format::kEntrySize, 0);
  detail::SearchSpace space;
  write_section(blank, space, bytes.data());
  std::vector<std::uint32_t> entries(kPositions);
  for (std::uint32_t r = 0; r < kPositions; ++r) {
    entries[r] = format::get_u32(bytes.data() + format::kEntrySize * r);
  }
  return entries;
}

namespace {

// Writes every byte of the file for `blanks` into `file`, which need not be
// zeroed: each byte is written once, the entries by the search that finds
// them, so the pages of a fresh buffer are first touched on the cores
// searching into them. REQUIRES: blanks as for build_table, and
// file.size() == file_size_for(blanks.size()).
void build_table_into(std::span<const int> blanks, std::span<std::uint8_t> file) {
  const std::size_t n = blanks.size();
  assert(are_section_blanks(blanks));
  assert(file.size() == format::file_size_for(n));
  detail::Transitions::get();  // before the workers, which all need it
  // The sections are searched straight into their places in the file by
  // one worker per core, each taking the next section left and reusing its
  // memory for it; the bytes do not depend on who searched what.
  std::vector<int> max_distance(n);
  std::atomic<std::size_t> next{0};
  {
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::jthread> workers;
    for (std::size_t w = 0; w < std::min(n, cores); ++w) {
      workers.emplace_back([&] {
        detail::SearchSpace space;
        for (std::size_t i; (i = next.fetch_add(1)) < n;) {
          max_distance[i] =
              write_section(blanks[i], space, file.data() + format::section_offset(n, i));
        }
      });
    }
  }
  format::Header header;
  header.section_count = static_cast<std::uint16_t>(n);
  header.file_size = file.size();
  for (std::size_t i = 0; i < n; ++i) {
    format::SectionRecord rec;
    rec.goal = canonical_goal(blanks[i]);
    rec.offset = format::section_offset(n, i);
    rec.count = kPositions;
    rec.max_distance = static_cast<std::uint8_t>(max_distance[i]);
    format::encode_section_record(
        rec, file.data() + format::kHeaderSize + i * format::kSectionRecordSize);
  }
  format::encode_header(header, file.data());
  header.checksum = format::compute_checksum(file);
  format::encode_header(header, file.data());
}

}  // namespace

std::vector<std::uint8_t> build_table(std::span<const int> blanks) {
  assert(are_section_blanks(blanks));
  std::vector<std::uint8_t> file(format::file_size_for(blanks.size()));
  build_table_into(blanks, file);
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
  assert(are_section_blanks(blanks));
  const std::size_t size = format::file_size_for(blanks.size());
  // Default-initialised: build_table_into writes every byte.
  const std::unique_ptr<std::uint8_t[]> buffer(new std::uint8_t[size]);
  const std::span<std::uint8_t> bytes(buffer.get(), size);
  build_table_into(blanks, bytes);
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
