// The 5x5 pattern databases of pdb5x5.h: their generator (a breadth-first
// search over (placement, blank region), as generator.cpp's on at most 16
// cells, here on 25 cells with 32-bit masks and no region table: a table of
// every free-cell set would be 2^25 entries), the sets kept for the
// process, and the heuristic's lookups.
#include "pdb5x5.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

#include "regions.h"

namespace eight::grid {
namespace {

constexpr int kN = 25;
constexpr std::uint32_t kAll = (1u << kN) - 1;

// The fixed blocks of pdb5x5.h, a letter a cell.
constexpr char kBlocks[] =
    "AAABB"
    "AABBB"
    "CCDEE"
    "CCDEE"
    "CDDDE";

constexpr std::uint64_t placements(int k) {
  std::uint64_t p = 1;
  for (int i = 0; i < k; ++i) p *= static_cast<std::uint64_t>(kN - i);
  return p;
}

int distance(int a, int b) {
  return std::abs(a / 5 - b / 5) + std::abs(a % 5 - b % 5);
}

// The inverse of pdb5x5_rank().
void unrank(std::uint32_t r, std::uint8_t* cells, int k) {
  unsigned digits[6];
  for (int i = k - 1; i > 0; --i) {
    digits[i] = r % static_cast<std::uint32_t>(kN - i);
    r /= static_cast<std::uint32_t>(kN - i);
  }
  digits[0] = r;
  std::uint32_t used = 0;
  for (int i = 0; i < k; ++i) {
    // The digits[i]-th cell not used yet.
    std::uint32_t left = kAll & ~used;
    for (unsigned j = 0; j < digits[i]; ++j) left &= left - 1;
    const int c = std::countr_zero(left);
    cells[i] = static_cast<std::uint8_t>(c);
    used |= 1u << c;
  }
}

// Each free cell's region for every set of K occupied cells, numbered as
// regions.h numbers them (by lowest cell: the region holding the lowest
// free cell is 0): the free cells
// depend on which cells the group covers, not on which tile is where, so
// there are only C(25, K) of them (53,130 for 5 tiles; 1.4 MB), where a
// table over every free-cell mask (regions.h's) would be 2^25. The search
// reads a cell's region here instead of flood-filling, 4 to 5 times faster.
template <int K>
class RegionsOfSets {
 public:
  RegionsOfSets() {
    for (int n = 0; n <= kN; ++n) {
      for (int k = 0; k <= K; ++k) {
        choose_[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)] =
            k == 0   ? 1
            : n == 0 ? 0
                     : choose_[static_cast<std::size_t>(n - 1)][static_cast<std::size_t>(k - 1)] +
                           choose_[static_cast<std::size_t>(n - 1)][static_cast<std::size_t>(k)];
      }
    }
    labels_.resize(std::size_t{choose_[kN][K]} * kN);
    // Every K-cell set in increasing order (Gosper's hack).
    for (std::uint32_t occupied = (1u << K) - 1; occupied <= kAll;) {
      const std::uint32_t free = kAll & ~occupied;
      std::uint8_t* labels = &labels_[std::size_t{index(occupied)} * kN];
      std::uint32_t rest = free;
      for (std::uint8_t region = 0; rest != 0; ++region) {
        const std::uint32_t mask = fifteen::pdb::flood(std::countr_zero(rest), free, kShape5x5);
        rest &= ~mask;
        assert(region < 8);
        for (std::uint32_t m = mask; m != 0; m &= m - 1) labels[std::countr_zero(m)] = region;
      }
      const std::uint32_t low = occupied & -occupied;
      const std::uint32_t ripple = occupied + low;
      occupied = (((ripple ^ occupied) >> 2) / low) | ripple;
    }
  }

  // The regions of each cell (meaningful on free cells) of `occupied`.
  const std::uint8_t* labels(std::uint32_t occupied) const {
    return &labels_[std::size_t{index(occupied)} * kN];
  }

 private:
  // The colex rank of a K-cell set: the sum of C(c_i, i + 1), cells in
  // increasing order.
  std::uint32_t index(std::uint32_t occupied) const {
    std::uint32_t r = 0;
    for (int i = 0; occupied != 0; ++i, occupied &= occupied - 1) {
      r += choose_[static_cast<std::size_t>(std::countr_zero(occupied))]
                  [static_cast<std::size_t>(i + 1)];
    }
    return r;
  }

