// Reading a table: a verified view over its bytes, and the read-only
// mapping that owns them.
//
// Never trust the file: TableView::parse checks the size, magic, version,
// shape, checksum, every section record and every entry (parent index in
// range, distance one less at the parent, the move legal and landing on the
// parent, neighbours' distances within one) before anything is read from it.
// A view that parsed is therefore an exact optimal-distance table: queries
// need no further bounds checks.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "eight/board.h"
#include "eight/rank.h"
#include "eight/result.h"
#include "eight/table_format.h"

namespace eight {

struct SectionInfo {
  Board goal;
  int blank = 0;
  std::uint32_t goal_rank = 0;
  int max_distance = 0;
  // histogram[d] = positions at distance d; zero past max_distance.
  std::array<std::uint32_t, format::kMaxDistance + 1> histogram{};
  const std::uint8_t* entries = nullptr;  // kPositions little-endian u32s
};

// A verified, read-only view of table bytes. Does not own them: a view (and
// every Solver built on it) must not outlive the bytes it was parsed from.
// Immutable after parse, so any number of threads may read it at once.
class TableView {
 public:
  // `name` (usually the file's path) starts every error message.
  static Result<TableView> parse(std::span<const std::uint8_t> bytes, std::string_view name);

  std::uint64_t checksum() const { return header_.checksum; }
  const format::Header& header() const { return header_; }
  std::span<const std::uint8_t> bytes() const { return bytes_; }
  std::size_t section_count() const { return sections_.size(); }
  const SectionInfo& section(std::size_t i) const { return sections_[i]; }
  // Index of the section whose goal has its blank on `cell`, or -1.
  int section_for_blank(int cell) const;

  // Requires section < section_count() and r < kPositions.
  format::Entry entry(std::size_t section, std::uint32_t r) const {
    return format::unpack_entry(format::get_u32(sections_[section].entries + 4 * r));
  }

 private:
  std::span<const std::uint8_t> bytes_;
  format::Header header_;
  std::vector<SectionInfo> sections_;
};

// A table file mapped read-only with mmap and verified. Move-only; unmaps on
// destruction, so views taken from it must not outlive it. Replacing or
// deleting the file on disk does not disturb a live mapping (the old inode
// stays mapped), which lets a server keep answering while a new table lands.
class MappedTable {
 public:
  static Result<MappedTable> open(const std::string& path);

  MappedTable(MappedTable&& other) noexcept;
  MappedTable& operator=(MappedTable&& other) noexcept;
  MappedTable(const MappedTable&) = delete;
  MappedTable& operator=(const MappedTable&) = delete;
  ~MappedTable();

  const TableView& view() const { return view_; }
  const std::string& path() const { return path_; }

 private:
  MappedTable(std::string path, void* addr, std::size_t size, TableView view)
      : path_(std::move(path)), addr_(addr), size_(size), view_(std::move(view)) {}
  void release();

  std::string path_;
  void* addr_ = nullptr;
  std::size_t size_ = 0;
  TableView view_;
};

}  // namespace eight
