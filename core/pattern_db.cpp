#include "eight/pattern_db.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <chrono>
#include <cstring>
#include <thread>

#include "eight/goal.h"
#include "rank/placement.h"

namespace eight::fifteen {
namespace {

// Cells as bits of a 16-bit mask; these are the left and right columns.
constexpr std::uint32_t kColumn0 = 0x1111;
constexpr std::uint32_t kColumn3 = 0x8888;
constexpr std::uint32_t kAllCells = 0xFFFF;

constexpr std::array<std::array<std::uint8_t, kCells>, kCells> make_distances() {
  std::array<std::array<std::uint8_t, kCells>, kCells> t{};
  for (int a = 0; a < kCells; ++a) {
    for (int b = 0; b < kCells; ++b) {
      const int dr = a / kSide - b / kSide;
      const int dc = a % kSide - b % kSide;
      t[a][b] = static_cast<std::uint8_t>((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc));
    }
  }
  return t;
}
constexpr auto kDistance = make_distances();

// The one move table's 4x4 slice (board.h), indexed [cell][move], for
// inner loops that know their shape.
constexpr const auto& kNeighbors = kNeighborTables[kSide - 1][kSide - 1];

// The free cells connected to `seed` (which must be free): grow by one step
// in every direction until nothing changes.
inline std::uint32_t flood(int seed, std::uint32_t free) {
  std::uint32_t region = 1u << seed;
  std::uint32_t before;
  do {
    before = region;
    region |=
        ((region << 1) & ~kColumn0) | ((region >> 1) & ~kColumn3) | (region << 4) | (region >> 4);
    region &= free;
  } while (region != before);
  return region;
}

// The blank's regions are numbered by their lowest cell: region 0 holds the
// lowest free cell, region 1 the lowest free cell outside region 0, and so
// on. A group of at most 8 tiles leaves at most 8 regions (checked over
// every set of at most 8 cells), so one byte per placement marks which of
// them the search has reached.
//
// Most placements split the free cells: 6 tiles leave 2.05 regions on
// average, 8 tiles 2.75. So for every set of free cells this table holds
// each cell's region number (a nibble per cell: 512 KB, L2-resident) and the
// region count (64 KB), and the search never flood-fills.
class RegionTable {
 public:
  RegionTable() {
    for (std::uint32_t free = 0; free <= kAllCells; ++free) {
      std::uint64_t labels = 0;
      int n = 0;
      for (std::uint32_t rest = free; rest != 0; ++n) {
        const std::uint32_t region = flood(std::countr_zero(rest), free);
        rest &= ~region;
        for (int c = 0; c < kCells; ++c) {
          if ((region >> c) & 1) labels |= static_cast<std::uint64_t>(n) << (4 * c);
        }
      }
      labels_[free] = labels;
      counts_[free] = static_cast<std::uint8_t>(n);
    }
  }
  // Requires `cell` in `free`.
  int region_of(std::uint32_t free, int cell) const {
    return static_cast<int>((labels_[free] >> (4 * cell)) & 0xF);
  }
  int count(std::uint32_t free) const { return counts_[free]; }

 private:
  std::array<std::uint64_t, kAllCells + 1> labels_{};
  std::array<std::uint8_t, kAllCells + 1> counts_{};
};

const RegionTable& regions() {
  static const RegionTable* const kTable = new RegionTable;  // never freed: 576 KB, once
  return *kTable;
}

// A placement whose regions have all been reached is marked 0xFF, so a
// reached byte says "done" in one comparison. (With 8 regions, all 8 bits
// set means the same thing anyway.)
constexpr std::uint8_t kAllRegions = 0xFF;

// Breadth-first search over (placement, blank region), layer by layer.
//
// Memory, per placement: `reached_` (a byte: which regions have a distance),
// a bit in each of two frontier bitsets (`now_`: placements with a region
// at the current depth, `next_`: at the next one), and the half-byte result.
// That is 1 + 1/8 + 1/8 + 1/2 = 1.75 bytes per placement, 908 MB for 8 tiles.
//
// A frontier placement has every reached region expanded again, not only
// those reached at the current depth: a region reached earlier at depth
// d - 2j only leads to states already reached (at depth <= d - 2j + 1), so
// this costs a little work and no correctness, and saves remembering which
// region is new. Every distance of a placement has the parity of its MD, so
// layer d and layer d + 1 never share a placement: the threads expanding
// layer d read bytes no thread writes during that layer.
template <int K>
class Generator {
 public:
  static constexpr std::uint64_t kPlacements = detail::placement_count_of(K);
  static constexpr std::uint64_t kWords = (kPlacements + 63) / 64;
  // Work is handed out in chunks of frontier words; a chunk covers a whole
  // number of result bytes and frontier words, so chunk boundaries split none.
  static constexpr std::uint64_t kChunkWords = 1 << 12;
  // The rank's weight for each index, (15 - i)!/(16 - K)!, and a 0 for
  // "no group tile" at index K.
  static constexpr std::array<std::int32_t, K + 1> kWeight = [] {
    std::array<std::int32_t, K + 1> w{};
    for (int i = 0; i < K; ++i) w[i] = detail::placement_weight(i, K);
    return w;
  }();

