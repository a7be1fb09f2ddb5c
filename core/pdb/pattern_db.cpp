// Groups, their ranks and Manhattan distances, and the read-only view over
// a pattern database's bytes (include/eight/pattern_db.h).
#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>

#include "eight/pattern_db.h"
#include "geometry.h"
#include "rank/placement.h"

namespace eight::fifteen {

using pdb::kDistance;

int group_size(TileMask group) {
  return std::popcount(static_cast<unsigned>(group));
}

bool is_group(TileMask group) {
  return (group & 1) == 0 && group != 0 && group_size(group) <= kMaxGroupSize;
}

bool is_group(TileMask group, Shape shape) {
  return is_pattern_shape(shape) && is_group(group) && (group >> shape.cells()) == 0;
}

std::uint64_t pattern_db_size(int k, int n) {
  assert(k >= 1 && k <= kMaxGroupSize && k <= n && n <= kCells);
  return (placement_count(k, n) + 1) / 2;
}

int cell_distance(int a, int b) {
  assert(a >= 0 && a < kCells && b >= 0 && b < kCells);
  return kDistance[a][b];
}

int manhattan_distance(const Board& b, int goal_blank) {
  assert(b.shape == kShape4x4 && is_valid(b));
  return group_manhattan(cells_of(b), static_cast<TileMask>(0xFFFE), goal_blank);
}

std::string describe_group(std::uint32_t group) {
  std::string s = "{";
  for (int t = 1; t < 32; ++t) {  // a 5x5 group's tiles too (up to 24)
    if ((group >> t) & 1) {
      if (s.size() > 1) s += ',';
      s += std::to_string(t);
    }
  }
  return s + "}";
}

std::uint32_t pattern_rank(const Board& b, TileMask group) {
  assert(is_pattern_shape(b.shape) && is_valid(b) && is_group(group, b.shape));
  const int n = b.shape.cells();
  std::array<std::uint8_t, kCells> cell_of{};
  for (int c = 0; c < n; ++c) cell_of[b.cells[c]] = static_cast<std::uint8_t>(c);
  std::uint8_t cells[kMaxGroupSize];
  int k = 0;
  for (int t = 1; t < n; ++t) {
    if ((group >> t) & 1) cells[k++] = cell_of[t];
  }
  return detail::placement_rank_of(cells, k, n);
}

int group_manhattan(const Board& b, TileMask group, int goal_blank) {
  assert(is_pattern_shape(b.shape) && is_valid(b) && is_group(group, b.shape));
  const int cols = b.shape.cols;
  int sum = 0;
  for (int c = 0; c < b.shape.cells(); ++c) {
    const int t = b.cells[c];
    if (t == 0 || ((group >> t) & 1) == 0) continue;
    const int home = t - 1 < goal_blank ? t - 1 : t;
    sum += std::abs(c / cols - home / cols) + std::abs(c % cols - home % cols);
  }
  return sum;
}

std::uint32_t pattern_rank(const Cells& b, TileMask group) {
  assert(is_group(group));
  std::array<std::uint8_t, kCells> cell_of{};
  for (int c = 0; c < kCells; ++c) cell_of[b[c]] = static_cast<std::uint8_t>(c);
  std::uint8_t cells[kMaxGroupSize];
  std::size_t k = 0;
  for (int t = 1; t < kCells; ++t) {
    if ((group >> t) & 1) cells[k++] = cell_of[t];
  }
  return placement_rank({cells, k});
}

int group_manhattan(const Cells& b, TileMask group, int goal_blank) {
  int sum = 0;
  for (int c = 0; c < kCells; ++c) {
    const int t = b[c];
    if (t == 0 || ((group >> t) & 1) == 0) continue;
    const int home = t - 1 < goal_blank ? t - 1 : t;
    sum += kDistance[c][home];
  }
  return sum;
}

Result<PatternDbView> PatternDbView::open(std::span<const std::uint8_t> bytes, Shape shape,
                                          int goal_blank, TileMask group) {
  if (!is_pattern_shape(shape)) {
    return make_error(ErrorCode::kBadArgument, "pattern database: shape " + to_string(shape) +
                                                   " has no pattern databases (14 to 16 cells)");
  }
  const int n = shape.cells();
  if (goal_blank < 0 || goal_blank >= n) {
    return make_error(ErrorCode::kBadArgument,
                      "pattern database: goal blank cell " + std::to_string(goal_blank) +
                          " is not a cell (0 to " + std::to_string(n - 1) + ")");
  }
  if (!is_group(group, shape)) {
    return make_error(ErrorCode::kBadArgument,
                      "pattern database: group mask " + std::to_string(group) +
                          " is not 1 to 8 of the tiles 1 to " + std::to_string(n - 1));
  }
  const int k = fifteen::group_size(group);
  if (bytes.size() != pattern_db_size(k, n)) {
    return make_error(ErrorCode::kTruncated,
                      "pattern database for tiles " + describe_group(group) + " is " +
                          std::to_string(bytes.size()) + " bytes; a " + std::to_string(k) +
                          "-tile database of " + to_string(shape) + " is exactly " +
                          std::to_string(pattern_db_size(k, n)));
  }
  PatternDbView v;
  v.bytes_ = bytes;
  v.shape_ = shape;
  v.goal_blank_ = goal_blank;
  v.group_ = group;
  v.k_ = k;
  const std::uint32_t goal_rank = pattern_rank(canonical_goal<Board>(goal_blank, shape), group);
  if (v.entry(goal_rank) != 0) {
    return make_error(ErrorCode::kBadEntry, "pattern database for tiles " + describe_group(group) +
                                                ": the goal's placement (rank " +
                                                std::to_string(goal_rank) + ") holds " +
                                                std::to_string(v.entry(goal_rank)) + ", not 0");
  }
  return v;
}

int PatternDbView::value(const Board& b) const {
  return group_manhattan(b, group_, goal_blank_) + 2 * entry(pattern_rank(b, group_));
}

std::vector<PatternDbView> PatternDatabases::views() const {
  std::vector<PatternDbView> out;
  for (int g = 0; g < set.group_count; ++g) {
    auto v = PatternDbView::open(bytes[g], set.shape, set.goal_blank, set.groups[g]);
    assert(v.ok());
    out.push_back(*v);
  }
  return out;
}

PatternSetView PatternDatabases::view() const {
  assert(static_cast<int>(bytes.size()) == set.group_count);
  PatternSetView out;
  out.set = set;
  const auto all = views();
  std::copy(all.begin(), all.end(), out.dbs.begin());
  return out;
}

}  // namespace eight::fifteen
