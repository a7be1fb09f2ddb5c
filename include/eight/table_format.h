// The on-disk table format, version 2. docs/table-format.md is the spec;
// this header is its C++ spelling and must agree with it.
//
//   offset  size  field
//   0       8     magic 89 45 49 47 48 54 0D 0A ("\x89EIGHT\r\n")
//   8       8     checksum: XXH3-64, seed 0, of bytes [16, file_size)
//   16      2     version (2)
//   18      2     section count (1..kMaxSections)
//   20      2     section record size in bytes (64)
//   22      2     reserved, zero
//   24      8     file size in bytes
//   32      64*n  section records
//   ...           entries: per section in record order, its encoding's bytes
//   ...           stats: per section in record order, its histogram and its
//                 farthest positions' ranks
//
// All integers are little-endian and are read and written only through the
// helpers below: never cast a struct over file bytes (alignment, padding and
// byte order would all be the compiler's choice, not the spec's).
//
// Version 1 (3x3 only, 32-byte records) is not read: its files are refused
// with a message that says to regenerate them with eight-tablegen.
//
// Thread safety: pure functions and constants.
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "eight/board.h"
#include "eight/rank.h"
#include "eight/shape.h"

namespace eight::format {

inline constexpr std::array<std::uint8_t, 8> kMagic = {0x89, 'E', 'I', 'G', 'H', 'T', '\r', '\n'};
inline constexpr std::uint16_t kVersion = 2;
inline constexpr std::size_t kHeaderSize = 32;
inline constexpr std::size_t kSectionRecordSize = 64;
inline constexpr std::size_t kEntrySize = 4;  // of a full section
// Every blank cell of every shape up to 10 cells would be 4+6+6+8+8+9+10+10:
// well under this; the bound keeps a corrupt count from sizing anything.
inline constexpr std::size_t kMaxSections = 128;
// The largest file a reader accepts, 4 GiB: every reader holds a table in
// its own memory (Table::open reads it whole) and `eight fetch` downloads no
// listing past it, so a header or a listing cannot ask for more. The
// largest table eight-tablegen writes, the 4x4 board's 7-8 pattern
// databases, is about 865 MB.
inline constexpr std::uint64_t kMaxFileSize = std::uint64_t{4} << 30;
inline constexpr std::size_t kChecksumOffset = 8;
inline constexpr std::size_t kChecksummedFrom = 16;  // the checksum covers [16, end)
// Largest distance a section may record: 2x6's 80, the farthest of any
// table shape (3x3's is 31, 2x5's 55, 3x4's 53). Bounds every walk.
inline constexpr int kMaxDistance = 80;
// Largest distance a full entry's field holds (6 bits).
inline constexpr int kMaxEntryDistance = 63;

// Little-endian fixed-width helpers. Each reads or writes exactly 2, 4 or 8
// bytes at `p`, as the width says; the caller provides them (a bare
// pointer: nothing here can check it).
// Inline: the solver reads an entry through get_u32 on every step of a path,
// and the compiler turns these byte loops into single loads. A store is one
// memcpy on a little-endian machine: gcc 12 may split the byte loop's
// stores and merge them back through the stack, and a store that is not one
// instruction defeats the store forward of a load of the same bytes right
// after (GoalFrame::to_section, then the 3x3 ranking's 8-byte load).
inline void put_u16(std::uint8_t* p, std::uint16_t v) {
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
}
inline void put_u32(std::uint8_t* p, std::uint32_t v) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v, sizeof v);
  } else {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
  }
}
inline void put_u64(std::uint8_t* p, std::uint64_t v) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v, sizeof v);
  } else {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
  }
}
inline std::uint16_t get_u16(const std::uint8_t* p) {
  return static_cast<std::uint16_t>(p[0] | p[1] << 8);
}
inline std::uint32_t get_u32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}
inline std::uint64_t get_u64(const std::uint8_t* p) {
  return static_cast<std::uint64_t>(get_u32(p)) | static_cast<std::uint64_t>(get_u32(p + 4)) << 32;
}

struct Header {
  std::uint64_t checksum = 0;
  std::uint16_t version = kVersion;
  std::uint16_t section_count = 0;
  std::uint16_t record_size = kSectionRecordSize;
  std::uint16_t reserved = 0;
  std::uint64_t file_size = 0;

