#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "common/durable_file.h"
#include "eight/random.h"
#include "eight/tablegen.h"
#include "support.h"

using namespace eight;

// The checksum of the 3x3 table. It changes only when the format or the
// generator's output changes on purpose; update it then, with the reason in
// the commit. (Version 2 changed it from 56927b335cb8d83d: new header and
// records, and the stats; the entries are the same bytes.)
constexpr std::uint64_t kPinnedChecksum = 0xa27e6686843aa0faull;

TEST_CASE("the generated table has the pinned checksum") {
  CHECK(test::view().checksum() == kPinnedChecksum);
}

namespace {

// A section's whole histogram: its max distance is the last entry's index,
// and every count up to it matches.
std::vector<std::uint32_t> histogram_of(std::size_t section) {
  const int max = test::view().section(section).max_distance;
  const auto& h = test::table().index().histogram(section);
  CHECK(std::find(h.begin() + max + 1, h.end(), 1u) == h.end());  // nothing past the max
  return {h.begin(), h.begin() + max + 1};
}

}  // namespace

TEST_CASE("the standard goal's histogram is OEIS A089473") {
  const std::vector<std::uint32_t> expected = {
      1,     2,     4,     8,     16,    20,   39,   62,   116,   152,   286,
      396,   748,   1024,  1893,  2512,  4485, 5638, 9529, 10878, 16993, 17110,
      23952, 20224, 24047, 15578, 14560, 6274, 3910, 760,  221,   2};
  CHECK(histogram_of(0) == expected);
}

TEST_CASE("the centre-blank goal's histogram is OEIS A089474") {
  const std::vector<std::uint32_t> expected = {
      1,     4,     8,     8,     16,    32,   60,   72,    136,   200,   376,
      512,   964,   1296,  2368,  3084,  5482, 6736, 11132, 12208, 18612, 18444,
      24968, 19632, 22289, 13600, 11842, 4340, 2398, 472,   148};
  CHECK(histogram_of(2) == expected);
}

TEST_CASE("the edge-blank goal's histogram is OEIS A089483") {
  const std::vector<std::uint32_t> expected = {
      1,     3,     5,     10,    14,   28,   42,   80,   108,   202,   278,
      524,   726,   1348,  1804,  3283, 4193, 7322, 8596, 13930, 14713, 21721,
      19827, 25132, 18197, 18978, 9929, 7359, 2081, 878,  126,   2};
  CHECK(histogram_of(1) == expected);
}

TEST_CASE("every section's histogram matches a naive breadth-first search") {
  for (std::size_t i = 0; i < test::view().section_count(); ++i) {
    const auto& s = test::view().section(i);
    const auto bfs = test::bfs_histogram(s.goal);
    REQUIRE(static_cast<int>(bfs.size()) == s.max_distance + 1);
    const auto& h = test::table().index().histogram(i);
    for (int d = 0; d <= s.max_distance; ++d) {
      CHECK(static_cast<std::uint32_t>(bfs[static_cast<std::size_t>(d)]) ==
            h[static_cast<std::size_t>(d)]);
    }
  }
}

TEST_CASE("generation is byte-identical on every run") {
  const auto again = build_table(kDefaultSectionBlanks);
  CHECK(again == test::table_bytes());
}

TEST_CASE("eight-tablegen writes a verified table, identical across runs, and no temporary file") {
  test::TempDir dir;
  const auto a = test::run_program("eight-tablegen", {"--out", dir.file("a.tbl")});
  const auto b = test::run_program("eight-tablegen", {"--out", dir.file("b.tbl"), "--quiet"});
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  CHECK(b.out.empty());
  CHECK(a.out.find("checksum a27e6686843aa0fa") != std::string::npos);
  CHECK(a.out.find("section 2  3x3 goal 123405678  full  max distance 30") != std::string::npos);
  CHECK(a.out.find("generated, written and proven in") != std::string::npos);
  CHECK(test::read_file(dir.file("a.tbl")) == test::table_bytes());
  CHECK(test::read_file(dir.file("b.tbl")) == test::table_bytes());
  CHECK_FALSE(std::filesystem::exists(dir.file("a.tbl.tmp")));
}

TEST_CASE("eight-tablegen refuses a file it cannot write before building, not minutes after") {
  // 2x8's 7-8 databases take minutes to build: the missing folder is found
  // first. The bound is a hang guard far above the refusal's milliseconds
  // and far below the build's minutes.
  test::TempDir dir;
  const auto start = std::chrono::steady_clock::now();
  const auto r = test::run_program("eight-tablegen",
                                   {"--pdb", "2x8-7-8", "--out", dir.file("no/such/folder/t.tbl")});
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(60));
  CHECK(r.status == 1);
  CHECK(r.err.find("no/such/folder/t.tbl.tmp: cannot create: No such file or directory") !=
        std::string::npos);
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("eight-tablegen fails clearly when it cannot write and leaves nothing behind") {
  test::TempDir dir;
  const auto r = test::run_program("eight-tablegen", {"--out", dir.file("no/such/folder/t.tbl")});
  CHECK(r.status == 1);
  CHECK(r.err.find("no/such/folder/t.tbl.tmp: cannot create: No such file or directory") !=
        std::string::npos);
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE(
    "write_table leaves a table that does not prove sound out, under its temporary name too") {
  test::TempDir dir;
  const std::string path = dir.file("t.tbl");
  test::write_file(path, {1, 2, 3});
  // The check sees the temporary file, fully written, before it takes the name.
  std::vector<std::uint8_t> seen;
  const auto st =
      write_file_atomically(path, test::table_bytes(), [&](const std::string& tmp) -> Status {
        seen = test::read_file(tmp);
        return make_error(ErrorCode::kBadEntry, "refused on purpose");
      });
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().message == "refused on purpose");
  CHECK(seen == test::table_bytes());
  CHECK(test::read_file(path) == std::vector<std::uint8_t>{1, 2, 3});
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  // And a sound one takes it.
  REQUIRE(write_table(path, kDefaultSectionBlanks).ok());
  CHECK(test::read_file(path) == test::table_bytes());
}

TEST_CASE("write_file_atomically replaces an existing file whole") {
  test::TempDir dir;
  const std::string path = dir.file("t.bin");
  test::write_file(path, {1, 2, 3});
  const std::vector<std::uint8_t> bytes(100000, 7);
  REQUIRE(write_file_atomically(path, bytes).ok());
  CHECK(test::read_file(path) == bytes);
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
}
