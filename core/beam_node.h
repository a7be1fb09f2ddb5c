// The beam search's board (beam_search.h) with its heuristic's parts kept
// as tiles move, shared with the searches that shorten its paths
// (path_shortener.h): its cells as a key, Manhattan distance, the
// lines' conflicts and, on 5x5, the pattern databases' entries. Private to
// the core.
//
// Thread safety: plain values and pure functions.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>

#include "eight/board.h"
#include "line_conflicts.h"
#include "pdb/pdb5x5.h"

namespace eight::grid {

// The most cells a board the beam search takes may have (an 8x8 board): its
// boards are kept as keys of 6 bits a cell, seven 64-bit words. 64 rather
// than 49 (7x7) since the beam's children became small (beam_search.cpp):
// a whole 8x8 board's beam gives paths 6% shorter than the reduction to its
// last 7x7 region and the beam there (docs/performance.md, issue 39).
inline constexpr int kMaxBeamCells = 64;
// The most cells of a board kept in the small node, 5 bits a cell in two
// words (2x7 ... 5x5, the boards the 5x5 pattern databases serve): the
// searches of up to 25 cells copy a smaller node, with the keys they had.
inline constexpr int kSmallBeamCells = 25;

// Named apart from the other searches' boards (one definition each).
namespace beam {

// A board of at most kCells cells as kBits bits a cell, kPerWord cells a
// word. The last cell of a board of kCells cells holds the one value the
// others do not, so it needs no bits (a smaller board's cells all have
// theirs). Never all zero: a board has at least one tile among its first
// cells. With kCells = 25: cells 0 to 11 in the first word, 12 to 23 in the
// second.
template <int kCells>
struct Key {
  static constexpr int kBits = kCells <= 32 ? 5 : 6;  // a tile, 1 to kCells - 1
  static constexpr int kPerWord = 64 / kBits;
  static constexpr int kWords = (kCells - 1 + kPerWord - 1) / kPerWord;
  static_assert(kCells <= 64);
  std::array<std::uint64_t, kWords> w{};

  bool empty() const {
    return std::all_of(w.begin(), w.end(), [](std::uint64_t x) { return x == 0; });
  }
  // Tile t put on, or taken off, cell c.
  void flip(std::uint8_t t, int c) {
    if (c < kWords * kPerWord) {
      w[static_cast<std::size_t>(c / kPerWord)] ^= std::uint64_t{t} << (kBits * (c % kPerWord));
    }
  }
  // Word by word, the first word first (as the two-word key of before,
  // so the same order). Not a defaulted <=>: the WebAssembly package's
  // libc++ (Emscripten 3.1.6) has no <=> for std::array, and deletes it.
  // Not std::array's == and < either: a call to memcmp each, a tenth of a
  // wide search's time in its sort.
  friend bool operator==(const Key& a, const Key& b) {
    for (int i = 0; i < kWords; ++i) {
      if (a.w[static_cast<std::size_t>(i)] != b.w[static_cast<std::size_t>(i)]) return false;
    }
    return true;
  }
  friend bool operator<(const Key& a, const Key& b) {
    for (int i = 0; i < kWords; ++i) {
      const std::uint64_t x = a.w[static_cast<std::size_t>(i)];
      const std::uint64_t y = b.w[static_cast<std::size_t>(i)];
      if (x != y) return x < y;
    }
    return false;
  }
};

template <int kCells>
Key<kCells> key_of(const std::uint8_t* cells, int n) {
  Key<kCells> k;
  for (int i = 0; i < n; ++i) k.flip(cells[i], i);
  return k;
}

// A board of a layer, with its heuristic's parts kept as tiles move: MD,
// the lines' conflicts and, on 5x5 with databases, the tiles' cells and
// the databases' entries (zero without them, so h() is MD + LC then).
template <int kCells>
struct Node {
  static constexpr int kMaxCells = kCells;
  Key<kCells> key;
  std::array<std::uint8_t, kCells> cells{};
  std::array<std::uint8_t, kCells> where{};  // tile t's cell (with databases)
  LineConflicts lc;
  Pdb5x5Heuristic::Entries pdb;
  std::uint16_t md = 0;
  std::uint8_t blank = 0;

  // The admissible heuristic: MD plus twice the larger of the conflicts
  // and the databases' entries, straight or reflected.
  int h() const { return md + 2 * std::max<int>(lc.total, pdb.extra()); }
  // What the beam ranks a layer by: MD plus the two lookups' values (each
  // at least the conflicts), twice the mean of the two bounds where h()
  // takes the larger. Not a bound; it tells more boards apart, the side
  // that sees a board's displacement weighing with the other. Korf and
  // Felner's 50 at width 4,000: 5,411 moves against 5,425 by h(). Without
  // databases it is 2 * h(): the same order.
  int rank() const {
    return 2 * md + 2 * std::max<int>(lc.total, pdb.sum) +
           2 * std::max<int>(lc.total, pdb.reflected_sum);
  }
};

// The node of boards of up to 25 cells, every board the databases serve.
using SmallNode = Node<kSmallBeamCells>;

// The heuristic of n's cells from scratch, which slide() keeps
// incrementally (asserted equal).
template <class N>
[[maybe_unused]] int full_h(const Geometry& g, const Pdb5x5Heuristic* pdb, const N& n) {
  LineConflicts lc;
  lc.count(g, n.cells.data());
  const int extra = pdb != nullptr ? pdb->entries(n.where.data()).extra() : 0;
  return manhattan(g, n.cells.data(), g.rows * g.cols) + 2 * std::max<int>(lc.total, extra);
}

// REQUIRES: start.size() <= N::kMaxCells; pdb null unless start is 5x5.
template <class N>
N start_node(const Geometry& g, const Pdb5x5Heuristic* pdb, const GridBoard& start) {
  assert(start.size() <= N::kMaxCells && (pdb == nullptr || start.size() == kSmallBeamCells));
  N n;
  std::copy_n(start.cells.begin(), start.size(), n.cells.begin());
  n.key = key_of<N::kMaxCells>(n.cells.data(), start.size());
  n.blank = static_cast<std::uint8_t>(blank_cell(start));
  n.md = static_cast<std::uint16_t>(manhattan(g, n.cells.data(), start.size()));
  n.lc.count(g, n.cells.data());
  if (pdb != nullptr) {
    for (int c = 0; c < start.size(); ++c) {
      n.where[n.cells[static_cast<std::size_t>(c)]] = static_cast<std::uint8_t>(c);
    }
    n.pdb = pdb->entries(n.where.data());
  }
  return n;
}

// n with the tile on `to` slid into the blank: its key, MD, the conflicts
// of the two lines the tile crosses and the entries of its groups change.
template <class N>
void slide(const Geometry& g, const Pdb5x5Heuristic* pdb, N& n, int to) {
  const int from = n.blank;
  const std::uint8_t t = n.cells[static_cast<std::size_t>(to)];
  n.md = static_cast<std::uint16_t>(n.md - g.distance(t, to) + g.distance(t, from));
  n.cells[static_cast<std::size_t>(from)] = t;
  n.cells[static_cast<std::size_t>(to)] = 0;
  n.key.flip(t, to);
  n.key.flip(t, from);
  n.blank = static_cast<std::uint8_t>(to);
  n.lc.slid(g, n.cells.data(), from, to);
  if (pdb != nullptr) {
    n.where[t] = static_cast<std::uint8_t>(from);
    n.where[0] = static_cast<std::uint8_t>(to);
    pdb->moved(n.pdb, t, n.where.data());
  }
}

}  // namespace beam
}  // namespace eight::grid
