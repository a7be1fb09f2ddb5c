#include "eight/table_format.h"

#include <xxhash.h>

#include <algorithm>
#include <cassert>

namespace eight::format {

void encode_header(const Header& h, std::uint8_t* out) {
  std::copy(kMagic.begin(), kMagic.end(), out);
  put_u64(out + 8, h.checksum);
  put_u16(out + 16, h.version);
  out[18] = h.rows;
  out[19] = h.cols;
  put_u16(out + 20, h.section_count);
  put_u16(out + 22, h.entry_size);
  put_u64(out + 24, h.file_size);
}

Header decode_header(const std::uint8_t* in) {
  Header h;
  h.checksum = get_u64(in + 8);
  h.version = get_u16(in + 16);
  h.rows = in[18];
  h.cols = in[19];
  h.section_count = get_u16(in + 20);
  h.entry_size = get_u16(in + 22);
  h.file_size = get_u64(in + 24);
  return h;
}

void encode_section_record(const SectionRecord& s, std::uint8_t* out) {
  std::copy(s.goal.cells.begin(), s.goal.cells.begin() + kCells, out);
  std::copy(s.goal_padding.begin(), s.goal_padding.end(), out + kCells);
  put_u64(out + 16, s.offset);
  put_u32(out + 24, s.count);
  out[28] = s.max_distance;
  std::copy(s.reserved.begin(), s.reserved.end(), out + 29);
}

SectionRecord decode_section_record(const std::uint8_t* in) {
  SectionRecord s;
  std::copy(in, in + kCells, s.goal.cells.begin());
  std::copy(in + kCells, in + 16, s.goal_padding.begin());
  s.offset = get_u64(in + 16);
  s.count = get_u32(in + 24);
  s.max_distance = in[28];
  std::copy(in + 29, in + 32, s.reserved.begin());
  return s;
}

std::uint64_t compute_checksum(std::span<const std::uint8_t> file) {
  assert(file.size() >= kChecksummedFrom);
  const auto covered = file.subspan(kChecksummedFrom);
  return XXH3_64bits(covered.data(), covered.size());
}

}  // namespace eight::format
