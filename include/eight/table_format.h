// The on-disk table format, version 1. docs/table-format.md is the spec;
// this header is its C++ spelling and must agree with it.
//
//   offset  size  field
//   0       8     magic 89 45 49 47 48 54 0D 0A ("\x89EIGHT\r\n")
//   8       8     checksum: XXH3-64, seed 0, of bytes [16, file_size)
//   16      2     version (1)
//   18      1     rows (3)
//   19      1     cols (3)
//   20      2     section count (1..9)
//   22      2     entry size in bytes (4)
//   24      8     file size in bytes
//   32      32*n  section records
//   ...           entries: per section, one u32 per rank
//
// All integers are little-endian and are read and written only through the
// helpers below: never cast a struct over file bytes (alignment, padding and
// byte order would all be the compiler's choice, not the spec's).
//
// Thread safety: pure functions and constants.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>

#include "eight/board.h"
#include "eight/rank.h"

namespace eight::format {

inline constexpr std::array<std::uint8_t, 8> kMagic = {0x89, 'E', 'I', 'G', 'H', 'T', '\r', '\n'};
inline constexpr std::uint16_t kVersion = 1;
inline constexpr std::size_t kHeaderSize = 32;
inline constexpr std::size_t kSectionRecordSize = 32;
inline constexpr std::size_t kEntrySize = 4;
inline constexpr std::size_t kMaxSections = 9;  // one per blank cell at most
inline constexpr std::size_t kChecksumOffset = 8;
inline constexpr std::size_t kChecksummedFrom = 16;  // the checksum covers [16, end)
// Largest distance an entry can hold (5 bits). The 3x3 diameter is 31.
inline constexpr int kMaxDistance = 31;

// Little-endian fixed-width helpers. REQUIRES: `p` points at 2, 4 or 8
// bytes, as the width says (a bare pointer: nothing here can check it).
// Inline: the solver reads an entry through get_u32 on every step of a path,
// and the compiler turns these byte loops into single loads and stores.
inline void put_u16(std::uint8_t* p, std::uint16_t v) {
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
}
inline void put_u32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline void put_u64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
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
  std::uint8_t rows = kRows;
  std::uint8_t cols = kCols;
  std::uint16_t section_count = 0;
  std::uint16_t entry_size = kEntrySize;
  std::uint64_t file_size = 0;

  friend bool operator==(const Header&, const Header&) = default;
};

// Writes/reads the 32 header bytes, magic included. decode_header does not
// validate; TableView does (see table.h). REQUIRES: `out` / `in` points at
// kHeaderSize bytes.
void encode_header(const Header& h, std::uint8_t* out);
Header decode_header(const std::uint8_t* in);

// One section: the positions of one class, ranked against one goal.
//   0   16  goal: rows*cols cells in reading order, 0 = blank, rest zero
//   16  8   offset of the section's first entry from the start of the file
//   24  4   entry count ((rows*cols)!/2 = 181,440)
//   28  1   max distance in the section
//   29  3   reserved, zero
struct SectionRecord {
  Board goal;
  std::uint64_t offset = 0;
  std::uint32_t count = 0;
  std::uint8_t max_distance = 0;
  std::array<std::uint8_t, 3> reserved{};
  // Bytes 9..15 of the goal field; zero in a sound file.
  std::array<std::uint8_t, 7> goal_padding{};

  friend bool operator==(const SectionRecord&, const SectionRecord&) = default;
};

// REQUIRES: `out` / `in` points at kSectionRecordSize bytes.
void encode_section_record(const SectionRecord& s, std::uint8_t* out);
SectionRecord decode_section_record(const std::uint8_t* in);

// One entry per position, a little-endian u32:
//   bits 0-17   parent: rank of the next position on an optimal path
//   bits 18-19  move: the blank's move from this position to its parent
//               (0 up, 1 down, 2 left, 3 right)
//   bits 20-24  distance to the goal in moves
//   bits 25-31  reserved, zero
// The goal's own entry is distance 0, parent = its own rank, move 0.
struct Entry {
  std::uint32_t parent = 0;
  Move move = Move::kUp;
  std::uint8_t distance = 0;

  friend bool operator==(const Entry&, const Entry&) = default;
};

inline constexpr std::uint32_t kParentBits = 18;
inline constexpr std::uint32_t kParentMask = (1u << kParentBits) - 1;
inline constexpr std::uint32_t kReservedEntryMask = ~((1u << 25) - 1);

// REQUIRES: e.parent <= kParentMask, e.distance <= kMaxDistance, e.move is
// one of kAllMoves: a wider field would spill into its neighbour's bits.
inline constexpr std::uint32_t pack_entry(const Entry& e) {
  assert(e.parent <= kParentMask && e.distance <= kMaxDistance &&
         static_cast<unsigned>(e.move) < 4);
  return e.parent | static_cast<std::uint32_t>(e.move) << 18 |
         static_cast<std::uint32_t>(e.distance) << 20;
}
inline constexpr Entry unpack_entry(std::uint32_t v) {
  return Entry{v & kParentMask, static_cast<Move>((v >> 18) & 3),
               static_cast<std::uint8_t>((v >> 20) & 31)};
}

// XXH3-64 (seed 0) of bytes [kChecksummedFrom, end).
// REQUIRES: file.size() >= kChecksummedFrom.
std::uint64_t compute_checksum(std::span<const std::uint8_t> file);

// Where the v1 layout puts section i's entries, for a file of n sections
// (i == n: where the file ends). REQUIRES: i <= n.
inline constexpr std::uint64_t section_offset(std::size_t n, std::size_t i) {
  assert(i <= n);
  return kHeaderSize + n * kSectionRecordSize +
         static_cast<std::uint64_t>(i) * kPositions * kEntrySize;
}
inline constexpr std::uint64_t file_size_for(std::size_t n) {
  return section_offset(n, n);
}

}  // namespace eight::format
