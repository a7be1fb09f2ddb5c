#include "mod3_search.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>

#include "atomic_ref.h"
#include "common/workers.h"
#include "eight/any_rank.h"
#include "rank/kernel.h"

namespace eight::detail {
namespace {

// Frontier words a worker takes at a time: small enough that two workers
// finish a level together, large enough that taking one costs nothing.
constexpr std::size_t kChunkWords = 1024;
// Neighbours prefetched before any is looked at: their table bytes and
// frontier words are as good as random in 60 MB and 30 MB, so the search
// is bound by memory latency unless many misses are in flight at once.
constexpr int kBatch = 32;

// One worker's share of expanding a level: every position whose bit is set
// in `cur`, in the chunks it takes; its unseen neighbours get `value` in
// the table and their bit in `next`. Returns how many it was first to set.
template <typename K>
std::uint64_t expand(const std::uint64_t* cur, std::uint64_t* next, std::uint8_t* table, int cls,
                     unsigned value, std::atomic<std::size_t>& next_chunk) {
  constexpr std::size_t kWords = (K::kPositions + 63) / 64;
  std::uint64_t found = 0;
  std::uint32_t batch[kBatch];
  int pending = 0;
  const auto settle = [&] {
    for (int i = 0; i < pending; ++i) {
      const std::uint32_t q = batch[i];
      detail::AtomicRef<std::uint8_t> byte(table[q >> 2]);
      const unsigned shift = 2 * (q & 3);
      if (((byte.load(std::memory_order_relaxed) >> shift) & 3) != 3) continue;
      // From 0b11 to `value`: clear the bits `value` does not have.
      const auto clear = static_cast<std::uint8_t>((~value & 3) << shift);
      const std::uint8_t old =
          byte.fetch_and(static_cast<std::uint8_t>(~clear), std::memory_order_relaxed);
      if (((old >> shift) & 3) != 3) continue;  // another worker was first
      ++found;
      detail::AtomicRef<std::uint64_t>(next[q >> 6])
          .fetch_or(std::uint64_t{1} << (q & 63), std::memory_order_relaxed);
    }
    pending = 0;
  };
  const auto push = [&](std::uint32_t q) {
    __builtin_prefetch(&table[q >> 2], 1);
    __builtin_prefetch(&next[q >> 6], 1);
    batch[pending++] = q;
  };
  for (;;) {
    const std::size_t first = next_chunk.fetch_add(1, std::memory_order_relaxed) * kChunkWords;
    if (first >= kWords) break;
    const std::size_t last = std::min(first + kChunkWords, kWords);
    for (std::size_t w = first; w < last; ++w) {
      for (std::uint64_t bits = cur[w]; bits != 0; bits &= bits - 1) {
        const auto r = static_cast<std::uint32_t>(w * 64 + std::countr_zero(bits));
        int blank = 0;
        const std::uint64_t order = K::unrank(r, cls, blank);
        const unsigned legal = K::kLegal[blank];
        if (pending > kBatch - 4) settle();
        // A vertical move changes the order (rank/kernel.h); a sideways
        // one keeps it, so it is the rank one blank cell on.
        if (legal & 1) push(K::rank(blank - K::kCols, K::order_up(order, blank)));
        if (legal & 2) push(K::rank(blank + K::kCols, K::order_down(order, blank)));
        if (legal & 4) push(r - K::kOrders);
        if (legal & 8) push(r + K::kOrders);
      }
    }
  }
  settle();
  return found;
}

template <typename K>
Mod3Section search(int blank, const Mod3Options& options) {
  constexpr std::uint32_t kPositions = K::kPositions;
  constexpr std::size_t kWords = (kPositions + 63) / 64;
  static_assert(kPositions % 4 == 0, "no table byte is shared with what is not a position");
  Mod3Section out;
  out.cls = board_class(canonical_goal(blank, K::kShape));
  // The canonical goal's order is the tiles ascending: value i at index i.
  std::uint64_t identity = 0;
  for (int i = 0; i < K::kM; ++i) identity |= static_cast<std::uint64_t>(i) << (4 * i);
  out.goal_rank = K::rank(blank, identity);
  out.table.assign(kPositions / 4, 0xFF);
  std::vector<std::uint64_t> cur(kWords, 0), next(kWords, 0);
  const std::uint32_t goal = out.goal_rank;
  out.table[goal >> 2] &= static_cast<std::uint8_t>(~(3u << (2 * (goal & 3))));
  cur[goal >> 6] |= std::uint64_t{1} << (goal & 63);
  out.histogram.push_back(1);
  std::uint64_t found_so_far = 1;
  if (options.progress) options.progress(0, found_so_far);
  const unsigned workers = options.workers != 0 ? options.workers : available_cores();
  std::vector<std::uint64_t> found(workers);
  for (int d = 0;; ++d) {
    const auto value = static_cast<unsigned>((d + 1) % 3);
    std::atomic<std::size_t> next_chunk{0};
    const auto work = [&](unsigned w) {
      found[w] = expand<K>(cur.data(), next.data(), out.table.data(), out.cls, value, next_chunk);
    };
    run_workers(workers, work);
    std::uint64_t level = 0;
    for (const std::uint64_t f : found) level += f;
    if (level == 0) break;  // `cur` is the farthest level
    out.histogram.push_back(level);
    found_so_far += level;
    cur.swap(next);
    std::fill(next.begin(), next.end(), 0);
    if (options.progress) options.progress(d + 1, found_so_far);
  }
  assert(found_so_far == kPositions);
  for (std::size_t w = 0; w < kWords; ++w) {
    for (std::uint64_t bits = cur[w]; bits != 0; bits &= bits - 1) {
      out.farthest.push_back(static_cast<std::uint32_t>(w * 64 + std::countr_zero(bits)));
    }
  }
  return out;
}

}  // namespace

Mod3Section mod3_search(Shape s, int blank, const Mod3Options& options) {
  assert(is_table_shape(s) && blank >= 0 && blank < s.cells());
  return with_kernel(s, [&](auto k) { return search<decltype(k)>(blank, options); });
}

}  // namespace eight::detail
