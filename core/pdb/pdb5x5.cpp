// The 5x5 pattern databases of pdb5x5.h: their generator (a breadth-first
// search over (placement, blank region), as generator.cpp's on at most 16
// cells, here on 25 cells with 32-bit masks and no region table: a table of
// every free-cell set would be 2^25 entries), the classes of goal blanks,
// and the heuristic's lookups.
#include "pdb5x5.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>

#include "eight/goal.h"
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

}  // namespace

std::array<std::uint32_t, kPdb5x5Groups> pdb5x5_groups(int goal_blank) {
  assert(goal_blank >= 0 && goal_blank < kN);
  std::array<std::uint32_t, kPdb5x5Groups> groups{};
  for (int c = 0; c < kN; ++c) {
    if (c != goal_blank) groups[static_cast<std::size_t>(kBlocks[c] - 'A')] |= 1u << c;
  }
  return groups;
}

std::uint32_t pdb5x5_group_tiles(int goal_blank, std::uint32_t cells) {
  assert(goal_blank >= 0 && goal_blank < kN && ((cells >> goal_blank) & 1) == 0);
  std::uint32_t tiles = 0;
  for (std::uint32_t rest = cells & kAll; rest != 0; rest &= rest - 1) {
    const int c = std::countr_zero(rest);
    tiles |= 1u << (c < goal_blank ? c + 1 : c);
  }
  return tiles;
}

std::uint32_t pdb5x5_group_cells(std::uint32_t tiles, int goal_blank) {
  assert(goal_blank >= 0 && goal_blank < kN && (tiles & 1) == 0 && (tiles >> kN) == 0);
  std::uint32_t cells = 0;
  for (std::uint32_t rest = tiles; rest != 0; rest &= rest - 1) {
    const int t = std::countr_zero(rest);
    cells |= 1u << (t <= goal_blank ? t - 1 : t);
  }
  return cells;
}

std::uint64_t pdb5x5_placements(int k) {
  assert(k >= 1 && k <= 6);
  return placements(k);
}

std::uint32_t pdb5x5_goal_rank(std::uint32_t tiles, int goal_blank) {
  assert(goal_blank >= 0 && goal_blank < kN && (tiles & 1) == 0 && (tiles >> kN) == 0);
  std::uint8_t cells[6];
  int k = 0;
  for (std::uint32_t rest = tiles; rest != 0 && k < 6; rest &= rest - 1) {
    const int t = std::countr_zero(rest);
    cells[k++] = static_cast<std::uint8_t>(t <= goal_blank ? t - 1 : t);
  }
  assert(k >= 1 && std::popcount(tiles) == k);
  return pdb5x5_rank(cells, k);
}

std::uint32_t pdb5x5_rank(const std::uint8_t* cells, int k) {
  assert(k >= 1 && k <= 6);
  // A cell's digit is its index less the earlier cells below it, counted
  // by comparing (at most five): std::popcount of a mask, without
  // -mpopcnt (not in the x86-64 baseline Debian builds for), is a libgcc
  // call, which was 8% of the 5x5 beam's time.
  std::uint32_t r = 0;
  for (int i = 0; i < k; ++i) {
    const int c = cells[i];
    int below = 0;
    for (int j = 0; j < i; ++j) {
      assert(cells[j] != c);
      below += cells[j] < c ? 1 : 0;
    }
    assert(c >= 0 && c < kN);
    r = r * static_cast<std::uint32_t>(kN - i) + static_cast<std::uint32_t>(c - below);
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

Pdb5x5View Pdb5x5Set::view() const {
  Pdb5x5View v;
  v.goal_blank = goal_blank;
  v.groups = groups;
  for (int g = 0; g < kPdb5x5Groups; ++g) {
    v.bytes[static_cast<std::size_t>(g)] = bytes[static_cast<std::size_t>(g)];
  }
  return v;
}

int pdb5x5_class_blank(int goal_blank) {
  assert(goal_blank >= 0 && goal_blank < kN);
  int lowest = goal_blank;
  for (const Symmetry& s : symmetries(kShape5x5)) {
    lowest = std::min<int>(lowest, s.cell_map[static_cast<std::size_t>(goal_blank)]);
  }
  return lowest;
}

Pdb5x5Heuristic::Pdb5x5Heuristic(const Pdb5x5View& set, const GridBoard& goal) : set_(&set) {
  assert(goal.shape == kShape5x5 && is_valid(goal));
  const int blank = blank_cell(goal);
  const int r = set.goal_blank;
  assert(r == pdb5x5_class_blank(blank));
  const auto& syms = symmetries(kShape5x5);
  // The first symmetry taking the stored blank r onto `to`.
  const auto taking_to = [&](int to) -> const Symmetry& {
    for (const Symmetry& s : syms) {
      if (s.cell_map[static_cast<std::size_t>(r)] == to) return s;
    }
    assert(false);  // r is in the class of `to` and of its transpose
    return syms[0];
  };
  const Symmetry& first = taking_to(blank);
  const Symmetry& reflected = taking_to(transposed_cell(blank));
  for (int side = 0; side < 2; ++side) {
    // to_goal[c]: the board's cell that the stored goal's cell c is seen on.
    std::array<std::uint8_t, kN> to_goal{};
    for (int c = 0; c < kN; ++c) {
      const auto i = static_cast<std::size_t>(c);
      to_goal[i] = side == 0 ? first.cell_map[i]
                             : static_cast<std::uint8_t>(transposed_cell(reflected.cell_map[i]));
      to_set_[static_cast<std::size_t>(side)][to_goal[i]] = static_cast<std::uint8_t>(c);
    }
    group_of_[static_cast<std::size_t>(side)].fill(kNone);
    for (int g = 0; g < kPdb5x5Groups; ++g) {
      // In the order of the stored goal's cells, as the entries are ranked.
      for (std::uint32_t rest = set.groups[static_cast<std::size_t>(g)]; rest != 0;
           rest &= rest - 1) {
        const int c = std::countr_zero(rest);
        const std::uint8_t t = goal.cells[to_goal[static_cast<std::size_t>(c)]];
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
  const auto& to_set = to_set_[s];
  const int k = size_[s][static_cast<std::size_t>(g)];
  std::uint8_t cells[5];
  for (int i = 0; i < k; ++i) cells[i] = to_set[where[tiles[static_cast<std::size_t>(i)]]];
  const std::uint32_t r = pdb5x5_rank(cells, k);
  return (set_->bytes[static_cast<std::size_t>(g)][r >> 1] >> ((r & 1) << 2)) & 0xF;
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

int pdb5x5_value(const Pdb5x5View& set, const GridBoard& board, const GridBoard& goal) {
  assert(board.shape == kShape5x5 && is_valid(board));
  const Pdb5x5Heuristic h(set, goal);
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
