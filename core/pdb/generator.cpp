// The pattern database generator of include/eight/pattern_db.h: a
// breadth-first search over (placement, blank region).
#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "atomic_ref.h"
#include "common/workers.h"
#include "eight/goal.h"
#include "eight/pattern_db.h"
#include "pdb/generator.h"
#include "rank/placement.h"
#include "regions.h"

namespace eight::fifteen {
namespace {

using pdb::kAllRegions;
using pdb::regions;
using pdb::RegionTable;

// Breadth-first search over (placement, blank region), layer by layer.
//
// Memory, per placement: `reached_` (a byte: which regions have a distance),
// a bit in each of two frontier bitsets (`now_`: placements with a region
// at the current depth, `next_`: at the next one), and the half-byte result.
// That is 1 + 1/8 + 1/8 + 1/2 = 1.75 bytes per placement, 908 MB for 8 tiles
// on 16 cells.
//
// A frontier placement has every reached region expanded again, not only
// those reached at the current depth: a region reached earlier at depth
// d - 2j only leads to states already reached (at depth <= d - 2j + 1), so
// this costs a little work and no correctness, and saves remembering which
// region is new. Every distance of a placement has the parity of its MD, so
// layer d and layer d + 1 never share a placement: the threads expanding
// layer d read bytes no thread writes during that layer.
//
// K tiles on a board of N cells (14, 15 or 16: constants, so that ranks
// divide by constants); the board's rows and columns are the shape's. N == 0
// reads the board's cells at run time instead: the WebAssembly module
// (kCellsAtRunTime) has that one generator for each K where the native build
// has three, for code a page seldom runs and downloads every time.
template <int K, int N>
class Generator {
 public:
  static constexpr int kMaxN = N > 0 ? N : detail::kPlacementCells;
  // Work is handed out in chunks of frontier words; a chunk covers a whole
  // number of result bytes and frontier words, so chunk boundaries split none.
  static constexpr std::uint64_t kChunkWords = 1 << 12;
  static constexpr std::uint64_t kCancelCheckWords = 64;

  Generator(Shape shape, int goal_blank, TileMask group, const PdbOptions& options,
            std::uint64_t progress_base, std::uint64_t progress_total)
      : cells_(shape.cells()),
        goal_blank_(goal_blank),
        cols_(shape.cols),
        neighbors_(kNeighborTables[shape.rows - 1u][shape.cols - 1u]),
        regions_(regions(shape)),
        options_(options),
        progress_base_(progress_base),
        progress_total_(progress_total) {
    assert((N == 0 || shape.cells() == N) && cell_count() <= kMaxN && regions_.max_regions() <= 8);
    // The rank's weight for each index, (n - 1 - i)!/(n - K)!, and a 0 for
    // "no group tile" at index K.
    for (int i = 0; i < K; ++i) weight_[i] = detail::placement_weight(i, K, cell_count());
    int i = 0;
    for (int t = 1; t < cell_count(); ++t) {
      // Tile t's home in the canonical goal: reading order around the blank.
      if ((group >> t) & 1) home_[i++] = static_cast<std::uint8_t>(t - 1 < goal_blank ? t - 1 : t);
    }
    assert(i == K);
    for (int a = 0; a < cell_count(); ++a) {
      for (int b = 0; b < cell_count(); ++b) {
        distance_[a][b] = static_cast<std::uint8_t>(std::abs(a / cols_ - b / cols_) +
                                                    std::abs(a % cols_ - b % cols_));
      }
    }
    threads_ = options.threads > 0 ? options.threads : static_cast<int>(available_cores());
    threads_ = std::clamp(threads_, 1, 64);
  }

