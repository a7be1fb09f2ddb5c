// Test helpers shared by every test binary.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "eight/board.h"
#include "eight/random.h"
#include "eight/solver.h"
#include "eight/table.h"
#include "eight/table_format.h"
#include "eight/table_set.h"

namespace eight::test {

// The default three-section table, generated in memory once per process
// and fully proven (Check::kFull).
const std::vector<std::uint8_t>& table_bytes();
const Table& table();
const TableView& view();
const Solver& solver();
// The frame of a goal in that table (fails the test if it has none).
GoalFrame frame(const GridBoard& goal);

// The default table's sections of every shape up to 10 cells
// (kDefaultSections, without the 4x4 pattern databases default_sections()
// adds), written once per build tree by the build (eight-test-tables,
// tests/fixture_tables.cpp) to EIGHT_TEST_DATA_DIR/default-sections.tbl,
// read from there once per process and fully proven. The file is the
// tests' to serve, never to change; the pinned-checksum test generates the
// bytes in memory again to compare.
const std::string& default_table_path();
const std::vector<std::uint8_t>& default_table_bytes();
const Table& default_table();

// The whole default table (--shape default: every shape up to 10 cells and
// the 4x4 pattern databases, 21 MB) as eight-tablegen writes it: the one the
// build generates for install (EIGHT_BUILD_TABLE, cmake/install.cmake).
const std::string& program_default_table_path();
// That table opened once a process (Check::kFull), and a TableSet of it
// alone: the tests' way to the 5x5 pattern databases of the corner class
// (Table::pdb5x5_set(0), core/pdb/pdb5x5.h), which no test builds again
// but the one comparing them with a fresh build.
const Table& program_default_table();
const TableSet& program_default_tables();

// The 4x4 pattern databases of the default table (6-6-3 for the corner,
// edge and centre goals), written once per build tree by the build
// (eight-test-tables) to EIGHT_TEST_DATA_DIR/fifteen-663.tbl with
// eight-tablegen's own write_table, and opened from there: generating them
// is seconds of CPU, which no test process should pay. A missing file, or
// one failing its checksum, fails the test that asks for it.
const std::string& fifteen_table_path();
const Table& fifteen_table();
// The same for the goals with the blank on cells 6, 14 and 15
// (EIGHT_TEST_DATA_DIR/fifteen-663-6-14-15.tbl), which the default table
// answers through symmetries and the 4x4 tests search from directly.
const Table& fifteen_other_goals_table();
// The path of those of Korf's goal alone (blank on cell 0; three sections,
// EIGHT_TEST_DATA_DIR/fifteen-663-0.tbl): a file small enough for the
// corruption tests to have `eight verify`'s search check it again.
const std::string& fifteen_korf_table_path();

// Parses a board the test knows to be valid (fails the test otherwise): a
// Board, of up to 16 cells, or a GridBoard, of any shape.
Board board(const std::string& text, std::optional<Shape> shape = std::nullopt);
GridBoard grid_board(const std::string& text, std::optional<Shape> shape = std::nullopt);

// The board of shape `shape` holding `cells` (a permutation, in reading
// order), as a test builds one from a permutation it enumerates.
// REQUIRES: shape.cells() <= 16.
Board board_of_cells(std::span<const std::uint8_t> cells, Shape shape = kShape3x3);

// A board `steps` random moves from `from`, never undoing the last one.
template <int kCapacity>
BasicBoard<kCapacity> walk(const BasicBoard<kCapacity>& from, int steps, Rng& rng) {
  BasicBoard<kCapacity> b = from;
  std::optional<Move> last;
  for (int i = 0; i < steps;) {
    const Move m = kAllMoves[rng.below(4)];
    if (last && m == opposite(*last)) continue;
    const auto next = apply_move(b, m);
    if (!next) continue;
    b = *next;
    last = m;
    ++i;
  }
  return b;
}

// The board `path` leads to from `b`, or nullopt at an illegal move.
template <int kCapacity>
std::optional<BasicBoard<kCapacity>> replay(BasicBoard<kCapacity> b, std::span<const Move> path) {
  for (const Move m : path) {
    const auto next = apply_move(b, m);
    if (!next) return std::nullopt;
    b = *next;
  }
  return b;
}

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
// The names of the entries of folder `dir`, sorted.
std::vector<std::string> names_in(const std::string& dir);

// A table file's `bytes` with `edit` (a callable taking the bytes by
// reference) applied and the checksum recomputed, so that a test reaches
// the checks behind the checksum.
template <typename Edit>
std::vector<std::uint8_t> resealed(std::vector<std::uint8_t> bytes, Edit edit) {
  edit(bytes);
  format::put_u64(bytes.data() + format::kChecksumOffset, format::compute_checksum(bytes));
  return bytes;
}

// True when `s` holds `part`.
bool contains(const std::string& s, const std::string& part);

// For the tests' own naive searches over cell arrays, which share no code
// with the engine: the index of the blank (0) among `cells`, and `cells`
// (at most 16) packed four bits each, cell c at bits 4c to 4c + 3.
int blank_of(std::span<const std::uint8_t> cells);
std::uint64_t pack_cells(std::span<const std::uint8_t> cells);

// True when EIGHT_TEST_12_CELLS=1 asks for the tests of the 12-cell
// sections (tens of seconds and 120 MB each), reported as skipped otherwise.
bool twelve_cells_asked();

struct RunResult {
  int status = -1;  // exit status, or -1 if it did not exit normally
  std::string out;
  std::string err;
};
// Runs one of our programs (name under build/bin) with `args`, feeding `input`
// on stdin; captures stdout and stderr.
RunResult run_program(const std::string& name, const std::vector<std::string>& args,
                      const std::string& input = "");

// `eight fetch URL --tables DIR [more...]`, run as run_program() runs it.
RunResult fetch_tables(const std::string& url, const std::string& dir,
                       const std::vector<std::string>& more = {});

// Starts one of our programs (name under build/bin, or an absolute path)
// without waiting; its stdin, stdout and stderr are /dev/null. Returns its pid.
int start_program(const std::string& name, const std::vector<std::string>& args);
// Waits for a started program; its exit status, or -1 if a signal ended it.
int wait_program(int pid);

// Calls `done` every 10 ms until it returns true or `timeout` has passed;
// returns its last answer. The timeout is a hang guard, an order of
// magnitude above a busy machine's time, never a latency bound.
bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout);