  std::array<std::array<std::uint32_t, K + 2>, kN + 1> choose_{};
  std::vector<std::uint8_t> labels_;
};

// Breadth-first search over (placement, blank region) of K tiles, layer by
// layer: a layer is a list of placements (each once), every region of a
// placement reached so far expanded again (generator.cpp says why that is
// sound). Memory: a byte of reached regions a placement, a bit a placement
// for "in the next layer", the half-byte result and the two layers' ranks:
// about 14 MB for 5 tiles.
template <int K>
class Generator {
 public:
  static constexpr std::uint64_t kPlacements = placements(K);

  Generator(int goal_blank, std::uint32_t group, const std::atomic<bool>* cancel)
      : goal_blank_(goal_blank), cancel_(cancel) {
    int i = 0;
    for (std::uint32_t g = group; g != 0; g &= g - 1) {
      home_[static_cast<std::size_t>(i++)] = static_cast<std::uint8_t>(std::countr_zero(g));
    }
    assert(i == K);
  }

  std::vector<std::uint8_t> run() {
    reached_.assign(kPlacements, 0);
    in_next_.assign((kPlacements + 63) / 64, 0);
    out_.assign((kPlacements + 1) / 2, 0);
    std::uint32_t occupied = 0;
    for (const std::uint8_t c : home_) occupied |= 1u << c;
    const std::uint32_t goal = pdb5x5_rank(home_.data(), K);
    reached_[goal] = static_cast<std::uint8_t>(1u << regions_.labels(occupied)[goal_blank_]);
    now_.push_back(goal);
    for (int depth = 0; !now_.empty(); ++depth) {
      if (cancelled()) return {};
      for (std::size_t i = 0; i < now_.size(); ++i) {
        if (i % 65536 == 0 && cancelled()) return {};
        expand(now_[i], depth);
      }
      now_.swap(next_);
      next_.clear();
      for (const std::uint32_t r : now_) in_next_[r / 64] &= ~(std::uint64_t{1} << (r % 64));
    }
    return std::move(out_);
  }

 private:
  bool cancelled() const { return cancel_ != nullptr && cancel_->load(std::memory_order_relaxed); }

