#include "eight/tablegen.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "eight/goal.h"
#include "eight/rank.h"
#include "eight/table_format.h"

namespace eight {
namespace {

constexpr std::uint32_t kUnvisited = 0xFFFFFFFF;

Error io_error(const std::string& path, const std::string& step, int err) {
  return make_error(ErrorCode::kIo, path + ": " + step + ": " + std::strerror(err));
}

}  // namespace

std::vector<std::uint32_t> generate_section(int blank) {
  std::vector<std::uint32_t> entries(kPositions, kUnvisited);
  // The queue holds boards beside their ranks, so expanding a node never
  // unranks, and a sideways move (which keeps the tile order) re-ranks by a
  // single addition.
  std::vector<Board> queue;
  std::vector<std::uint32_t> ranks;
  queue.reserve(kPositions);
  ranks.reserve(kPositions);
  const Board goal = canonical_goal(blank);
  const std::uint32_t goal_rank = rank(goal);
  entries[goal_rank] = format::pack_entry({goal_rank, Move::kUp, 0});
  queue.push_back(goal);
  ranks.push_back(goal_rank);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const Board b = queue[head];
    const std::uint32_t r = ranks[head];
    const std::uint8_t d = format::unpack_entry(entries[r]).distance;
    const int from = static_cast<int>(r / kTileOrders);  // the rank leads with the blank cell
    for (Move m : kAllMoves) {
      const int to = neighbor(from, m);
      if (to < 0) continue;
      Board next = b;
      next.cells[from] = b.cells[to];
      next.cells[to] = 0;
      const std::uint32_t nr = rank_after_move(next, r, from, to);
      if (entries[nr] != kUnvisited) continue;
      // `next` reaches `b` by moving its blank back the way it came.
      entries[nr] = format::pack_entry({r, opposite(m), static_cast<std::uint8_t>(d + 1)});
      queue.push_back(next);
      ranks.push_back(nr);
    }
  }
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
    format::encode_section_record(rec, file.data() + format::kHeaderSize +
                                           i * format::kSectionRecordSize);
  }
  format::encode_header(header, file.data());
  header.checksum = format::compute_checksum(file);
  format::encode_header(header, file.data());
  return file;
}

Status write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes) {
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
  if (::fsync(fd) != 0) return abandon("cannot fsync", errno);
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

}  // namespace eight
