#include "eight/descent.h"

#include <algorithm>
#include <string>

#include "eight/any_rank.h"
#include "rank/kernel.h"

namespace eight {
namespace {

Error corrupt(Shape s, const std::string& what) {
  return make_error(ErrorCode::kBadEntry,
                    "the " + to_string(s) + " mod-3 table is corrupt: " + what);
}

// The longest walk worth reserving for: 80 moves is the most any table
// shape needs (2x6, 6x2).
constexpr int kReserveMoves = 80;

template <typename K>
Result<DescentPath> walk(std::span<const std::uint8_t> table, int max_distance,
                         std::uint32_t goal_rank, std::span<const std::uint8_t> cells) {
  if (table.size() != K::kPositions / 4) {
    return corrupt(K::kShape, "it has " + std::to_string(table.size()) + " bytes, not " +
                                  std::to_string(K::kPositions / 4));
  }
  if (goal_rank >= K::kPositions || goal_rank % K::kOrders != 0) {
    return corrupt(K::kShape, "goal rank " + std::to_string(goal_rank) + " is no canonical goal");
  }
  if (max_distance < 0) return corrupt(K::kShape, "negative max distance");
  const int section_class = board_class(canonical_goal(static_cast<int>(goal_rank / K::kOrders), K::kShape));
  int blank = 0;
  std::uint64_t order = K::pack(cells.data(), blank);
  int cls = 0;
  std::uint32_t r = K::rank(blank, order, &cls);
  if (cls != section_class) {
    return make_error(ErrorCode::kBadArgument,
                      "the position is not in the class of the section's goal, so it cannot "
                      "reach it");
  }
  // The table's size was checked above, so every rank below kPositions
  // reads inside it.
  const auto value_of = [&](std::uint32_t q) { return (table[q >> 2] >> (2 * (q & 3))) & 3u; };
  unsigned value = value_of(r);
  if (value == 3) return corrupt(K::kShape, "a position has no distance");
  DescentPath path;
  path.moves.reserve(static_cast<std::size_t>(std::min(max_distance, kReserveMoves)));
  while (r != goal_rank) {
    if (path.distance >= max_distance) {
      return corrupt(K::kShape,
                     "descent took more than the max distance, " + std::to_string(max_distance));
    }
    const unsigned want = (value + 2) % 3;
    const unsigned legal = K::kLegal[blank];
    // Every neighbour's rank first, and its byte prefetched, so the (as
    // good as random) reads of a 60 MB table overlap.
    std::uint32_t next[4] = {r, r, r - K::kOrders, r + K::kOrders};
    std::uint64_t orders[2] = {order, order};
    if (legal & 1) {
      orders[0] = K::order_up(order, blank);
      next[0] = K::rank(blank - K::kCols, orders[0]);
    }
    if (legal & 2) {
      orders[1] = K::order_down(order, blank);
      next[1] = K::rank(blank + K::kCols, orders[1]);
    }
    for (int m = 0; m < 4; ++m) {
      if (legal >> m & 1) __builtin_prefetch(&table[next[m] >> 2]);
    }
    int taken = -1;
    for (int m = 0; m < 4; ++m) {
      if ((legal >> m & 1) != 0 && value_of(next[m]) == want) {
        taken = m;
        break;
      }
    }
    if (taken < 0) return corrupt(K::kShape, "a position has no neighbour one move closer");
    if (taken < 2) order = orders[taken];
    blank += move_step(K::kCols, static_cast<Move>(taken));
    r = next[taken];
    value = want;
    path.moves.push_back(static_cast<Move>(taken));
    ++path.distance;
  }
  if (value != 0) return corrupt(K::kShape, "the goal's distance is not 0");
  return path;
}

}  // namespace

Result<DescentPath> descend(Shape s, std::span<const std::uint8_t> table, int max_distance,
                            std::uint32_t goal_rank, std::span<const std::uint8_t> cells) {
  assert(is_table_shape(s) && is_valid_cells(s, cells));
  return detail::with_kernel(
      s, [&](auto k) { return walk<decltype(k)>(table, max_distance, goal_rank, cells); });
}

}  // namespace eight
