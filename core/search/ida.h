// The one IDA* driver (Korf, 1985) of the searches for boards past the
// tables: iterative deepening on f = depth + h, each iteration a depth-first
// search that never undoes its previous move nor takes a path that an
// earlier or shorter one reaches the same board by (duplicate_paths.h).
// What a search is over, its board, its heuristic and its budget, is a
// value the driver is given (a Domain, below), so the grid IDA*'s
// incremental Manhattan distance and linear conflicts, the reduction's last
// region (the same heuristic, its moves kept inside a rectangle) and its
// window shortener (Manhattan distance towards another board, pruned before
// a move is made) share this loop. Private to the core.
//
// A Domain D offers:
//   int h() const;          the heuristic of the board now: admissible;
//   bool at_goal() const;   the board is the goal;
//   int blank() const;      the blank's cell;
//   int target(Move m) const;  the cell the blank reaches by m, or -1 when
//                           m leaves the board or what the search may use;
//   void slide(int to);     moves the blank to `to`, a neighbour of its
//                           cell (target()'s, or back where it came from);
//   Visit visit();          called once on each node expanded (after its
//                           bound and goal tests): a budget's say;
// and may offer
//   int h_after(int to) const;  h once the blank is on `to`, without the
//                           move: a child past the bound is then skipped
//                           before it is made (the window shortener's
//                           children mostly are, and a move costs more).
// Moves are tried in kAllMoves order, so a search finds the same path every
// time.
//
// Thread safety: an Ida and its Domain are one search's, on one thread.
#pragma once

#include <algorithm>
#include <vector>

#include "duplicate_paths.h"
#include "eight/board.h"

namespace eight::search {

// A Domain's say on a node it is asked to expand.
enum class Visit {
  kExpand,  // search its children
  kSkip,    // not this node (the window shortener past its budget)
  kStop,    // nor any other: the search stops (a node budget, a deadline)
};

template <class Domain>
class Ida {
 public:
  // The domain outlives the Ida; the search moves its board and puts it
  // back (a board found at the goal is left there).
  explicit Ida(Domain& domain) : d_(domain) {}

  // One iteration at `bound`: true when the goal is found (path() holds
  // the path), else next_bound() holds the least f that exceeded it.
  // REQUIRES: !stopped().
  bool iterate(int bound) {
    next_bound_ = kInfinity;
    path_.clear();
    return dfs(0, bound, kNoMove, DuplicatePaths::kStart);
  }

  // Iterations from the domain's h, each at the least f the last exceeded,
  // until one finds the goal (true) or the bound would pass `max_bound`
  // or the domain stops the search (false).
  bool solve(int max_bound) {
    for (int bound = d_.h(); bound <= max_bound && !stopped_; bound = next_bound_) {
      if (iterate(bound)) return true;
    }
    return false;
  }

  const std::vector<Move>& path() const { return path_; }
  int next_bound() const { return next_bound_; }
  // True once the domain said kStop.
  bool stopped() const { return stopped_; }

 private:
  static constexpr int kInfinity = 1 << 30;
  static constexpr int kNoMove = 4;

  // `state` is the duplicate-path machine's after the path so far.
  bool dfs(int depth, int bound, int previous, int state) {
    const int f = depth + d_.h();
    if (f > bound) {
      next_bound_ = std::min(next_bound_, f);
      return false;
    }
    if (d_.at_goal()) return true;
    switch (d_.visit()) {
      case Visit::kExpand:
        break;
      case Visit::kSkip:
        return false;
      case Visit::kStop:
        stopped_ = true;
        return false;
    }
    for (const Move m : kAllMoves) {
      if (previous != kNoMove && static_cast<int>(opposite(m)) == previous) continue;
      // Nor a path that an earlier or shorter one reaches the same board by.
      const int next_state = duplicate_paths_.next(state, m);
      if (next_state == DuplicatePaths::kPruned) continue;
      const int to = d_.target(m);
      if (to < 0) continue;
      if constexpr (requires(const Domain& d) { d.h_after(to); }) {
        const int f2 = depth + 1 + d_.h_after(to);
        if (f2 > bound) {
          next_bound_ = std::min(next_bound_, f2);
          continue;
        }
      }
      const int back = d_.blank();
      d_.slide(to);
      path_.push_back(m);
      if (dfs(depth + 1, bound, static_cast<int>(m), next_state)) return true;
      path_.pop_back();
      d_.slide(back);
      if (stopped_) return false;
    }
    return false;
  }

  Domain& d_;
  const DuplicatePaths& duplicate_paths_ = DuplicatePaths::get();
  std::vector<Move> path_;
  int next_bound_ = 0;
  bool stopped_ = false;
};

}  // namespace eight::search
