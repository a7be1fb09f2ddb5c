#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "eight/table.h"
#include "eight/tablegen.h"
#include "support.h"

using namespace eight;
using eight::test::table_bytes;

namespace {

// What a full check says of `bytes`.
Error refusal(const std::vector<std::uint8_t>& bytes) {
  auto v = TableView::parse(bytes, "t.tbl", Check::kFull);
  REQUIRE_FALSE(v.ok());
  return v.error();
}

// A copy of the table with `edit` applied and the checksum recomputed, so
// the test reaches the checks behind the checksum.
template <typename Edit>
std::vector<std::uint8_t> resealed(Edit edit) {
  auto bytes = table_bytes();
  edit(bytes);
  format::put_u64(bytes.data() + format::kChecksumOffset, format::compute_checksum(bytes));
  return bytes;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("accepts the generated table and reports its sections") {
  const auto& t = test::view();
  CHECK(t.section_count() == 3);
  CHECK(to_string(t.section(0).goal) == "123456780");
  CHECK(to_string(t.section(1).goal) == "123456708");
  CHECK(to_string(t.section(2).goal) == "123405678");
  CHECK(t.section_for_blank(4) == 2u);
  CHECK_FALSE(t.section_for_blank(0).has_value());
  CHECK(t.bytes().size() == 2177408);
}

TEST_CASE("rejects a table with a flipped byte anywhere") {
  const auto& good = table_bytes();
  // Every byte of the header and records, and a spread of entry bytes.
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < 128; ++i) offsets.push_back(i);
  for (std::size_t i = 128; i < good.size(); i += 4099) offsets.push_back(i);
  offsets.push_back(good.size() - 1);
  for (std::size_t at : offsets) {
    auto bytes = good;
    bytes[at] ^= 0x01;
    auto v = TableView::parse(bytes, "t.tbl", Check::kChecksum);
    REQUIRE_MESSAGE(!v.ok(), "flipped byte " << at << " was accepted");
    CHECK(v.error().message.rfind("t.tbl: ", 0) == 0);
  }
  auto bytes = good;
  bytes[200000] ^= 0x40;
  const Error e = refusal(bytes);
  CHECK(e.code == ErrorCode::kBadChecksum);
  CHECK(contains(e.message, "checksum mismatch"));
}

TEST_CASE("rejects a truncated table") {
  for (std::size_t size : {std::size_t{0}, std::size_t{4}, std::size_t{20}, std::size_t{31},
                           std::size_t{32}, std::size_t{127}, std::size_t{2177407}}) {
    std::vector<std::uint8_t> bytes(table_bytes().begin(), table_bytes().begin() + size);
    const Error e = refusal(bytes);
    CHECK_MESSAGE((e.code == ErrorCode::kTruncated || (size < 8 && e.code == ErrorCode::kBadMagic)),
                  size << ": " << e.message);
  }
  std::vector<std::uint8_t> bytes(table_bytes().begin(), table_bytes().end() - 1000);
  CHECK(contains(refusal(bytes).message, "header says 2177408 bytes but the file has 2176408"));
}

TEST_CASE("rejects a table with bytes appended") {
  auto bytes = table_bytes();
  bytes.push_back(0);
  CHECK(refusal(bytes).code == ErrorCode::kTruncated);
}

TEST_CASE("rejects a file with a wrong magic") {
  auto bytes = table_bytes();
  bytes[1] = 'X';
  const Error e = refusal(bytes);
  CHECK(e.code == ErrorCode::kBadMagic);
  CHECK(e.message == "t.tbl: not an eight table (bad magic)");
  const std::string text = "hello, this is not a table at all, but it is long enough";
  CHECK(refusal({text.begin(), text.end()}).code == ErrorCode::kBadMagic);
}

TEST_CASE("rejects a table with an unknown version") {
  const auto bytes = resealed([](auto& b) { format::put_u16(b.data() + 16, 2); });
  const Error e = refusal(bytes);
  CHECK(e.code == ErrorCode::kBadVersion);
  CHECK(contains(e.message, "format version 2 is not supported"));
}

TEST_CASE("rejects a table for another board shape") {
  const auto bytes = resealed([](auto& b) {
    b[18] = 4;
    b[19] = 4;
  });
  CHECK(contains(refusal(bytes).message, "board shape 4x4 is not supported"));
}

TEST_CASE("rejects a section whose goal is not canonical") {
  const auto bytes = resealed([](auto& b) { std::swap(b[32], b[33]); });
  CHECK(contains(refusal(bytes).message, "section 0: goal is not a canonical goal"));
}

TEST_CASE("rejects two sections for the same blank cell") {
  const auto bytes =
      resealed([](auto& b) { std::copy(b.begin() + 32, b.begin() + 41, b.begin() + 64); });
  CHECK(contains(refusal(bytes).message, "a second section for blank cell 8"));
}

TEST_CASE("rejects an entry whose parent is out of range") {
  const auto bytes = resealed([](auto& b) {
    auto* p = b.data() + format::section_offset(3, 1) + 4 * 1000;
    format::put_u32(p, (format::get_u32(p) & ~format::kParentMask) | 200000);
  });
  const Error e = refusal(bytes);
  CHECK(e.code == ErrorCode::kBadEntry);
  CHECK(contains(e.message, "section 1, entry 1000: parent 200000 is out of range"));
}

TEST_CASE("rejects an entry whose distance is wrong even if its parent chain is consistent") {
  // Claim the goal's neighbour is 3 moves away: its parent (the goal, distance
  // 0) is then not one move closer.
  const auto bytes = resealed([](auto& b) {
    const std::uint32_t r = rank(test::board("123456708"));
    auto* p = b.data() + format::section_offset(3, 0) + 4 * r;
    auto e = format::unpack_entry(format::get_u32(p));
    e.distance = 3;
    format::put_u32(p, format::pack_entry(e));
  });
  CHECK(contains(refusal(bytes).message, "parent is not one move closer"));
}

TEST_CASE("rejects an entry whose move does not lead to its parent") {
  const auto bytes = resealed([](auto& b) {
    const std::uint32_t r = rank(test::board("123456708"));
    auto* p = b.data() + format::section_offset(3, 0) + 4 * r;
    auto e = format::unpack_entry(format::get_u32(p));
    e.move = Move::kLeft;  // the right answer is kRight
    format::put_u32(p, format::pack_entry(e));
  });
  CHECK(contains(refusal(bytes).message, "move does not lead to the parent"));
}

TEST_CASE("rejects reserved bits set in an entry") {
  const auto bytes = resealed([](auto& b) { b[format::section_offset(3, 2) + 3] |= 0x80; });
  CHECK(contains(refusal(bytes).message, "reserved bits are set"));
}

TEST_CASE("rejects a wrong max distance in a section record") {
  const auto bytes = resealed([](auto& b) { b[32 + 28] = 30; });
  CHECK(contains(refusal(bytes).message, "records max distance 30 but its entries reach 31"));
}

TEST_CASE("maps a table file read-only and names the file in every refusal") {
  test::TempDir dir;
  const std::string path = dir.file("eight.tbl");
  test::write_file(path, table_bytes());
  for (Check check : {Check::kChecksum, Check::kFull}) {
    auto t = Table::open(path, check);
    REQUIRE(t.ok());
    CHECK((*t)->view().checksum() == test::view().checksum());
    CHECK((*t)->checksum_hex() == "56927b335cb8d83d");
    CHECK((*t)->path() == path);
    CHECK((*t)->view().section_count() == 3);
  }

  auto missing = Table::open(dir.file("missing.tbl"), Check::kChecksum);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message ==
        dir.file("missing.tbl") + ": cannot open: No such file or directory");

