// The breadth-first search over one section, shared by the generator (which
// writes what it finds) and the verifier (which checks a file against it):
// private to the core.
//
// A position is searched as a packed state, not a Board: the eight tiles in
// reading order (the blank skipped), three bits each (tile - 1) in bits
// 0..23, and the blank's cell in bits 24..27. A sideways move of the blank
// keeps the reading order, so its neighbour's rank is the rank plus or minus
// kTileOrders; a vertical move carries one tile over the two between, a
// rotation of three adjacent fields. Ranking the new order goes through two
// 4096-entry tables (OrderRanker), the whole search stays in the L1 and L2
// caches, and one section takes about two milliseconds.
//
// Thread safety: section_search() may run on several threads at once; the
// ranker's tables are built once, before first use, thread-safely.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <vector>

#include "eight/board.h"
#include "eight/goal.h"
#include "eight/rank.h"

namespace eight::detail {

// Lehmer rank of a packed 8-tile order in two lookups. A tile's Lehmer digit
// counts the smaller tiles after it; for each of the first four tiles that
// is (tile - 1) minus the smaller tiles before it, so those four digits
// depend on the first four tiles alone, and the last four digits on the last
// four alone: the rank is prefix[low 12 bits] + suffix[high 12 bits].
class OrderRanker {
 public:
  static const OrderRanker& get();
  std::uint32_t lehmer(std::uint32_t order) const {
    return prefix_[order & 0xFFF] + suffix_[(order >> 12) & 0xFFF];
  }
  // The dense rank (rank.h) of a packed state.
  std::uint32_t rank(std::uint32_t state) const {
    return (state >> 24) * kTileOrders + (lehmer(state & 0xFFFFFF) >> 1);
  }

 private:
  OrderRanker();
  std::array<std::uint32_t, 4096> prefix_{};
  std::array<std::uint32_t, 4096> suffix_{};
};

// The packed state of a valid board. REQUIRES: is_valid(b).
std::uint32_t pack_state(const Board& b);

// One neighbour of a state: the state after the blank's move `move`, and its
// rank.
struct Step {
  std::uint32_t state;
  std::uint32_t rank;
  Move move;
};

// The neighbours of `state` (rank `rank`), in move order (up, down, left,
// right); returns how many were written (2 to 4).
inline int neighbours(const OrderRanker& ranker, std::uint32_t state, std::uint32_t rank,
                      std::array<Step, 4>& out) {
  const std::uint32_t blank = state >> 24;
  const std::uint32_t order = state & 0xFFFFFF;
  int n = 0;
  if (blank >= 3) {  // up: the tile above (order index blank-3) drops to index blank-1
    const std::uint32_t at = 3 * (blank - 3);
    const std::uint32_t w = (order >> at) & 0x1FF;
    const std::uint32_t moved = (order & ~(0x1FFu << at)) | (((w >> 3) | ((w & 7) << 6)) << at);
    const std::uint32_t s = moved | (blank - 3) << 24;
    out[n++] = {s, ranker.rank(s), Move::kUp};
  }
  if (blank <= 5) {  // down: the tile below (order index blank+2) rises to index blank
    const std::uint32_t at = 3 * blank;
    const std::uint32_t w = (order >> at) & 0x1FF;
    const std::uint32_t moved = (order & ~(0x1FFu << at)) | ((((w << 3) & 0x1F8) | (w >> 6)) << at);
    const std::uint32_t s = moved | (blank + 3) << 24;
    out[n++] = {s, ranker.rank(s), Move::kDown};
  }
  if (blank % 3 != 0) out[n++] = {state - (1u << 24), rank - kTileOrders, Move::kLeft};
  if (blank % 3 != 2) out[n++] = {state + (1u << 24), rank + kTileOrders, Move::kRight};
  return n;
}

// A position as the search reaches it.
struct Reached {
  std::uint32_t state;
  std::uint32_t rank;
  std::uint8_t distance;
};

// Searches the section of canonical_goal(blank) breadth-first from its goal,
// reaching every position of the class exactly once, level by level, in a
// fixed order, so that the order, and whatever depends on it, is the same
// every run. Two callbacks:
//   discover(step, parent_rank, distance)  when a position is first found,
//       as the neighbour `step` of the position of rank `parent_rank`, at
//       `distance` (the goal is not discovered: it is where the search
//       starts, its own parent);
//   visit(reached, steps, count, distances)  when a position is expanded,
//       with its neighbours steps[0..count) and distances[r] = the distance
//       of every rank r found so far (every level before this one, some of
//       the next; kUnseen for the rest). visit returns false to stop.
// Returns false if visit stopped the search. Memory: a byte and a queued
// state per position, 0.9 MB. REQUIRES: 0 <= blank < kCells.
inline constexpr std::uint8_t kUnseen = 0xFF;

template <typename Discover, typename Visit>
bool section_search(int blank, Discover&& discover, Visit&& visit) {
  assert(blank >= 0 && blank < kCells);
  const OrderRanker& ranker = OrderRanker::get();
  std::vector<std::uint8_t> distances(kPositions, kUnseen);
  std::vector<std::uint32_t> queue;  // states, in the order found
  queue.reserve(kPositions);
  const std::uint32_t goal = pack_state(canonical_goal(blank));
  distances[ranker.rank(goal)] = 0;
  queue.push_back(goal);
  std::array<Step, 4> steps;
  std::size_t head = 0;
  for (std::uint8_t d = 0; head < queue.size(); ++d) {
    const auto next = static_cast<std::uint8_t>(d + 1);
    for (const std::size_t level_end = queue.size(); head < level_end; ++head) {
      const std::uint32_t state = queue[head];
      const std::uint32_t rank = ranker.rank(state);
      const int count = neighbours(ranker, state, rank, steps);
      if (!visit(Reached{state, rank, d}, steps, count, distances)) return false;
      for (int i = 0; i < count; ++i) {
        const Step& step = steps[static_cast<std::size_t>(i)];
        if (distances[step.rank] != kUnseen) continue;
        distances[step.rank] = next;
        discover(step, rank, next);
        queue.push_back(step.state);
      }
    }
  }
  return true;
}

// Ignores what it is given: for a search that needs only one of its callbacks.
struct Ignore {
  template <typename... Args>
  bool operator()(const Args&...) const {
    return true;
  }
};

}  // namespace eight::detail