  friend bool operator==(const Header&, const Header&) = default;
};

// Writes/reads the 32 header bytes, magic included. decode_header does not
// validate; TableView does (see table.h). Each writes / reads exactly
// kHeaderSize bytes at `out` / `in` (a bare pointer, unchecked).
void encode_header(const Header& h, std::uint8_t* out);
Header decode_header(const std::uint8_t* in);

// How a section stores its positions.
enum class Encoding : std::uint8_t {
  // A u32 entry per position (pack_entry): distance, parent and move. For
  // shapes of at most kMaxFullPositions positions (3x3 and smaller).
  kFull = 1,
  // Two bits per position, the distance modulo 3: rank r at byte r / 4,
  // bits 2 * (r % 4) and up (eight/descent.h walks a path from them).
  kMod3 = 2,
  // Four bits per placement of a group of tiles: one pattern database
  // (eight/pattern_db.h), the entry of placement rank r at byte r / 2, low
  // nibble first. Only 4x4, 2x7, 3x5, 2x8 and 5x5 sections have it. A goal's
  // sections of this encoding are disjoint groups whose sum guides a
  // search (eight/fifteen_search.h for 4x4, the grid search for the others).
  kPatternDb = 3,
};

// The most positions a full section may have: its parent field's range.
inline constexpr std::uint32_t kParentBits = 18;
inline constexpr std::uint32_t kMaxFullPositions = 1u << kParentBits;

// True when a section of `positions` positions may use `e`.
constexpr bool encoding_fits(Encoding e, std::uint32_t positions) {
  return e == Encoding::kMod3 || (e == Encoding::kFull && positions <= kMaxFullPositions) ||
         (e == Encoding::kPatternDb && positions % 2 == 0);
}

// Bytes of a section's entries for its encoding and positions.
// REQUIRES: e is kFull, kMod3 or kPatternDb.
constexpr std::uint64_t entries_bytes(Encoding e, std::uint32_t positions) {
  assert(e == Encoding::kFull || e == Encoding::kMod3 || e == Encoding::kPatternDb);
  if (e == Encoding::kFull) return std::uint64_t{positions} * kEntrySize;
  if (e == Encoding::kMod3) return (std::uint64_t{positions} + 3) / 4;
  return (std::uint64_t{positions} + 1) / 2;
}

// Bytes of a section's stats: a u32 per distance 0..max, then a u32 rank per
// farthest position. (A pattern database's "distance" is its entry value,
// and it lists no farthest positions: farthest count 0.)
constexpr std::uint64_t stats_bytes(int max_distance, std::uint32_t farthest_count) {
  return 4 * (static_cast<std::uint64_t>(max_distance) + 1 + farthest_count);
}

// One section: the positions of one class of one shape, ranked
// (eight/any_rank.h) against one goal; or, for a goal of 4x4, 2x7, 3x5,
// 2x8 or 5x5, the placements of one group of tiles (a pattern database, ranked as
// pattern_db.h says).
//   0   1   rows
//   1   1   cols
//   2   1   encoding (1 full, 2 mod-3, 3 pattern database)
//   3   1   max distance in the section (pattern database: max entry value)
//   4   4   positions: (rows*cols)!/2 (pattern database: n!/(n-k)!, n cells)
//   8   8   offset of the section's entries from the start of the file
//   16  8   bytes of entries
//   24  8   offset of the section's stats
//   32  4   farthest count: positions at the max distance (pattern database: 0)
//   36  16  goal: rows*cols cells in reading order, 0 = blank, rest zero
//           (5x5: its first 16 cells; cell c >= 16 holds tile c)
//   52  4   group: a pattern database's tiles, bit t for tile t; else zero
//           (bytes 54 and 55 were reserved before the 5x5 sets: every
//           earlier file reads the same)
//   56  8   reserved, zero
struct SectionRecord {
  Shape shape;
  std::uint8_t encoding = 0;  // an Encoding in a sound file
  std::uint8_t max_distance = 0;
  std::uint32_t positions = 0;
  std::uint64_t entries_offset = 0;
  std::uint64_t entries_bytes = 0;
  std::uint64_t stats_offset = 0;
  std::uint32_t farthest_count = 0;
  // All 16 goal bytes as stored: goal_board() reads the shape's cells.
  std::array<std::uint8_t, 16> goal{};
  std::uint32_t group = 0;
  std::array<std::uint8_t, 8> reserved{};

