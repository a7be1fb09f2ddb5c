// Reading a table: a checked view over its bytes, and Table, the one owning
// handle of a table ready to answer (its bytes, the view, the solver over it
// and what is derived from it), used by the CLI and the server alike.
//
// Never trust the file. Before anything is read, parse() checks the size,
// magic, version, shape, every section record and the XXH3-64 checksum
// (Check::kChecksum); Check::kFull adds the structural proof of every entry.
// Answering needs only the first: every read the solver makes is
// bounds-checked and every walk bounded (solver.h), so a file that passes
// the checksum but was built wrong (resealed) gives wrong answers or
// refusals, never a crash, a hang or a read outside its bytes.
//
// Ownership: a TableView borrows its bytes; a Table owns its bytes and
// everything over them, and is shared by shared_ptr. Each class below says
// its own lifetime and thread-safety rules.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "eight/board.h"
#include "eight/goal.h"
#include "eight/pattern_db.h"
#include "eight/rank.h"
#include "eight/result.h"
#include "eight/table_format.h"

namespace eight {

// How much of a table is checked before it is used.
enum class Check {
  // The size, magic, version, every section record (shape, encoding,
  // position count, offsets and sizes in the layout's order, canonical
  // goals, one section per shape and blank cell, reserved bytes zero, max
  // distance in range), the stats (the histogram sums to the positions, the
  // farthest count is its last count, the farthest ranks ascend inside the
  // section) and the XXH3-64 checksum: nothing proportional to the entries
  // but one pass of hashing (~0.1 ms for 2 MiB). What answering questions
  // needs.
  kChecksum,
  // kChecksum, then the proof of every full section's entries: checked
  // structurally against the moves between its positions (its distance is
  // the true one; its parent is in range, one move closer, and reached by
  // its move), its stats against its entries. A few milliseconds a
  // section, the sections at once. What the server runs at start and on
  // each reload. Mod-3 sections are checked as kChecksum does (their proof
  // is a search again, 0.1 s for 2x5, 12 s of CPU for a 12-cell section):
  // sealed by the checksum, and every walk over them bounded and checked,
  // so a wrong byte gives a refusal or a wrong answer, never a hang.
  // Pattern databases (4x4) get their entry histogram counted against
  // their stats (one pass over their bytes); a wrong entry that keeps the
  // histogram can only weaken or overstate the search's heuristic, so it
  // may give a longer path or a refusal by budget, never a crash or a hang.
  kFull,
  // kFull, and every mod-3 section and pattern database searched again and
  // its entries and stats compared byte for byte (the values of a section
  // are unique, so this is a proof too): a table that passes is exact. For `eight verify`
  // and the generator's read-back of tables up to 10 cells.
  kExhaustive,
};

struct SectionInfo {
  Shape shape;
  format::Encoding encoding = format::Encoding::kFull;
  GridBoard goal;  // a Board's cells but for 5x5 pattern databases
  int blank = 0;
  int cls = 0;  // the class (board_class()) of the section's positions
  std::uint32_t goal_rank = 0;
  std::uint32_t positions = 0;
  int max_distance = 0;                   // as the section record says
  const std::uint8_t* entries = nullptr;  // entries_bytes bytes
  std::size_t entries_bytes = 0;
  const std::uint8_t* histogram = nullptr;  // max_distance + 1 little-endian u32s
  const std::uint8_t* farthest = nullptr;   // farthest_count little-endian u32 ranks
  std::uint32_t farthest_count = 0;
  std::uint32_t group = 0;  // a pattern database's tiles (kPatternDb); else 0

