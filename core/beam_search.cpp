#include "beam_search.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <map>
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

// How many children after its slot was prefetched a child is probed in a
// fingerprint set: enough for the memory's answer to arrive, few enough
// that the lines stay in the cache.
constexpr std::size_t kLag = 32;

// The layers whose boards a child may not be: those of the last
// kKeptLayers to 2 * kKeptLayers layers, in two sets that take turns (the
// older is emptied and becomes the newer every kKeptLayers layers). A child
// equal to a kept board closes a cycle; the shortest cycles are of 12 moves
// (the puzzle graph's girth) and most the beam makes are short: on 20
// seeded 7x7 boards, remembering 16 to 32 layers or every layer gave the
// same paths, and a 7x7 search's peak memory fell from 194 MB to 82 MB
// with 32 (the sets of every layer were the largest part of it). An older
// board met again leaves a loop in the path, which cut_loops() removes.
constexpr int kKeptLayers = 32;

// How a kept board was reached, for the path: its parent's index in the
// layer before, times 4, plus the move.
using Link = std::uint32_t;

// A child of a layer's board, before the cut: what ranks it and where it
// comes from, without its cells (a third of a node of 64 cells). Its node
// is built again, from the parent, only when it is kept.
template <class N>
struct Child {
  Key<N::kMaxCells> key;  // ties of rank broken by the board, as before
  std::uint64_t print = 0;
  int rank = 0;
  std::uint32_t parent = 0;  // its index in the layer
  std::uint8_t move = 0;     // the move from its parent
  bool home = false;         // every tile home: the goal
};

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

