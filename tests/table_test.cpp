#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>
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

}  // namespace

TEST_CASE("accepts the generated table and reports its sections") {
  const auto& t = test::view();
  CHECK(t.section_count() == 3);
  CHECK(to_string(t.section(0).goal) == "123456780");
  CHECK(to_string(t.section(1).goal) == "123456708");
  CHECK(to_string(t.section(2).goal) == "123405678");
  CHECK(t.section_for(kShape3x3, 4) == 2u);
  CHECK_FALSE(t.section_for(kShape3x3, 0).has_value());
  CHECK_FALSE(t.section_for(Shape{2, 3}, 5).has_value());
  CHECK(t.shapes() == std::vector<Shape>{kShape3x3});
  // Header and records (32 + 3 * 64), the entries (3 * 725,760), the stats
  // ((32 + 2) + (32 + 2) + (31 + 148) u32s).
  CHECK(t.bytes().size() == 224 + 3 * 725760 + 4 * (34 + 34 + 179));
  CHECK(t.bytes().size() == 2178492);
}

TEST_CASE("rejects a table with a flipped byte anywhere") {
  const auto& good = table_bytes();
  // Every byte of the header and records, and a spread of entry bytes.
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < 224; ++i) offsets.push_back(i);
  for (std::size_t i = 224; i < good.size(); i += 4099) offsets.push_back(i);
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
  CHECK(test::contains(e.message, "checksum mismatch"));
}

TEST_CASE("rejects a truncated table") {
  for (std::size_t size : {std::size_t{0}, std::size_t{4}, std::size_t{20}, std::size_t{31},
                           std::size_t{32}, std::size_t{223}, std::size_t{2178491}}) {
    std::vector<std::uint8_t> bytes(table_bytes().begin(), table_bytes().begin() + size);
    const Error e = refusal(bytes);
    CHECK_MESSAGE((e.code == ErrorCode::kTruncated || (size < 8 && e.code == ErrorCode::kBadMagic)),
                  size << ": " << e.message);
  }
  std::vector<std::uint8_t> bytes(table_bytes().begin(), table_bytes().end() - 1000);
  CHECK(
      test::contains(refusal(bytes).message, "header says 2178492 bytes but the file has 2177492"));
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
  const auto bytes =
      test::resealed(table_bytes(), [](auto& b) { format::put_u16(b.data() + 16, 3); });
  const Error e = refusal(bytes);
  CHECK(e.code == ErrorCode::kBadVersion);
  CHECK(
      test::contains(e.message, "format version 3 is not supported (this build reads version 2)"));
}

TEST_CASE("refuses a version-1 file and says how to regenerate it") {
  // The first 32 bytes of a version-1 file: version 1, 3x3, 3 sections of
  // 4-byte entries, 2,177,408 bytes.
  std::vector<std::uint8_t> v1(2177408, 0);
  const std::uint8_t head[] = {0x89, 'E', 'I', 'G', 'H', 'T', '\r', '\n', 0, 0, 0,    0,    0,   0,
                               0,    0,   1,   0,   3,   3,   3,    0,    4, 0, 0x80, 0x39, 0x21};
  std::copy(std::begin(head), std::end(head), v1.begin());
  format::put_u64(v1.data() + format::kChecksumOffset, format::compute_checksum(v1));
  const Error e = refusal(v1);
  CHECK(e.code == ErrorCode::kBadVersion);
  CHECK(e.message ==
        "t.tbl: format version 1 is no longer read (this build reads version 2): regenerate the "
        "table with eight-tablegen, which writes version 2");
}

TEST_CASE("rejects a wrong section record size or reserved header bytes") {
  auto bytes = test::resealed(table_bytes(), [](auto& b) { format::put_u16(b.data() + 20, 32); });
  CHECK(test::contains(refusal(bytes).message, "section record size 32 is not 64"));
  bytes = test::resealed(table_bytes(), [](auto& b) { b[22] = 1; });
  CHECK(test::contains(refusal(bytes).message, "header reserved bytes are set"));
  bytes = test::resealed(table_bytes(), [](auto& b) { format::put_u16(b.data() + 18, 0); });
  CHECK(test::contains(refusal(bytes).message, "section count 0 is not between 1 and 128"));
  bytes = test::resealed(table_bytes(), [](auto& b) { format::put_u16(b.data() + 18, 129); });
  CHECK(test::contains(refusal(bytes).message, "section count 129 is not between 1 and 128"));
}

