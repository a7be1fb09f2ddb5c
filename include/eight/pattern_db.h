// Additive (disjoint) pattern databases for the 4x4 board and the other
// boards of 14 to 16 cells: 2x7, 3x5, 2x8 and their transposes (Korf and Felner,
// "Disjoint pattern database heuristics", AIJ 134, 2002; Felner, Korf and
// Hanan, "Additive pattern database heuristics", JAIR 22, 2004).
//
// A pattern is a group of tiles. Its database (PDB) holds, for every
// placement of the group's tiles on the board's n cells (16 on 4x4), the fewest moves *of the
// group's own tiles* that bring them all home, minimised over where the
// blank is, while the other tiles slide for free. Each move moves exactly
// one tile, so over disjoint groups these counts add up without
// overestimating: the sum is an admissible heuristic.
//
// The abstract search. A state is (placement, region of the blank): the
// blank moves through the cells no group tile covers at no cost, so it is
// anywhere in the connected region of free cells it is in. Moving a group
// tile into that region costs 1 and leaves the blank where the tile was. The
// breadth-first search starts from the goal's placement with the blank in
// the region of the goal's blank cell, so a PDB depends on the goal's blank
// cell as well as on the group; the entry of a placement is the smallest
// distance over its regions.
//
// Ranking (a partial permutation, dense). Let t_0 < t_1 < ... < t_{k-1} be
// the group's tiles in increasing order and c_i the cell (0..n-1) of tile
// t_i. Then
//
//   d_i  = c_i - |{ j < i : c_j < c_i }|          (0 <= d_i < n - i)
//   rank = sum_i d_i * (n - 1 - i)! / (n - k)!
//
// or, by Horner's rule: r = d_0, then r = r * (n - i) + d_i for i = 1..k-1.
// The ranks of a k-tile group are exactly 0 .. n!/(n-k)! - 1; on 4x4
// (n = 16): 3,360 for k = 3, 5,765,760 for k = 6, 57,657,600 for k = 7,
// 518,918,400 for k = 8.
// Example: tiles {1, 2, 3} on cells 1, 2, 3 have d = 1, 1, 1 and rank
// (1 * 15 + 1) * 14 + 1 = 225.
//
// Byte layout (4 bits per entry). Every move of a group tile changes the
// group's Manhattan distance (MD: the sum over its tiles of |row - home row|
// + |col - home col|, homes taken in the canonical goal) by one, so
// PDB - MD is even and at least 0. The entry stored for a placement is
//
//   v = min(15, (PDB - MD) / 2)
//
// (the cap only lowers the value, so it stays admissible), and the bytes
// are the entries in rank order, two per byte, low nibble first: the entry
// of rank r is (byte[r / 2] >> (4 * (r % 2))) & 0xF. A k-tile PDB is
// exactly (n!/(n-k)! + 1) / 2 bytes (on 4x4 the count is even for every
// k >= 1, so 16!/(16-k)! / 2); its value for a placement is MD + 2 v. The
// goal's placement has v = 0. On boards other than 4x4 a placement the
// abstract search never reaches keeps v = 0, which only underestimates.
//
// Thread safety: generation may use several threads internally; everything
// else is a pure function or an immutable value.
#pragma once

#include <array>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "eight/board.h"
#include "eight/result.h"
#include "eight/shape.h"

