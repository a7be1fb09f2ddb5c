#include "beam_search.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <optional>

#include "beam_node.h"
#include "eight/goal.h"
#include "line_conflicts.h"

namespace eight::grid {
namespace {

using beam::Key;
using beam::key_of;
using beam::slide;
using beam::start_node;

// A board's 64-bit fingerprint: a hash of its key, never 0. Two boards
// with one fingerprint (about one chance in 10^7 over a whole search of a
// million boards, one in 10^5 over the 20 million of a wide search) make the
// search drop the second as seen: a child less, never a wrong path.
template <int kCells>
std::uint64_t fingerprint(const Key<kCells>& k) {
  std::uint64_t folded = k.w[0];
  for (std::size_t i = 1; i < k.w.size(); ++i) {
    if (i > 1) folded *= 0x9E3779B97F4A7C15ull;  // (two words: as before the large node)
    folded ^= k.w[i] * 0xC2B2AE3D27D4EB4Full;
  }
  std::uint64_t h = folded * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  return h == 0 ? 1 : h;
}

// A set of fingerprints: open addressing, 0 marking an empty slot, at most
// three quarters full (it doubles before that). Three quarters rather than
// half: 580,000 kept boards (a 3x8 board's search) fit 8 MB of slots, not
// 16, and the probes past the first stay mostly in its cache line.
class FingerprintSet {
 public:
  FingerprintSet() : slots_(std::size_t{1} << 12), mask_(slots_.size() - 1) {}

  // Makes room for `more` fingerprints without growing: the slots that
  // prefetch() fetched stay where the next calls look.
  void reserve(std::size_t more) {
    while (4 * (size_ + more) > 3 * slots_.size()) grow();
  }
  // Starts fetching the slot where a call for `f` first looks.
  void prefetch(std::uint64_t f) const { __builtin_prefetch(&slots_[slot_of(f)]); }

  bool contains(std::uint64_t f) const {
    for (std::size_t i = slot_of(f);; i = (i + 1) & mask_) {
      if (slots_[i] == f) return true;
      if (slots_[i] == 0) return false;
    }
  }
  // True when `f` was not in the set (it is now).
  bool insert(std::uint64_t f) {
    assert(f != 0);
    if (4 * (size_ + 1) > 3 * slots_.size()) grow();
    for (std::size_t i = slot_of(f);; i = (i + 1) & mask_) {
      if (slots_[i] == f) return false;
      if (slots_[i] == 0) {
        slots_[i] = f;
        ++size_;
        return true;
      }
    }
  }
  // Empties the set, keeping its slots.
  void clear() {
    std::fill(slots_.begin(), slots_.end(), 0);
    size_ = 0;
  }

 private:
  std::size_t slot_of(std::uint64_t f) const { return static_cast<std::size_t>(f >> 20) & mask_; }