TEST_CASE("rejects a section for a shape no table answers") {
  auto bytes = test::resealed(table_bytes(), [](auto& b) {
    b[32] = 5;
    b[33] = 3;
  });
  CHECK(test::contains(refusal(bytes).message, "section 0: shape 5x3 is not a table shape"));
  // 4x4 sections are pattern databases alone.
  bytes = test::resealed(table_bytes(), [](auto& b) {
    b[32] = 4;
    b[33] = 4;
  });
  CHECK(test::contains(refusal(bytes).message,
                       "section 0: a 4x4 section must be a pattern database (encoding 3)"));
}

TEST_CASE("rejects a section whose positions are not its shape's") {
  auto bytes =
      test::resealed(table_bytes(), [](auto& b) { format::put_u32(b.data() + 32 + 4, 181439); });
  CHECK(test::contains(refusal(bytes).message,
                       "section 0: positions 181439 is not 181440, the 3x3 class's"));
  // Another shape's record over 3x3's entries: its positions give it away.
  bytes = test::resealed(table_bytes(), [](auto& b) {
    b[32 + 64] = 2;
    b[33 + 64] = 3;
  });
  CHECK(test::contains(refusal(bytes).message, "section 1: positions 181440 is not 360"));
}

TEST_CASE("rejects an unknown encoding, and full for a shape too big for it") {
  auto bytes = test::resealed(table_bytes(), [](auto& b) { b[32 + 2] = 4; });
  CHECK(test::contains(refusal(bytes).message,
                       "section 0: encoding 4 is not 1 (full), 2 (mod-3) or 3 (pattern database)"));
  bytes = test::resealed(table_bytes(), [](auto& b) { b[32 + 2] = 3; });
  CHECK(test::contains(
      refusal(bytes).message,
      "section 0: only 4x4, 2x7, 3x5, 2x8 and 5x5 sections are pattern databases (encoding 3)"));
  bytes = test::resealed(table_bytes(), [](auto& b) { b[32 + 2] = 0; });
  CHECK(test::contains(refusal(bytes).message, "section 0: encoding 0 is not"));
  // 3x3 in mod-3 is allowed, but then its entries are a quarter the size.
  bytes = test::resealed(table_bytes(), [](auto& b) { b[32 + 2] = 2; });
  CHECK(test::contains(refusal(bytes).message,
                       "section 0: entries bytes 725760 is not 45360 for its encoding"));
}

TEST_CASE("rejects a section whose goal is not canonical") {
  auto bytes = test::resealed(table_bytes(), [](auto& b) { std::swap(b[32 + 36], b[32 + 37]); });
  CHECK(test::contains(refusal(bytes).message, "section 0: goal is not a canonical goal of 3x3"));
  // A goal with bytes past its shape's cells.
  bytes = test::resealed(table_bytes(), [](auto& b) { b[32 + 36 + 12] = 1; });
  CHECK(test::contains(refusal(bytes).message, "section 0: goal is not a canonical goal of 3x3"));
}

TEST_CASE("rejects two sections for the same shape and blank cell") {
  const auto bytes = test::resealed(table_bytes(), [](auto& b) {
    std::copy(b.begin() + 32 + 36, b.begin() + 32 + 45, b.begin() + 96 + 36);
  });
  CHECK(test::contains(refusal(bytes).message, "section 1: a second 3x3 section for blank cell 8"));
}

