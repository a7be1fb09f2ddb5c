#include "full_search.h"

#include <cassert>

#include "eight/any_rank.h"
#include "rank/kernel.h"

namespace eight::detail {
namespace {

template <typename K>
std::vector<FullEntry> search(int blank) {
  const int cls = board_class(canonical_goal(blank, K::kShape));
  std::uint64_t identity = 0;  // the canonical goal's order
  for (int i = 0; i < K::kM; ++i) identity |= static_cast<std::uint64_t>(i) << (4 * i);
  const std::uint32_t goal = K::rank(blank, identity);
  std::vector<FullEntry> entries(K::kPositions);
  std::vector<std::uint8_t> seen(K::kPositions, 0);
  std::vector<std::uint32_t> queue;
  queue.reserve(K::kPositions);
  entries[goal] = {goal, Move::kUp, 0};
  seen[goal] = 1;
  queue.push_back(goal);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::uint32_t r = queue[head];
    int b = 0;
    const std::uint64_t order = K::unrank(r, cls, b);
    const unsigned legal = K::kLegal[b];
    const std::uint32_t next[4] = {(legal & 1) ? K::rank(b - K::kCols, K::order_up(order, b)) : r,
                                   (legal & 2) ? K::rank(b + K::kCols, K::order_down(order, b)) : r,
                                   r - K::kOrders, r + K::kOrders};
    for (int m = 0; m < 4; ++m) {
      if ((legal >> m & 1) == 0) continue;
      const std::uint32_t n = next[m];
      if (seen[n] != 0) continue;
      seen[n] = 1;
      entries[n] = {r, opposite(static_cast<Move>(m)),
                    static_cast<std::uint8_t>(entries[r].distance + 1)};
      queue.push_back(n);
    }
  }
  assert(queue.size() == K::kPositions);
  return entries;
}

}  // namespace

std::vector<FullEntry> full_section_search(Shape s, int blank) {
  assert(is_table_shape(s) && s.cells() <= 10 && blank >= 0 && blank < s.cells());
  return with_kernel(s, [&](auto k) -> std::vector<FullEntry> {
    using K = decltype(k);
    if constexpr (K::kN > 10) {
      return {};  // ruled out by the REQUIRES; not instantiated for 12 cells
    } else {
      return search<K>(blank);
    }
  });
}

}  // namespace eight::detail
