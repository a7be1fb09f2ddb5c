#include "search/reduction_plan.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <optional>

namespace eight::reduction {
namespace {

// A pair of tiles is placed by one exact search over the whole unsolved
// region when it has at most this many cells (40^3 = 64,000 states, a
// fraction of a millisecond), and by the phases of plan_pair() otherwise.
constexpr int kWholePairCells = 40;
// The weights of weights_of().
constexpr int kNextWeight = 6;
constexpr int kSoonWeight = 3;
constexpr int kSoonUnits = 8;
constexpr int kLaterWeight = 2;
constexpr int kLaterUnits = 20;

// Small enough for IDA* in well under a millisecond.
bool is_last_region(int h, int w) {
  return (h <= 3 && w <= 3) || (std::min(h, w) == 2 && std::max(h, w) <= 4);
}

constexpr int kFallbackRank = 4;

// The exact search for both tiles of a pair over the whole region.
std::optional<std::vector<Move>> whole_pair(const Geometry& g, const State& s, const Mask& region,
                                            const Mask& weight, const KeyTiles& keys,
                                            const Unit& u) {
  Query q;
  q.g = &g;
  q.allowed = region;
  q.tracked = 2;
  q.tile = {s.where[u.a], s.where[u.b]};
  q.blank = s.blank();
  q.target[0][u.a] = 1;
  q.target[1][u.b] = 1;
  q.weight = weight;
  q.key_tiles = keys;
  return best_shortest_path(q, s);
}

// A pair on a large region, in phases: the whole region's pair search would
// have up to 92^3 states. The window W is the region's cells within 2 lines
// and 2 cells along the line of the pair's homes (a 3x6 block less the
// line's placed cells), reaching back to the line's first cell when the
// block stops one cell short of it.
//   phase 1 (rank 3): B outside W: B's shortest path into W (A not tracked).
//   phase 2 (rank 2): B in W, A outside: A's into W, B's cell a wall.
//   phase 3 (rank 1): A and B in W, the blank outside: the blank's into W,
//                     A's and B's cells walls.
//   phase 4 (rank 0): all three in W: the exact pair search inside W.
// The phase is a function of the board, and following a phase's path never
// leaves what that phase keeps (a wall does not move; a tracked tile reaches
// W only at the path's end), so a step either shortens the phase's distance
// or moves to a later phase. None can fail on the regions this runs on (more
// than 40 cells: at least 5x9 less a line's prefix, the line one of the
// short sides): outside W the region is at least two cells thick
// everywhere, so one tile can go anywhere there and reach W by any of its
// at least four entry cells, of which two walls block two at most; inside W
// every placement of the pair and the blank can reach its goal. The one
// place outside the block that is one cell thick is the cell beside the
// line's first (placed) cell, at the region's edge, when the block stops
// one cell short of it: a first tile there, its second on the cell beside
// it in W, can leave only with the blank shut in behind it (a 5x10 board,
// tests/reduction_solver_test.cpp). So W takes that cell in. Any longer
// stretch of the two lines beside the placed cells is two cells thick and
// stays outside: W reaching back to the line's first cell on every pair
// (the whole band) costs 10x10 2.478 -> 2.543 on 300 boards, as the
// phases stop at the band and leave the rest to a search confined to it.
// No phase failed on 40 random boards of every shape, 2x2 to 10x10, on
// four seeds, with asserts on and hints followed to the goal, nor on the
// tests' boards (make test-sanitize runs them with asserts on). The
// fallback, the whole region's search, is there for safety only and
// counted.
Step plan_pair(const Geometry& g, const State& s, const Mask& region, const Mask& weight,
               const KeyTiles& keys, const Unit& u) {
  int cells = 0;
  for (int c = 0; c < g.cells; ++c) cells += region[c];
  if (cells > kWholePairCells) {
    Mask window{};
    const bool in_row = g.row(u.a) == g.row(u.b);
    const auto along = [&](int c) { return in_row ? g.col(c) : g.row(c); };
    const auto across = [&](int c) { return in_row ? g.row(c) : g.col(c); };
    int lo = std::min(along(u.a), along(u.b)) - 2;
    int hi = std::max(along(u.a), along(u.b)) + 2;
    const int first = along(u.line_start);
    if (first == lo - 1) lo = first;
    if (first == hi + 1) hi = first;
    for (int c = 0; c < g.cells; ++c) {
      if (region[c] && std::abs(across(c) - across(u.a)) <= 2 && along(c) >= lo && along(c) <= hi) {
        window[c] = 1;
      }
    }
    const int pa = s.where[u.a], pb = s.where[u.b], e = s.blank();
    Query q;
    q.g = &g;
    q.blank = e;
    q.weight = weight;
    q.key_tiles = keys;
    int rank = 0;
    if (window[pa] && window[pb] && window[e]) {
      rank = 0;
      q.allowed = window;
      q.tracked = 2;
      q.tile = {pa, pb};
      q.target[0][u.a] = 1;
      q.target[1][u.b] = 1;
    } else if (window[pa] && window[pb]) {
      rank = 1;
      q.allowed = region;
      q.allowed[pa] = q.allowed[pb] = 0;
      q.tracked = 0;
      q.blank_target = window;
    } else if (window[pb]) {
      rank = 2;
      q.allowed = region;
      q.allowed[pb] = 0;
      q.tracked = 1;
      q.tile[0] = pa;
      q.target[0] = window;
    } else {
      rank = 3;
      q.allowed = region;
      q.tracked = 1;
      q.tile[0] = pb;
      q.target[0] = window;
    }
    if (auto path = best_shortest_path(q, s)) return Step{rank, std::move(*path)};
    // Never seen: the builds with asserts on (make test-sanitize) stop here
    // on any board of the tests; a release build falls back to the search
    // over the whole region, which always finds the pair a path.
    assert(false && "a pair's phase found no path");
  }
  auto path = whole_pair(g, s, region, weight, keys, u);
  assert(path.has_value());
  return Step{cells > kWholePairCells ? kFallbackRank : 0,
              path ? std::move(*path) : std::vector<Move>{}};
}

}  // namespace

Plan make_plan(const Geometry& g, int goal_blank) {
  Plan plan;
  Rect r{0, g.rows, 0, g.cols};
  const int br = g.row(goal_blank), bc = g.col(goal_blank);
  std::vector<int> line;
  while (!is_last_region(r.height(), r.width())) {
    line.clear();
    // A row when at least as tall as wide, so that the region stays near
    // square; the side away from the goal's blank, which stays inside. The
    // region is then at least 3 tall (or wide), so 2 lines remain to turn a
    // pair in.
    if (r.height() >= r.width()) {
      const int row = br > r.r0 ? r.r0++ : --r.r1;
      for (int c = r.c0; c < r.c1; ++c) line.push_back(row * g.cols + c);
    } else {
      const int col = bc > r.c0 ? r.c0++ : --r.c1;
      for (int k = r.r0; k < r.r1; ++k) line.push_back(k * g.cols + col);
    }
    // Placed from the end nearer the goal's blank, so that the pair lands at
    // the far end, in the corner of placed lines: measured on 100 random 10x10
    // boards, 2.687 length/(MD+LC) against 2.709 from the other end.
    const auto distance = [&](int c) { return std::abs(g.row(c) - br) + std::abs(g.col(c) - bc); };
    if (distance(line.back()) < distance(line.front())) std::reverse(line.begin(), line.end());
    const int len = static_cast<int>(line.size());
    assert(len >= 2);
    // In pairs, after one single when the count is odd: a pair's shortest
    // path moves both tiles at once where two singles pay for each, and the
    // last two must be a pair anyway (the last cannot be slid into its
    // dead-end cell alone). Measured against singles and a last pair, on
    // 1,000 random boards a shape, solve()'s length over the proven bound:
    // 5x5 1.923 -> 1.845, 6x6 2.260 -> 2.143 with pairs on regions of at
    // most 40 cells; then on every region, 8x8 2.413 -> 2.378, 10x10
    // 2.524 -> 2.475 (docs/performance.md).
    int i = 0;
    if (len % 2 == 1) plan.units.push_back(Unit{line[i++]});
    for (; i < len; i += 2) {
      plan.units.push_back(Unit{line[i], line[i + 1], line[0]});
    }
  }
  plan.last = r;
  std::fill(plan.unit_of.begin(), plan.unit_of.end(), static_cast<int>(plan.units.size()));
  for (std::size_t k = 0; k < plan.units.size(); ++k) {
    plan.unit_of[plan.units[k].a] = static_cast<int>(k);
    if (plan.units[k].b >= 0) plan.unit_of[plan.units[k].b] = static_cast<int>(k);
  }
  return plan;
}

Mask region_of(const Geometry& g, const Plan& plan, std::size_t k) {
  Mask region{};
  std::fill(region.begin(), region.begin() + g.cells, std::uint8_t{1});
  for (std::size_t i = 0; i < k; ++i) {
    region[plan.units[i].a] = 0;
    if (plan.units[i].b >= 0) region[plan.units[i].b] = 0;
  }
  return region;
}

Mask weights_of(const Geometry& g, const Plan& plan, std::size_t k) {
  Mask w{};
  for (int t = 0; t < g.cells; ++t) {
    const int ahead = plan.unit_of[t] - static_cast<int>(k);
    w[t] = static_cast<std::uint8_t>(ahead <= 1             ? kNextWeight
                                     : ahead <= kSoonUnits  ? kSoonWeight
                                     : ahead <= kLaterUnits ? kLaterWeight
                                                            : 1);
  }
  return w;
}

KeyTiles key_tiles_of(const Plan& plan, std::size_t k) {
  KeyTiles keys;
  keys.fill(-1);
  for (std::size_t i = 0; i < keys.size() && k + 1 + i < plan.units.size(); ++i) {
    keys[i] = plan.units[k + 1 + i].a;
  }
  return keys;
}

std::size_t units_in_place(const Plan& plan, const State& s) {
  std::size_t k = 0;
  while (k < plan.units.size() && in_place(s, plan.units[k])) ++k;
  return k;
}

Step plan_unit(const Geometry& g, const State& s, const Mask& region, const Mask& weight,
               const KeyTiles& keys, const Unit& u) {
  if (u.b >= 0) return plan_pair(g, s, region, weight, keys, u);
  Query q;
  q.g = &g;
  q.allowed = region;
  q.tracked = 1;
  q.tile[0] = s.where[u.a];
  q.blank = s.blank();
  q.target[0][u.a] = 1;
  q.weight = weight;
  q.key_tiles = keys;
  auto path = best_shortest_path(q, s);
  // A tile reaches any cell of a region at least 2x2 (a line's prefix less).
  assert(path.has_value());
  return Step{0, path ? std::move(*path) : std::vector<Move>{}};
}

}  // namespace eight::reduction