TEST_CASE("rejects entries and stats that are not where the layout puts them") {
  auto bytes =
      test::resealed(table_bytes(), [](auto& b) { format::put_u64(b.data() + 96 + 8, 224); });
  CHECK(test::contains(refusal(bytes).message,
                       "section 1: entries offset 224 is not where the layout puts them, 725984"));
  bytes =
      test::resealed(table_bytes(), [](auto& b) { format::put_u64(b.data() + 32 + 16, 725764); });
  CHECK(test::contains(refusal(bytes).message, "section 0: entries bytes 725764 is not 725760"));
  bytes = test::resealed(table_bytes(), [](auto& b) { format::put_u64(b.data() + 96 + 24, 0); });
  CHECK(test::contains(refusal(bytes).message,
                       "section 1: stats offset 0 is not where the layout puts them"));
  // An entries size that would run past the end, before any offset is
  // trusted.
  bytes = test::resealed(table_bytes(),
                         [](auto& b) { format::put_u64(b.data() + 32 + 16, ~std::uint64_t{0}); });
  CHECK(test::contains(refusal(bytes).message, "section 0: entries bytes 18446744073709551615"));
}

TEST_CASE("rejects a farthest count out of range or not the histogram's last count") {
  auto bytes =
      test::resealed(table_bytes(), [](auto& b) { format::put_u32(b.data() + 32 + 32, 0); });
  CHECK(test::contains(refusal(bytes).message, "section 0: farthest count 0 is out of range"));
  bytes =
      test::resealed(table_bytes(), [](auto& b) { format::put_u32(b.data() + 32 + 32, 200000); });
  CHECK(test::contains(refusal(bytes).message, "section 0: farthest count 200000 is out of range"));
  // 3, with the stats after it one u32 longer: the layout no longer ends at
  // the end of the file, and the histogram's last count is still 2.
  bytes = test::resealed(table_bytes(), [](auto& b) { format::put_u32(b.data() + 32 + 32, 3); });
  CHECK(test::contains(
      refusal(bytes).message,
      "section 0: farthest count 3 is not the histogram's count at the max distance"));
}

TEST_CASE("rejects a histogram that does not add up, and farthest ranks out of order") {
  const std::size_t stats0 = format::section_offset(3, 3);
  auto bytes =
      test::resealed(table_bytes(), [&](auto& b) { format::put_u32(b.data() + stats0 + 4, 3); });
  CHECK(test::contains(refusal(bytes).message, "section 0: histogram sums to 181441 positions"));
  // The standard goal's farthest: ranks of 647850321 and 867254301, swapped.
  bytes = test::resealed(table_bytes(), [&](auto& b) {
    auto* f = b.data() + stats0 + 4 * 32;
    const auto a = format::get_u32(f), c = format::get_u32(f + 4);
    format::put_u32(f, c);
    format::put_u32(f + 4, a);
  });
  CHECK(test::contains(refusal(bytes).message, "section 0: farthest rank"));
  CHECK(test::contains(refusal(bytes).message, "out of order"));
  // Moved counts between distances still add up: only the full proof sees it.
  bytes = test::resealed(table_bytes(), [&](auto& b) {
    format::put_u32(b.data() + stats0 + 4 * 5, format::get_u32(b.data() + stats0 + 4 * 5) + 1);
    format::put_u32(b.data() + stats0 + 4 * 6, format::get_u32(b.data() + stats0 + 4 * 6) - 1);
  });
  CHECK(TableView::parse(bytes, "t.tbl", Check::kChecksum).ok());
  CHECK(test::contains(
      refusal(bytes).message,
      "section 0: histogram says 21 positions at distance 5 but the entries have 20"));
}

TEST_CASE("rejects reserved bytes set in a section record") {
  const auto bytes = test::resealed(table_bytes(), [](auto& b) { b[96 + 63] = 1; });
  CHECK(test::contains(refusal(bytes).message, "section 1: reserved bytes are set"));
}

TEST_CASE("rejects a max distance over the format's") {
  const auto bytes =
      test::resealed(table_bytes(), [](auto& b) { b[32 + 3] = 81; });  // 2x6 reaches 80
  CHECK(test::contains(refusal(bytes).message, "section 0: max distance 81 is over 80"));
}

TEST_CASE("rejects an entry whose parent is out of range") {
  const auto bytes = test::resealed(table_bytes(), [](auto& b) {
    auto* p = b.data() + format::section_offset(3, 1) + 4 * 1000;
    format::put_u32(p, (format::get_u32(p) & ~format::kParentMask) | 200000);
  });
  const Error e = refusal(bytes);
  CHECK(e.code == ErrorCode::kBadEntry);
  CHECK(test::contains(e.message, "section 1, entry 1000: parent 200000 is out of range"));
}