namespace eight::fifteen {

// The 4x4 board's dimensions, for the code written for it alone. Boards come
// in as eight::Board of shape kShape4x4 (board.h parses them); the search
// works on their cells.
inline constexpr int kSide = 4;
inline constexpr int kCells = kSide * kSide;
// Every 15-puzzle position is solvable in at most 80 moves (Brüngger,
// Marzetta, Fukuda and Nievergelt, 1999), so an optimal path always fits in
// this.
inline constexpr int kMaxSolutionLength = 80;
using Cells = std::array<std::uint8_t, kCells>;
// The 16 cells of a 4x4 board. REQUIRES: b.shape == kShape4x4.
inline Cells cells_of(const Board& b) {
  assert(b.shape == kShape4x4);
  Cells out;
  std::copy_n(b.cells.begin(), kCells, out.begin());
  return out;
}

// Manhattan distance between two cells of the 4x4 board.
int cell_distance(int a, int b);
// Sum over tiles of the distance from each tile's cell to its cell in the
// canonical goal with the blank on `goal_blank`.
// REQUIRES: b.shape == kShape4x4, is_valid(b).
int manhattan_distance(const Board& b, int goal_blank);

// A group of tiles: bit t set for tile t (1..15). Bit 0, the blank, never.
using TileMask = std::uint16_t;

inline constexpr int kMaxGroupSize = 8;
inline constexpr int kMaxEntry = 15;

// The shapes with pattern databases: 14 to 16 cells (4x4, 2x7, 7x2, 3x5,
// 5x3, 2x8, 8x2). Their tiles fit a TileMask.
constexpr bool is_pattern_shape(Shape s) {
  return is_board_shape(s) && s.cells() >= 14 && s.cells() <= 16;
}

int group_size(TileMask group);
// True for 1..8 tiles among 1..15 (4x4), or among 1..n-1 on a pattern shape
// of n cells.
bool is_group(TileMask group);
bool is_group(TileMask group, Shape shape);
// "{1,2,5,6,9,10}": for messages (a TileMask, or a 5x5 group's tiles, bit t
// for tile t).
std::string describe_group(std::uint32_t group);

// n!/(n-k)!, the number of placements of k tiles on n cells.
// REQUIRES: 0 <= k <= 8, k <= n <= 16.
std::uint64_t placement_count(int k, int n = kCells);
// Bytes of a k-tile PDB on n cells: (placement_count(k, n) + 1) / 2.
// REQUIRES: 1 <= k <= 8, k <= n <= 16.
std::uint64_t pattern_db_size(int k, int n = kCells);

// rank of the cells c_0..c_{k-1} (as above). REQUIRES: 1 <= k <= 8 distinct
// cells in 0..15.
std::uint32_t placement_rank(std::span<const std::uint8_t> cells);
// Inverse: the k = cells.size() cells of rank r. REQUIRES: r <
// placement_count(k).
void placement_unrank(std::uint32_t r, std::span<std::uint8_t> cells);

// The rank of the group's placement on a board of a pattern shape.
// REQUIRES: is_pattern_shape(b.shape), is_valid(b), is_group(group, b.shape).
std::uint32_t pattern_rank(const Board& b, TileMask group);
// The same over a 4x4 board's cells (the search's own form).
std::uint32_t pattern_rank(const Cells& cells, TileMask group);
// The group's Manhattan distance on a board, homes in the canonical goal of
// `goal_blank` (of b's shape). REQUIRES: as pattern_rank.
int group_manhattan(const Board& b, TileMask group, int goal_blank);
int group_manhattan(const Cells& cells, TileMask group, int goal_blank);

struct PdbProgress {
  std::uint64_t done = 0;   // placements whose entry is known
  std::uint64_t total = 0;  // placements to find (done == total at the end)
  int depth = 0;            // the breadth-first layer being searched
};
using PdbProgressFn = std::function<void(const PdbProgress&)>;

struct PdbOptions {
  // Threads to search with; 0 means every core (1 where no thread can be started: the JavaScript
  // package). The bytes do not depend on it.
  int threads = 0;
  // Called on the calling thread, after each layer and about every 100 ms
  // within one; `done / total` is fit for a progress bar.
  PdbProgressFn progress;
  // When not null, looked at every few thousand placements: once it reads
  // true the generation stops and returns no bytes (a request that builds a
  // set on first use stops when its client leaves). Must outlive the call.
  const std::atomic<bool>* cancel = nullptr;
};

// The PDB of `group` for the goal canonical_goal(goal_blank), packed as
// described above. The same bytes every run, whatever the thread count. Its
// peak heap use, the result included, is 1.75 bytes per placement (a byte of
// reached blank regions, two frontier bitsets, the half-byte result): about
// 10 MB, 101 MB and 908 MB for 6, 7 and 8 tiles on 16 cells.
// Empty when options.cancel stopped it.
// REQUIRES: is_pattern_shape(shape), 0 <= goal_blank < shape.cells() and
// is_group(group, shape).
std::vector<std::uint8_t> generate_pattern_db(Shape shape, int goal_blank, TileMask group,
                                              const PdbOptions& options = {});
// The same on 4x4.
std::vector<std::uint8_t> generate_pattern_db(int goal_blank, TileMask group,
                                              const PdbOptions& options = {});

// A read-only view over a PDB's bytes, e.g. a mapped file. Does not own them:
// it must not outlive them.
class PatternDbView {
 public:
  PatternDbView() = default;