  Generator(int goal_blank, TileMask group, const PdbOptions& options, std::uint64_t progress_base,
            std::uint64_t progress_total)
      : goal_blank_(goal_blank),
        options_(options),
        progress_base_(progress_base),
        progress_total_(progress_total) {
    const Cells goal = canonical_goal(goal_blank, kShape4x4).cells;
    int i = 0;
    for (int t = 1; t < kCells; ++t) {
      if ((group >> t) & 1) {
        for (int c = 0; c < kCells; ++c) {
          if (goal[c] == t) home_[i] = static_cast<std::uint8_t>(c);
        }
        ++i;
      }
    }
    assert(i == K);
    threads_ = options.threads > 0 ? options.threads
                                   : static_cast<int>(std::thread::hardware_concurrency());
    threads_ = std::clamp(threads_, 1, 64);
  }

  std::vector<std::uint8_t> run() {
    reached_.assign(kPlacements, 0);
    now_.assign(kWords, 0);
    next_.assign(kWords, 0);
    std::vector<std::uint8_t> out(kPlacements / 2, 0);
    out_ = out.data();

    // The goal: the group at home, the blank in the region of its goal cell.
    const std::uint32_t goal_rank = detail::placement_rank_of(home_.data(), K);
    std::uint32_t occupied = 0;
    for (std::uint8_t c : home_) occupied |= 1u << c;
    const std::uint32_t free = ~occupied & kAllCells;
    const RegionTable& table = regions();
    reached_[goal_rank] = table.count(free) == 1
                              ? kAllRegions
                              : static_cast<std::uint8_t>(1u << table.region_of(free, goal_blank_));
    now_[goal_rank / 64] |= std::uint64_t{1} << (goal_rank % 64);
    done_.store(1);

    for (int depth = 0;; ++depth) {
      depth_ = depth;
      report();
      const std::uint64_t found = threads_ > 1 ? expand_layer<true>() : expand_layer<false>();
      if (found == 0) break;
      now_.swap(next_);
      std::fill(next_.begin(), next_.end(), 0);
    }
    report();
    // Every placement of at most 8 tiles is reachable (8 or more free cells
    // let the group's tiles reorder freely).
    assert(done_.load() == kPlacements);
    reached_ = {};
    now_ = {};
    next_ = {};
    return out;
  }