TEST_CASE("rejects an entry whose distance is wrong even if its parent chain is consistent") {
  // Claim the goal's neighbour is 3 moves away: its parent (the goal, distance
  // 0) is then not one move closer.
  const auto bytes = test::resealed(table_bytes(), [](auto& b) {
    const std::uint32_t r = rank_3x3(test::board("123456708"));
    auto* p = b.data() + format::section_offset(3, 0) + 4 * r;
    auto e = format::unpack_entry(format::get_u32(p));
    e.distance = 3;
    format::put_u32(p, format::pack_entry(e));
  });
  CHECK(test::contains(refusal(bytes).message, "parent is not one move closer"));
}

TEST_CASE("rejects an entry whose move does not lead to its parent") {
  const auto bytes = test::resealed(table_bytes(), [](auto& b) {
    const std::uint32_t r = rank_3x3(test::board("123456708"));
    auto* p = b.data() + format::section_offset(3, 0) + 4 * r;
    auto e = format::unpack_entry(format::get_u32(p));
    e.move = Move::kLeft;  // the right answer is kRight
    format::put_u32(p, format::pack_entry(e));
  });
  CHECK(test::contains(refusal(bytes).message, "move does not lead to the parent"));
}

TEST_CASE("rejects reserved bits set in an entry") {
  const auto bytes =
      test::resealed(table_bytes(), [](auto& b) { b[format::section_offset(3, 2) + 3] |= 0x80; });
  CHECK(test::contains(refusal(bytes).message, "reserved bits are set"));
}

TEST_CASE("rejects a wrong max distance in a section record") {
  // The stats are sized by the max distance: a record saying 30 fits them
  // only if the farthest count says the histogram's last count too.
  const auto bytes = test::resealed(table_bytes(), [](auto& b) {
    b[32 + 3] = 30;
    format::put_u32(b.data() + 32 + 32, 1);
  });
  // ... and then its histogram lacks the 2 positions at 31.
  CHECK(test::contains(refusal(bytes).message, "section 0: histogram sums to 181438 positions"));
}

