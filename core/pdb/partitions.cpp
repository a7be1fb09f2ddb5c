// The partitions of include/eight/pattern_db.h: which groups of tiles a
// goal's databases cover, and the check of a set of groups.
#include <algorithm>
#include <cassert>

#include "eight/goal.h"
#include "eight/pattern_db.h"

namespace eight::fifteen {
namespace {

// The base partitions, drawn as the goal's cells in reading order: '.' is
// the blank, and each letter a group, 'a' first. A group holds the tiles
// whose goal cells carry its letter.
//
// 7-8 is Korf and Felner's for the corner goal: the top two rows and the
// bottom two. The edge and centre goals split the same halves. For the edge
// goal that took 8.5 M nodes over the 200 boards below against 17.4 M for
// the left and right halves (a.bb/aabb/aabb/aabb); for the centre goal the
// two are mirror images, equal under the mirror lookup.
//
// 6-6-3 was chosen by measurement: every candidate layout solved the same
// random boards (seeded shuffles in the goal's class, 50-55 moves on
// average), and the one expanding the fewest nodes won. Nodes in total:
//   corner  .aab/aabb/aabb/cccb   24.5 M over 100 boards, 66.7 M over 300
//           others: 3-tile top row over 2x3 blocks (.ccc/aabb/aabb/aabb)
//           76.2 M and 149.9 M; rows (.ccc/aaaa/aabb/bbbb) 62.5 M over 100
//   edge    a.ab/aabb/aabb/cccb  130.5 M over 200 boards; top row over
//           blocks (c.cc/aabb/aabb/aabb) 201.6 M, rows 459.5 M
//   centre  aabb/a.bb/aabb/accc   52.1 M over 200 boards; next best of nine
//           58.4 M, blocks round the blank (ccbb/c.bb/aabb/aaaa) 73.2 M
// In each goal the best puts the 3-tile group on the bottom row, far from
// the blank's home, and the 6-tile groups in compact blocks. None of these
// layouts maps onto itself under the goal's diagonal (a symmetric one would
// make the mirror lookup repeat the regular one exactly).
struct BaseLayout {
  int goal_blank;
  std::string_view cells;  // 16 characters
};

// clang-format off
constexpr BaseLayout kLayouts663[3] = {
    {0, ".aab"
        "aabb"
        "aabb"
        "cccb"},
    {1, "a.ab"
        "aabb"
        "aabb"
        "cccb"},
    {5, "aabb"
        "a.bb"
        "aabb"
        "accc"},
};
constexpr BaseLayout kLayouts78[3] = {
    {0, ".aaa"
        "aaaa"
        "bbbb"
        "bbbb"},
    {1, "a.aa"
        "aaaa"
        "bbbb"
        "bbbb"},
    {5, "aaaa"
        "a.aa"
        "bbbb"
        "bbbb"},
};
// clang-format on

}  // namespace

std::string_view partition_name(Partition p) {
  return p == Partition::k663 ? "6-6-3" : "7-8";
}

PatternSet pattern_set(Partition p, int goal_blank) {
  assert(goal_blank >= 0 && goal_blank < kCells);
  const BaseLayout* layouts = p == Partition::k663 ? kLayouts663 : kLayouts78;
  const Cells goal = cells_of(canonical_goal<Board>(goal_blank, kShape4x4));
  for (int i = 0; i < 3; ++i) {
    const BaseLayout& layout = layouts[i];
    for (const Symmetry& s : symmetries(kShape4x4)) {
      if (s.cell_map[layout.goal_blank] != goal_blank) continue;
      // The layout's cell c is the goal's cell s(c), holding tile goal[s(c)].
      PatternSet set;
      set.goal_blank = goal_blank;
      for (int c = 0; c < kCells; ++c) {
        if (layout.cells[c] == '.') continue;
        const int g = layout.cells[c] - 'a';
        set.groups[g] = static_cast<TileMask>(set.groups[g] | (1u << goal[s.cell_map[c]]));
        set.group_count = std::max(set.group_count, g + 1);
      }
      return set;
    }
  }
  assert(false && "every cell is symmetric to cell 0, 1 or 5");
  return {};
}

PatternSet pattern_set(Shape shape, int goal_blank, int partition) {
  assert(is_pattern_shape(shape) && goal_blank >= 0 && goal_blank < shape.cells());
  if (shape == kShape4x4) return pattern_set(Partition::k663, goal_blank);
  // The cells in column order along the long side (down each column, the
  // columns left to right, on a wide board; along each row, the rows top to
  // bottom, on a tall one), skipping the goal's blank, cut into groups of
  // the sizes below: compact blocks across the board's short side, each
  // group's tiles near each other, as Korf and Felner's are.
  const std::span<const int> sizes = pattern_group_sizes(shape, partition);
  const bool wide = shape.cols >= shape.rows;
  const int along = wide ? shape.cols : shape.rows;
  const int across = wide ? shape.rows : shape.cols;
  PatternSet set;
  set.shape = shape;
  set.goal_blank = goal_blank;
  set.group_count = static_cast<int>(sizes.size());
  int g = 0;
  int taken = 0;
  for (int a = 0; a < along; ++a) {
    for (int b = 0; b < across; ++b) {
      const int cell = wide ? b * shape.cols + a : a * shape.cols + b;
      if (cell == goal_blank) continue;
      // The canonical goal's tile on `cell`: reading order around the blank.
      const int tile = cell < goal_blank ? cell + 1 : cell;
      set.groups[g] = static_cast<TileMask>(set.groups[g] | (1u << tile));
      if (++taken == sizes[static_cast<std::size_t>(g)]) {
        ++g;
        taken = 0;
      }
    }
  }
  assert(g == set.group_count && taken == 0);
  return set;
}

// 2x8's three partitions (the goal's blank on cell 0; its 15 tiles cut
// down each column, left to right): 6-6-3, cut inside columns 3 and 6;
// 4-6-5, inside 2 and 5; 2-6-6-1, inside 1, 4 and 7. A group's database
// counts no move of another group's tiles, and tiles that must pass each
// other across a cut cost moves no group sees; a cut of one partition is
// inside a group of the others, which see them. On the 30 seeded boards of
// bench/two_by_eight.sh (the standard goal, Rng(1)), IDA* nodes in all and
// on the hardest board: 6-6-3 alone past 5,000,000 on 7 boards (up to
// 116.8 million); the max of 6-6-3 and 3-6-6 28.6 M, 17.3 M; 3-6-6, 5-6-4
// and 1-6-6-2 (cuts between columns) 43.5 M with one board past 20 M;
// 6-6-3, 3-6-6 and 1-6-6-2 20.2 M, 11.8 M; these three 20.7 M, 6.9 M;
// 7-7-1 alone (57.7 MB a goal against these three's 14.7 MB) 31.4 M, 8.8 M.
// On 100 boards (bench/two_by_eight.sh --boards 100 --seed 20261203, no
// node limit): these three 194.1 M, 67.4 M (two boards past the attempt's
// 25 M); 7-7-1 alone 102.5 M, 48.8 M; 7-8 alone (kTwoByEightPartition78,
// 288 MB a goal, 5.5 minutes of one core to build) 1.59 M, 0.44 M: a file
// of its own, which a server builds (pattern_db.h).
int pattern_set_count(Shape shape) {
  assert(is_pattern_shape(shape));
  return shape.cells() == 16 && shape != kShape4x4 ? 3 : 1;
}

std::span<const int> pattern_group_sizes(Shape shape, int partition) {
  assert(is_pattern_shape(shape));
  assert((partition >= 0 && partition < pattern_set_count(shape)) ||
         (partition == kTwoByEightPartition78 && shape.cells() == 16 && shape != kShape4x4));
  static constexpr int k14[] = {5, 4, 4};      // 13 tiles: 2x7, 7x2
  static constexpr int k15[] = {5, 5, 4};      // 14 tiles: 3x5, 5x3
  static constexpr int k16[] = {6, 6, 3};      // 15 tiles: 4x4's count (its own layouts above)
  static constexpr int k16a[] = {6, 6, 3};     // 2x8, 8x2
  static constexpr int k16b[] = {4, 6, 5};     // 2x8, 8x2
  static constexpr int k16c[] = {2, 6, 6, 1};  // 2x8, 8x2
  static constexpr int k16d[] = {7, 8};        // 2x8, 8x2: kTwoByEightPartition78
  switch (shape.cells()) {
    case 14:
      return k14;
    case 15:
      return k15;
    default:
      if (shape == kShape4x4) return k16;
      switch (partition) {
        case 0:
          return k16a;
        case 1:
          return k16b;
        case 2:
          return k16c;
        default:
          return k16d;
      }
  }
}

SetSplit split_into_sets(std::span<const TileMask> groups) {
  SetSplit out;
  TileMask taken = 0;
  int size = 0;
  for (const TileMask g : groups) {
    if (out.sets == 0 || (taken & g) != 0) {
      ++out.sets;
      taken = 0;
      size = 0;
    }
    taken = static_cast<TileMask>(taken | g);
    out.largest = std::max(out.largest, ++size);
  }
  return out;
}

Status check_pattern_set(const PatternSet& set) {
  if (!is_pattern_shape(set.shape)) {
    return make_error(ErrorCode::kBadArgument, "pattern set: shape " + to_string(set.shape) +
                                                   " has no pattern databases (14 to 16 cells)");
  }
  const int n = set.shape.cells();
  if (set.goal_blank < 0 || set.goal_blank >= n) {
    return make_error(ErrorCode::kBadArgument,
                      "pattern set: goal blank cell " + std::to_string(set.goal_blank) +
                          " is not a cell (0 to " + std::to_string(n - 1) + ")");
  }
  if (set.group_count < 1 || set.group_count > kMaxGroups) {
    return make_error(ErrorCode::kBadArgument, "pattern set: " + std::to_string(set.group_count) +
                                                   " groups; a set has 1 to 4");
  }
  TileMask seen = 0;
  for (TileMask g : set.group_list()) {
    if (!is_group(g, set.shape)) {
      return make_error(ErrorCode::kBadArgument, "pattern set: group mask " + std::to_string(g) +
                                                     " is not 1 to 8 of the tiles 1 to " +
                                                     std::to_string(n - 1));
    }
    if ((seen & g) != 0) {
      return make_error(ErrorCode::kBadArgument,
                        "pattern set: groups overlap on tiles " + describe_group(seen & g));
    }
    seen = static_cast<TileMask>(seen | g);
  }
  return std::monostate{};
}
}  // namespace eight::fifteen