  std::vector<std::uint8_t> run() {
    reached_.assign(placements(), 0);
    now_.assign(words(), 0);
    next_.assign(words(), 0);
    std::vector<std::uint8_t> out((placements() + 1) / 2, 0);
    out_ = out.data();

    // The goal: the group at home, the blank in the region of its goal cell.
    const std::uint32_t goal_rank = detail::placement_rank_of(home_.data(), K, cell_count());
    std::uint32_t occupied = 0;
    for (std::uint8_t c : home_) occupied |= 1u << c;
    const std::uint32_t free = ~occupied & all_cells();
    const RegionTable& table = regions_;
    reached_[goal_rank] = table.count(free) == 1
                              ? kAllRegions
                              : static_cast<std::uint8_t>(1u << table.region_of(free, goal_blank_));
    now_[goal_rank / 64] |= std::uint64_t{1} << (goal_rank % 64);
    done_.store(1);

    for (int depth = 0;; ++depth) {
      depth_ = depth;
      report();
      const std::uint64_t found = expand_frontier();
      if (cancelled_.load(std::memory_order_relaxed)) return {};
      if (found == 0) break;
      now_.swap(next_);
      std::fill(next_.begin(), next_.end(), 0);
    }
    report();
    // On 4x4 every placement of at most 8 tiles is reachable (8 or more free
    // cells let the group's tiles reorder freely). Elsewhere a placement the
    // search never reaches keeps the entry 0 (the group's MD), which only
    // underestimates.
    assert(cell_count() != 16 || cols_ != 4 || done_.load() == placements());
    assert(done_.load() <= placements());
    reached_ = {};
    now_ = {};
    next_ = {};
    return out;
  }

 private:
  // The board's cells, a constant unless N == 0, and what follows from it.
  int cell_count() const {
    if constexpr (N > 0) {
      return N;
    } else {
      return cells_;
    }
  }
  std::uint64_t placements() const { return detail::placement_count_of(K, cell_count()); }
  std::uint32_t all_cells() const { return (1u << cell_count()) - 1; }
  std::uint64_t words() const { return (placements() + 63) / 64; }

  void report() {
    if (!options_.progress) return;
    options_.progress(PdbProgress{progress_base_ + done_.load(std::memory_order_relaxed),
                                  progress_total_, depth_});
    last_report_ = std::chrono::steady_clock::now();
  }

  // True once options_.cancel has read true, on any thread.
  bool cancel_requested() {
    if (cancelled_.load(std::memory_order_relaxed)) return true;
    if (options_.cancel == nullptr || !options_.cancel->load(std::memory_order_relaxed))
      return false;
    cancelled_.store(true, std::memory_order_relaxed);
    return true;
  }

  // expand_layer<kShared>() with the threads there are. Where none can be
  // started (common/workers.h) the workers run in turn and share nothing,
  // so the shared variant is not compiled at all: the WebAssembly module
  // (js/) is downloaded by every page, and it was 29 KB of its 543 KB.
  std::uint64_t expand_frontier() {
    if constexpr (kHaveThreads) {
      if (threads_ > 1) return expand_layer<true>();
    }
    return expand_layer<false>();
  }

  // Expands every placement in `now_`; returns how many (placement, region)
  // states it reached for the first time.
  template <bool kShared>
  std::uint64_t expand_layer() {
    next_chunk_.store(0);
    std::atomic<std::uint64_t> found{0};
    const auto work = [this, &found](bool reporter) {
      Pipeline pipeline;
      for (;;) {
        const std::uint64_t chunk = next_chunk_.fetch_add(1);
        const std::uint64_t begin = chunk * kChunkWords;
        if (begin >= words()) break;
        const std::uint64_t end = std::min(words(), begin + kChunkWords);
        for (std::uint64_t w = begin; w < end; ++w) {
          // Every kCancelCheckWords words (at most 4,096 placements, well
          // under a millisecond): a cancelled build frees its thread at once.
          if (w % kCancelCheckWords == 0 && cancel_requested()) break;
          std::uint64_t bits = now_[w];
          while (bits != 0) {
            const int b = std::countr_zero(bits);
            bits &= bits - 1;
            expand<kShared>(static_cast<std::uint32_t>(w * 64 + b), pipeline);
          }
        }
        drain<kShared>(pipeline, 0);
        done_.fetch_add(pipeline.done, std::memory_order_relaxed);
        pipeline.done = 0;
        if (reporter && options_.progress &&
            std::chrono::steady_clock::now() - last_report_ > std::chrono::milliseconds(100)) {
          report();
        }
      }
      found.fetch_add(pipeline.found);
    };
    run_workers(static_cast<unsigned>(threads_), [&](unsigned t) { work(t == 0); });
    return found.load();
  }

