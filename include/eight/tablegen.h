// Building a table: reverse breadth-first search from each section's goal,
// then the version 2 file bytes (docs/table-format.md), then a safe write
// that checks what it wrote before it takes the file's name.
//
// Output is a pure function of the requested sections: the searches visit
// moves in a fixed order, so every run produces the same bytes.
//
// Thread safety: callable from any thread; the builders run workers of their
// own and return when they are done. Two writes to one path at once would
// share its temporary file: callers keep to one writer per path.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "eight/board.h"
#include "eight/pattern_db.h"
#include "eight/result.h"
#include "eight/shape.h"
#include "eight/table_format.h"

namespace eight {

// The 3x3 sections: the standard goal's corner (8), an edge (7) and the
// centre (4). Every blank cell maps onto one of them by a symmetry of the
// square, so these three answer every 3x3 goal. `eight-tablegen --shape 3x3`
// writes them alone.
inline constexpr int kDefaultSectionBlanks[3] = {8, 7, 4};

// One section to build: its shape, its goal's blank cell (the goal is
// canonical_goal(blank, shape)) and its encoding.
struct SectionSpec {
  Shape shape;
  int blank = 0;
  format::Encoding encoding = format::Encoding::kFull;
  // A pattern database's tiles, bit t for tile t (fifteen::TileMask, or a
  // 5x5 group's tiles of 1..24); 0 for every other section.
  std::uint32_t group = 0;