  void expand(std::uint32_t rank, int depth) {
    std::array<std::uint8_t, K> cells;
    unrank(rank, cells.data(), K);
    std::uint32_t occupied = 0;
    for (const std::uint8_t c : cells) occupied |= 1u << c;
    const std::uint8_t* labels = regions_.labels(occupied);
    const std::uint8_t reached = reached_[rank];
    for (int i = 0; i < K; ++i) {
      const int from = cells[static_cast<std::size_t>(i)];
      for (const Move m : kAllMoves) {
        // Tile i slides onto a free cell `to` of a reached region, the
        // blank onto `from`.
        const int to = neighbor(kShape5x5, from, m);
        if (to < 0 || ((occupied >> to) & 1) || ((reached >> labels[to]) & 1) == 0) continue;
        std::array<std::uint8_t, K> child = cells;
        child[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(to);
        const std::uint32_t child_occupied = (occupied | (1u << to)) & ~(1u << from);
        reach(pdb5x5_rank(child.data(), K), regions_.labels(child_occupied)[from], child,
              depth + 1);
      }
    }
  }

  void reach(std::uint32_t rank, int region, const std::array<std::uint8_t, K>& cells, int depth) {
    assert(region < 8);
    std::uint8_t& r = reached_[rank];
    const auto bit = static_cast<std::uint8_t>(1u << region);
    if (r & bit) return;
    if (r == 0) {  // first reached: the fewest group moves
      int md = 0;
      for (int i = 0; i < K; ++i) {
        md += distance(cells[static_cast<std::size_t>(i)], home_[static_cast<std::size_t>(i)]);
      }
      assert(depth >= md && (depth - md) % 2 == 0);
      const int v = std::min(15, (depth - md) / 2);
      out_[rank / 2] |= static_cast<std::uint8_t>(v << (4 * (rank % 2)));
    }
    r |= bit;
    std::uint64_t& word = in_next_[rank / 64];
    const std::uint64_t b = std::uint64_t{1} << (rank % 64);
    if (word & b) return;
    word |= b;
    next_.push_back(rank);
  }

  int goal_blank_;
  const std::atomic<bool>* cancel_;
  RegionsOfSets<K> regions_;
  std::array<std::uint8_t, K> home_{};
  std::vector<std::uint8_t> reached_;
  std::vector<std::uint64_t> in_next_;
  std::vector<std::uint8_t> out_;
  std::vector<std::uint32_t> now_;
  std::vector<std::uint32_t> next_;
};

struct Slot {
  std::mutex build;  // held by the thread building the set
  std::atomic<const Pdb5x5Set*> built{nullptr};
  std::atomic<bool> starting{false};  // a background build was started
  Pdb5x5Set owned;                    // guarded by `build`
};

Slot& slot_of(int goal_blank) {
  static auto& slots = *new std::array<Slot, kN>();  // never freed
  return slots[static_cast<std::size_t>(goal_blank)];
}

}  // namespace

std::array<std::uint32_t, kPdb5x5Groups> pdb5x5_groups(int goal_blank) {
  assert(goal_blank >= 0 && goal_blank < kN);
  std::array<std::uint32_t, kPdb5x5Groups> groups{};
  for (int c = 0; c < kN; ++c) {
    if (c != goal_blank) groups[static_cast<std::size_t>(kBlocks[c] - 'A')] |= 1u << c;
  }
  return groups;
}

std::uint32_t pdb5x5_rank(const std::uint8_t* cells, int k) {
  assert(k >= 1 && k <= 6);
  std::uint32_t r = 0;
  std::uint32_t seen = 0;
  for (int i = 0; i < k; ++i) {
    const int c = cells[i];
    assert(c >= 0 && c < kN && ((seen >> c) & 1) == 0);
    r = r * static_cast<std::uint32_t>(kN - i) +
        static_cast<std::uint32_t>(c - std::popcount(seen & ((1u << c) - 1)));
    seen |= 1u << c;
  }
  return r;
}

std::vector<std::uint8_t> generate_pdb5x5(int goal_blank, std::uint32_t group,
                                          const std::atomic<bool>* cancel) {
  assert(goal_blank >= 0 && goal_blank < kN && (group & ~kAll) == 0 &&
         ((group >> goal_blank) & 1) == 0);
  switch (std::popcount(group)) {
    case 4:
      return Generator<4>(goal_blank, group, cancel).run();
    case 5:
      return Generator<5>(goal_blank, group, cancel).run();
    default:
      assert(false);
      return {};
  }
}

Pdb5x5Set generate_pdb5x5_set(int goal_blank, const std::atomic<bool>* cancel) {
  Pdb5x5Set set;
  set.goal_blank = goal_blank;
  set.groups = pdb5x5_groups(goal_blank);
  for (int g = 0; g < kPdb5x5Groups; ++g) {
    auto& bytes = set.bytes[static_cast<std::size_t>(g)];
    bytes = generate_pdb5x5(goal_blank, set.groups[static_cast<std::size_t>(g)], cancel);
    if (bytes.empty()) {
      for (auto& b : set.bytes) b.clear();
      return set;
    }
  }
  return set;
}

const Pdb5x5Set* pdb5x5_databases(int goal_blank, const std::atomic<bool>* cancel) {
  assert(goal_blank >= 0 && goal_blank < kN);
  Slot& slot = slot_of(goal_blank);
  if (const auto* set = slot.built.load(std::memory_order_acquire)) return set;
  std::lock_guard lock(slot.build);
  if (const auto* set = slot.built.load(std::memory_order_acquire)) return set;
  Pdb5x5Set set = generate_pdb5x5_set(goal_blank, cancel);
  if (set.bytes[0].empty()) return nullptr;  // cancelled
  slot.owned = std::move(set);
  slot.built.store(&slot.owned, std::memory_order_release);
  return &slot.owned;
}

const Pdb5x5Set* pdb5x5_databases_or_start(int goal_blank) {
  assert(goal_blank >= 0 && goal_blank < kN);
  Slot& slot = slot_of(goal_blank);
  if (const auto* set = slot.built.load(std::memory_order_acquire)) return set;
  if (!slot.starting.exchange(true)) {
    try {
      // Detached, as grid_search.cpp's builds: the slot lives as long as
      // the process.
      std::thread([goal_blank, &slot] {
        try {
          if (pdb5x5_databases(goal_blank) != nullptr) return;
        } catch (const std::exception&) {
          // Out of memory: nothing kept; a later caller tries again.
        }
        slot.starting.store(false);
      }).detach();
    } catch (const std::system_error&) {
      slot.starting.store(false);
    }
    return nullptr;
  }
  return slot.built.load(std::memory_order_acquire);
}

Pdb5x5Heuristic::Pdb5x5Heuristic(const Pdb5x5Set& set, const Pdb5x5Set& reflected,
                                 const GridBoard& goal) {
  assert(goal.shape == kShape5x5 && is_valid(goal));
  assert(set.goal_blank == blank_cell(goal) &&
         reflected.goal_blank == transposed_cell(blank_cell(goal)));
  sets_ = {&set, &reflected};
  for (int side = 0; side < 2; ++side) {
    group_of_[static_cast<std::size_t>(side)].fill(kNone);
    for (int g = 0; g < kPdb5x5Groups; ++g) {
      const std::uint32_t cells =
          sets_[static_cast<std::size_t>(side)]->groups[static_cast<std::size_t>(g)];
      // In goal-cell order on this side: the reflection's goal cell of the
      // tile whose goal cell is c is transposed_cell(c).
      for (std::uint32_t rest = cells; rest != 0; rest &= rest - 1) {
        const int c = std::countr_zero(rest);
        const int home = side == 0 ? c : transposed_cell(c);
        const std::uint8_t t = goal.cells[static_cast<std::size_t>(home)];
        auto& size = size_[static_cast<std::size_t>(side)][static_cast<std::size_t>(g)];
        group_of_[static_cast<std::size_t>(side)][t] = static_cast<std::uint8_t>(g);
        tiles_[static_cast<std::size_t>(side)][static_cast<std::size_t>(g)][size++] = t;
      }
    }
  }
}

int Pdb5x5Heuristic::lookup(int side, int g, const std::uint8_t* where) const {
  const auto s = static_cast<std::size_t>(side);
  const auto& tiles = tiles_[s][static_cast<std::size_t>(g)];
  const int k = size_[s][static_cast<std::size_t>(g)];
  std::uint8_t cells[5];
  for (int i = 0; i < k; ++i) {
    const int c = where[tiles[static_cast<std::size_t>(i)]];
    cells[i] = static_cast<std::uint8_t>(side == 0 ? c : transposed_cell(c));
  }
  const std::uint32_t r = pdb5x5_rank(cells, k);
  return (sets_[s]->bytes[static_cast<std::size_t>(g)][r >> 1] >> ((r & 1) << 2)) & 0xF;
}

Pdb5x5Heuristic::Entries Pdb5x5Heuristic::entries(const std::uint8_t* where) const {
  Entries e;
  for (int side = 0; side < 2; ++side) {
    for (int g = 0; g < kPdb5x5Groups; ++g) {
      const int v = lookup(side, g, where);
      e.entry[static_cast<std::size_t>(side * kPdb5x5Groups + g)] = static_cast<std::uint8_t>(v);
      (side == 0 ? e.sum : e.reflected_sum) += static_cast<std::uint8_t>(v);
    }
  }
  return e;
}

void Pdb5x5Heuristic::moved(Entries& e, std::uint8_t t, const std::uint8_t* where) const {
  for (int side = 0; side < 2; ++side) {
    const int g = group_of_[static_cast<std::size_t>(side)][t];
    if (g == kNone) continue;
    std::uint8_t& old = e.entry[static_cast<std::size_t>(side * kPdb5x5Groups + g)];
    const int v = lookup(side, g, where);
    std::uint8_t& sum = side == 0 ? e.sum : e.reflected_sum;
    sum = static_cast<std::uint8_t>(sum - old + v);
    old = static_cast<std::uint8_t>(v);
  }
}

int pdb5x5_value(const Pdb5x5Set& set, const Pdb5x5Set& reflected, const GridBoard& board,
                 const GridBoard& goal) {
  assert(board.shape == kShape5x5 && is_valid(board));
  const Pdb5x5Heuristic h(set, reflected, goal);
  std::array<std::uint8_t, kN> where{};
  std::array<std::uint8_t, kN> home{};
  for (int c = 0; c < kN; ++c) {
    where[board.cells[static_cast<std::size_t>(c)]] = static_cast<std::uint8_t>(c);
    home[goal.cells[static_cast<std::size_t>(c)]] = static_cast<std::uint8_t>(c);
  }
  int md = 0;
  for (int t = 1; t < kN; ++t)
    md += distance(where[static_cast<std::size_t>(t)], home[static_cast<std::size_t>(t)]);
  return md + 2 * h.entries(where.data()).extra();
}

}  // namespace eight::grid