  // The rank after tile i slides from x to its neighbour y, from the rank
  // before: sideways only digit i changes, by one; vertically the tile
  // passes the cols - 1 cells between, and each group tile there with a
  // lower index takes one off digit i's change of cols while each with a
  // higher index moves its own digit by one. `index_at[c]` is the index of
  // the tile on cell c, or K.
  std::uint32_t rank_after(std::uint32_t rank, const std::uint8_t* index_at, int i, int x,
                           int y) const {
    const std::int32_t w = weight_[i];
    const int step = y - x;
    if (step == 1) return rank + static_cast<std::uint32_t>(w);
    if (step == -1) return rank - static_cast<std::uint32_t>(w);
    const int low = step > 0 ? x : y;
    std::int32_t change = cols_ * w;
    for (int z = low + 1; z < low + cols_; ++z) {
      const int j = index_at[z];
      change += j < i ? -w : weight_[j];
    }
    return step > 0 ? rank + static_cast<std::uint32_t>(change)
                    : rank - static_cast<std::uint32_t>(change);
  }

  // A successor waiting to be visited: its rank (prefetched when queued),
  // free cells, the blank's cell in it and its group MD.
  struct Successor {
    std::uint32_t rank;
    std::uint16_t free;
    std::uint8_t blank;  // where the tile was
    std::uint8_t md;
  };

  // Successors are visited some 32 to 64 queueings after their reached byte
  // was prefetched: those bytes are scattered over up to 519 MB, and a
  // visit right after its prefetch would wait for the miss anyway. The queue
  // lets the misses of several placements overlap.
  struct Pipeline {
    static constexpr int kSize = 64;  // a power of two, at least 2 * 4 * K
    static constexpr int kLag = kSize - 4 * K;
    Successor queue[kSize];
    std::uint32_t head = 0;  // next to visit
    std::uint32_t tail = 0;  // next free slot
    std::uint64_t found = 0;
    std::uint64_t done = 0;
  };

  template <bool kShared>
  void drain(Pipeline& p, std::uint32_t keep) {
    const int depth = depth_ + 1;
    while (p.tail - p.head > keep) {
      const Successor& s = p.queue[p.head++ % Pipeline::kSize];
      visit<kShared>(s.rank, s.blank, s.free, s.md, depth, p.found, p.done);
    }
  }

  template <bool kShared>
  void expand(std::uint32_t rank, Pipeline& p) {
    std::uint8_t cells[K];
    detail::placement_unrank_of(rank, cells, K, cell_count());
    std::uint8_t index_at[kMaxN];
    std::memset(index_at, K, sizeof index_at);
    std::uint32_t occupied = 0;
    int md = 0;
    for (int i = 0; i < K; ++i) {
      occupied |= 1u << cells[i];
      index_at[cells[i]] = static_cast<std::uint8_t>(i);
      md += distance_[cells[i]][home_[i]];
    }
    const std::uint32_t free = ~occupied & all_cells();
    const std::uint8_t mine =
        detail::AtomicRef<std::uint8_t>(reached_[rank]).load(std::memory_order_relaxed);
    const RegionTable& table = regions_;
    drain<kShared>(p, Pipeline::kLag);  // room for this placement's successors
    for (int i = 0; i < K; ++i) {
      const int x = cells[i];
      for (int m = 0; m < 4; ++m) {
        const int y = neighbors_[x][m];
        // A group tile next to a reached region of the blank slides in.
        if (y < 0 || ((free >> y) & 1) == 0) continue;
        if (mine != kAllRegions && ((mine >> table.region_of(free, y)) & 1) == 0) continue;
        // Tile i slides from x into the blank's region at y; the blank is
        // left on x.
        const std::uint32_t r = rank_after(rank, index_at, i, x, y);
        assert((cells[i] = static_cast<std::uint8_t>(y),
                r == detail::placement_rank_of(cells, K, cell_count())) &&
               (cells[i] = static_cast<std::uint8_t>(x), true));
        __builtin_prefetch(&reached_[r]);
        p.queue[p.tail++ % Pipeline::kSize] = {
            r, static_cast<std::uint16_t>(free ^ (1u << x) ^ (1u << y)),
            static_cast<std::uint8_t>(x),
            static_cast<std::uint8_t>(md - distance_[x][home_[i]] + distance_[y][home_[i]])};
      }
    }
  }

