// A finite-state machine that tells a depth-first search which move
// sequences reach a board that an equally short or shorter sequence,
// earlier in the search's move order, reaches too (Taylor and Korf,
// "Pruning duplicate nodes in depth-first search", AAAI 1993). Private to
// the core; the IDA* searches (fifteen_search.cpp, grid_search.cpp) walk it
// beside their path.
//
// The rules are found, not written: every sequence of blank moves up to
// kMaxRuleLength long is played on an unbounded board, and a sequence is
// forbidden when another one of the same length that comes first in
// kAllMoves order (up < down < left < right), or a shorter one, has the
// same effect (every tile and the blank end on the same cells) while the
// blank visits no cell the forbidden one does not. On any rectangle, then,
// the replacement is legal wherever the forbidden sequence is. The shortest
// rule is 6 moves: the blank circles a 2x2 block one and a half times one
// way or the other (right, down, left, up, right, down is down, right, up,
// left, down, right).
//
// What it keeps: the first shortest path to every board, in a search that
// tries moves in kAllMoves order. Replacing a forbidden stretch of a path
// by its replacement gives a path that is shorter, or as long and earlier
// in that order; so the first shortest path contains none, and a search that
// skips forbidden sequences (and never undoes its last move) finds the same
// first shortest path as one that does not, in fewer nodes. Its lower
// bounds hold too: every path within a bound has a kept one as short.
//
// The machine is found at build time (find(), about half a second, run by
// the build's eight-gen-duplicate-paths into duplicate_paths_table.inc) and
// compiled in, so no program pays for it at run time.
//
// Thread safety: get() is an immutable shared constant; find() is a pure
// function.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "eight/board.h"

namespace eight {

class DuplicatePaths {
 public:
  // Rules are sequences of at most this many moves. Longer rules prune more
  // but grow the machine: 10 moves give 1,369 states, 12 give 10,367 (and
  // on the 17 hardest 4x4 boards 24% and 27% fewer nodes).
  static constexpr int kMaxRuleLength = 12;
  // What next() says of a move that completes a forbidden sequence.
  static constexpr int kPruned = -1;
  // The state of an empty path.
  static constexpr int kStart = 0;

  // The machine of rules up to kMaxRuleLength, compiled in.
  static const DuplicatePaths& get();
  // Finds the rules of at most `max_rule_length` moves and builds their
  // machine: what the build compiles in for kMaxRuleLength, and what the
  // tests check it against. REQUIRES: 1 <= max_rule_length <= kMaxRuleLength.
  static DuplicatePaths find(int max_rule_length);

  // The state after `m` from `state`, or kPruned when the path's last moves,
  // ending with `m`, are a forbidden sequence.
  // REQUIRES: 0 <= state < state_count(); m is one of kAllMoves.
  int next(int state, Move m) const {
    return next_[static_cast<std::size_t>(state) * 4 + static_cast<std::size_t>(m)];
  }
  // The transitions as one array, [state * 4 + move], for inner loops.
  const std::int16_t* table() const { return next_.data(); }

  int state_count() const { return static_cast<int>(next_.size() / 4); }
  int rule_count() const { return rule_count_; }

 private:
  DuplicatePaths(std::vector<std::int16_t> next, int rule_count)
      : next_(std::move(next)), rule_count_(rule_count) {}

  std::vector<std::int16_t> next_;
  int rule_count_ = 0;
};

}  // namespace eight
