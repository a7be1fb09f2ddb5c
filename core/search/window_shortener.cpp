#include "search/window_shortener.h"

#include <cassert>
#include <cstdlib>
#include <optional>

#include "search/ida.h"

namespace eight::reduction {
namespace {

// The Manhattan distance from `s` to `t`, tile by tile, the blank aside.
int manhattan_between(const Geometry& g, const State& s, const State& t) {
  int h = 0;
  for (int c = 0; c < g.cells; ++c) {
    const int tile = s.at[c];
    if (tile != s.blank_tile) h += g.distance(t.where[tile], c);
  }
  return h;
}

// A search between two boards for a path shorter than a window of the plan
// joining them: the IDA* driver over the Manhattan distance towards `to`,
// kept as tiles slide. Its recursion is as deep as the window; it gives up
// past a node budget, so one window costs some ten microseconds at most.
class WindowSearch {
 public:
  // REQUIRES: h == manhattan_between(g, from, to).
  WindowSearch(const Geometry& g, const State& from, const State& to, int h)
      : g_(g), at_(from.at), blank_(from.blank()), blank_tile_(from.blank_tile), h_(h) {
    assert(h == manhattan_between(g, from, to));
    // Each tile's row and column on `to`: a move's change of the distance
    // is then one difference, along the axis it moves on.
    for (int c = 0; c < g.cells; ++c) {
      goal_row_[to.at[c]] = static_cast<std::int8_t>(g.row(c));
      goal_col_[to.at[c]] = static_cast<std::int8_t>(g.col(c));
    }
  }

  // A path from `from` to `to` of fewer than `limit` moves, where `limit` is
  // the length of a path between them; nullopt if none is found in budget.
  std::optional<std::vector<Move>> shorter_than(int limit) {
    const int h = h_;
    search::Ida<WindowSearch> ida(*this);
    // Every move changes the distance by one, so paths between the two boards
    // all have the parity of `limit`.
    for (int bound = h; bound <= limit - 2; bound += 2) {
      if (ida.iterate(bound)) return ida.path();
      if (nodes_ > kWindowBudget) break;
    }
    return std::nullopt;
  }

  // The driver's Domain (ida.h).
  int h() const { return h_; }
  bool at_goal() const { return h_ == 0; }  // every tile where `to` has it, so the blank too
  int blank() const { return blank_; }
  int target(Move m) const { return g_.neighbor(blank_, static_cast<int>(m)); }
  // The child's distance is known before the move: most children are past
  // the bound and never made.
  int h_after(int to) const { return h_ + change(at_[static_cast<std::size_t>(to)], to, blank_); }
  void slide(int to) {
    const std::uint8_t tile = at_[static_cast<std::size_t>(to)];
    h_ += change(tile, to, blank_);
    at_[static_cast<std::size_t>(blank_)] = tile;
    at_[static_cast<std::size_t>(to)] = static_cast<std::uint8_t>(blank_tile_);
    blank_ = to;
  }
  // Past the budget a node is not expanded, but its siblings are still
  // tried: one of them at the goal ends the search.
  search::Visit visit() {
    return ++nodes_ > kWindowBudget ? search::Visit::kSkip : search::Visit::kExpand;
  }

 private:
  static constexpr int kWindowBudget = 2000;

  // How much nearer its place on `to` the tile on cell `from` comes when it
  // slides to the neighbouring cell `to_cell`.
  int change(int tile, int from, int to_cell) const {
    if (g_.row(from) != g_.row(to_cell)) {
      return std::abs(goal_row_[tile] - g_.row(to_cell)) - std::abs(goal_row_[tile] - g_.row(from));
    }
    return std::abs(goal_col_[tile] - g_.col(to_cell)) - std::abs(goal_col_[tile] - g_.col(from));
  }

  const Geometry& g_;
  // The board searched from: the tile on each cell and the blank's cell
  // (State's `where` is not kept: the search never asks where a tile is).
  std::array<std::uint8_t, kMaxCells> at_;
  int blank_;
  int blank_tile_;
  int h_;
  std::array<std::int8_t, kMaxCells> goal_row_{}, goal_col_{};
  int nodes_ = 0;
};

}  // namespace

void cancel_inverse_pairs(std::vector<Move>& path) {
  if (path.size() < 2) return;
  std::size_t top = 1;  // path[0, top) is kept; path[0] is never cancelled
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (top > 1 && path[top - 1] == opposite(path[i])) {
      --top;
    } else {
      path[top++] = path[i];
    }
  }
  path.resize(top);
}

void shorten_windows(const Geometry& g, State s, std::vector<Move>& path, int window) {
  if (path.empty()) return;
  s.apply(g, path[0]);
  const auto w = static_cast<std::size_t>(window);
  std::size_t i = 1;
  State t;
  int h = 0;
  bool fresh = false;  // t and h are the window's at i
  // `moving` makes move m; `other` is the window's other end.
  const auto slide = [&](State& moving, const State& other, Move m) {
    const int e = moving.blank(), e2 = g.neighbor(e, static_cast<int>(m));
    assert(e2 >= 0);  // the path's moves are legal
    const int tile = moving.at[e2];
    h += g.distance(e, other.where[tile]) - g.distance(e2, other.where[tile]);
    moving.apply(g, m);
  };
  while (i + w <= path.size()) {
    if (!fresh) {
      t = s;
      for (std::size_t k = 0; k < w; ++k) t.apply(g, path[i + k]);
      h = manhattan_between(g, s, t);
      fresh = true;
    }
    assert(h == manhattan_between(g, s, t));
    if (h <= window - 2) {
      if (auto shorter = WindowSearch(g, s, t, h).shorter_than(window)) {
        const auto at = path.begin() + static_cast<std::ptrdiff_t>(i);
        path.erase(at, at + window);
        path.insert(path.begin() + static_cast<std::ptrdiff_t>(i), shorter->begin(),
                    shorter->end());
        fresh = false;
        continue;  // the same start again: the new window may shorten too
      }
    }
    slide(s, t, path[i]);
    if (i + w < path.size()) slide(t, s, path[i + w]);
    ++i;
  }
}

}  // namespace eight::reduction