 private:
  void report() {
    if (!options_.progress) return;
    options_.progress(PdbProgress{progress_base_ + done_.load(std::memory_order_relaxed),
                                  progress_total_, depth_});
    last_report_ = std::chrono::steady_clock::now();
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
        if (begin >= kWords) break;
        const std::uint64_t end = std::min(kWords, begin + kChunkWords);
        for (std::uint64_t w = begin; w < end; ++w) {
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
    {
      std::vector<std::jthread> helpers;
      for (int t = 1; t < threads_; ++t) helpers.emplace_back(work, false);
      work(true);
    }
    return found.load();
  }

  // The rank after tile i slides from x to its neighbour y, from the rank
  // before: sideways only digit i changes, by one; vertically the tile
  // passes three cells, and each group tile there with a lower index takes
  // one off digit i's change of four while each with a higher index moves
  // its own digit by one. `index_at[c]` is the index of the tile on cell c,
  // or K.
  static std::uint32_t rank_after(std::uint32_t rank, const std::uint8_t* index_at, int i, int x,
                                  int y) {
    const std::int32_t w = kWeight[i];
    const int step = y - x;
    if (step == 1) return rank + static_cast<std::uint32_t>(w);
    if (step == -1) return rank - static_cast<std::uint32_t>(w);
    const int low = step > 0 ? x : y;
    std::int32_t change = 4 * w;
    for (int z = low + 1; z < low + kSide; ++z) {
      const int j = index_at[z];
      change += j < i ? -w : kWeight[j];
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
    detail::placement_unrank_of(rank, cells, K);
    std::uint8_t index_at[kCells];
    std::memset(index_at, K, sizeof index_at);
    std::uint32_t occupied = 0;
    int md = 0;
    for (int i = 0; i < K; ++i) {
      occupied |= 1u << cells[i];
      index_at[cells[i]] = static_cast<std::uint8_t>(i);
      md += kDistance[cells[i]][home_[i]];
    }
    const std::uint32_t free = ~occupied & kAllCells;
    const std::uint8_t mine =
        std::atomic_ref<std::uint8_t>(reached_[rank]).load(std::memory_order_relaxed);
    const RegionTable& table = regions();
    drain<kShared>(p, Pipeline::kLag);  // room for this placement's successors
    for (int i = 0; i < K; ++i) {
      const int x = cells[i];
      for (int m = 0; m < 4; ++m) {
        const int y = kNeighbors[x][m];
        // A group tile next to a reached region of the blank slides in.
        if (y < 0 || ((free >> y) & 1) == 0) continue;
        if (mine != kAllRegions && ((mine >> table.region_of(free, y)) & 1) == 0) continue;
        // Tile i slides from x into the blank's region at y; the blank is
        // left on x.
        const std::uint32_t r = rank_after(rank, index_at, i, x, y);
        assert((cells[i] = static_cast<std::uint8_t>(y), r == detail::placement_rank_of(cells, K)) &&
               (cells[i] = static_cast<std::uint8_t>(x), true));
        __builtin_prefetch(&reached_[r]);
        p.queue[p.tail++ % Pipeline::kSize] = {
            r, static_cast<std::uint16_t>(free ^ (1u << x) ^ (1u << y)),
            static_cast<std::uint8_t>(x),
            static_cast<std::uint8_t>(md - kDistance[x][home_[i]] + kDistance[y][home_[i]])};
      }
    }
  }

  // The successor of rank `rank` with the blank on `blank` among `free`.
  template <bool kShared>
  void visit(std::uint32_t rank, int blank, std::uint32_t free, int md, int depth,
             std::uint64_t& found, std::uint64_t& done) {
    std::atomic_ref<std::uint8_t> reached(reached_[rank]);
    const std::uint8_t seen = reached.load(std::memory_order_relaxed);
    if (seen == kAllRegions) return;
    const RegionTable& table = regions();
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
      std::atomic_ref<std::uint64_t>(next_[rank / 64])
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
      std::atomic_ref<std::uint8_t>(out_[rank / 2]).fetch_or(nibble, std::memory_order_relaxed);
    } else {
      out_[rank / 2] |= nibble;
    }
  }

  const int goal_blank_;
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
  std::chrono::steady_clock::time_point last_report_{};
};

template <int K>
std::vector<std::uint8_t> generate_k(int goal_blank, TileMask group, const PdbOptions& options,
                                     std::uint64_t progress_base, std::uint64_t progress_total) {
  return Generator<K>(goal_blank, group, options, progress_base, progress_total).run();
}

using GenerateFn = std::vector<std::uint8_t> (*)(int, TileMask, const PdbOptions&, std::uint64_t,
                                                 std::uint64_t);
constexpr GenerateFn kGenerate[kMaxGroupSize + 1] = {nullptr,       generate_k<1>, generate_k<2>,
                                                     generate_k<3>, generate_k<4>, generate_k<5>,
                                                     generate_k<6>, generate_k<7>, generate_k<8>};

std::vector<std::uint8_t> generate(int goal_blank, TileMask group, const PdbOptions& options,
                                   std::uint64_t progress_base, std::uint64_t progress_total) {
  return kGenerate[group_size(group)](goal_blank, group, options, progress_base, progress_total);
}

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

int group_size(TileMask group) {
  return std::popcount(static_cast<unsigned>(group));
}

bool is_group(TileMask group) {
  return (group & 1) == 0 && group != 0 && group_size(group) <= kMaxGroupSize;
}

std::uint64_t pattern_db_size(int k) {
  assert(k >= 1 && k <= kMaxGroupSize);
  return placement_count(k) / 2;
}

int cell_distance(int a, int b) {
  assert(a >= 0 && a < kCells && b >= 0 && b < kCells);
  return kDistance[a][b];
}

int manhattan_distance(const Board& b, int goal_blank) {
  assert(b.shape == kShape4x4 && is_valid(b));
  return group_manhattan(b.cells, static_cast<TileMask>(0xFFFE), goal_blank);
}

std::string describe_group(TileMask group) {
  std::string s = "{";
  for (int t = 1; t < kCells; ++t) {
    if ((group >> t) & 1) {
      if (s.size() > 1) s += ',';
      s += std::to_string(t);
    }
  }
  return s + "}";
}

std::uint32_t pattern_rank(const Board& b, TileMask group) {
  assert(b.shape == kShape4x4 && is_valid(b));
  return pattern_rank(b.cells, group);
}

int group_manhattan(const Board& b, TileMask group, int goal_blank) {
  assert(b.shape == kShape4x4 && is_valid(b));
  return group_manhattan(b.cells, group, goal_blank);
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

std::vector<std::uint8_t> generate_pattern_db(int goal_blank, TileMask group,
                                              const PdbOptions& options) {
  assert(goal_blank >= 0 && goal_blank < kCells && is_group(group));
  const std::uint64_t total = placement_count(group_size(group));
  return generate(goal_blank, group, options, 0, total);
}

Result<PatternDbView> PatternDbView::open(std::span<const std::uint8_t> bytes, int goal_blank,
                                          TileMask group) {
  if (goal_blank < 0 || goal_blank >= kCells) {
    return make_error(ErrorCode::kBadArgument, "pattern database: goal blank cell " +
                                                   std::to_string(goal_blank) +
                                                   " is not a cell (0 to 15)");
  }
  if (!is_group(group)) {
    return make_error(ErrorCode::kBadArgument, "pattern database: group mask " +
                                                   std::to_string(group) +
                                                   " is not 1 to 8 of the tiles 1 to 15");
  }
  const int k = fifteen::group_size(group);
  if (bytes.size() != pattern_db_size(k)) {
    return make_error(ErrorCode::kTruncated,
                      "pattern database for tiles " + describe_group(group) + " is " +
                          std::to_string(bytes.size()) + " bytes; a " + std::to_string(k) +
                          "-tile database is exactly " + std::to_string(pattern_db_size(k)));
  }
  PatternDbView v;
  v.bytes_ = bytes;
  v.goal_blank_ = goal_blank;
  v.group_ = group;
  v.k_ = k;
  const std::uint32_t goal_rank = pattern_rank(canonical_goal(goal_blank, kShape4x4).cells, group);
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

std::string_view partition_name(Partition p) {
  return p == Partition::k663 ? "6-6-3" : "7-8";
}

PatternSet pattern_set(Partition p, int goal_blank) {
  assert(goal_blank >= 0 && goal_blank < kCells);
  const BaseLayout* layouts = p == Partition::k663 ? kLayouts663 : kLayouts78;
  const Cells goal = canonical_goal(goal_blank, kShape4x4).cells;
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

Status check_pattern_set(const PatternSet& set) {
  if (set.goal_blank < 0 || set.goal_blank >= kCells) {
    return make_error(ErrorCode::kBadArgument, "pattern set: goal blank cell " +
                                                   std::to_string(set.goal_blank) +
                                                   " is not a cell (0 to 15)");
  }
  if (set.group_count < 1 || set.group_count > kMaxGroups) {
    return make_error(ErrorCode::kBadArgument, "pattern set: " + std::to_string(set.group_count) +
                                                   " groups; a set has 1 to 4");
  }
  TileMask seen = 0;
  for (TileMask g : set.group_list()) {
    if (!is_group(g)) {
      return make_error(ErrorCode::kBadArgument, "pattern set: group mask " + std::to_string(g) +
                                                     " is not 1 to 8 of the tiles 1 to 15");
    }
    if ((seen & g) != 0) {
      return make_error(ErrorCode::kBadArgument,
                        "pattern set: groups overlap on tiles " + describe_group(seen & g));
    }
    seen = static_cast<TileMask>(seen | g);
  }
  return std::monostate{};
}

std::vector<PatternDbView> PatternDatabases::views() const {
  std::vector<PatternDbView> out;
  for (int g = 0; g < set.group_count; ++g) {
    auto v = PatternDbView::open(bytes[g], set.goal_blank, set.groups[g]);
    assert(v.ok());
    out.push_back(*v);
  }
  return out;
}

PatternDatabases generate_pattern_set(const PatternSet& set, const PdbOptions& options) {
  assert(check_pattern_set(set).ok());
  PatternDatabases dbs;
  dbs.set = set;
  std::uint64_t total = 0;
  for (TileMask g : set.group_list()) total += placement_count(group_size(g));
  std::uint64_t base = 0;
  for (TileMask g : set.group_list()) {
    dbs.bytes.push_back(generate(set.goal_blank, g, options, base, total));
    base += placement_count(group_size(g));
  }
  return dbs;
}

}  // namespace eight::fifteen
