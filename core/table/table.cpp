// Table (include/eight/table.h): the owning handle of a table's bytes and
// everything over them.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <span>
#include <utility>

#include "checks.h"
#include "eight/fifteen_search.h"
#include "eight/goal.h"
#include "eight/pattern_db.h"
#include "eight/random.h"
#include "eight/solver.h"
#include "eight/table.h"
#include "pdb/pdb5x5.h"

namespace eight {

using table_checks::fail;
using table_checks::hex64;

// What a Table's bytes live in: private anonymous memory its file was read
// into (made read-only once read), unmapped on destruction, or a buffer it
// owns. Anonymous memory rather than a vector: the read fills it once (a
// vector would zero every page first) and the unmap returns it at once.
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

namespace {

// What fstat says a file that is not a table's is, for the error.
const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "another kind of file";
}

}  // namespace

Table::Table(std::string path, std::unique_ptr<Bytes> bytes, TableView view)
    : path_(std::move(path)),
      bytes_(std::move(bytes)),
      view_(std::move(view)),
      solver_(std::make_unique<Solver>(view_)) {
  checksum_hex_ = hex64(view_.checksum());
  const auto held = view_.shapes();
  for (const Shape s : kBoardShapes) {
    if (is_grid_shape(s)) continue;  // pattern databases for the grid search alone
    if (std::find(held.begin(), held.end(), s) != held.end() ||
        std::find(held.begin(), held.end(), s.transposed()) != held.end()) {
      answered_.push_back(s);
    }
  }
  // Each goal's pattern databases, in record order, make its sets (a 4x4
  // goal's one set its search; a 5x5 goal's its class's five groups, for the
  // beam; another shape's serve the grid search): a
  // group sharing a tile with the set being read starts the next. parse()
  // has checked all that IdaSearch::create() asks: sound groups, sizes, no
  // tile shared within a set, at most kMaxGroups a set and one set on 4x4,
  // at most kMaxPatternSets.
  for (std::size_t i = 0; i < view_.section_count(); ++i) {
    const SectionInfo& first = view_.section(i);
    if (first.encoding != format::Encoding::kPatternDb) continue;
    if (view_.section_for(first.shape, first.blank) != i) continue;  // not the goal's first
    if (first.shape == grid::kShape5x5) {
      // parse() has checked the five groups, pdb5x5_groups()'s in order.
      grid::Pdb5x5View set;
      set.goal_blank = first.blank;
      set.groups = grid::pdb5x5_groups(first.blank);
      for (std::size_t j = i, g = 0; j < view_.section_count(); ++j) {
        const SectionInfo& s = view_.section(j);
        if (s.shape == first.shape && s.blank == first.blank) set.bytes[g++] = s.pdb();
      }
      pdb5x5_sets_.push_back(set);
      continue;
    }
    const std::size_t goal_first_set = pattern_sets_.size();
    fifteen::TileMask taken = 0;
    for (std::size_t j = i; j < view_.section_count(); ++j) {
      const SectionInfo& s = view_.section(j);
      if (s.shape != first.shape || s.blank != first.blank) continue;
      if (j == i || (taken & s.group) != 0) {
        fifteen::PatternSetView next;
        next.set.shape = first.shape;
        next.set.goal_blank = first.blank;
        pattern_sets_.push_back(next);
        taken = 0;
      }
      fifteen::PatternSetView& set = pattern_sets_.back();
      taken = static_cast<fifteen::TileMask>(taken | s.group);
      const auto g = static_cast<std::size_t>(set.set.group_count++);
      set.set.groups[g] = static_cast<fifteen::TileMask>(s.group);
      auto v = fifteen::PatternDbView::open(s.pdb(), s.shape, s.blank, set.set.groups[g]);
      assert(v.ok());
      set.dbs[g] = *v;
    }
    goal_sets_.push_back({goal_first_set, pattern_sets_.size() - goal_first_set});
    if (first.shape != kShape4x4) continue;
    const fifteen::PatternSetView& set = pattern_sets_[goal_first_set];
    auto search = fifteen::IdaSearch::create(
        set.set, std::span(set.dbs).first(static_cast<std::size_t>(set.set.group_count)));
    assert(search.ok());
    ida_searches_.emplace_back(
        i, std::make_unique<const fifteen::IdaSearch>(std::move(search).value()));
  }
  // The standard goal is asked about most: its frame is found once.
  if (auto f = frame(kStandardGoal); f.ok()) standard_frame_.emplace(*f);
}

Table::~Table() = default;