  test::write_file(dir.file("empty.tbl"), {});
  auto empty = Table::open(dir.file("empty.tbl"), Check::kChecksum);
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().message == dir.file("empty.tbl") + ": file is empty");

  auto folder = Table::open(dir.path(), Check::kChecksum);
  REQUIRE_FALSE(folder.ok());
  CHECK(contains(folder.error().message, "not a regular file"));
}

TEST_CASE("opening for answers checks the checksum and records, not the entries") {
  // A resealed entry edit passes the checksum check, and only the full check
  // finds it: what answering trusts is bounded by the solver's own checks.
  const auto bytes = resealed([](auto& b) { b[format::section_offset(3, 1) + 4 * 777] ^= 0x01; });
  CHECK(TableView::parse(bytes, "t.tbl", Check::kChecksum).ok());
  CHECK_FALSE(TableView::parse(bytes, "t.tbl", Check::kFull).ok());
  // What the checksum check does refuse: anything the checksum covers.
  auto bad = table_bytes();
  bad[format::section_offset(3, 1) + 4 * 777] ^= 0x01;
  CHECK(contains(TableView::parse(bad, "t.tbl", Check::kChecksum).error().message,
                 "checksum mismatch"));
}

TEST_CASE("the full check proves every entry: each single-entry distance edit is refused") {
  // Every 997th entry of every section, its distance one more: a resealed
  // table whose checksum is fine and whose distances are not.
  for (std::size_t section = 0; section < 3; ++section) {
    for (std::uint32_t r = 0; r < kPositions; r += 997) {
      auto bytes = table_bytes();
      auto* p = bytes.data() + format::section_offset(3, section) + 4 * r;
      auto e = format::unpack_entry(format::get_u32(p));
      if (e.distance >= format::kMaxDistance) continue;
      ++e.distance;
      format::put_u32(p, format::pack_entry(e));
      format::put_u64(bytes.data() + format::kChecksumOffset, format::compute_checksum(bytes));
      REQUIRE_FALSE(TableView::parse(bytes, "t.tbl", Check::kFull).ok());
    }
  }
}