  // The section's mod-3 bytes. REQUIRES: encoding == kMod3.
  std::span<const std::uint8_t> mod3() const {
    assert(encoding == format::Encoding::kMod3);
    return {entries, entries_bytes};
  }
  // The section's pattern-database bytes. REQUIRES: encoding == kPatternDb.
  std::span<const std::uint8_t> pdb() const {
    assert(encoding == format::Encoding::kPatternDb);
    return {entries, entries_bytes};
  }
  // The stats' count at distance d. REQUIRES: 0 <= d <= max_distance.
  std::uint32_t count_at(int d) const {
    assert(d >= 0 && d <= max_distance);
    return format::get_u32(histogram + 4 * static_cast<std::size_t>(d));
  }
  // The i-th farthest position's rank. REQUIRES: i < farthest_count.
  std::uint32_t farthest_rank(std::uint32_t i) const {
    assert(i < farthest_count);
    return format::get_u32(farthest + 4 * static_cast<std::size_t>(i));
  }
};

// Positions per distance, 0..kMaxDistance.
using DistanceHistogram = std::array<std::uint32_t, format::kMaxDistance + 1>;

// A checked, read-only view of table bytes. Does not own them: a view (and
// every Solver built on it) must not outlive the bytes it was parsed from.
// Immutable after parse, so any number of threads may read it at once.
class TableView {
 public:
  // `name` (usually the file's path) starts every error message. Any bytes
  // at all: whatever is wrong with them is an error, not a precondition.
  static Result<TableView> parse(std::span<const std::uint8_t> bytes, std::string_view name,
                                 Check check);
  // The header alone, from a file's first bytes (`head`, at least
  // format::kHeaderSize of them to pass), checked as parse() checks it
  // against a file of `file_size` bytes: magic, version, record size,
  // section count, file size (at most format::kMaxFileSize) and room for
  // the records. What a download checks as soon as its first bytes arrive
  // (`eight fetch`), before the rest reaches the disk.
  static Result<format::Header> parse_header(std::span<const std::uint8_t> head,
                                             std::uint64_t file_size, std::string_view name);

  std::uint64_t checksum() const { return header_.checksum; }
  const format::Header& header() const { return header_; }
  std::span<const std::uint8_t> bytes() const { return bytes_; }
  std::size_t section_count() const { return sections_.size(); }
  // REQUIRES: i < section_count().
  const SectionInfo& section(std::size_t i) const {
    assert(i < sections_.size());
    return sections_[i];
  }
  // The section of shape `shape` whose own (canonical) goal has its blank
  // on `cell`, if any (none for a cell off the board): the lookup
  // Table::frame() is built on. A goal's section is found by
  // Table::frame(), which also tries the goal's symmetries.
  std::optional<std::size_t> section_for(Shape shape, int cell) const;
  // The shapes the table has sections of, in the order of kTableShapes.
  std::vector<Shape> shapes() const;

  // The entry of rank r in a full section. REQUIRES: section <
  // section_count(), its encoding is kFull and r < its positions, which
  // parse() has checked its entries hold.
  format::Entry entry(std::size_t section, std::uint32_t r) const {
    assert(section < sections_.size() && sections_[section].encoding == format::Encoding::kFull &&
           r < sections_[section].positions);
    return format::entry_at(sections_[section].entries, r);
  }
  // How many of a section's positions are at each distance,
  // 0..kMaxDistance, as its stats say (which Check::kFull proves).
  // REQUIRES: section < section_count().
  DistanceHistogram histogram(std::size_t section) const;

 private:
  std::span<const std::uint8_t> bytes_;
  format::Header header_;
  std::vector<SectionInfo> sections_;
};

class Solver;
class DistanceIndex;
namespace fifteen {
class IdaSearch;
}

// A table ready to answer: its bytes (the file read whole into the table's
// own memory, or a buffer), the checked view over them, the solver over the view, the frame of
// the standard goal, and, built on first use, the positions grouped by
// distance. Shared by everyone answering from it: the server hands out
// shared_ptr snapshots, so a reload never pulls bytes from under a request.
//
// Nothing done to the file after open() reaches a Table: open() reads the
// file into private (anonymous) memory once and checks the checksum over
// those very bytes, so a change during the read fails the check, and a
// change after it (written in place, truncated, copied over, renamed over,
// deleted) leaves the answers and bytes() as they were checked. (A mapping
// of the file would see bytes written in place and die of SIGBUS past a
// truncation: docs/performance.md measures what the copy costs.)
//
// Thread safety: immutable after open, but for index(), which builds its
// result once under std::call_once; every member may be called from any
// number of threads at once.
class Table {
 public:
  // Reads `path` whole into the table's own memory and checks it at
  // `check`. Only a regular file of at most format::kMaxFileSize bytes is
  // read: a FIFO, a device or a folder is refused at once (opened
  // non-blocking, never waited on). Errors start with the path and say what
  // is wrong with the file (kIo, kTruncated, kBadMagic, kBadVersion,
  // kBadChecksum, kBadHeader, kBadEntry).
  static Result<std::shared_ptr<const Table>> open(const std::string& path, Check check);
  // The same over bytes in memory (the generator's own bytes, tests,
  // fuzzers); `name` stands for the path in messages.
  static Result<std::shared_ptr<const Table>> adopt(std::vector<std::uint8_t> bytes,
                                                    std::string name, Check check);