  // The successor of rank `rank` with the blank on `blank` among `free`.
  template <bool kShared>
  void visit(std::uint32_t rank, int blank, std::uint32_t free, int md, int depth,
             std::uint64_t& found, std::uint64_t& done) {
    detail::AtomicRef<std::uint8_t> reached(reached_[rank]);
    const std::uint8_t seen = reached.load(std::memory_order_relaxed);
    if (seen == kAllRegions) return;
    const RegionTable& table = regions_;
    const int count = table.count(free);
    const std::uint8_t bit =
        count == 1 ? kAllRegions : static_cast<std::uint8_t>(1u << table.region_of(free, blank));
    if ((seen & bit) == bit) return;
    std::uint8_t before;
    if constexpr (kShared) {
      before = reached.fetch_or(bit, std::memory_order_relaxed);
      if ((before & bit) == bit) return;  // another thread got there first
    } else {
      before = seen;
      reached_[rank] = static_cast<std::uint8_t>(seen | bit);
    }
    const std::uint8_t after = static_cast<std::uint8_t>(before | bit);
    if (after != kAllRegions && detail::kBitCounts[after] == count) {
      if constexpr (kShared) {
        reached.fetch_or(kAllRegions, std::memory_order_relaxed);
      } else {
        reached_[rank] = kAllRegions;
      }
    }
    const std::uint64_t word_bit = std::uint64_t{1} << (rank % 64);
    if constexpr (kShared) {
      detail::AtomicRef<std::uint64_t>(next_[rank / 64])
          .fetch_or(word_bit, std::memory_order_relaxed);
    } else {
      next_[rank / 64] |= word_bit;
    }
    ++found;
    if (before != 0) return;  // the placement already has its (smaller) distance
    ++done;
    assert(depth >= md && (depth - md) % 2 == 0);
    const int v = std::min(kMaxEntry, (depth - md) / 2);
    if (v == 0) return;
    const auto nibble = static_cast<std::uint8_t>(v << (4 * (rank & 1)));
    if constexpr (kShared) {
      detail::AtomicRef<std::uint8_t>(out_[rank / 2]).fetch_or(nibble, std::memory_order_relaxed);
    } else {
      out_[rank / 2] |= nibble;
    }
  }