  // Checks what can be checked cheaply: the shape, the goal blank and the
  // group are sound, the size is exactly pattern_db_size(k, cells), and the
  // goal placement's entry is 0. Entries are 4 bits, so every value is in
  // range by construction; no other entry is read.
  static Result<PatternDbView> open(std::span<const std::uint8_t> bytes, Shape shape,
                                    int goal_blank, TileMask group);
  // The same on 4x4.
  static Result<PatternDbView> open(std::span<const std::uint8_t> bytes, int goal_blank,
                                    TileMask group) {
    return open(bytes, kShape4x4, goal_blank, group);
  }

  Shape shape() const { return shape_; }
  int goal_blank() const { return goal_blank_; }
  TileMask group() const { return group_; }
  int group_size() const { return k_; }
  std::span<const std::uint8_t> bytes() const { return bytes_; }

  // (PDB - MD) / 2 for the placement of rank r, 0..15.
  // REQUIRES: r < placement_count(group_size()).
  int entry(std::uint32_t r) const {
    assert(r / 2 < bytes_.size());  // bytes_ holds placement_count(k_) / 2
    return (bytes_[r >> 1] >> ((r & 1) << 2)) & 0xF;
  }
  // The PDB value for a board's placement of the group: MD + 2 * entry.
  // REQUIRES: b.shape == shape(), is_valid(b).
  int value(const Board& b) const;

 private:
  std::span<const std::uint8_t> bytes_;
  Shape shape_ = kShape4x4;
  int goal_blank_ = 0;
  TileMask group_ = 0;
  int k_ = 0;
};

// The partitions of the 15 tiles this library builds.
enum class Partition : std::uint8_t {
  k663 = 0,  // 6 + 6 + 3 tiles: 2 x 2.9 MB + 1.7 KB per goal, seconds to build
  k78 = 1,   // 7 + 8 tiles: 28.8 MB + 259.5 MB per goal, minutes to build; far fewer nodes
};
std::string_view partition_name(Partition p);  // "6-6-3", "7-8"

inline constexpr int kMaxGroups = 4;
// The most partitions (sets) one goal is searched with: pattern_set_count().
inline constexpr int kMaxPatternSets = 3;

// Disjoint groups, each with its PDB, measured against one canonical goal
// of `shape`.
struct PatternSet {
  Shape shape = kShape4x4;
  int goal_blank = 0;
  int group_count = 0;
  std::array<TileMask, kMaxGroups> groups{};