TEST_CASE("reads a table file into its own memory and names the file in every refusal") {
  test::TempDir dir;
  const std::string path = dir.file("eight.tbl");
  test::write_file(path, table_bytes());
  for (Check check : {Check::kChecksum, Check::kFull}) {
    auto t = Table::open(path, check);
    REQUIRE(t.ok());
    CHECK((*t)->view().checksum() == test::view().checksum());
    CHECK((*t)->checksum_hex() == "a27e6686843aa0fa");
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
  CHECK(test::contains(folder.error().message, "not a regular file"));
}

TEST_CASE("opening for answers checks the checksum and records, not the entries") {
  // A resealed entry edit passes the checksum check, and only the full check
  // finds it: what answering trusts is bounded by the solver's own checks.
  const auto bytes = test::resealed(
      table_bytes(), [](auto& b) { b[format::section_offset(3, 1) + 4 * 777] ^= 0x01; });
  CHECK(TableView::parse(bytes, "t.tbl", Check::kChecksum).ok());
  CHECK_FALSE(TableView::parse(bytes, "t.tbl", Check::kFull).ok());
  // What the checksum check does refuse: anything the checksum covers.
  auto bad = table_bytes();
  bad[format::section_offset(3, 1) + 4 * 777] ^= 0x01;
  CHECK(test::contains(TableView::parse(bad, "t.tbl", Check::kChecksum).error().message,
                       "checksum mismatch"));
}

TEST_CASE("the full check proves every entry: each single-entry distance edit is refused") {
  // Every 997th entry of every section, its distance one more: a resealed
  // table whose checksum is fine and whose distances are not.
  for (std::size_t section = 0; section < 3; ++section) {
    for (std::uint32_t r = 0; r < kPositions3x3; r += 997) {
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

TEST_CASE(
    "a Table answers from the bytes it checked after its file is zeroed, truncated or copied "
    "over") {
  // Issue 41, finding 5: a mapping of the file saw bytes written in place
  // (distance 0 for 867254301) and died of SIGBUS past a truncation. 30
  // changes in place, each followed by every kind of read.
  test::TempDir dir;
  const std::string path = dir.file("eight.tbl");
  const auto& bytes = table_bytes();
  test::write_file(path, bytes);
  auto opened = Table::open(path, Check::kChecksum);
  REQUIRE(opened.ok());
  const Table& t = **opened;
  const Board board = test::board("867254301");
  auto frame = t.frame(kStandardGoal);
  REQUIRE(frame.ok());
  for (int round = 0; round < 30; ++round) {
    CAPTURE(round);
    const int fd = ::open(path.c_str(), O_WRONLY);
    REQUIRE(fd >= 0);
    if (round % 3 == 0) {
      REQUIRE(::ftruncate(fd, static_cast<off_t>(bytes.size() * (round % 10) / 10)) == 0);
    } else if (round % 3 == 1) {
      const std::vector<std::uint8_t> zeros(bytes.size(), 0);
      REQUIRE(::pwrite(fd, zeros.data(), zeros.size(), 0) == static_cast<ssize_t>(zeros.size()));
    } else {
      REQUIRE(::ftruncate(fd, 0) == 0);
      REQUIRE(::pwrite(fd, "other", 5, 0) == 5);
    }
    ::close(fd);
    CHECK(t.solver().distance(board, *frame) == 31);
    const auto held = t.view().bytes();
    CHECK(std::vector<std::uint8_t>(held.begin(), held.end()) == bytes);
    CHECK(format::compute_checksum(held) == t.view().checksum());
    test::write_file(path, bytes);
  }
}

TEST_CASE("Table::open refuses a FIFO, a device or a folder at once, saying what it is") {
  // Issue 41, finding 8: opening a FIFO waited for a writer for ever. The
  // wait is bounded here by a hang guard: a writer is opened after 30 s.
  test::TempDir dir;
  const std::string fifo = dir.file("fifo.tbl");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (int i = 0; i < 100; ++i) {
    auto answer =
        std::async(std::launch::async, [&] { return Table::open(fifo, Check::kChecksum); });
    if (answer.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
      ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);  // lets the open go, then fails
      FAIL("Table::open waited on a FIFO");
    }
    auto t = answer.get();
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().message ==
          fifo + ": not a regular file (a FIFO): a table is read from a regular file");
  }
  auto device = Table::open("/dev/null", Check::kChecksum);
  REQUIRE_FALSE(device.ok());
  CHECK(device.error().message ==
        "/dev/null: not a regular file (a character device): a table is read from a regular file");
  auto folder = Table::open(dir.path(), Check::kChecksum);
  REQUIRE_FALSE(folder.ok());
  CHECK(folder.error().message ==
        dir.path() + ": not a regular file (a folder): a table is read from a regular file");
}

TEST_CASE("a header giving a size past the format's maximum is refused before anything is read") {
  for (const std::uint64_t size :
       {format::kMaxFileSize + 1, std::uint64_t{200'000'000'000}, ~std::uint64_t{0}}) {
    CAPTURE(size);
    auto head = std::vector<std::uint8_t>(table_bytes().begin(),
                                          table_bytes().begin() + format::kHeaderSize);
    format::put_u64(head.data() + 24, size);
    auto h = TableView::parse_header(head, size, "big.tbl");
    REQUIRE_FALSE(h.ok());
    CHECK(h.error().message == "big.tbl: header says " + std::to_string(size) +
                                   " bytes, more than a table may have (4294967296)");
  }
  // The header of the table itself, against its own size: sound.
  auto h = TableView::parse_header(table_bytes(), table_bytes().size(), "t.tbl");
  REQUIRE(h.ok());
  CHECK(h->checksum == test::view().checksum());
  // Fewer bytes than a header: refused, never read past.
  auto short_head = TableView::parse_header(std::span(table_bytes()).first(20), 20, "t.tbl");
  REQUIRE_FALSE(short_head.ok());
  CHECK(short_head.error().message ==
        "t.tbl: file is truncated: 20 bytes, shorter than the 32-byte header");
}
