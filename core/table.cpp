#include "eight/table.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>
#include <utility>

#include "eight/goal.h"

namespace eight {
namespace {

using format::Entry;

Error fail(ErrorCode code, std::string_view name, const std::string& what) {
  return make_error(code, std::string(name) + ": " + what);
}

std::string hex64(std::uint64_t v) {
  char buf[19];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// Checks every entry of one section; fills its histogram and max distance.
// The three per-entry checks together prove the distances exact: following
// parents strictly decreases the distance down to the single goal entry, so
// each distance is achievable; neighbours' distances differing by at most one
// means no position can be closer than recorded.
std::optional<Error> verify_entries(SectionInfo& s, std::size_t index, std::string_view name) {
  const auto at = [&](std::uint32_t r) { return format::get_u32(s.entries + 4 * r); };
  const auto where = [&](std::uint32_t r) {
    return "section " + std::to_string(index) + ", entry " + std::to_string(r) + ": ";
  };
  s.histogram.fill(0);
  int max_distance = 0;
  for (std::uint32_t r = 0; r < kPositions; ++r) {
    const std::uint32_t raw = at(r);
    if ((raw & format::kReservedEntryMask) != 0) {
      return fail(ErrorCode::kBadEntry, name, where(r) + "reserved bits are set");
    }
    const Entry e = format::unpack_entry(raw);
    if (e.parent >= kPositions) {
      return fail(ErrorCode::kBadEntry, name,
                  where(r) + "parent " + std::to_string(e.parent) + " is out of range");
    }
    ++s.histogram[e.distance];
    max_distance = std::max<int>(max_distance, e.distance);
    if (e.distance == 0) {
      if (r != s.goal_rank || e.parent != r) {
        return fail(ErrorCode::kBadEntry, name, where(r) + "distance 0 but not the goal");
      }
      continue;
    }
    if (format::unpack_entry(at(e.parent)).distance + 1 != e.distance) {
      return fail(ErrorCode::kBadEntry, name,
                  where(r) + "parent is not one move closer to the goal");
    }
    const Board b = unrank(r, 0);
    const int blank = blank_cell(b);
    for (Move m : kAllMoves) {
      const int to = neighbor(blank, m);
      if (to < 0) {
        if (m == e.move) {
          return fail(ErrorCode::kBadEntry, name, where(r) + "move leaves the board");
        }
        continue;
      }
      Board next = b;
      std::swap(next.cells[blank], next.cells[to]);
      const std::uint32_t nr = rank_after_move(next, r, blank, to);
      if (m == e.move && nr != e.parent) {
        return fail(ErrorCode::kBadEntry, name, where(r) + "move does not lead to the parent");
      }
      const int nd = format::unpack_entry(at(nr)).distance;
      if (nd + 1 < e.distance || nd > e.distance + 1) {
        return fail(ErrorCode::kBadEntry, name,
                    where(r) + "distance differs from a neighbour's by more than one");
      }
    }
  }
  if (s.histogram[0] != 1 || format::unpack_entry(at(s.goal_rank)).distance != 0) {
    return fail(ErrorCode::kBadEntry, name,
                "section " + std::to_string(index) + ": goal entry does not have distance 0");
  }
  if (max_distance != s.max_distance) {
    return fail(ErrorCode::kBadHeader, name,
                "section " + std::to_string(index) + ": records max distance " +
                    std::to_string(s.max_distance) + " but its entries reach " +
                    std::to_string(max_distance));
  }
  return std::nullopt;
}

std::optional<Error> check_header(const format::Header& h, std::size_t size,
                                  std::string_view name) {
  if (h.version != format::kVersion) {
    return fail(ErrorCode::kBadVersion, name,
                "format version " + std::to_string(h.version) + " is not supported (this build reads version " +
                    std::to_string(format::kVersion) + ")");
  }
  if (h.rows != kRows || h.cols != kCols) {
    return fail(ErrorCode::kBadHeader, name,
                "board shape " + std::to_string(h.rows) + "x" + std::to_string(h.cols) +
                    " is not supported (this build reads 3x3)");
  }
  if (h.entry_size != format::kEntrySize) {
    return fail(ErrorCode::kBadHeader, name,
                "entry size " + std::to_string(h.entry_size) + " is not 4");
  }
  if (h.section_count < 1 || h.section_count > format::kMaxSections) {
    return fail(ErrorCode::kBadHeader, name,
                "section count " + std::to_string(h.section_count) + " is not between 1 and 9");
  }
  if (h.file_size != size) {
    return fail(ErrorCode::kTruncated, name,
                "header says " + std::to_string(h.file_size) + " bytes but the file has " +
                    std::to_string(size));
  }
  const std::uint64_t expected = format::file_size_for(h.section_count);
  if (size != expected) {
    return fail(size < expected ? ErrorCode::kTruncated : ErrorCode::kBadHeader, name,
                "file has " + std::to_string(size) + " bytes but " +
                    std::to_string(h.section_count) + " sections need exactly " +
                    std::to_string(expected));
  }
  return std::nullopt;
}

}  // namespace

Result<TableView> TableView::parse(std::span<const std::uint8_t> bytes, std::string_view name) {
  if (bytes.empty()) return fail(ErrorCode::kTruncated, name, "file is empty");
  if (bytes.size() < format::kMagic.size() ||
      !std::equal(format::kMagic.begin(), format::kMagic.end(), bytes.begin())) {
    return fail(ErrorCode::kBadMagic, name, "not an eight table (bad magic)");
  }
  if (bytes.size() < format::kHeaderSize) {
    return fail(ErrorCode::kTruncated, name,
                "file is truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the " +
                    std::to_string(format::kHeaderSize) + "-byte header");
  }
  TableView view;
  view.bytes_ = bytes;
  view.header_ = format::decode_header(bytes.data());
  if (auto err = check_header(view.header_, bytes.size(), name)) return *err;
  const std::uint64_t actual = format::compute_checksum(bytes);
  if (actual != view.header_.checksum) {
    return fail(ErrorCode::kBadChecksum, name,
                "checksum mismatch: header says " + hex64(view.header_.checksum) +
                    ", contents hash to " + hex64(actual) + " (file is corrupted)");
  }
  const std::size_t n = view.header_.section_count;
  unsigned blanks_seen = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto rec = format::decode_section_record(bytes.data() + format::kHeaderSize +
                                                   i * format::kSectionRecordSize);
    const std::string where = "section " + std::to_string(i) + ": ";
    if (!is_valid(rec.goal) || !is_canonical_goal(rec.goal)) {
      return fail(ErrorCode::kBadHeader, name, where + "goal is not a canonical goal");
    }
    const int blank = blank_cell(rec.goal);
    if ((blanks_seen >> blank & 1) != 0) {
      return fail(ErrorCode::kBadHeader, name, where + "a second section for blank cell " +
                                                   std::to_string(blank));
    }
    blanks_seen |= 1u << blank;
    if (rec.offset != format::section_offset(n, i) || rec.count != kPositions) {
      return fail(ErrorCode::kBadHeader, name, where + "offset or entry count does not match the layout");
    }
    if (rec.max_distance > format::kMaxDistance ||
        std::any_of(rec.reserved.begin(), rec.reserved.end(), [](auto b) { return b != 0; }) ||
        std::any_of(rec.goal_padding.begin(), rec.goal_padding.end(),
                    [](auto b) { return b != 0; })) {
      return fail(ErrorCode::kBadHeader, name, where + "reserved bytes are set or max distance is out of range");
    }
    SectionInfo info;
    info.goal = rec.goal;
    info.blank = blank;
    info.goal_rank = rank(rec.goal);
    info.max_distance = rec.max_distance;
    info.entries = bytes.data() + rec.offset;
    view.sections_.push_back(info);
  }
  // Sections are independent: check them on all cores.
  std::vector<std::optional<Error>> errors(n);
  {
    std::vector<std::jthread> workers;
    for (std::size_t i = 0; i < n; ++i) {
      workers.emplace_back([&, i] { errors[i] = verify_entries(view.sections_[i], i, name); });
    }
  }
  for (auto& err : errors) {
    if (err) return *err;
  }
  return view;
}

int TableView::section_for_blank(int cell) const {
  for (std::size_t i = 0; i < sections_.size(); ++i) {
    if (sections_[i].blank == cell) return static_cast<int>(i);
  }
  return -1;
}

Result<MappedTable> MappedTable::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return fail(ErrorCode::kIo, path, std::string("cannot open: ") + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return fail(ErrorCode::kIo, path, std::string("cannot stat: ") + std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(ErrorCode::kIo, path, "not a regular file");
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    return fail(ErrorCode::kTruncated, path, "file is empty");
  }
  void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int map_errno = errno;
  ::close(fd);  // the mapping keeps the file alive
  if (addr == MAP_FAILED) {
    return fail(ErrorCode::kIo, path, std::string("cannot map: ") + std::strerror(map_errno));
  }
  auto view = TableView::parse({static_cast<const std::uint8_t*>(addr), size}, path);
  if (!view.ok()) {
    ::munmap(addr, size);
    return view.error();
  }
  return MappedTable(path, addr, size, std::move(view).value());
}

MappedTable::MappedTable(MappedTable&& other) noexcept
    : path_(std::move(other.path_)),
      addr_(std::exchange(other.addr_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      view_(std::move(other.view_)) {}

MappedTable& MappedTable::operator=(MappedTable&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    addr_ = std::exchange(other.addr_, nullptr);
    size_ = std::exchange(other.size_, 0);
    view_ = std::move(other.view_);
  }
  return *this;
}

MappedTable::~MappedTable() { release(); }

void MappedTable::release() {
  if (addr_ != nullptr) ::munmap(addr_, size_);
  addr_ = nullptr;
}

}  // namespace eight