  std::span<const TileMask> group_list() const {
    return {groups.data(), static_cast<std::size_t>(group_count)};
  }
};

// The groups of partition `p` for the goal canonical_goal(goal_blank). They
// are chosen for the goal blanks on cells 0, 1 and 5 (kFifteenGoalBlanks,
// tablegen.h; see core/pdb/partitions.cpp for the choice and why) and
// carried to every other cell by a symmetry of the square taking one of
// those onto it. REQUIRES: 0 <= goal_blank < 16.
PatternSet pattern_set(Partition p, int goal_blank);

// The default set of a pattern shape's goal canonical_goal(goal_blank,
// shape): on 4x4 pattern_set(Partition::k663, goal_blank); on the others
// groups of pattern_group_sizes(shape) tiles, cut from the goal's cells in
// order along the board's long side (down each column of a wide board,
// along each row of a tall one), skipping the blank: compact blocks across
// the short side. REQUIRES: is_pattern_shape(shape), 0 <= goal_blank <
// shape.cells().
// `partition` picks one of the shape's pattern_set_count(shape) partitions
// (the search takes the largest of their sums), or on 2x8 and 8x2
// kTwoByEightPartition78. REQUIRES: also 0 <= partition <
// pattern_set_count(shape), or partition == kTwoByEightPartition78 and
// shape.cells() == 16, shape != 4x4.
PatternSet pattern_set(Shape shape, int goal_blank, int partition = 0);
// 2x8's (and 8x2's) 7-8 partition: the half of the board (its 2x4 block)
// that holds the goal's blank, 7 tiles, and the other half, 8; the cut of
// pattern_set() above with group sizes 7 and 8. Far stronger than the three
// the search builds (on 100 random boards the hardest took 439,259 nodes
// against their 67,362,707: docs/performance.md), but 288 MB a goal and
// minutes of building, so no search builds it in memory and it is not one
// of pattern_set_count()'s: `eight-tablegen --pdb 2x8-7-8` writes the
// standard goal's key's to a file of its own, a server with --pdb-dir
// builds that file in the background, and a table set holding it searches
// with it alone (TableSet::pattern_sets prefers the most bytes).
inline constexpr int kTwoByEightPartition78 = 3;
// How many partitions a pattern shape's goal is searched with: 3 on 2x8
// and 8x2 (one additive set is too weak there: core/pdb/partitions.cpp),
// 1 elsewhere. REQUIRES: is_pattern_shape(shape).
int pattern_set_count(Shape shape);
// The group sizes of a partition: 5-4-4 on 14 cells (2x7, 7x2), 5-5-4 on
// 15 (3x5, 5x3), 6-6-3, 4-6-5 and 2-6-6-1 on 2x8 and 8x2 (and 7-8 for
// kTwoByEightPartition78), 6-6-3 on 4x4. REQUIRES: is_pattern_shape(shape),
// partition as pattern_set(shape, goal_blank, partition) requires.
std::span<const int> pattern_group_sizes(Shape shape, int partition = 0);

// A set is sound when its shape is a pattern shape, its goal blank is a
// cell of it, it has 1..4 groups and the groups are disjoint groups of the
// shape (is_group). They need not cover every tile.
Status check_pattern_set(const PatternSet& set);

// How one goal's groups, in the order a table lists them, make sets: a
// group sharing a tile with the set being read starts the next (so every
// set's groups are disjoint and its sum admissible). `sets` is how many,
// `largest` the most groups in one.
struct SetSplit {
  int sets = 0;
  int largest = 0;
};
SetSplit split_into_sets(std::span<const TileMask> groups);

// A sound set's PDBs as views over bytes held elsewhere (a mapped table's
// sections, or a PatternDatabases): dbs[i] belongs to set.groups[i], for
// i < set.group_count. A plain value: valid while those bytes live.
struct PatternSetView {
  PatternSet set;
  std::array<PatternDbView, kMaxGroups> dbs{};
};

// A set's PDBs, generated in memory: bytes[i] belongs to set.groups[i].
struct PatternDatabases {
  PatternSet set;
  std::vector<std::vector<std::uint8_t>> bytes;

  // Views over `bytes`; valid while this object lives and is not changed.
  std::vector<PatternDbView> views() const;
  // The same as one value. REQUIRES: bytes not empty (not cancelled).
  PatternSetView view() const;
};

// Generates every PDB of a sound set, one after the other (each uses the
// threads of `options`); progress counts placements over the whole set.
// When options.cancel stopped it, `bytes` is empty.
PatternDatabases generate_pattern_set(const PatternSet& set, const PdbOptions& options = {});

}  // namespace eight::fifteen

namespace eight::grid {

inline constexpr Shape kShape5x5{5, 5};
inline constexpr int kPdb5x5Groups = 5;

// The 5x5 board's set of pattern databases (core/pdb/pdb5x5.h: five groups
// of goal cells, 5-5-5-5-4, for one goal blank cell) as views over bytes
// held elsewhere: a table's five sections (Table::pdb5x5_set()) or a set
// generated in memory. A plain value: valid while those bytes live.
struct Pdb5x5View {
  int goal_blank = 0;
  // groups[g]: the group's goal cells, bit c for cell c (the blank's never).
  std::array<std::uint32_t, kPdb5x5Groups> groups{};
  // bytes[g]: the group's 4-bit entries (pattern_db.h's layout, n = 25).
  std::array<std::span<const std::uint8_t>, kPdb5x5Groups> bytes{};
};

}  // namespace eight::grid
