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

namespace eight {

using table_checks::fail;
using table_checks::hex64;

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
  const auto held = view_.shapes();
  for (const Shape s : kBoardShapes) {
    if (is_grid_shape(s)) continue;  // pattern databases for the grid search alone
    if (std::find(held.begin(), held.end(), s) != held.end() ||
        std::find(held.begin(), held.end(), s.transposed()) != held.end()) {
      answered_.push_back(s);
    }
  }
  // Each goal's pattern databases, in record order, make its set (and a
  // 4x4 goal's its search; another shape's serve the grid search). parse()
  // has checked all that IdaSearch::create() asks: sound groups, sizes, no
  // tile shared within a goal, at most kMaxGroups.
  for (std::size_t i = 0; i < view_.section_count(); ++i) {
    const SectionInfo& first = view_.section(i);
    if (first.encoding != format::Encoding::kPatternDb) continue;
    if (view_.section_for(first.shape, first.blank) != i) continue;  // not the goal's first
    fifteen::PatternSetView set;
    set.set.shape = first.shape;
    set.set.goal_blank = first.blank;
    for (std::size_t j = i; j < view_.section_count(); ++j) {
      const SectionInfo& s = view_.section(j);
      if (s.shape != first.shape || s.blank != first.blank) continue;
      const auto g = static_cast<std::size_t>(set.set.group_count++);
      set.set.groups[g] = s.group;
      auto v = fifteen::PatternDbView::open(s.pdb(), s.shape, s.blank, s.group);
      assert(v.ok());
      set.dbs[g] = *v;
    }
    pattern_sets_.push_back(set);
    if (first.shape != kShape4x4) continue;
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
  for (const fifteen::PatternSetView& set : pattern_sets_) {
    if (set.set.shape == shape && set.set.goal_blank == goal_blank) return &set;
  }
  return nullptr;
}

const DistanceIndex& Table::index() const {
  std::call_once(index_once_, [this] { index_ = std::make_unique<DistanceIndex>(view_); });
  return *index_;
}

}  // namespace eight
