// Test helpers shared by every test binary.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "eight/solver.h"
#include "eight/table.h"

namespace eight::test {

// The default three-section table, generated in memory once per process
// and fully proven (Check::kFull).
const std::vector<std::uint8_t>& table_bytes();
const Table& table();
const TableView& view();
const Solver& solver();
// The frame of a goal in that table (fails the test if it has none).
GoalFrame frame(const Board& goal);

// The default table's sections of every shape up to 10 cells
// (kDefaultSections, without the 4x4 pattern databases default_sections()
// adds), generated once per build tree (as below) into
// EIGHT_TEST_DATA_DIR/default-sections.tbl, read from there once per process
// and fully proven. The file is the tests' to serve, never to change; the
// pinned-checksum test generates the bytes in memory again to compare.
const std::string& default_table_path();
const std::vector<std::uint8_t>& default_table_bytes();
const Table& default_table();

// The whole default table (--shape default: every shape up to 10 cells and
// the 4x4 pattern databases, 21 MB) as eight-tablegen writes it, generated
// once per build tree by tests/default_table.sh (the script tests use it too).
const std::string& program_default_table_path();

// The 4x4 pattern databases of the default table (6-6-3 for the corner,
// edge and centre goals), written once per build tree to
// EIGHT_TEST_DATA_DIR/fifteen-663.tbl by eight-tablegen's own write_table
// and opened from there: generating them is seconds, which every test
// process would pay. Both files are generated again when missing, failing
// their checksum or older than the test binary (under a file lock, since
// test processes run at once).
const std::string& fifteen_table_path();
const Table& fifteen_table();

// Parses a board the test knows to be valid (fails the test otherwise).
Board board(const std::string& text, std::optional<Shape> shape = std::nullopt);

// The board of shape `shape` holding `cells` (a permutation, in reading
// order), as a test builds one from a permutation it enumerates.
Board board_of_cells(std::span<const std::uint8_t> cells, Shape shape = kShape3x3);

// A fresh temporary folder, removed with everything in it when destroyed.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::vector<std::uint8_t> read_file(const std::string& path);
void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes);

struct RunResult {
  int status = -1;  // exit status, or -1 if it did not exit normally
  std::string out;
  std::string err;
};
// Runs one of our programs (name under build/bin) with `args`, feeding `input`
// on stdin; captures stdout and stderr.
RunResult run_program(const std::string& name, const std::vector<std::string>& args,
                      const std::string& input = "");

// Starts one of our programs (name under build/bin, or an absolute path)
// without waiting; its stdin, stdout and stderr are /dev/null. Returns its pid.
int start_program(const std::string& name, const std::vector<std::string>& args);
// Waits for a started program; its exit status, or -1 if a signal ended it.
int wait_program(int pid);

// Board distance by plain breadth-first search from `goal`, independent of the
// table code; for checking answers against.
std::vector<int> bfs_histogram(const Board& goal);
// Every board's distance to `goal` by the same naive search, keyed by
// cells_key(board).
std::unordered_map<std::uint64_t, int> bfs_distances(const Board& goal);
// A board's cells, four bits each, in reading order.
std::uint64_t cells_key(const Board& b);

}  // namespace eight::test
