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
// depends on the goal's blank cell only; and through a symmetry of the
// square on its class only (Pdb5x5Heuristic): six sets serve every goal
// (kPdb5x5ClassBlanks). The sets are read from table files that
// eight-tablegen writes (docs/table-format.md: the default table holds the
// corner class's, blank 0); no answering process builds one.
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
// transposed goal's set (the same class as the goal's when the blank's goal
// cell is on a diagonal, as on Korf's goal and the default goal) gives a
// second admissible value; the heuristic takes the larger, and the larger
// of that and MD plus linear conflicts.
//
// Why 5-5-5-5-4 and not Korf and Felner's 6-6-6-6: a 6-tile group on 25
// cells is 127,512,000 placements, 63.8 MB at 4 bits, 255 MB a set, and a
// single-threaded build of minutes; a 5-5-5-5-4 set is 12.9 MB, built in
// seconds (docs/performance.md has the figures).
//
// Thread safety: pure functions and immutable values.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

#include "eight/board.h"
#include "eight/pattern_db.h"

namespace eight::grid {

// A 5x5 set generated in memory (eight-tablegen's, and the tests'): the
// groups (goal cells as bits of a 25-bit mask) of the goal blank, and each
// group's 4-bit entries.
struct Pdb5x5Set {
  int goal_blank = 0;
  std::array<std::uint32_t, kPdb5x5Groups> groups{};
  std::array<std::vector<std::uint8_t>, kPdb5x5Groups> bytes;

  // Views over `bytes`: valid while this set lives unchanged.
  Pdb5x5View view() const;
};

// The groups of the goal blank `goal_blank` (the blocks above, the blank's
// cell taken out). REQUIRES: 0 <= goal_blank < 25.
std::array<std::uint32_t, kPdb5x5Groups> pdb5x5_groups(int goal_blank);

// A group's goal cells as the tiles of the canonical goal of goal_blank
// that stand on them (a table record's group: bit t for tile t), and its
// placements, 25!/(25-k)! for k tiles. REQUIRES: 0 <= goal_blank < 25,
// cells without goal_blank; 1 <= k <= 6.
std::uint32_t pdb5x5_group_tiles(int goal_blank, std::uint32_t cells);
// The inverse: the goal cells of those tiles. REQUIRES: tiles among 1..24.
std::uint32_t pdb5x5_group_cells(std::uint32_t tiles, int goal_blank);
std::uint64_t pdb5x5_placements(int k);
// The rank of the canonical goal's placement of a group of tiles (bit t
// for tile t, 1 to 6 of the tiles 1..24): its entry is 0 in a sound set.
std::uint32_t pdb5x5_goal_rank(std::uint32_t tiles, int goal_blank);

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

// The goal blank cells whose sets are kept (in a table: no answering
// process builds one): the lowest cell of each class of cells under the
// square's 8 symmetries, a corner (0), the edges' (1, 2), the inner ring's
// (6, 7) and the centre (12). A set serves every goal whose blank is in its
// class (Pdb5x5Heuristic maps the board through a symmetry).
inline constexpr int kPdb5x5ClassBlanks[] = {0, 1, 2, 6, 7, 12};
// The kept cell of goal_blank's class. REQUIRES: 0 <= goal_blank < 25.
int pdb5x5_class_blank(int goal_blank);

// The 5x5 heuristic over a set and its reflection, for searches that keep
// it as tiles move: tile t's group and index in it, for both lookups, and
// where each group's entries are.
//
// The two lookups. A set is stored for the kept cell r of the goal blank's
// class (kPdb5x5ClassBlanks); the goal's blank b is S(r) for a symmetry S
// of the square, and the board seen through S's inverse is a board of the
// stored goal, as far from it: its tiles are looked up on the cells
// S^-1(cell), in the order of their goal cells' images (a relabelling, a
// 25-byte cell map a lookup). The first lookup takes the first symmetry
// (goal.h's order) taking r to b; the reflection takes the transpose after
// the first taking r to the transposed b: on the standard goal (b = 24)
// the half turn and the anti-transpose, on Korf and Felner's (b = 0) the
// identity and the transpose. On a blank off both diagonals the two are
// the same symmetry (the value is taken once, twice).
class Pdb5x5Heuristic {
 public:
  // Entries of one board: each group's, straight and reflected, and sums.
  struct Entries {
    std::array<std::uint8_t, 2 * kPdb5x5Groups> entry{};
    std::uint8_t sum = 0;
    std::uint8_t reflected_sum = 0;
    int extra() const { return sum > reflected_sum ? sum : reflected_sum; }
  };

  // `set`'s bytes must outlive this. REQUIRES: goal.shape == kShape5x5,
  // is_valid(goal), set.goal_blank == pdb5x5_class_blank(blank_cell(goal)).
  Pdb5x5Heuristic(const Pdb5x5View& set, const GridBoard& goal);

  // The entries of a board whose tile t is on cell where[t] (t = 1..24).
  Entries entries(const std::uint8_t* where) const;
  // `e` after tile t moved (where[] already updated).
  void moved(Entries& e, std::uint8_t t, const std::uint8_t* where) const;

 private:
  int lookup(int side, int g, const std::uint8_t* where) const;

  static constexpr std::uint8_t kNone = 0xFF;
  const Pdb5x5View* set_ = nullptr;
  // to_set_[side][c]: the stored goal's cell that the board's cell c is
  // seen on (side 0: the first lookup, 1: the reflection).
  std::array<std::array<std::uint8_t, 25>, 2> to_set_{};
  // group_of_[side][t]: tile t's group (kNone for the blank).
  std::array<std::array<std::uint8_t, 25>, 2> group_of_{};
  // tiles_[side][g]: the group's tiles, in the order of their goal cells.
  std::array<std::array<std::array<std::uint8_t, 5>, kPdb5x5Groups>, 2> tiles_{};
  std::array<std::array<std::uint8_t, kPdb5x5Groups>, 2> size_{};
};

// The databases' value of `board` from scratch: MD + 2 * the larger of
// the two lookups' sums (for tests and an answer's lower bound).
// REQUIRES: as Pdb5x5Heuristic's constructor, board.shape == kShape5x5.
int pdb5x5_value(const Pdb5x5View& set, const GridBoard& board, const GridBoard& goal);

// The transpose of a 5x5 cell.
constexpr int transposed_cell(int c) {
  return (c % 5) * 5 + c / 5;
}

}  // namespace eight::grid
