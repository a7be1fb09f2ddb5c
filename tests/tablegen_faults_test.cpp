// eight-tablegen under faults: killed at any moment, out of space, or in a
// folder it may not write. The destination must always hold either the
// previous table or the new one, whole, never a partial file.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "eight/table.h"
#include "eight/tablegen.h"
#include "support.h"

using namespace eight;

namespace {

// A valid table that differs from the default: only the centre section.
std::vector<std::uint8_t> other_table() {
  return build_table(std::vector<int>{4});
}

std::string tablegen() {
  return std::string(EIGHT_BIN_DIR) + "/eight-tablegen";
}

}  // namespace

TEST_CASE(
    "eight-tablegen killed at any moment leaves the old table or the new one, never a broken one") {
  test::TempDir dir;
  const std::string out = dir.file("eight.tbl");
  const auto old_bytes = other_table();
  test::write_file(out, old_bytes);
  std::mt19937 rng(77);
  int saw_old = 0, saw_new = 0;
  for (int i = 0; i < 30; ++i) {
    if (i % 3 == 0) test::write_file(out, old_bytes);  // put the old table back now and then
    const int pid = test::start_program("eight-tablegen", {"--quiet", "--out", out});
    // 0 to 120 ms: before, during and after generation, the write, the rename.
    std::this_thread::sleep_for(std::chrono::microseconds(rng() % 120000));
    ::kill(pid, SIGKILL);
    test::wait_program(pid);
    auto t = Table::open(out, Check::kFull);
    REQUIRE_MESSAGE(t.ok(),
                    "after a kill in run " << i << ": " << (t.ok() ? "" : t.error().message));
    const auto bytes = test::read_file(out);
    if (bytes == old_bytes) {
      ++saw_old;
    } else {
      REQUIRE(bytes == test::table_bytes());
      ++saw_new;
    }
  }
  MESSAGE("old table kept " << saw_old << " times, new table landed " << saw_new << " times");
  // A later run finishes the job, whatever a killed one left in PATH.tmp.
  CHECK(test::run_program("eight-tablegen", {"--quiet", "--out", out}).status == 0);
  CHECK(test::read_file(out) == test::table_bytes());
  CHECK_FALSE(std::filesystem::exists(out + ".tmp"));
}

TEST_CASE("eight-tablegen out of space fails with the reason and keeps the old table") {
  test::TempDir dir;
  const std::string out = dir.file("eight.tbl");
  test::write_file(out, other_table());
  // A file-size limit of 1 MiB makes the 2 MiB write fail part way, as a full
  // disk would; SIGXFSZ is ignored so the write returns an error instead.
  const auto r = test::run_program(
      "/bin/bash", {"-c", "trap '' XFSZ; ulimit -f 1024; exec " + tablegen() + " --out " + out});
  CHECK(r.status == 1);
  CHECK(r.err.find(out + ".tmp: cannot write: File too large") != std::string::npos);
  CHECK(test::read_file(out) == other_table());
  CHECK_FALSE(std::filesystem::exists(out + ".tmp"));
}

TEST_CASE("eight-tablegen in a folder it may not write fails with the reason") {
  test::TempDir dir;
  const std::string folder = dir.file("locked");
  std::filesystem::create_directory(folder);
  const std::string out = folder + "/eight.tbl";
  test::write_file(out, other_table());
  ::chmod(folder.c_str(), 0555);
  // Root ignores permission bits, so as root run the generator as nobody.
  const auto r = ::geteuid() == 0 ? test::run_program("/usr/bin/setpriv",
                                                      {"--reuid=65534", "--regid=65534",
                                                       "--clear-groups", tablegen(), "--out", out})
                                  : test::run_program("eight-tablegen", {"--out", out});
  ::chmod(folder.c_str(), 0755);
  CHECK(r.status == 1);
  CHECK(r.err.find(out + ".tmp: cannot create: Permission denied") != std::string::npos);
  CHECK(test::read_file(out) == other_table());
}
