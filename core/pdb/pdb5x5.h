// Additive pattern databases for the 5x5 board (Korf and Felner,
// "Disjoint pattern database heuristics", AIJ 134, 2002), 5-5-5-5-4, with
// the reflection lookup: the beam search's heuristic on 5x5
// (beam_search.h). Private to the core.
//
// The partition. The 25 goal cells are cut into five fixed blocks of five,
//
//   A A A B B
//   A A B B B
//   C C D E E
//   C C D E E
//   C D D D E
//
// and the block of the goal's blank loses that cell: five groups, four of
// five tiles and one of four, for any goal blank. A tile belongs to the
// group of its goal cell, so the sets serve any goal labelling: a set
// depends on the goal's blank cell only.
//
// Each group's database is pattern_db.h's, on 25 cells: for every
// placement of the group's tiles (ranked as pattern_db.h says, n = 25,
// tiles in the order of their goal cells), the fewest moves of the group's
// own tiles that bring them home, minimised over where the blank is, found
// by the same breadth-first search over (placement, blank region); stored
// as pattern_db.h's 4-bit entries v = min(15, (PDB - MD) / 2), two a byte,
// low nibble first. Sizes: a 5-tile group 6,375,600 placements (3,187,800
// bytes), the 4-tile one 303,600 (151,800 bytes); 12.9 MB a set. Its value
// for a board is MD + 2 * (sum of the five entries).
//
// The reflection lookup. The board transposed is a board of the transposed
// question (the blank's goal cell transposed), as far from its goal: the
// transposed goal's set (the same set when the blank's goal cell is on the
// diagonal, as on Korf's goal and the default goal) gives a second
// admissible value; the heuristic takes the larger, and the larger of that
// and MD plus linear conflicts.
//
// Why 5-5-5-5-4 and not Korf and Felner's 6-6-6-6: a 6-tile group on 25
// cells is 127,512,000 placements, 63.8 MB at 4 bits, 255 MB a set, and a
// single-threaded build of minutes; a 5-5-5-5-4 set is 12.9 MB, built in
// seconds on first use (docs/performance.md has the figures).
//
// Thread safety: pure functions and immutable values; pdb5x5_databases()
// is thread-safe as it says.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

#include "eight/board.h"

namespace eight::grid {

inline constexpr Shape kShape5x5{5, 5};
inline constexpr int kPdb5x5Groups = 5;

// A 5x5 set: the groups (goal cells as bits of a 25-bit mask) of the goal
// blank, and each group's 4-bit entries.
struct Pdb5x5Set {
  int goal_blank = 0;
  std::array<std::uint32_t, kPdb5x5Groups> groups{};
  std::array<std::vector<std::uint8_t>, kPdb5x5Groups> bytes;
};

// The groups of the goal blank `goal_blank` (the blocks above, the blank's
// cell taken out). REQUIRES: 0 <= goal_blank < 25.
std::array<std::uint32_t, kPdb5x5Groups> pdb5x5_groups(int goal_blank);

// The rank of k distinct cells of 25 (pattern_db.h's placement rank with
// n = 25). REQUIRES: 1 <= k <= 6, cells distinct, each 0..24.
std::uint32_t pdb5x5_rank(const std::uint8_t* cells, int k);

// The database of one group (goal cells `group`, not holding goal_blank,
// 4 or 5 of them): its 4-bit entries, the same bytes every run. Empty when
// `cancel` (may be null) read true: it is looked at once a layer and every
// 65,536 placements. REQUIRES: 0 <= goal_blank < 25, group a 4- or 5-cell
// mask of 25 bits without goal_blank.
std::vector<std::uint8_t> generate_pdb5x5(int goal_blank, std::uint32_t group,
                                          const std::atomic<bool>* cancel = nullptr);
// The five, one after the other; bytes all empty when cancelled.
// REQUIRES: 0 <= goal_blank < 25.
Pdb5x5Set generate_pdb5x5_set(int goal_blank, const std::atomic<bool>* cancel = nullptr);

// The set of `goal_blank`, built on the calling thread the first time it is
// asked for and kept for the life of the process (12.9 MB each; at most 25).
// Null when `cancel` read true before it was built (nothing kept; the next
// caller builds it). Thread-safe: a second caller waits for the first's
// build. REQUIRES: 0 <= goal_blank < 25.
const Pdb5x5Set* pdb5x5_databases(int goal_blank, const std::atomic<bool>* cancel = nullptr);
// The same set when built; else null at once, its build started on a thread
// of its own (once), for callers that may not wait (a request with a
// deadline is answered by MD and linear conflicts meanwhile).
const Pdb5x5Set* pdb5x5_databases_or_start(int goal_blank);

// The 5x5 heuristic over a set and its reflection, for searches that keep
// it as tiles move: tile t's group and index in it, for the set and for the
// reflected set, and where each group's entries are.
class Pdb5x5Heuristic {
 public:
  // Entries of one board: each group's, straight and reflected, and sums.
  struct Entries {
    std::array<std::uint8_t, 2 * kPdb5x5Groups> entry{};
    std::uint8_t sum = 0;
    std::uint8_t reflected_sum = 0;
    int extra() const { return sum > reflected_sum ? sum : reflected_sum; }
  };

  // `set` of goal's blank cell, `reflected` of its transpose (the same
  // object when the blank is on the diagonal). Both must outlive this.
  // REQUIRES: goal.shape == kShape5x5, is_valid(goal), set.goal_blank ==
  // blank_cell(goal), reflected.goal_blank == its transposed cell.
  Pdb5x5Heuristic(const Pdb5x5Set& set, const Pdb5x5Set& reflected, const GridBoard& goal);

  // The entries of a board whose tile t is on cell where[t] (t = 1..24).
  Entries entries(const std::uint8_t* where) const;
  // `e` after tile t moved (where[] already updated).
  void moved(Entries& e, std::uint8_t t, const std::uint8_t* where) const;

 private:
  int lookup(int side, int g, const std::uint8_t* where) const;

  static constexpr std::uint8_t kNone = 0xFF;
  // side 0: the set, 1: the reflection.
  std::array<const Pdb5x5Set*, 2> sets_{};
  // group_of_[side][t]: tile t's group (kNone for the blank).
  std::array<std::array<std::uint8_t, 25>, 2> group_of_{};
  // tiles_[side][g]: the group's tiles, in the order of their goal cells.
  std::array<std::array<std::array<std::uint8_t, 5>, kPdb5x5Groups>, 2> tiles_{};
  std::array<std::array<std::uint8_t, kPdb5x5Groups>, 2> size_{};
};

// The databases' value of `board` from scratch: MD + 2 * the larger of
// the set's entries' sum and the reflection's (for tests and an answer's
// lower bound).
// REQUIRES: as Pdb5x5Heuristic's constructor, board.shape == kShape5x5.
int pdb5x5_value(const Pdb5x5Set& set, const Pdb5x5Set& reflected, const GridBoard& board,
                 const GridBoard& goal);

// The transpose of a 5x5 cell.
constexpr int transposed_cell(int c) {
  return (c % 5) * 5 + c / 5;
}

}  // namespace eight::grid