// GridBoard distance by plain breadth-first search from `goal`, independent of the
// table code; for checking answers against.
std::vector<int> bfs_histogram(const GridBoard& goal);
// The boards a naive search found, keyed by their cells packed four bits
// each (cells_key: boards up to 14 cells; key 0 never occurs, since a
// board's cells differ), with their distances: the entries in the order
// found, and beside them a plain open-addressing table of the keys with
// the distance in their top byte (linear probing over a power-of-two array
// that doubles at half full). std::unordered_map spent most of the naive
// searches' time allocating its nodes.
class NaiveDistances {
 public:
  // Records `key` at distance `d` unless it is there already; true if new.
  bool insert(std::uint64_t key, int d);
  // The distance recorded for `key`, if any.
  std::optional<int> find(std::uint64_t key) const;
  std::size_t size() const { return found_.size(); }
  auto begin() const { return found_.begin(); }
  auto end() const { return found_.end(); }

 private:
  // The slot holding `key`, or the empty one where it belongs.
  std::size_t slot_of(std::uint64_t key) const;
  void grow();

  static constexpr std::uint64_t kKeyBits = (std::uint64_t{1} << 56) - 1;
  std::vector<std::uint64_t> slots_;  // key | distance << 56; 0: empty
  std::vector<std::pair<std::uint64_t, int>> found_;
};

// Every board's distance to `goal` by the same naive search, keyed by
// cells_key(board).
NaiveDistances bfs_distances(const GridBoard& goal);
// A board's cells, four bits each, in reading order.
std::uint64_t cells_key(const GridBoard& b);

}  // namespace eight::test
