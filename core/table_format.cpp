#include "eight/table_format.h"

// xxHash in its documented inline mode (the header of Debian's
// libxxhash-dev, its functions compiled into the core): no libxxhash.so to
// load, which `eight`'s one-board start-up paid for (docs/performance.md).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <cassert>

namespace eight::format {

void encode_header(const Header& h, std::uint8_t* out) {
  std::copy(kMagic.begin(), kMagic.end(), out);
  put_u64(out + 8, h.checksum);
  put_u16(out + 16, h.version);
  put_u16(out + 18, h.section_count);
  put_u16(out + 20, h.record_size);
  put_u16(out + 22, h.reserved);
  put_u64(out + 24, h.file_size);
}

Header decode_header(const std::uint8_t* in) {
  Header h;
  h.checksum = get_u64(in + 8);
  h.version = get_u16(in + 16);
  h.section_count = get_u16(in + 18);
  h.record_size = get_u16(in + 20);
  h.reserved = get_u16(in + 22);
  h.file_size = get_u64(in + 24);
  return h;
}

void encode_section_record(const SectionRecord& s, std::uint8_t* out) {
  out[0] = s.shape.rows;
  out[1] = s.shape.cols;
  out[2] = s.encoding;
  out[3] = s.max_distance;
  put_u32(out + 4, s.positions);
  put_u64(out + 8, s.entries_offset);
  put_u64(out + 16, s.entries_bytes);
  put_u64(out + 24, s.stats_offset);
  put_u32(out + 32, s.farthest_count);
  std::copy(s.goal.begin(), s.goal.end(), out + 36);
  put_u32(out + 52, s.group);
  std::copy(s.reserved.begin(), s.reserved.end(), out + 56);
}

SectionRecord decode_section_record(const std::uint8_t* in) {
  SectionRecord s;
  s.shape = Shape{in[0], in[1]};
  s.encoding = in[2];
  s.max_distance = in[3];
  s.positions = get_u32(in + 4);
  s.entries_offset = get_u64(in + 8);
  s.entries_bytes = get_u64(in + 16);
  s.stats_offset = get_u64(in + 24);
  s.farthest_count = get_u32(in + 32);
  std::copy(in + 36, in + 52, s.goal.begin());
  s.group = get_u32(in + 52);
  std::copy(in + 56, in + 64, s.reserved.begin());
  return s;
}

GridBoard goal_board(const SectionRecord& s) {
  assert(is_board_shape(s.shape) && s.shape.cells() <= kMaxGoalCells);
  GridBoard b{{}, s.shape};
  const int n = s.shape.cells();
  const int stored = std::min<int>(n, kGoalFieldCells);
  std::copy(s.goal.begin(), s.goal.begin() + stored, b.cells.begin());
  // Past the field, a canonical goal whose blank is in it holds tile c on
  // cell c.
  for (int c = stored; c < n; ++c)
    b.cells[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(c);
  return b;
}

std::array<std::uint8_t, kGoalFieldCells> goal_field(const GridBoard& goal) {
  assert(is_valid(goal) && goal.size() <= kMaxGoalCells);
  std::array<std::uint8_t, kGoalFieldCells> out{};
  std::copy(goal.cells.begin(), goal.cells.begin() + std::min<int>(goal.size(), kGoalFieldCells),
            out.begin());
  return out;
}

std::uint64_t compute_checksum(std::span<const std::uint8_t> file) {
  assert(file.size() >= kChecksummedFrom);
  const auto covered = file.subspan(kChecksummedFrom);
  return XXH3_64bits(covered.data(), covered.size());
}

}  // namespace eight::format
