#include "eight/table.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>
#include <utility>

#include "eight/goal.h"
#include "eight/random.h"
#include "eight/solver.h"
#include "section_search.h"

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

// The structural proof of one section, over its entries in rank order,
// with the moves between ranks from detail::Transitions:
//  1. the goal's entry has distance 0 and is its own parent, and no other
//     entry has distance 0;
//  2. every other entry's parent is in range, one move closer, and the
//     position its move leads to;
//  3. every move's two ends differ in distance by at most one (each move
//     checked once, from the end it goes down or right from).
// Following parents (2) from a position reaches the goal in exactly its
// distance, so no distance is too short; and along a shortest path a
// distance can fall by at most one a move (3) to the goal's 0, so none is
// too long: every distance is exact. The checks on an entry's own fields
// come first, so the message names the first thing wrong.
std::optional<Error> verify_entries(const SectionInfo& s, std::size_t index,
                                    std::string_view name) {
  const auto at = [&](std::uint32_t r) { return format::get_u32(s.entries + 4 * r); };
  const auto where = [&](std::uint32_t r) {
    return "section " + std::to_string(index) + ", entry " + std::to_string(r) + ": ";
  };
  const auto& transitions = detail::Transitions::get();
  int max_distance = 0;
  detail::Moves moves;
  for (std::uint32_t r = 0; r < kPositions; ++r) {
    const std::uint32_t raw = at(r);
    const auto refuse = [&](const std::string& what) {
      return fail(ErrorCode::kBadEntry, name, where(r) + what);
    };
    if ((raw & format::kReservedEntryMask) != 0) return refuse("reserved bits are set");
    const Entry e = format::unpack_entry(raw);
    max_distance = std::max<int>(max_distance, e.distance);
    if (e.parent >= kPositions) {
      return refuse("parent " + std::to_string(e.parent) + " is out of range");
    }
    if (r == s.goal_rank || e.distance == 0) {
      if (r != s.goal_rank || e.distance != 0 || e.parent != r) {
        return refuse("distance 0 but not the goal, or the goal not at distance 0");
      }
      continue;
    }
    if (format::unpack_entry(at(e.parent)).distance + 1 != e.distance) {
      return refuse("parent is not one move closer to the goal");
    }
    transitions.moves(r, moves);
    const auto m = static_cast<std::size_t>(e.move);
    if ((moves.legal >> m & 1) == 0 || moves.rank[m] != e.parent) {
      return refuse("move does not lead to the parent");
    }
    for (Move forward : {Move::kDown, Move::kRight}) {
      const auto f = static_cast<std::size_t>(forward);
      if ((moves.legal >> f & 1) == 0) continue;
      const int d = format::unpack_entry(at(moves.rank[f])).distance;
      if (d + 1 < e.distance || d > e.distance + 1) {
        return refuse("distance differs from a neighbour's by more than one");
      }
    }
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
                "format version " + std::to_string(h.version) +
                    " is not supported (this build reads version " +
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

Result<TableView> TableView::parse(std::span<const std::uint8_t> bytes, std::string_view name,
                                   Check check) {
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
      return fail(ErrorCode::kBadHeader, name,
                  where + "a second section for blank cell " + std::to_string(blank));
    }
    blanks_seen |= 1u << blank;
    if (rec.offset != format::section_offset(n, i) || rec.count != kPositions) {
      return fail(ErrorCode::kBadHeader, name,
                  where + "offset or entry count does not match the layout");
    }
    if (rec.max_distance > format::kMaxDistance ||
        std::any_of(rec.reserved.begin(), rec.reserved.end(), [](auto b) { return b != 0; }) ||
        std::any_of(rec.goal_padding.begin(), rec.goal_padding.end(),
                    [](auto b) { return b != 0; })) {
      return fail(ErrorCode::kBadHeader, name,
                  where + "reserved bytes are set or max distance is out of range");
    }
    SectionInfo info;
    info.goal = rec.goal;
    info.blank = blank;
    info.goal_rank = rank(rec.goal);
    info.max_distance = rec.max_distance;
    info.entries = bytes.data() + rec.offset;
    view.sections_.push_back(info);
  }
  if (check == Check::kChecksum) return view;
  // Sections are independent: prove them at once, one thread each (at most
  // nine, a few milliseconds each).
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

std::optional<std::size_t> TableView::section_for_blank(int cell) const {
  for (std::size_t i = 0; i < sections_.size(); ++i) {
    if (sections_[i].blank == cell) return i;
  }
  return std::nullopt;
}

DistanceHistogram TableView::histogram(std::size_t section) const {
  assert(section < sections_.size());
  DistanceHistogram hist{};
  const std::uint8_t* p = sections_[section].entries;
  for (std::uint32_t r = 0; r < kPositions; ++r, p += format::kEntrySize) {
    ++hist[format::unpack_entry(format::get_u32(p)).distance];
  }
  return hist;
}

// What a Table's bytes live in: a read-only mapping of its file, unmapped on
// destruction, or a buffer it owns.
struct Table::Bytes {
  void* addr = nullptr;
  std::size_t size = 0;
  std::vector<std::uint8_t> buffer;

  ~Bytes() {
    if (addr != nullptr) ::munmap(addr, size);
  }
  std::span<const std::uint8_t> span() const {
    if (addr != nullptr) return {static_cast<const std::uint8_t*>(addr), size};
    return buffer;
  }
};

Table::Table(std::string path, std::unique_ptr<Bytes> bytes, TableView view)
    : path_(std::move(path)),
      bytes_(std::move(bytes)),
      view_(std::move(view)),
      solver_(std::make_unique<Solver>(view_)) {
  checksum_hex_ = hex64(view_.checksum());
  // The standard goal is asked about most: its frame is found once.
  for (const Symmetry& s : symmetries()) {
    if (const auto section = view_.section_for_blank(s.cell_map[blank_cell(kStandardGoal)])) {
      standard_frame_.emplace(kStandardGoal, *section, s);
      break;
    }
  }
}

Table::~Table() = default;

Result<std::shared_ptr<const Table>> Table::open(const std::string& path, Check check) {
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
  auto bytes = std::make_unique<Bytes>();
  bytes->addr = addr;
  bytes->size = size;
  auto view = TableView::parse(bytes->span(), path, check);
  if (!view.ok()) return view.error();  // ~Bytes unmaps
  return std::shared_ptr<const Table>(new Table(path, std::move(bytes), std::move(view).value()));
}

Result<std::shared_ptr<const Table>> Table::adopt(std::vector<std::uint8_t> data, std::string name,
                                                  Check check) {
  auto bytes = std::make_unique<Bytes>();
  bytes->buffer = std::move(data);
  auto view = TableView::parse(bytes->span(), name, check);
  if (!view.ok()) return view.error();
  return std::shared_ptr<const Table>(
      new Table(std::move(name), std::move(bytes), std::move(view).value()));
}

Result<GoalFrame> Table::frame(const Board& goal) const {
  assert(is_valid(goal));
  if (standard_frame_ && goal == kStandardGoal) return *standard_frame_;
  if (goal.shape != kShape3x3) {
    return make_error(ErrorCode::kNoSection, "the table answers 3x3 boards, not " +
                                                 to_string(goal.shape) + " ones such as goal " +
                                                 to_string(goal));
  }
  const int blank = blank_cell(goal);
  // In the order of symmetries(): the identity first, so a goal that has a
  // section of its own is answered from it.
  for (const Symmetry& s : symmetries()) {
    if (const auto section = view_.section_for_blank(s.cell_map[static_cast<std::size_t>(blank)])) {
      return GoalFrame(goal, *section, s);
    }
  }
  return make_error(ErrorCode::kNoSection, "the table has no section for goal " + to_string(goal) +
                                               " (blank on cell " + std::to_string(blank) + ")");
}

const DistanceIndex& Table::index() const {
  std::call_once(index_once_, [this] { index_ = std::make_unique<DistanceIndex>(view_); });
  return *index_;
}

}  // namespace eight