  friend constexpr bool operator==(const SectionSpec&, const SectionSpec&) = default;
};

// The default table (data/eight.tbl): every shape up to 10 cells. Per shape,
// one section per orbit of blank cells under the symmetries that keep the
// shape (all 8 on a square, 4 on other rectangles): the corners and, on the
// two-row boards, one cell per pair of mirrored inner columns. The
// transposed shapes (3x2, 4x2, 5x2) map onto these through the other 4
// symmetries. The 3x3 sections come first, as in the 3x3 file, and 2x5's
// 1,814,400 positions a section are too many for a full entry's 18-bit
// parent: mod-3.
inline constexpr SectionSpec kDefaultSections[] = {
    {kShape3x3, 8, format::Encoding::kFull},   {kShape3x3, 7, format::Encoding::kFull},
    {kShape3x3, 4, format::Encoding::kFull},   {Shape{2, 2}, 3, format::Encoding::kFull},
    {Shape{2, 3}, 5, format::Encoding::kFull}, {Shape{2, 3}, 4, format::Encoding::kFull},
    {Shape{2, 4}, 7, format::Encoding::kFull}, {Shape{2, 4}, 6, format::Encoding::kFull},
    {Shape{2, 5}, 9, format::Encoding::kMod3}, {Shape{2, 5}, 8, format::Encoding::kMod3},
    {Shape{2, 5}, 7, format::Encoding::kMod3},
};

// The 12-cell tables, a file each, built on demand (eight-tablegen --shape
// 3x4): one mod-3 section per orbit of blank cells under the 4 symmetries
// that keep the shape, 59,875,200 bytes each. 3x4 (answering 4x3 too):
// corners, the long sides' inner cells, the short sides' inner cells, the
// two centre cells. 2x6 (and 6x2): corners, and each pair of mirrored inner
// columns.
inline constexpr SectionSpec kSections3x4[] = {
    {Shape{3, 4}, 11, format::Encoding::kMod3},
    {Shape{3, 4}, 10, format::Encoding::kMod3},
    {Shape{3, 4}, 7, format::Encoding::kMod3},
    {Shape{3, 4}, 6, format::Encoding::kMod3},
};
inline constexpr SectionSpec kSections2x6[] = {
    {Shape{2, 6}, 11, format::Encoding::kMod3},
    {Shape{2, 6}, 10, format::Encoding::kMod3},
    {Shape{2, 6}, 9, format::Encoding::kMod3},
};

// The 4x4 goals with pattern databases: the blank on a corner, an edge and
// a centre cell, onto which the square's symmetries map every cell (the
// corner is Korf's goal, 0 1 2 ... 15).
inline constexpr int kFifteenGoalBlanks[3] = {0, 1, 5};

// One kPatternDb section per group of `partition` (pattern_db.h) for each goal
// blank, goal by goal. REQUIRES: each blank 0..15, none twice.
std::vector<SectionSpec> pattern_sections(fifteen::Partition partition,
                                          std::span<const int> goal_blanks);

// The pattern databases of a grid shape of 14 to 16 cells (2x7, 3x5, 2x8):
// one kPatternDb section per group of fifteen::pattern_set(shape, blank, p)
// for each of the shape's partitions p (three on 2x8, one on 2x7 and 3x5),
// for each blank cell its search keeps sets under (the lowest of each class
// under the shape's symmetries: 0 to 3 on 2x7 and 2x8; 0, 1, 2, 5, 6, 7 on
// 3x5), or that one cell when `goal_blank` is given, goal by goal. The
// transposed shapes' boards use them too.
// REQUIRES: shape is 2x7, 3x5 or 2x8; goal_blank, if given, such a cell.
std::vector<SectionSpec> grid_pattern_sections(Shape shape,
                                               std::optional<int> goal_blank = std::nullopt);

// The key (grid_search.h) of 2x8's and 8x2's standard goals (their blank
// on the last cell: the half turn, or the transpose, puts it on cell 0),
// whose sets the default table holds.
inline constexpr int kStandardTwoByEightKey = 0;

// One kPatternDb section per group of `set`, in its order (the goal is
// canonical_goal(set.goal_blank, set.shape)). REQUIRES: check_pattern_set(set).
std::vector<SectionSpec> pattern_set_sections(const fifteen::PatternSet& set);

// 2x8's 7-8 pattern databases (fifteen::kTwoByEightPartition78) for the
// standard goals' key: 2 kPatternDb sections, 28.8 MB and 259.5 MB, the
// file `eight-tablegen --pdb 2x8-7-8` writes (data/eight-2x8-7-8.tbl) and a
// server builds into --pdb-dir. Every 2x8 or 8x2 goal whose key is
// kStandardTwoByEightKey (its blank on a corner) is searched with them.
std::vector<SectionSpec> two_by_eight_78_sections();

// The 5x5 pattern databases of the goal blanks `goal_blanks` (each a kept
// cell of its class, core/pdb/pdb5x5.h's kPdb5x5ClassBlanks): five
// kPatternDb sections a goal, pdb5x5_groups()'s in order, goal by goal
// (12.9 MB a goal). REQUIRES: each blank a class's kept cell, none twice.
std::vector<SectionSpec> pdb5x5_sections(std::span<const int> goal_blanks);

// What eight-tablegen writes by default (data/eight.tbl): kDefaultSections,
// then the 6-6-3 pattern databases of the kFifteenGoalBlanks goals (9
// sections, 17.3 MB), then grid_pattern_sections() of 2x7 (5-4-4, 12
// sections, 0.58 MB) and 3x5 (5-5-4, 18 sections, 2.26 MB), 2x8's for its
// standard goal's key (6-6-3, 4-6-5 and 2-6-6-1, 10 sections, 14.7 MB), then
// the 5x5 corner class's pdb5x5_sections() (blank 0: the standard goal's and
// Korf and Felner's class, 5 sections, 12.9 MB): 65 sections. 2x8's for
// every key (58.8 MB) are a file of their own (eight-tablegen --pdb 2x8).
std::vector<SectionSpec> default_sections();

// True for sections build_table can write: 1..kMaxSections of them, each of
// a table shape (12-cell ones mod-3), its blank on the board, its encoding
// fitting its positions, no (shape, blank) twice; or pattern databases of
// 4x4 or of 2x7, 3x5 or 2x8 under a blank cell their search keeps a set
// under (kPatternDb, a sound group), at most fifteen::kMaxGroups a goal blank,
// whose groups share no tile; or 5x5's, pdb5x5_sections() of some goals
// (not in the WebAssembly module, which reads them from a table file).
bool are_buildable(std::span<const SectionSpec> sections);

// The packed entries (format::pack_entry) of the section whose goal is
// canonical_goal(blank), indexed by rank: about two milliseconds.
// REQUIRES: 0 <= blank < kCells3x3.
std::vector<std::uint32_t> generate_section(int blank);

// The whole file for the given sections, checksum included, in their order.
// The sections are searched by one worker per core (no more than there are
// sections), each taking the next section left; the bytes do not depend on
// who searched what. REQUIRES: are_buildable(sections).
std::vector<std::uint8_t> build_table(std::span<const SectionSpec> sections);
// The same for full 3x3 sections of the given blank cells.
// REQUIRES: 1..9 distinct cells, each 0..8.
std::vector<std::uint8_t> build_table(std::span<const int> blanks);

// Generates the table for `sections` and writes it to `path` without ever
// leaving a partial file there (a temporary file, fsynced, renamed over
// `path` only once proved; on failure `path` is as it was), the check being the proof of the bytes
// that landed (Check::kExhaustive; for a table with 12-cell sections or pattern databases of 7 or 8
// tiles Check::kFull, their search again being `eight verify`'s), run from the file while it is
// fsynced: a table that does not prove sound never takes the name. REQUIRES:
// are_buildable(sections).
//
// Pattern databases are built first, one at a time with every core
// (fifteen::generate_pattern_db: 1.75 bytes a placement, 908 MB for an
// 8-tile group); `progress` gets their breadth-first layer and placements
// found.
//
// Memory: the file's bytes, and per section being searched (one a core, at
// once) its search's memory (core/mod3_search.h: 4 bits a position, 120 MB
// for a 12-cell section): about 480 MB for the 3x4 file on two cores.
// `progress`, when given, is called from the searching threads (at once:
// it must be thread-safe) after each level of a mod-3 section with the
// section's index, the level and the positions found so far.
using TableProgress = std::function<void(std::size_t section, int level, std::uint64_t found)>;
Status write_table(const std::string& path, std::span<const SectionSpec> sections,
                   const TableProgress& progress = {});
// The same for full 3x3 sections. REQUIRES: `blanks` as for build_table.
Status write_table(const std::string& path, std::span<const int> blanks);

}  // namespace eight
