#include <doctest/doctest.h>

#include <vector>

#include "eight/table_format.h"

using namespace eight;
using namespace eight::format;

TEST_CASE("integers are written little-endian byte for byte") {
  std::uint8_t b[8] = {};
  put_u16(b, 0x1234);
  CHECK(b[0] == 0x34);
  CHECK(b[1] == 0x12);
  put_u32(b, 0x89ABCDEF);
  CHECK((b[0] == 0xEF && b[1] == 0xCD && b[2] == 0xAB && b[3] == 0x89));
  put_u64(b, 0x0102030405060708ull);
  for (int i = 0; i < 8; ++i) CHECK(b[i] == 8 - i);
  CHECK(get_u64(b) == 0x0102030405060708ull);
  const std::uint8_t le[4] = {0x78, 0x56, 0x34, 0x12};
  CHECK(get_u32(le) == 0x12345678u);
  CHECK(get_u16(le) == 0x5678);
}

TEST_CASE("the header encodes to the documented bytes and decodes back") {
  Header h;
  h.checksum = 0x1122334455667788ull;
  h.section_count = 3;
  h.file_size = 2177408;
  std::uint8_t out[kHeaderSize];
  encode_header(h, out);
  const std::vector<std::uint8_t> expected = {
      0x89, 0x45, 0x49, 0x47, 0x48, 0x54, 0x0D, 0x0A,  // magic
      0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,  // checksum
      0x01, 0x00, 0x03, 0x03, 0x03, 0x00, 0x04, 0x00,  // version, rows, cols, sections, entry size
      0x80, 0x39, 0x21, 0x00, 0x00, 0x00, 0x00, 0x00,  // file size 2177408
  };
  CHECK(std::vector<std::uint8_t>(out, out + kHeaderSize) == expected);
  CHECK(decode_header(out) == h);
}

TEST_CASE("a section record encodes to the documented bytes and decodes back") {
  SectionRecord s;
  s.goal = Board{{1, 2, 3, 4, 5, 6, 7, 8, 0}};
  s.offset = 128;
  s.count = 181440;
  s.max_distance = 31;
  std::uint8_t out[kSectionRecordSize];
  encode_section_record(s, out);
  const std::vector<std::uint8_t> expected = {
      1,    2,    3,    4,    5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 0,  // goal, padded to 16
      0x80, 0,    0,    0,    0, 0, 0, 0,                          // offset 128
      0xC0, 0xC4, 0x02, 0x00,                                      // count 181440
      31,   0,    0,    0,                                         // max distance, reserved
  };
  CHECK(std::vector<std::uint8_t>(out, out + kSectionRecordSize) == expected);
  CHECK(decode_section_record(out) == s);
}

TEST_CASE("an entry packs parent, move and distance into the documented bits") {
  const Entry e{181439, Move::kRight, 31};
  CHECK(pack_entry(e) == (181439u | 3u << 18 | 31u << 20));
  CHECK(unpack_entry(pack_entry(e)) == e);
  std::uint8_t b[4];
  put_u32(b, pack_entry(Entry{0x2C4BF, Move::kDown, 19}));
  // 0x2C4BF | 1 << 18 | 19 << 20 = 0x0136C4BF
  CHECK((b[0] == 0xBF && b[1] == 0xC4 && b[2] == 0x36 && b[3] == 0x01));
  for (std::uint32_t d = 0; d <= 31; ++d) {
    for (Move m : kAllMoves) {
      const Entry x{d * 5000, m, static_cast<std::uint8_t>(d)};
      CHECK(unpack_entry(pack_entry(x)) == x);
      CHECK((pack_entry(x) & kReservedEntryMask) == 0);
    }
  }
}

TEST_CASE("the v1 layout places sections right after the records") {
  CHECK(section_offset(3, 0) == 128);
  CHECK(section_offset(3, 1) == 128 + 725760);
  CHECK(file_size_for(3) == 2177408);
  CHECK(file_size_for(3) <= 2621440);  // 2.5 MiB: the size budget for every goal
}