Result<std::shared_ptr<const Table>> Table::open(const std::string& path, Check check) {
  // O_NONBLOCK: opening a FIFO for reading would wait for a writer, for
  // ever; non-blocking, it opens at once and fstat refuses it below. (It
  // changes nothing for a regular file's reads.)
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    return fail(ErrorCode::kIo, path, std::string("cannot open: ") + std::strerror(errno));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return fail(ErrorCode::kIo, path, std::string("cannot stat: ") + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return fail(ErrorCode::kIo, path,
                std::string("not a regular file (") + file_kind(st.st_mode) +
                    "): a table is read from a regular file");
  }
  const auto file_size = static_cast<std::uint64_t>(st.st_size);
  if (file_size == 0) return fail(ErrorCode::kTruncated, path, "file is empty");
  if (file_size > format::kMaxFileSize) {
    return fail(ErrorCode::kBadHeader, path,
                "file has " + std::to_string(file_size) + " bytes, more than a table may have (" +
                    std::to_string(format::kMaxFileSize) + ")");
  }
  const auto size = static_cast<std::size_t>(file_size);
  auto bytes = std::make_unique<Bytes>();
  void* addr = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (addr == MAP_FAILED) {
    return fail(ErrorCode::kIo, path,
                "cannot allocate " + std::to_string(size) + " bytes: " + std::strerror(errno));
  }
  // Huge pages where the kernel gives them (advice, ignored elsewhere): the
  // read faults in 2 MiB at a time. With 4 KiB pages, reading the default
  // table took 265 ms against the mapping's 44 ms, most of it page faults;
  // with them, 31 ms against 31 (bench/table_load_bench.cpp).
  ::madvise(addr, size, MADV_HUGEPAGE);
  bytes->addr = addr;  // ~Bytes unmaps it, whatever happens below
  bytes->size = size;
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  auto* out = static_cast<std::uint8_t*>(addr);
  for (std::size_t done = 0; done < size;) {
    // At most 1 GiB a call: Linux reads at most about 2 GiB at once.
    const ssize_t got = ::read(fd, out + done, std::min<std::size_t>(size - done, 1u << 30));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      return fail(ErrorCode::kIo, path, std::string("cannot read: ") + std::strerror(errno));
    }
    if (got == 0) {
      return fail(ErrorCode::kTruncated, path,
                  "file shrank from " + std::to_string(size) + " to " + std::to_string(done) +
                      " bytes while it was read (changed in place?)");
    }
    done += static_cast<std::size_t>(got);
  }
  // Read-only from here: the checked bytes stay the checked bytes.
  ::mprotect(addr, size, PROT_READ);
  // The checksum is checked over the bytes just read: whatever changed in
  // the file while they were read fails it.
  auto view = TableView::parse(bytes->span(), path, check);
  if (!view.ok()) return view.error();
  auto table = std::shared_ptr<Table>(new Table(path, std::move(bytes), std::move(view).value()));
  table->file_id_ = {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
  return std::shared_ptr<const Table>(std::move(table));
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

Result<GoalFrame> Table::frame(const GridBoard& goal) const {
  assert(is_valid(goal));
  if (standard_frame_ && goal == kStandardGoal) return *standard_frame_;
  // First: a grid shape's pattern databases are no frame's section.
  if (!answers(goal.shape)) {
    return make_error(ErrorCode::kNoShape, "the table answers " + shape_list(answered_) +
                                               " boards, not " + to_string(goal.shape) +
                                               " ones such as goal " + to_string(goal));
  }
  const int blank = blank_cell(goal);
  // In the order of symmetries(): the identity first, so a goal that has a
  // section of its own is answered from it.
  for (const Symmetry& s : symmetries(goal.shape)) {
    if (const auto section = view_.section_for(s.to, s.cell_map[static_cast<std::size_t>(blank)])) {
      // A shape the table answers has a Board's room (kMaxSectionCells).
      return GoalFrame(*to_board(goal), *section, s);
    }
  }
  return make_error(ErrorCode::kNoSection, "the table has no section for goal " + to_string(goal) +
                                               " (blank on cell " + std::to_string(blank) + ")");
}

bool Table::answers(Shape shape) const {
  return std::find(answered_.begin(), answered_.end(), shape) != answered_.end();
}

const fifteen::IdaSearch* Table::ida_search(std::size_t section) const {
  for (const auto& [first, search] : ida_searches_) {
    if (first == section) return search.get();
  }
  return nullptr;
}

const fifteen::PatternSetView* Table::pattern_set(Shape shape, int goal_blank) const {
  const auto sets = pattern_sets(shape, goal_blank);
  return sets.empty() ? nullptr : sets.data();
}

std::span<const fifteen::PatternSetView> Table::pattern_sets(Shape shape, int goal_blank) const {
  for (const auto& [first, count] : goal_sets_) {
    const fifteen::PatternSetView& set = pattern_sets_[first];
    if (set.set.shape == shape && set.set.goal_blank == goal_blank) {
      return std::span(pattern_sets_).subspan(first, count);
    }
  }
  return {};
}

const grid::Pdb5x5View* Table::pdb5x5_set(int goal_blank) const {
  for (const grid::Pdb5x5View& set : pdb5x5_sets_) {
    if (set.goal_blank == goal_blank) return &set;
  }
  return nullptr;
}

const DistanceIndex& Table::index() const {
  std::call_once(index_once_, [this] { index_ = std::make_unique<DistanceIndex>(view_); });
  return *index_;
}

}  // namespace eight