  const int cells_;
  const int goal_blank_;
  const int cols_;
  const std::array<std::array<std::int8_t, 4>, kMaxCells>& neighbors_;
  const RegionTable& regions_;
  std::array<std::array<std::uint8_t, kMaxN>, kMaxN> distance_{};
  std::array<std::int32_t, K + 1> weight_{};
  const PdbOptions& options_;
  const std::uint64_t progress_base_;
  const std::uint64_t progress_total_;
  std::array<std::uint8_t, K> home_{};
  int threads_ = 1;
  int depth_ = 0;
  std::vector<std::uint8_t> reached_;
  std::vector<std::uint64_t> now_;
  std::vector<std::uint64_t> next_;
  std::uint8_t* out_ = nullptr;
  std::atomic<std::uint64_t> next_chunk_{0};
  std::atomic<std::uint64_t> done_{0};
  std::atomic<bool> cancelled_{false};  // options_.cancel read true
  std::chrono::steady_clock::time_point last_report_{};
};

template <int K, int N>
std::vector<std::uint8_t> generate_k(Shape shape, int goal_blank, TileMask group,
                                     const PdbOptions& options, std::uint64_t progress_base,
                                     std::uint64_t progress_total) {
  return Generator<K, N>(shape, goal_blank, group, options, progress_base, progress_total).run();
}

using GenerateFn = std::vector<std::uint8_t> (*)(Shape, int, TileMask, const PdbOptions&,
                                                 std::uint64_t, std::uint64_t);
template <int N>
constexpr GenerateFn kGenerate[kMaxGroupSize + 1] = {
    nullptr,          generate_k<1, N>, generate_k<2, N>, generate_k<3, N>, generate_k<4, N>,
    generate_k<5, N>, generate_k<6, N>, generate_k<7, N>, generate_k<8, N>};

std::vector<std::uint8_t> generate(Shape shape, int goal_blank, TileMask group,
                                   const PdbOptions& options, std::uint64_t progress_base,
                                   std::uint64_t progress_total, bool cells_at_run_time) {
  const int k = group_size(group);
  if (cells_at_run_time) {
    return kGenerate<0>[k](shape, goal_blank, group, options, progress_base, progress_total);
  }
  switch (shape.cells()) {
    case 14:
      return kGenerate<14>[k](shape, goal_blank, group, options, progress_base, progress_total);
    case 15:
      return kGenerate<15>[k](shape, goal_blank, group, options, progress_base, progress_total);
    default:
      assert(shape.cells() == 16);
      return kGenerate<16>[k](shape, goal_blank, group, options, progress_base, progress_total);
  }
}

// Whether generate_pattern_db() and generate_pattern_set() read the board's
// cells at run time: in the WebAssembly module only (with a constant, the
// compiler leaves the other generators out), where the download counts for
// more than the generator's speed.
#if defined(__EMSCRIPTEN__)
constexpr bool kCellsAtRunTime = true;
#else
constexpr bool kCellsAtRunTime = false;
#endif

// One database, its progress counted from 0 to its own placements: what
// generate_pattern_db() and its run-time variant (generator.h) share.
std::vector<std::uint8_t> generate_one(Shape shape, int goal_blank, TileMask group,
                                       const PdbOptions& options, bool cells_at_run_time) {
  assert(is_pattern_shape(shape) && goal_blank >= 0 && goal_blank < shape.cells() &&
         is_group(group, shape));
  const std::uint64_t total = placement_count(group_size(group), shape.cells());
  return generate(shape, goal_blank, group, options, 0, total, cells_at_run_time);
}

}  // namespace

std::vector<std::uint8_t> generate_pattern_db(Shape shape, int goal_blank, TileMask group,
                                              const PdbOptions& options) {
  return generate_one(shape, goal_blank, group, options, kCellsAtRunTime);
}

std::vector<std::uint8_t> generate_pattern_db_cells_at_run_time(Shape shape, int goal_blank,
                                                                TileMask group,
                                                                const PdbOptions& options) {
  return generate_one(shape, goal_blank, group, options, true);
}

std::vector<std::uint8_t> generate_pattern_db(int goal_blank, TileMask group,
                                              const PdbOptions& options) {
  return generate_pattern_db(kShape4x4, goal_blank, group, options);
}

PatternDatabases generate_pattern_set(const PatternSet& set, const PdbOptions& options) {
  assert(check_pattern_set(set).ok());
  PatternDatabases dbs;
  dbs.set = set;
  const int n = set.shape.cells();
  std::uint64_t total = 0;
  for (TileMask g : set.group_list()) total += placement_count(group_size(g), n);
  std::uint64_t base = 0;
  for (TileMask g : set.group_list()) {
    dbs.bytes.push_back(
        generate(set.shape, set.goal_blank, g, options, base, total, kCellsAtRunTime));
    if (dbs.bytes.back().empty()) {  // cancelled
      dbs.bytes.clear();
      return dbs;
    }
    base += placement_count(group_size(g), n);
  }
  return dbs;
}
}  // namespace eight::fifteen