  ~Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  const std::string& path() const { return path_; }
  // The file open() read: its device and inode numbers then. Whether
  // path() still names that very file (or one renamed over it) tells a
  // file changed in place from a new one (the server's reload). Both zero
  // for adopt()'s bytes.
  struct FileId {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    bool operator==(const FileId&) const = default;
  };
  const FileId& file_id() const { return file_id_; }
  const TableView& view() const { return view_; }
  const Solver& solver() const { return *solver_; }
  // The checksum as 16 lowercase hex digits.
  const std::string& checksum_hex() const { return checksum_hex_; }
  // The shapes the table answers: those it has sections of and their
  // transposes (a 2x3 section answers 3x2 boards), in kTableShapes order.
  // Not the shapes of 14 and 15 cells, nor 2x8 and 8x2: the grid search
  // answers those (answer.h), with the table's pattern databases when it
  // has them (pattern_set()).
  const std::vector<Shape>& answered_shapes() const { return answered_; }
  bool answers(Shape shape) const;
  // How `goal` maps onto one of the table's sections: the one way from a
  // goal to its frame, through the first symmetry (in symmetries(goal.shape)
  // order) that takes the goal's blank onto the blank of a section of the
  // shape it maps onto (a 3x2 goal onto a 2x3 section). Fails with kNoShape
  // when the table does not answer the goal's shape (the message names the
  // shapes it answers), with kNoSection when it has no section for any cell
  // symmetric to the goal's blank. REQUIRES: is_valid(goal).
  Result<GoalFrame> frame(const GridBoard& goal) const;
  // The search over the pattern databases of a 4x4 goal: the one whose
  // first section is `section` (the section frame() names for a 4x4 goal),
  // or nullptr when `section` is not such a section.
  const fifteen::IdaSearch* ida_search(std::size_t section) const;
  // The pattern databases the table holds for the goal of `shape` (4x4,
  // 2x7, 3x5 or 2x8) with its blank on `goal_blank`, in record order,
  // viewing the table's bytes (valid while the table lives); nullptr when
  // it holds none. 4x4's are the ones ida_search() searches; the others
  // serve the grid search, under its keys (core/grid_search.h).
  const fifteen::PatternSetView* pattern_set(Shape shape, int goal_blank) const;
  // All of that goal's sets, the first pattern_set()'s: in record order, a
  // group sharing a tile with the set before it starts the next (2x8's
  // three partitions, whose sums the grid search takes the largest of);
  // empty when it holds none. 4x4 goals have one.
  std::span<const fifteen::PatternSetView> pattern_sets(Shape shape, int goal_blank) const;
  // The 5x5 pattern databases the table holds for goal blank `goal_blank`
  // (a class's kept cell, core/pdb/pdb5x5.h: 0 in the default table),
  // viewing the table's bytes (valid while the table lives); nullptr when
  // it holds none.
  const grid::Pdb5x5View* pdb5x5_set(int goal_blank) const;
  // Each section's positions grouped by distance (random.h), built on the
  // first call (about a millisecond a section).
  const DistanceIndex& index() const;

 private:
  struct Bytes;  // the file's bytes read into private memory, or the buffer
  Table(std::string path, std::unique_ptr<Bytes> bytes, TableView view);

  std::string path_;
  FileId file_id_;
  std::unique_ptr<Bytes> bytes_;
  TableView view_;
  std::unique_ptr<Solver> solver_;
  // Per 4x4 goal: its first section and the search over its databases.
  std::vector<std::pair<std::size_t, std::unique_ptr<const fifteen::IdaSearch>>> ida_searches_;
  std::vector<fifteen::PatternSetView> pattern_sets_;  // per goal with pattern databases, its sets
  // Per goal with pattern databases: its first set in pattern_sets_ and how many.
  std::vector<std::pair<std::size_t, std::size_t>> goal_sets_;
  std::vector<grid::Pdb5x5View> pdb5x5_sets_;  // per 5x5 goal with them
  std::optional<GoalFrame> standard_frame_;  // empty if no section answers it
  std::string checksum_hex_;
  std::vector<Shape> answered_;
  mutable std::once_flag index_once_;
  mutable std::unique_ptr<DistanceIndex> index_;
};

}  // namespace eight
