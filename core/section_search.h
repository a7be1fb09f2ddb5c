// The moves between a section's positions as rank-to-rank maps, and the
// breadth-first search over a section built on them: shared by the
// generator (which writes what the search finds) and the verifier (which
// checks a file's entries with the same maps). Private to the core.
//
// A section holds the positions of one class (tile parity 0) by dense rank,
// blank cell first (rank.h): rank = blank * kTileOrders3x3 + index of the tile
// order. A sideways move of the blank keeps the tile order, so it is the
// rank plus or minus kTileOrders3x3; a vertical move carries one tile over the
// two between it and the blank, which maps the order index through a table:
// Transitions holds those for every blank cell and order (two 363 KB tables
// of 16-bit indices), built once per process on two cores in about half a
// millisecond.
// The search then works on ranks alone, with no board and no ranking in
// its loop.
//
// Thread safety: Transitions::get() builds its tables once, thread-safely;
// everything else is pure.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <memory>
#include <vector>

#include "eight/board.h"
#include "eight/goal.h"
#include "eight/rank.h"
#include "rank/kernel.h"

namespace eight::detail {

// The four moves of the blank from a position, in move order (up, down,
// left, right). A move that would leave the board is the position itself,
// with its bit clear in `legal`: callers may treat all four alike.
struct Moves {
  std::array<std::uint32_t, 4> rank;
  unsigned legal;  // bit m: move m stays on the board
};

// Bit m set when the blank on cell c may move by m (up, down, left, right).
inline constexpr const std::array<std::uint8_t, kCells3x3>& kLegalMoves = ShapeKernel<3, 3>::kLegal;

// `a` if c else `b`, with arithmetic rather than a branch: in the search's
// loop the condition is as good as random, and a compiler left to itself
// turns a ?: into a branch it then mispredicts half the time.
inline std::uint32_t choose(bool c, std::uint32_t a, std::uint32_t b) {
  return b ^ ((a ^ b) & (0u - static_cast<std::uint32_t>(c)));
}

// The moves from rank r of a section, given the tables below.
// REQUIRES: r < kPositions3x3; the tables are Transitions' up() and down().
inline void moves_of(const std::uint16_t* up_table, const std::uint16_t* down_table,
                     std::uint32_t r, Moves& out) {
  assert(r < kPositions3x3);
  const std::uint32_t blank = r / kTileOrders3x3;  // a multiply by a constant
  const std::uint32_t order = r - blank * kTileOrders3x3;
  const unsigned legal = kLegalMoves[blank];
  out.legal = legal;
  // The tables have rows for every blank cell; the rows of cells a move
  // cannot leave from hold zeros, whose result is then not taken.
  const std::uint32_t up = (blank - 3) * kTileOrders3x3 + up_table[blank * kTileOrders3x3 + order];
  const std::uint32_t down =
      (blank + 3) * kTileOrders3x3 + down_table[blank * kTileOrders3x3 + order];
  out.rank[0] = choose((legal & 1) != 0, up, r);
  out.rank[1] = choose((legal & 2) != 0, down, r);
  out.rank[2] = choose((legal & 4) != 0, r - kTileOrders3x3, r);
  out.rank[3] = choose((legal & 8) != 0, r + kTileOrders3x3, r);
}

class Transitions {
 public:
  static const Transitions& get();

  // The moves from rank r of a section. REQUIRES: r < kPositions3x3.
  void moves(std::uint32_t r, Moves& out) const {
    assert(r < kPositions3x3);
    moves_of(up_.get(), down_.get(), r, out);
  }
  // The tables themselves, for loops that keep them in registers:
  // [blank * kTileOrders3x3 + order index] is the order index after the blank
  // moves up (down) from that cell.
  const std::uint16_t* up() const { return up_.get(); }
  const std::uint16_t* down() const { return down_.get(); }

 private:
  Transitions();
  std::unique_ptr<std::uint16_t[]> up_;
  std::unique_ptr<std::uint16_t[]> down_;
};

inline constexpr std::uint8_t kUnseen = 0xFF;

// What a search works in, kept between searches on one thread so a second
// section reuses the first one's memory instead of faulting in its own.
struct SearchSpace {
  std::vector<std::uint64_t> seen;   // a visited bit per rank
  std::vector<std::uint32_t> queue;  // ranks in the order found
  // After a search: where each distance's ranks start in `queue`, and
  // kPositions3x3 last (so distance d has level_starts[d + 1] -
  // level_starts[d] positions): the section's histogram, and its farthest
  // positions, for free.
  std::vector<std::uint32_t> level_starts;
};

// Searches the section of canonical_goal(blank) breadth-first from its goal,
// reaching every position of the class exactly once, level by level, trying
// moves in move order, so that the order of discovery, and whatever depends
// on it, is the same every run. For each move m of each position it expands
// (rank `parent`, at distance - 1) it calls
//   discover(rank, parent, m, distance, found)
// where `found` says whether `rank` was first found now; when not (a
// position seen before, or the parent itself for an illegal move),
// discover must change nothing. The inner loop has no branch on the
// positions: callers do the same work either way and keep it only when
// found. The goal is where the search starts, never discovered. Returns the
// largest distance. Memory: a visited bit and a queued rank per position,
// in `space`. REQUIRES: 0 <= blank < kCells3x3.
template <typename Discover>
int section_search(int blank, SearchSpace& space, Discover&& discover) {
  assert(blank >= 0 && blank < kCells3x3);
  const Transitions& transitions = Transitions::get();
  const std::uint16_t* const up = transitions.up();
  const std::uint16_t* const down = transitions.down();
  space.seen.assign((kPositions3x3 + 63) / 64, 0);
  // Four slots of slack, written and not kept when a move finds nothing new.
  space.queue.resize(kPositions3x3 + 4);
  std::uint64_t* const seen = space.seen.data();
  std::uint32_t* const queue = space.queue.data();
  const std::uint32_t goal = rank_3x3(canonical_goal<Board>(blank));
  seen[goal / 64] |= std::uint64_t{1} << (goal % 64);
  queue[0] = goal;
  std::size_t head = 0, tail = 1;
  int max = 0;
  Moves moves;
  space.level_starts.clear();
  for (std::uint8_t d = 0; head < tail; ++d) {
    max = d;
    space.level_starts.push_back(static_cast<std::uint32_t>(head));
    const auto next = static_cast<std::uint8_t>(d + 1);
    for (const std::size_t level_end = tail; head < level_end; ++head) {
      const std::uint32_t r = queue[head];
      moves_of(up, down, r, moves);
#pragma GCC unroll 4
      for (std::size_t m = 0; m < 4; ++m) {
        const std::uint32_t n = moves.rank[m];
        const std::uint64_t bit = std::uint64_t{1} << (n % 64);
        const std::uint64_t word = seen[n / 64];
        const bool found = (word & bit) == 0;
        seen[n / 64] = word | bit;
        queue[tail] = n;
        tail += static_cast<std::size_t>(found);
        discover(n, r, static_cast<Move>(m), next, found);
      }
    }
  }
  assert(tail == kPositions3x3);
  space.level_starts.push_back(kPositions3x3);
  return max;
}

}  // namespace eight::detail