  friend bool operator==(const SectionRecord&, const SectionRecord&) = default;
};

// Each writes / reads exactly kSectionRecordSize bytes at `out` / `in` (a
// bare pointer, unchecked).
void encode_section_record(const SectionRecord& s, std::uint8_t* out);
SectionRecord decode_section_record(const std::uint8_t* in);

// The goal field's cells, and the most cells a section's goal has (5x5's
// pattern databases: the field holds a 5x5 goal's first 16 cells, and its
// cell c >= 16 holds tile c, as on a canonical goal whose blank is among
// the first 16 cells, which every stored 5x5 goal's is).
inline constexpr int kGoalFieldCells = 16;
inline constexpr int kMaxGoalCells = 25;
// The goal field as a board of the record's shape (not validated: the
// caller checks is_valid, that it is canonical and the bytes past the
// shape's cells).
// REQUIRES: is_board_shape(s.shape), s.shape.cells() <= kMaxGoalCells (the
// caller refuses other shapes first).
GridBoard goal_board(const SectionRecord& s);
// The goal field of a record for `goal`. REQUIRES: is_valid(goal),
// goal.size() <= kMaxGoalCells, and a goal of more than 16 cells canonical
// with its blank among the first 16.
std::array<std::uint8_t, kGoalFieldCells> goal_field(const GridBoard& goal);

// One entry of a full section per position, a little-endian u32:
//   bits 0-17   parent: rank of the next position on an optimal path
//   bits 18-19  move: the blank's move from this position to its parent
//               (0 up, 1 down, 2 left, 3 right)
//   bits 20-25  distance to the goal in moves
//   bits 26-31  reserved, zero
// The goal's own entry is distance 0, parent = its own rank, move 0.
// (Version 1's entries were the same with a 5-bit distance, so a 3x3
// section's entries are the same bytes in both versions.)
struct Entry {
  std::uint32_t parent = 0;
  Move move = Move::kUp;
  std::uint8_t distance = 0;

  friend bool operator==(const Entry&, const Entry&) = default;
};

inline constexpr std::uint32_t kParentMask = (1u << kParentBits) - 1;
inline constexpr std::uint32_t kReservedEntryMask = ~((1u << 26) - 1);

// REQUIRES: e.parent <= kParentMask, e.distance <= kMaxEntryDistance, e.move
// is one of kAllMoves: a wider field would spill into its neighbour's bits.
inline constexpr std::uint32_t pack_entry(const Entry& e) {
  assert(e.parent <= kParentMask && e.distance <= kMaxEntryDistance &&
         static_cast<unsigned>(e.move) < 4);
  return e.parent | static_cast<std::uint32_t>(e.move) << 18 |
         static_cast<std::uint32_t>(e.distance) << 20;
}
inline constexpr Entry unpack_entry(std::uint32_t v) {
  return Entry{v & kParentMask, static_cast<Move>((v >> 18) & 3),
               static_cast<std::uint8_t>((v >> 20) & 63)};
}
// The entry of rank r in a full section's entries (the one reader of them:
// TableView::entry() is it by section number). REQUIRES: r is below the
// section's positions.
inline Entry entry_at(const std::uint8_t* entries, std::uint32_t r) {
  return unpack_entry(get_u32(entries + 4 * static_cast<std::size_t>(r)));
}

// XXH3-64 (seed 0) of bytes [kChecksummedFrom, end).
// REQUIRES: file.size() >= kChecksummedFrom.
std::uint64_t compute_checksum(std::span<const std::uint8_t> file);

// Where the layout puts the entries of section i of a file of n full 3x3
// sections (as eight-tablegen --shape 3x3 writes): the records, then the
// entries one section after the other (i == n: where the stats start).
// REQUIRES: i <= n.
inline constexpr std::uint64_t section_offset(std::size_t n, std::size_t i) {
  assert(i <= n);
  return kHeaderSize + n * kSectionRecordSize +
         static_cast<std::uint64_t>(i) * kPositions3x3 * kEntrySize;
}

}  // namespace eight::format