  void grow() {
    std::vector<std::uint64_t> old(slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (const std::uint64_t f : old) {
      if (f == 0) continue;
      std::size_t i = slot_of(f);
      while (slots_[i] != 0) i = (i + 1) & mask_;
      slots_[i] = f;
    }
  }

  std::vector<std::uint64_t> slots_;
  std::size_t mask_;
  std::size_t size_ = 0;
};

// How a kept board was reached, for the path: its parent's index in the
// layer before, times 4, plus the move.
using Link = std::uint32_t;

// The path to the child reached by `last` from board `index` of the last
// layer in `history`.
std::vector<Move> path_to(const std::vector<std::vector<Link>>& history, std::uint32_t index,
                          Move last) {
  std::vector<Move> path{last};
  for (std::size_t d = history.size(); d-- > 1;) {
    const Link l = history[d][index];
    path.push_back(static_cast<Move>(l & 3));
    index = l >> 2;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace

BeamHeuristic beam_heuristic(const GridBoard& goal, const Pdb5x5View* stored) {
  assert(is_valid(goal));
  if (goal.shape != kShape5x5 || stored == nullptr) return {};
  assert(stored->goal_blank == pdb5x5_class_blank(blank_cell(goal)));
  return BeamHeuristic{stored};
}

namespace {

// beam_search() on nodes of N::kMaxCells cells at most.
template <class N>
BeamResult search(const GridBoard& start, const GridBoard& goal, int width,
                  const fifteen::SearchBudget& budget, const BeamHeuristic& heuristic,
                  int max_depth) {
  using Node = N;
  BeamResult out;
  if (!same_class(start, goal)) return out;
  std::optional<Pdb5x5Heuristic> databases;
  if (heuristic.databases != nullptr) {
    databases.emplace(*heuristic.databases, goal);
  }
  const Pdb5x5Heuristic* pdb = databases ? &*databases : nullptr;
  const Geometry g(goal);
  std::vector<Node> layer{start_node<Node>(g, pdb, start)};
  out.start_bound = layer.front().h();
  if (start == goal) {
    out.status = fifteen::SearchStatus::kSolved;
    return out;
  }
  const Shape shape = start.shape;
  // The boards kept in a layer so far (and the start): a child equal to one
  // is dropped, so the beam never walks back. The children of the layer
  // being expanded are told apart from each other in `generated`.
  FingerprintSet kept;
  FingerprintSet generated;
  kept.insert(fingerprint(layer.front().key));
  // history[d][i]: how board i of layer d was reached (layer 0: the start).
  std::vector<std::vector<Link>> history{{Link{0}}};
  std::vector<Node> children;
  std::vector<std::uint64_t> prints;
  const auto order = [](const Node& a, const Node& b) {
    return a.rank() != b.rank() ? a.rank() < b.rank() : a.key < b.key;
  };
  out.status = fifteen::SearchStatus::kBudgetExceeded;
  for (int depth = 0; depth < max_depth; ++depth) {  // children at depth + 1
    // Every child of the layer first, its slot in `kept` prefetched; then,
    // in the same order, those that are new. The set's slots are scattered
    // over megabytes, so the misses overlap this way.
    children.clear();
    prints.clear();
    for (std::size_t i = 0; i < layer.size(); ++i) {
      for (const Move m : kAllMoves) {
        const int to = neighbor(shape, layer[i].blank, m);
        if (to < 0) continue;
        Node& child = children.emplace_back(layer[i]);
        slide(g, pdb, child, to);
        prints.push_back(fingerprint(child.key));
        kept.prefetch(prints.back());
        child.parent = static_cast<std::uint32_t>(i);
        child.move = static_cast<std::uint8_t>(m);
      }
    }
    generated.clear();
    generated.reserve(children.size());
    std::size_t fresh = 0;
    for (std::size_t c = 0; c < children.size(); ++c) {
      if (kept.contains(prints[c]) || !generated.insert(prints[c])) continue;
      if (out.nodes == budget.max_nodes) return out;
      const Node& child = children[c];
      ++out.nodes;
      // slide() keeps the heuristic and the key incrementally: checked
      // against a full recount on one child in 64 (on every child, an
      // assertion build's search took 3.4 times as long).
      assert(out.nodes % 64 != 0 ||
             (child.h() == beam::full_h(g, pdb, child) &&
              child.key == key_of<Node::kMaxCells>(child.cells.data(), g.rows * g.cols)));
      if (child.md == 0) {  // every tile home
        out.status = fifteen::SearchStatus::kSolved;
        out.path = path_to(history, child.parent, static_cast<Move>(child.move));
        return out;
      }
      children[fresh++] = child;
    }
    children.resize(fresh);
    if (children.empty()) return out;  // died out: every child kept before
    if (children.size() > static_cast<std::size_t>(width)) {
      std::nth_element(children.begin(), children.begin() + width, children.end(), order);
      children.resize(static_cast<std::size_t>(width));
    }
    // In `order` (a total order: no two kept boards share a key), not in
    // the order nth_element left: that order differs between standard
    // libraries, and the layer's order decides which parent keeps a child
    // two of them make, so the path. Sorted, every build (libstdc++ here,
    // libc++ in the WebAssembly package, js/) finds the same path.
    std::sort(children.begin(), children.end(), order);
    layer.swap(children);
    kept.reserve(layer.size());
    std::vector<Link>& links = history.emplace_back();
    links.reserve(layer.size());
    for (const Node& n : layer) {
      kept.insert(fingerprint(n.key));
      links.push_back(n.parent << 2 | n.move);
    }
    if (budget.cancel != nullptr && budget.cancel->load(std::memory_order_relaxed)) {
      out.status = fifteen::SearchStatus::kCancelled;
      return out;
    }
    if (budget.deadline && std::chrono::steady_clock::now() >= *budget.deadline) {
      out.status = fifteen::SearchStatus::kDeadlineExceeded;
      return out;
    }
  }
  return out;
}

}  // namespace

BeamResult beam_search(const GridBoard& start, const GridBoard& goal, int width,
                       const fifteen::SearchBudget& budget, const BeamHeuristic& heuristic,
                       int max_depth) {
  assert(is_valid(start) && is_valid(goal) && start.shape == goal.shape &&
         start.size() <= kMaxBeamCells && width >= 1 && width <= kMaxBeamWidth && max_depth >= 1 &&
         max_depth <= kMaxBeamDepth);
  assert(heuristic.databases == nullptr ||
         (goal.shape == kShape5x5 &&
          heuristic.databases->goal_blank == pdb5x5_class_blank(blank_cell(goal))));
  if (start.size() <= kSmallBeamCells) {
    return search<beam::SmallNode>(start, goal, width, budget, heuristic, max_depth);
  }
  return search<beam::Node<kMaxBeamCells>>(start, goal, width, budget, heuristic, max_depth);
}

}  // namespace eight::grid
