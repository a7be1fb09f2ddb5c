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
#include "eight/rank.h"
#include "eight/result.h"
#include "eight/table_format.h"

namespace eight {

// How much of a table is checked before it is used.
enum class Check {
  // The size, magic, version, shape, every section record (offsets, counts,
  // canonical goals, one section per blank cell, reserved bytes zero, max
  // distance in range) and the XXH3-64 checksum: nothing proportional to
  // the entries but one pass of hashing (~0.1 ms for 2 MiB). What answering
  // questions needs.
  kChecksum,
  // kChecksum, then the structural proof: every entry of every section
  // checked against a fresh breadth-first search of that section (its
  // distance is the true one; its parent is in range, one move closer, and
  // reached by its move). A table that passes is an exact optimal-distance
  // table. About two milliseconds a section, the sections at once, one
  // thread each. For `eight verify`, the generator's read-back and the
  // server's start and reloads.
  kFull,
};

struct SectionInfo {
  Board goal;
  int blank = 0;
  std::uint32_t goal_rank = 0;
  int max_distance = 0;                   // as the section record says
  const std::uint8_t* entries = nullptr;  // kPositions little-endian u32s
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

  std::uint64_t checksum() const { return header_.checksum; }
  const format::Header& header() const { return header_; }
  std::span<const std::uint8_t> bytes() const { return bytes_; }
  std::size_t section_count() const { return sections_.size(); }
  // REQUIRES: i < section_count().
  const SectionInfo& section(std::size_t i) const {
    assert(i < sections_.size());
    return sections_[i];
  }
  // The section whose goal has its blank on `cell`, if any (none for a
  // cell off the board).
  std::optional<std::size_t> section_for_blank(int cell) const;

  // The entry of rank r in a section. REQUIRES: section < section_count()
  // and r < kPositions, which parse() has checked every section holds.
  format::Entry entry(std::size_t section, std::uint32_t r) const {
    assert(section < sections_.size() && r < kPositions);
    return format::unpack_entry(format::get_u32(sections_[section].entries + 4 * r));
  }
  // How many of a section's positions its entries put at each distance,
  // 0..kMaxDistance: one pass over the entries, no more.
  // REQUIRES: section < section_count().
  DistanceHistogram histogram(std::size_t section) const;

 private:
  std::span<const std::uint8_t> bytes_;
  format::Header header_;
  std::vector<SectionInfo> sections_;
};

class Solver;
class DistanceIndex;

// A table ready to answer: its bytes (a read-only mapping of the file, or a
// buffer), the checked view over them, the solver over the view, the frame of
// the standard goal, and, built on first use, the positions grouped by
// distance. Shared by everyone answering from it: the server hands out
// shared_ptr snapshots, so a reload never pulls bytes from under a request.
//
// Replacing or deleting the file on disk does not disturb a live mapping
// (the old inode stays mapped); writing into it in place would, and reading
// past a truncation kills the process (SIGBUS): replace tables by rename,
// as eight-tablegen writes them.
//
// Thread safety: immutable after open, but for index(), which builds its
// result once under std::call_once; every member may be called from any
// number of threads at once.
class Table {
 public:
  // Maps `path` read-only and checks it at `check`. Errors start with the
  // path and say what is wrong with the file (kIo, kTruncated, kBadMagic,
  // kBadVersion, kBadChecksum, kBadHeader, kBadEntry).
  static Result<std::shared_ptr<const Table>> open(const std::string& path, Check check);
  // The same over bytes in memory (the generator's own bytes, tests,
  // fuzzers); `name` stands for the path in messages.
  static Result<std::shared_ptr<const Table>> adopt(std::vector<std::uint8_t> bytes,
                                                    std::string name, Check check);

  ~Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  const std::string& path() const { return path_; }
  const TableView& view() const { return view_; }
  const Solver& solver() const { return *solver_; }
  // The checksum as 16 lowercase hex digits.
  const std::string& checksum_hex() const { return checksum_hex_; }
  // How `goal` maps onto one of the table's sections: the one way from a
  // goal to its frame. Fails (kNoSection) only when the table has no section
  // for any cell symmetric to the goal's blank. REQUIRES: is_valid(goal).
  Result<GoalFrame> frame(const Board& goal) const;
  // Each section's positions grouped by distance (random.h), built on the
  // first call (about a millisecond a section).
  const DistanceIndex& index() const;

 private:
  struct Bytes;  // the mapping or the buffer
  Table(std::string path, std::unique_ptr<Bytes> bytes, TableView view);

  std::string path_;
  std::unique_ptr<Bytes> bytes_;
  TableView view_;
  std::unique_ptr<Solver> solver_;
  std::optional<GoalFrame> standard_frame_;  // empty if no section answers it
  std::string checksum_hex_;
  mutable std::once_flag index_once_;
  mutable std::unique_ptr<DistanceIndex> index_;
};

}  // namespace eight
