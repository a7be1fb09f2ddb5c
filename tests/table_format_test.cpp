#include <doctest/doctest.h>

#include <vector>

#include "eight/goal.h"
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

TEST_CASE("the v2 header encodes to the documented bytes and decodes back") {
  Header h;
  h.checksum = 0x1122334455667788ull;
  h.section_count = 11;
  h.file_size = 3700768;
  std::uint8_t out[kHeaderSize];
  encode_header(h, out);
  const std::vector<std::uint8_t> expected = {
      0x89, 0x45, 0x49, 0x47,
      0x48, 0x54, 0x0D, 0x0A,  // magic
      0x88, 0x77, 0x66, 0x55,
      0x44, 0x33, 0x22, 0x11,  // checksum
      0x02, 0x00, 0x0B, 0x00,
      0x40, 0x00, 0x00, 0x00,  // version 2, 11 sections, record 64, reserved
      0x20, 0x78, 0x38, 0x00,
      0x00, 0x00, 0x00, 0x00,  // file size 3700768
  };
  CHECK(std::vector<std::uint8_t>(out, out + kHeaderSize) == expected);
  CHECK(decode_header(out) == h);
  // Every field decodes from its own bytes.
  out[22] = 7;
  CHECK(decode_header(out).reserved == 7);
}

TEST_CASE("a v2 section record encodes to the documented bytes and decodes back") {
  SectionRecord s;
  s.shape = Shape{2, 5};
  s.encoding = static_cast<std::uint8_t>(Encoding::kMod3);
  s.max_distance = 55;
  s.positions = 1814400;
  s.entries_offset = 0x0102030405060708ull;
  s.entries_bytes = 453600;
  s.stats_offset = 0x1122334455667788ull;
  s.farthest_count = 0xA1B2C3D4;
  s.goal = goal_field(canonical_goal<Board>(9, Shape{2, 5}));
  std::uint8_t out[kSectionRecordSize];
  encode_section_record(s, out);
  const std::vector<std::uint8_t> expected = {
      2,    5,    2,    55,   0x80, 0xAF, 0x1B, 0x00,  // rows, cols, mod-3, max 55, 1814400
      0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,  // entries offset
      0xE0, 0xEB, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00,  // entries bytes 453600
      0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,  // stats offset
      0xD4, 0xC3, 0xB2, 0xA1,                          // farthest count
      1,    2,    3,    4,    5,    6,    7,    8,    9, 0, 0, 0, 0, 0, 0, 0,  // goal
      0,    0,    0,    0,                                                     // group: none
      0,    0,    0,    0,    0,    0,    0,    0,                             // reserved
  };
  CHECK(std::vector<std::uint8_t>(out, out + kSectionRecordSize) == expected);
  CHECK(decode_section_record(out) == s);
  CHECK(goal_board(s) == canonical_goal<Board>(9, Shape{2, 5}));
  // The goal's padding and the reserved bytes decode as stored, for the
  // reader to refuse.
  out[36 + 12] = 3;
  out[63] = 9;
  const auto back = decode_section_record(out);
  CHECK(back.goal[12] == 3);
  CHECK(back.reserved[7] == 9);
}

TEST_CASE("a pattern-database record stores its group little-endian at byte 52") {
  SectionRecord s;
  s.shape = kShape4x4;
  s.encoding = static_cast<std::uint8_t>(Encoding::kPatternDb);
  s.max_distance = 15;
  s.positions = 5765760;
  s.group = 0x0672;  // tiles 1, 4, 5, 6, 9, 10
  std::uint8_t out[kSectionRecordSize];
  encode_section_record(s, out);
  CHECK(out[0] == 4);
  CHECK(out[1] == 4);
  CHECK(out[2] == 3);
  CHECK(out[52] == 0x72);
  CHECK(out[53] == 0x06);
  for (std::size_t i = 54; i < kSectionRecordSize; ++i) CHECK(out[i] == 0);
  CHECK(decode_section_record(out) == s);
  CHECK(entries_bytes(Encoding::kPatternDb, 5765760) == 2882880);
}

TEST_CASE("a 5x5 record stores its 32-bit group at byte 52 and the goal's first 16 cells") {
  SectionRecord s;
  s.shape = Shape{5, 5};
  s.encoding = static_cast<std::uint8_t>(Encoding::kPatternDb);
  s.max_distance = 9;
  s.positions = 6375600;
  s.group =
      (1u << 19) | (1u << 20) | (1u << 22) | (1u << 23) | (1u << 24);  // tiles 19, 20, 22, 23, 24
  const GridBoard goal = canonical_goal<GridBoard>(0, Shape{5, 5});
  s.goal = goal_field(goal);
  std::uint8_t out[kSectionRecordSize];
  encode_section_record(s, out);
  CHECK(out[52] == 0x00);
  CHECK(out[53] == 0x00);
  CHECK(out[54] == 0xD8);
  CHECK(out[55] == 0x01);
  for (std::size_t i = 56; i < kSectionRecordSize; ++i) CHECK(out[i] == 0);
  for (std::size_t c = 0; c < 16; ++c) CHECK(out[36 + c] == c);
  CHECK(decode_section_record(out) == s);
  // The cells past the field: tile c on cell c.
  CHECK(goal_board(s) == goal);
}

TEST_CASE("an entry packs parent, move and a 6-bit distance into the documented bits") {
  const Entry e{181439, Move::kRight, 31};
  CHECK(pack_entry(e) == (181439u | 3u << 18 | 31u << 20));
  CHECK(unpack_entry(pack_entry(e)) == e);
  std::uint8_t b[4];
  put_u32(b, pack_entry(Entry{0x2C4BF, Move::kDown, 19}));
  // 0x2C4BF | 1 << 18 | 19 << 20 = 0x0136C4BF: the bytes version 1 wrote too.
  CHECK((b[0] == 0xBF && b[1] == 0xC4 && b[2] == 0x36 && b[3] == 0x01));
  // 2x4's 36 needs the sixth bit.
  CHECK(pack_entry(Entry{20159, Move::kUp, 36}) == (20159u | 36u << 20));
  for (std::uint32_t d = 0; d <= kMaxEntryDistance; ++d) {
    for (Move m : kAllMoves) {
      const Entry x{d * 4000, m, static_cast<std::uint8_t>(d)};
      CHECK(unpack_entry(pack_entry(x)) == x);
      CHECK((pack_entry(x) & kReservedEntryMask) == 0);
    }
  }
  CHECK(kReservedEntryMask == 0xFC000000u);
}

TEST_CASE("encodings fit the shapes they are allowed for, and size their entries") {
  CHECK(encoding_fits(Encoding::kFull, 181440));
  CHECK(encoding_fits(Encoding::kFull, 20160));
  CHECK_FALSE(encoding_fits(Encoding::kFull, 1814400));  // 2x5: mod-3 only
  CHECK(encoding_fits(Encoding::kMod3, 1814400));
  CHECK(entries_bytes(Encoding::kFull, 181440) == 725760);
  CHECK(entries_bytes(Encoding::kMod3, 1814400) == 453600);
  CHECK(entries_bytes(Encoding::kMod3, 12) == 3);
  CHECK(stats_bytes(31, 2) == 4 * 34);
}

TEST_CASE("the 3x3 layout places sections right after the records") {
  CHECK(section_offset(3, 0) == 32 + 3 * 64);
  CHECK(section_offset(3, 1) == 224 + 725760);
  CHECK(section_offset(3, 3) == 224 + 3 * 725760);
}