void cut_loops(const GridBoard& start, std::vector<Move>& path) {
  assert(is_valid(start) && start.size() <= kMaxBeamCells);
  using BoardKey = Key<kMaxBeamCells>;
  std::map<BoardKey, std::size_t> seen;  // a board of the path: the moves before it
  std::vector<BoardKey> keys{key_of<kMaxBeamCells>(start.cells.data(), start.size())};
  seen.emplace(keys.back(), 0);
  std::vector<Move> kept;
  GridBoard b = start;
  for (const Move m : path) {
    const auto next = apply_move(b, m);
    assert(next);
    b = *next;
    kept.push_back(m);
    keys.push_back(key_of<kMaxBeamCells>(b.cells.data(), b.size()));
    const auto [at, fresh] = seen.emplace(keys.back(), kept.size());
    if (fresh) continue;
    for (std::size_t i = at->second + 1; i + 1 < keys.size(); ++i) seen.erase(keys[i]);
    kept.resize(at->second);
    keys.resize(at->second + 1);
  }
  path = std::move(kept);
}

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
  // The boards kept in the last layers (kKeptLayers; and the start): a
  // child equal to one is dropped, so the beam does not walk back. The
  // children of the layer being expanded are told apart from each other in
  // `generated`.
  FingerprintSet kept;
  FingerprintSet kept_before;  // the layers before `kept`'s
  FingerprintSet generated;
  kept.insert(fingerprint(layer.front().key));
  // history[d][i]: how board i of layer d was reached (layer 0: the start).
  std::vector<std::vector<Link>> history{{Link{0}}};
  // A layer's children are ranked before any is kept: each is built once
  // in `scratch` (a copy that stays in the cache) and stays only as a
  // Child, a few bytes; the boards of the next layer are built again from
  // their parents once the width is chosen. Before, every child was a
  // whole node (176 bytes for a 7x7 board) copied into the layer's
  // children, then moved about by the cut and the sort.
  std::vector<Child<Node>> children;
  std::vector<Node> next;
  // A total order (ties of rank broken by the board, then by where it came
  // from, for two equal children of one layer), so every build (libstdc++
  // here, libc++ in the WebAssembly package, js/) keeps the same boards in
  // the same order, and finds the same path.
  const auto order = [](const Child<Node>& a, const Child<Node>& b) {
    if (a.rank != b.rank) return a.rank < b.rank;
    if (!(a.key == b.key)) return a.key < b.key;
    return a.parent != b.parent ? a.parent < b.parent : a.move < b.move;
  };
  out.status = fifteen::SearchStatus::kBudgetExceeded;
  for (int depth = 0; depth < max_depth; ++depth) {  // children at depth + 1
    // No child that undoes its parent's move is made: it is the board
    // before, kept in the layer before. Any other child equal to a kept
    // board closes a cycle of at least 12 moves (the girth of the puzzle's
    // graph), which is rare; so `kept` is asked only about the children
    // that make the cut, in rank order (below), not about every child. The
    // children equal to one another in this layer are told apart here, in
    // the order made (the first is kept, as its parent ranks first), each
    // probed in `generated` kLag children after its slot was prefetched.
    const std::vector<Link>& made = history.back();
    children.clear();
    generated.clear();
    generated.reserve(4 * layer.size());
    std::size_t probed = 0;
    std::size_t fresh = 0;
    bool done = false;  // the goal found, or the budget spent
    const auto probe = [&](std::size_t upto) {
      for (; probed < upto && !done; ++probed) {
        const Child<Node> child = children[probed];
        if (!generated.insert(child.print)) continue;
        if (out.nodes == budget.max_nodes) {
          done = true;
          break;
        }
        ++out.nodes;
        if (child.home) {  // every tile home
          out.status = fifteen::SearchStatus::kSolved;
          out.path = path_to(history, child.parent, static_cast<Move>(child.move));
          cut_loops(start, out.path);
          done = true;
          break;
        }
        children[fresh++] = child;
      }
    };
    for (std::size_t i = 0; i < layer.size() && !done; ++i) {
      const int back = depth == 0 ? -1 : static_cast<int>(opposite(static_cast<Move>(made[i] & 3)));
      for (const Move m : kAllMoves) {
        const int to = neighbor(shape, layer[i].blank, m);
        if (to < 0 || static_cast<int>(m) == back) continue;
        Node scratch = layer[i];
        slide(g, pdb, scratch, to);
        Child<Node>& child = children.emplace_back();
        child.key = scratch.key;
        child.print = fingerprint(scratch.key);
        generated.prefetch(child.print);
        child.rank = scratch.rank();
        child.parent = static_cast<std::uint32_t>(i);
        child.move = static_cast<std::uint8_t>(m);
        child.home = scratch.md == 0;
      }
      if (children.size() > kLag) probe(children.size() - kLag);
    }
    probe(children.size());
    if (done) return out;
    children.resize(fresh);
    // The next layer: the children in `order`, less those kept before,
    // until `width` are taken. The first `width` are cut out and sorted
    // (nth_element, then sort: the same order whatever the library); when
    // `kept` turns some away, the next ones after them, and so on.
    const std::size_t wide = static_cast<std::size_t>(width);
    const auto at = [&](std::size_t c) {
      return children.begin() + static_cast<std::ptrdiff_t>(c);
    };
    if ((depth + 1) % kKeptLayers == 0) {
      std::swap(kept, kept_before);
      kept.clear();
    }
    kept.reserve(std::min(children.size(), wide));
    std::vector<Link>& links = history.emplace_back();
    next.clear();
    for (std::size_t begin = 0; begin < children.size() && next.size() < wide;) {
      const std::size_t end = std::min(children.size(), begin + (wide - next.size()));
      if (end < children.size()) std::nth_element(at(begin), at(end), children.end(), order);
      std::sort(at(begin), at(end), order);
      for (std::size_t c = begin; c < end; ++c) {
        if (c + kLag < end) {
          kept.prefetch(children[c + kLag].print);
          kept_before.prefetch(children[c + kLag].print);
        }
        const Child<Node>& child = children[c];
        if (kept_before.contains(child.print) || !kept.insert(child.print)) {
          continue;  // a cycle closed: kept before
        }
        Node& n = next.emplace_back(layer[child.parent]);
        slide(g, pdb, n, neighbor(shape, n.blank, static_cast<Move>(child.move)));
        // slide() keeps the heuristic and the key incrementally: checked
        // against a full recount on one kept board in 64 (on every child, an
        // assertion build's search took 3.4 times as long).
        assert(next.size() % 64 != 1 ||
               (n.h() == beam::full_h(g, pdb, n) && n.key == child.key &&
                n.key == key_of<Node::kMaxCells>(n.cells.data(), g.rows * g.cols)));
        links.push_back(child.parent << 2 | child.move);
      }
      begin = end;
    }
    if (next.empty()) return out;  // died out: every child kept before
    layer.swap(next);
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
