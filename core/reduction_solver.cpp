#include "reduction_solver.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdlib>
#include <limits>

#include "duplicate_paths.h"
#include "line_conflicts.h"

namespace eight::reduction {
namespace {

constexpr int kMaxBoardCells = kMaxSide * kMaxSide;
// A set of cells: 1 on the cells in it.
using Mask = std::array<std::uint8_t, kMaxBoardCells>;

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
// best_shortest_path() keeps a path for each cell of the next units' first
// tiles, this many of them. Measured on 100 random 10x10 boards: 2.666
// length/(MD+LC) keeping one path a state, 2.651 with one tile, 2.631 with
// two, 2.622 with three (2.620 with four).
constexpr int kKeyTiles = 3;
// The window shorten_windows() re-solves. Measured on 100 random 10x10
// boards: the mean length/(MD+LC) 2.75 with no window, 2.73 with 16 moves,
// 2.71 with 20 (10 ms a board), 2.68 with 24 (18 ms), 2.65 with 32 (70 ms).
// With the choice among shortest paths as it is now: 2.62 with 20 (10.6 ms,
// at most 18), 2.60 with 24 (17.6 ms, at most 26): the 50 ms a board allowed
// goes to the length, which is further from its aim. Since the window search
// skips duplicate paths (duplicate_paths.h), 1,000 boards: 2.550 with 26
// (19.2 ms, at most 33.8), 2.541 with 28 (25.5 ms, at most 43.1); 100
// boards: 2.537 with 32 (49 ms, at most 69). 26 leaves the slowest answer
// a third under the 50 ms floor; 28 would leave it 14%, less than this
// machine drifts between runs. (Later this machine ran about twice as slow,
// and the searches were made cheaper without changing a path: 1,000 boards
// at 33.4 ms, at most 41.8, in a quiet run; docs/performance.md.)
constexpr int kWindow = 26;
// The last region's distance is at most 31 (3x3) or 36 (2x4): IDA* never
// needs a bound past this one, which stops it on a board that breaks the
// REQUIRES.
constexpr int kMaxLastBound = 80;

// The board's shape and each cell's neighbour in each move's direction.
struct Geometry {
  Geometry(int rows_in, int cols_in) : rows(rows_in), cols(cols_in), cells(rows_in * cols_in) {
    for (int c = 0; c < cells; ++c) {
      const int r = c / cols, k = c % cols;
      row_of[c] = static_cast<std::int8_t>(r);
      col_of[c] = static_cast<std::int8_t>(k);
      nbr[c][static_cast<int>(Move::kUp)] = static_cast<std::int8_t>(r > 0 ? c - cols : -1);
      nbr[c][static_cast<int>(Move::kDown)] =
          static_cast<std::int8_t>(r + 1 < rows ? c + cols : -1);
      nbr[c][static_cast<int>(Move::kLeft)] = static_cast<std::int8_t>(k > 0 ? c - 1 : -1);
      nbr[c][static_cast<int>(Move::kRight)] = static_cast<std::int8_t>(k + 1 < cols ? c + 1 : -1);
    }
  }
  // Looked up, not divided: the window searches ask them most of the time.
  int row(int c) const { return row_of[c]; }
  int col(int c) const { return col_of[c]; }
  // The Manhattan distance between two cells.
  int distance(int a, int b) const {
    return std::abs(row_of[a] - row_of[b]) + std::abs(col_of[a] - col_of[b]);
  }

  int rows, cols, cells;
  std::array<std::array<std::int8_t, 4>, kMaxBoardCells> nbr{};  // -1: off the board
  std::array<std::int8_t, kMaxBoardCells> row_of{}, col_of{};
};

// A board with every tile renamed to its goal cell, so that tile t is home
// when it is on cell t and the goal is the identity. The blank is the tile
// named after the goal's blank cell.
struct State {
  int blank() const { return where[blank_tile]; }
  void apply(const Geometry& g, Move m) {
    const int e = blank();
    const int e2 = g.nbr[e][static_cast<int>(m)];
    assert(e2 >= 0);
    const std::uint8_t t = at[e2];
    at[e] = t;
    where[t] = static_cast<std::uint8_t>(e);
    at[e2] = static_cast<std::uint8_t>(blank_tile);
    where[blank_tile] = static_cast<std::uint8_t>(e2);
  }

  std::array<std::uint8_t, kMaxBoardCells> at{};     // the tile on each cell
  std::array<std::uint8_t, kMaxBoardCells> where{};  // the cell of each tile
  int blank_tile = 0;
};

// For the asserts (hence maybe_unused: unused under NDEBUG), as is_solvable().
[[maybe_unused]] bool is_permutation(std::span<const std::uint8_t> cells) {
  std::array<bool, kMaxBoardCells> seen{};
  for (const std::uint8_t t : cells) {
    if (t >= cells.size() || seen[t]) return false;
    seen[t] = true;
  }
  return true;
}

// start renamed by goal (State). REQUIRES: the shape and the permutations.
State rename(int rows, int cols, std::span<const std::uint8_t> start,
             std::span<const std::uint8_t> goal) {
  assert(rows >= kMinSide && rows <= kMaxSide && cols >= kMinSide && cols <= kMaxSide);
  const std::size_t n = static_cast<std::size_t>(rows * cols);
  assert(start.size() == n && goal.size() == n);
  assert(is_permutation(start) && is_permutation(goal));
  std::array<std::uint8_t, kMaxBoardCells> home{};
  for (std::size_t c = 0; c < n; ++c) home[goal[c]] = static_cast<std::uint8_t>(c);
  State s;
  for (std::size_t c = 0; c < n; ++c) {
    s.at[c] = home[start[c]];
    s.where[s.at[c]] = static_cast<std::uint8_t>(c);
  }
  s.blank_tile = home[0];
  return s;
}

// Whether the renamed board can reach the identity: a move is a
// transposition of the blank with a tile and moves the blank by one cell, so
// the permutation's parity and that of the blank's distance from home change
// together, and on a board of at least 2x2 that is the only invariant.
[[maybe_unused]] bool is_solvable(const Geometry& g, const State& s) {
  std::array<bool, kMaxBoardCells> seen{};
  int transpositions = 0;
  for (int c = 0; c < g.cells; ++c) {
    if (seen[c]) continue;
    int length = 0;
    for (int x = c; !seen[x]; x = s.at[x]) {
      seen[x] = true;
      ++length;
    }
    transpositions += length - 1;
  }
  const int e = s.blank(), home = s.blank_tile;
  const int distance = std::abs(g.row(e) - g.row(home)) + std::abs(g.col(e) - g.col(home));
  return transpositions % 2 == distance % 2;
}

// ---------------------------------------------------------------------------
// The restricted model's search.

constexpr std::array<int, kKeyTiles> minus_ones() {
  std::array<int, kKeyTiles> a{};
  for (int& x : a) x = -1;
  return a;
}

// A breadth-first search whose state is the blank and up to two tracked
// tiles, all moving inside `allowed`; the other tiles are not told apart.
// Moves are legal moves of the real board, so a path found here is one there.
struct Query {
  const Geometry* g = nullptr;
  Mask allowed{};                // the cells the blank and the tracked tiles may be on
  int tracked = 0;               // 0, 1 or 2
  std::array<int, 2> tile{};     // the tracked tiles' cells
  int blank = 0;                 // the blank's cell
  std::array<Mask, 2> target{};  // tracked >= 1: tile i must end on one of these
  Mask blank_target{};           // tracked == 0: the blank must end on one of these
  Mask weight{};                 // each tile's weight in the Manhattan distance
  std::array<int, kKeyTiles> key_tiles = minus_ones();  // best_shortest_path(); -1: none
};

// The query's model, its allowed cells numbered densely (local cells): a
// state is e + n * (t0 + n * t1) for the blank's local cell e and the tracked
// tiles' t0 and t1 (0 when not tracked), n^(tracked+1) of them.
struct Model {
  explicit Model(const Query& q) : tracked(q.tracked) {
    assert(tracked >= 0 && tracked <= 2);
    const Geometry& g = *q.g;
    local.fill(-1);
    for (int c = 0; c < g.cells; ++c) {
      if (q.allowed[c]) {
        local[c] = static_cast<std::int8_t>(n);
        global[n++] = static_cast<std::uint8_t>(c);
      }
    }
    for (int i = 0; i < n; ++i) {
      for (int m = 0; m < 4; ++m) {
        const int c2 = g.nbr[global[i]][m];
        nb[i][m] = c2 >= 0 ? local[c2] : std::int8_t{-1};
      }
      goal0[i] = q.target[0][global[i]];
      goal1[i] = q.target[1][global[i]];
      goal_blank[i] = q.blank_target[global[i]];
    }
    states = static_cast<std::size_t>(n);
    for (int i = 0; i < tracked; ++i) states *= static_cast<std::size_t>(n);
    inverse = static_cast<std::uint32_t>(((std::uint64_t{1} << 32) + static_cast<unsigned>(n) - 1) /
                                         static_cast<unsigned>(n));
  }

  std::uint32_t encode(int e, int t0, int t1) const {
    return static_cast<std::uint32_t>(e + n * (t0 + n * t1));
  }
  void decode(std::uint32_t s, int& e, int& t0, int& t1) const {
    const std::uint32_t un = static_cast<std::uint32_t>(n);
    const std::uint32_t q = quotient(s);
    e = static_cast<int>(s - q * un);
    t1 = static_cast<int>(quotient(q));
    t0 = static_cast<int>(q - static_cast<std::uint32_t>(t1) * un);
  }
  // x / n by a multiplication (the searches decode every state they visit):
  // exact for x < 2^32 / n, as every state is (x < n^3 <= 10^6, n <= 100),
  // since the error of `inverse` is under n / 2^32.
  std::uint32_t quotient(std::uint32_t x) const {
    return static_cast<std::uint32_t>((std::uint64_t{x} * inverse) >> 32);
  }
  bool is_goal(int e, int t0, int t1) const {
    switch (tracked) {
      case 0:
        return goal_blank[e] != 0;
      case 1:
        return goal0[t0] != 0 && e != t0;
      default:
        return goal0[t0] != 0 && goal1[t1] != 0 && e != t0 && e != t1 && t0 != t1;
    }
  }
  // Moves the blank by m, carrying the tracked tile it lands on; false when m
  // leaves the allowed cells. kTracked is `tracked` where the caller knows
  // it as a constant (the breadth-first search's loop, whose tests of it
  // then fold away), -1 to read it.
  template <int kTracked = -1>
  bool step(int m, int& e, int& t0, int& t1) const {
    assert(kTracked < 0 || kTracked == tracked);
    const int k = kTracked >= 0 ? kTracked : tracked;
    const int e2 = nb[e][m];
    if (e2 < 0) return false;
    if (k >= 1 && t0 == e2) {
      t0 = e;
    } else if (k == 2 && t1 == e2) {
      t1 = e;
    }
    e = e2;
    return true;
  }

  int tracked;
  int n = 0;
  std::size_t states = 0;
  std::uint32_t inverse = 0;                      // ceil(2^32 / n)
  std::array<std::int8_t, kMaxBoardCells> local;  // -1: not allowed
  std::array<std::uint8_t, kMaxBoardCells> global{};
  std::array<std::array<std::int8_t, 4>, kMaxBoardCells> nb{};  // -1: not allowed
  std::array<std::uint8_t, kMaxBoardCells> goal0{}, goal1{}, goal_blank{};
};

// A node of the shortest paths' graph, with the best path found to it.
struct Node {
  std::uint32_t state;
  std::uint32_t key;     // the cells of the query's key tiles, a byte each
  std::int32_t parent;   // -1 for the start
  std::int32_t cost;     // the real board's weighted Manhattan distance change so far
  std::int32_t sibling;  // the next node of the same state, -1 for none
  Move move;             // the move from the parent
};

using KeyTiles = std::array<int, kKeyTiles>;

// Scratch space of the searches, kept between calls so that a search pays
// only for the states it reaches: a state's distance (node) is known in this
// search when its stamp (node_stamp) is the search's generation.
struct Scratch {
  // A state's stamp and distance side by side: the breadth-first search
  // reads one and writes both, a cache miss each when apart.
  struct Seen {
    std::uint32_t stamp;
    std::uint16_t distance;  // to the nearest target state
  };
  std::vector<Seen> seen;
  std::vector<std::uint32_t> node_stamp;
  std::vector<std::uint32_t> node_of;  // the state's index in nodes
  std::vector<std::uint32_t> queue;
  std::vector<Node> nodes;
  std::vector<std::array<std::uint8_t, kMaxBoardCells>> boards;  // the real board at each node
  std::uint32_t generation = 0;
};
// One a thread, kept for the thread's life. Tried and not kept: a Scratch
// made by each call and handed down. For 1,000 10x10 boards it faulted
// 15,040 pages against 1,390 (its memory went back to the system between
// calls and was faulted in again): 2% more time a board, and 6 to 14% more
// on the slowest, the one the 50 ms floor is about.
// Nothing passes between calls through it: a search reads only what its own
// generation stamped. It grows to the largest search the thread has run
// (100^2 states for one tile on 10x10, 40^3 for a pair); the grid bench's
// whole process, 10x10, peaks at 7 MB resident.
thread_local Scratch scratch;

// Breadth first from the query's targets (moves are reversible) until the
// start is found. Every state nearer the targets than the start then has its
// distance in sc.seen, stamped with sc.generation (so do the start and the
// states of its distance found before it). False when the start cannot be
// reached.
// The count of tracked tiles is a template argument so that the loop, half
// of a 10x10 answer's time, does not test it at every step.
template <int kTracked>
bool distances_to_targets(const Model& model, Scratch& sc, std::uint32_t start) {
  assert(model.tracked == kTracked);
  const std::uint32_t gen = sc.generation;
  const int n = model.n;
  Scratch::Seen* const seen = sc.seen.data();
  // Each state is queued once at most.
  if (sc.queue.size() < model.states) sc.queue.resize(model.states);
  std::uint32_t* const queue = sc.queue.data();
  std::size_t tail = 0;
  // The targets, in increasing order of state: each tracked tile on its
  // targets, the blank anywhere else.
  const int n0 = kTracked >= 1 ? n : 1, n1 = kTracked >= 2 ? n : 1;
  for (int t1 = 0; t1 < n1; ++t1) {
    if (kTracked >= 2 && !model.goal1[t1]) continue;
    for (int t0 = 0; t0 < n0; ++t0) {
      if (kTracked >= 1 && !model.goal0[t0]) continue;
      for (int e = 0; e < n; ++e) {
        if (!model.is_goal(e, t0, t1)) continue;
        const std::uint32_t x = model.encode(e, t0, t1);
        seen[x] = {gen, 0};
        queue[tail++] = x;
      }
    }
  }
  for (std::size_t head = 0; head < tail; ++head) {
    const std::uint32_t x = queue[head];
    int e = static_cast<int>(x), t0 = 0, t1 = 0;
    if constexpr (kTracked >= 1) model.decode(x, e, t0, t1);
    const auto next = static_cast<std::uint16_t>(seen[x].distance + 1);
    for (int m = 0; m < 4; ++m) {
      int e2 = e, u0 = t0, u1 = t1;
      if (!model.step<kTracked>(m, e2, u0, u1)) continue;
      const std::uint32_t x2 = model.encode(e2, u0, u1);
      if (seen[x2].stamp == gen) continue;
      seen[x2] = {gen, next};
      queue[tail++] = x2;
      if (x2 == start) return true;
    }
  }
  return false;
}

// A shortest path from the query's state to one of its targets, or nullopt
// when none can be reached. Of the shortest paths it takes one that leaves
// the real board `s` with little Manhattan distance, so that the tiles the
// blank pushes aside on the way end nearer their homes rather than farther
// (weighted: Query::weight): the model cannot tell the other tiles apart, the
// board can. The choice is greedy, each state of the shortest paths' graph
// keeping the best path found to it for each placement of the key tiles (so
// that a path which leaves the next units' tiles well placed is not dropped
// for one that only looks better now), and always the same for the same
// board. Bounded by the state space: at most 100^3 states, each with at most
// as many nodes as paths reach it.
std::optional<std::vector<Move>> best_shortest_path(const Query& q, const State& s) {
  const Geometry& g = *q.g;
  const Model model(q);
  assert(q.allowed[q.blank]);
  const int e0 = model.local[q.blank];
  const int t00 = model.tracked >= 1 ? model.local[q.tile[0]] : 0;
  const int t10 = model.tracked >= 2 ? model.local[q.tile[1]] : 0;
  assert(t00 >= 0 && t10 >= 0);
  if (model.is_goal(e0, t00, t10)) return std::vector<Move>{};
  const std::uint32_t start = model.encode(e0, t00, t10);

  Scratch& sc = scratch;
  if (sc.seen.size() < model.states) {
    sc.seen.resize(model.states, Scratch::Seen{0, 0});
    sc.node_stamp.resize(model.states, 0);
    sc.node_of.resize(model.states, 0);
  }
  if (++sc.generation == 0) {
    std::fill(sc.seen.begin(), sc.seen.end(), Scratch::Seen{0, 0});
    std::fill(sc.node_stamp.begin(), sc.node_stamp.end(), 0);
    sc.generation = 1;
  }
  const std::uint32_t gen = sc.generation;

  const bool reached = model.tracked == 0   ? distances_to_targets<0>(model, sc, start)
                       : model.tracked == 1 ? distances_to_targets<1>(model, sc, start)
                                            : distances_to_targets<2>(model, sc, start);
  if (!reached) return std::nullopt;

  // Forward from the start over the moves that bring a target one nearer,
  // one distance layer at a time, with the real board along the best path.
  std::vector<Node>& nodes = sc.nodes;
  nodes.clear();
  sc.boards.clear();
  std::uint32_t start_key = 0;
  for (int i = 0; i < kKeyTiles; ++i) {
    if (q.key_tiles[i] >= 0) start_key |= std::uint32_t{s.where[q.key_tiles[i]]} << (8 * i);
  }
  nodes.push_back(Node{start, start_key, -1, 0, -1, Move::kUp});
  sc.boards.push_back(s.at);
  sc.node_stamp[start] = gen;
  sc.node_of[start] = 0;
  std::size_t layer_begin = 0, layer_end = 1;
  for (int left = sc.seen[start].distance; left > 0; --left) {
    for (std::size_t v = layer_begin; v < layer_end; ++v) {
      int e, t0, t1;
      model.decode(nodes[v].state, e, t0, t1);
      for (int m = 0; m < 4; ++m) {
        int e2 = e, u0 = t0, u1 = t1;
        if (!model.step(m, e2, u0, u1)) continue;
        const std::uint32_t x2 = model.encode(e2, u0, u1);
        if (sc.seen[x2].stamp != gen || sc.seen[x2].distance != left - 1) continue;
        // The tile on the blank's next cell comes to the blank's cell.
        const int from = model.global[e2], to = model.global[e];
        const int tile = sc.boards[v][from];
        const int cost = nodes[v].cost + q.weight[tile] * (std::abs(g.row(tile) - g.row(to)) +
                                                           std::abs(g.col(tile) - g.col(to)) -
                                                           std::abs(g.row(tile) - g.row(from)) -
                                                           std::abs(g.col(tile) - g.col(from)));
        std::uint32_t key = nodes[v].key;
        for (int i = 0; i < kKeyTiles; ++i) {
          if (tile == q.key_tiles[i]) {
            key = (key & ~(0xFFu << (8 * i))) | static_cast<std::uint32_t>(to) << (8 * i);
          }
        }
        // The state's node with this key, or a new one.
        const bool seen = sc.node_stamp[x2] == gen;
        std::int32_t w = seen ? static_cast<std::int32_t>(sc.node_of[x2]) : -1;
        while (w >= 0 && nodes[w].key != key) w = nodes[w].sibling;
        if (w < 0) {
          w = static_cast<std::int32_t>(nodes.size());
          nodes.push_back(Node{x2, key, 0, 0, seen ? static_cast<std::int32_t>(sc.node_of[x2]) : -1,
                               Move::kUp});
          sc.boards.emplace_back();
          sc.node_stamp[x2] = gen;
          sc.node_of[x2] = static_cast<std::uint32_t>(w);
        } else if (nodes[w].cost <= cost) {
          continue;
        }
        nodes[w].parent = static_cast<std::int32_t>(v);
        nodes[w].cost = cost;
        nodes[w].move = static_cast<Move>(m);
        sc.boards[w] = sc.boards[v];
        sc.boards[w][to] = static_cast<std::uint8_t>(tile);
        sc.boards[w][from] = static_cast<std::uint8_t>(s.blank_tile);
      }
    }
    layer_begin = layer_end;
    layer_end = nodes.size();
  }
  // The last layer holds the targets reached by shortest paths.
  std::size_t best = layer_begin;
  for (std::size_t v = layer_begin; v < layer_end; ++v) {
    if (nodes[v].cost < nodes[best].cost) best = v;
  }
  std::vector<Move> path;
  for (std::int32_t v = static_cast<std::int32_t>(best); nodes[v].parent >= 0;
       v = nodes[v].parent) {
    path.push_back(nodes[v].move);
  }
  std::reverse(path.begin(), path.end());
  return path;
}
// ---------------------------------------------------------------------------
// The plan: which units, in which order, and the last region.

// Rows [r0, r1) and columns [c0, c1).
struct Rect {
  int r0, r1, c0, c1;
  int height() const { return r1 - r0; }
  int width() const { return c1 - c0; }
};

// One tile (b < 0) or two neighbouring tiles of a line placed together,
// named by their home cells (which are their names in a State). A pair also
// names its line's first cell (plan_pair()'s window).
struct Unit {
  int a;
  int b = -1;
  int line_start = -1;
};

struct Plan {
  std::vector<Unit> units;
  // The unit of each tile; units.size() for the last region's tiles.
  std::array<int, kMaxBoardCells> unit_of{};
  Rect last;  // the region left, solved optimally
};

// Small enough for IDA* in well under a millisecond.
bool is_last_region(int h, int w) {
  return (h <= 3 && w <= 3) || (std::min(h, w) == 2 && std::max(h, w) <= 4);
}

// The units depend on the shape and the goal's blank cell only, never on the
// board: that is what makes "the first unit not in place" a measure.
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

bool in_place(const State& s, const Unit& u) {
  return s.at[u.a] == u.a && (u.b < 0 || s.at[u.b] == u.b);
}

// The cells not placed before unit k: the unit's region.
Mask region_of(const Geometry& g, const Plan& plan, std::size_t k) {
  Mask region{};
  std::fill(region.begin(), region.begin() + g.cells, std::uint8_t{1});
  for (std::size_t i = 0; i < k; ++i) {
    region[plan.units[i].a] = 0;
    if (plan.units[i].b >= 0) region[plan.units[i].b] = 0;
  }
  return region;
}

// The weights of the tiles' Manhattan distances while unit k is placed: the
// tiles of the next unit or two count most, those of the next lines more than
// the rest, which will be pushed about many times before their turn. Chosen
// on 100 random boards of 6x6 and 10x10 each: 10x10's mean length/(MD+LC)
// 2.82 with weights all 1, 2.76 with 3 for the next 8 units, 2.75 with 6 for
// the next unit as well; 1.5% of a ratio either way for the other weights
// tried. Then 2 for the units 9 to 20 ahead as well: 2.687 -> 2.666 (6x6
// 2.423 -> 2.415), with the lines placed from the end nearer the blank.
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

// The first tiles of the units after k.
KeyTiles key_tiles_of(const Plan& plan, std::size_t k) {
  KeyTiles keys;
  keys.fill(-1);
  for (std::size_t i = 0; i < keys.size() && k + 1 + i < plan.units.size(); ++i) {
    keys[i] = plan.units[k + 1 + i].a;
  }
  return keys;
}

// The count of leading units in place: the first one not in place.
std::size_t units_in_place(const Plan& plan, const State& s) {
  std::size_t k = 0;
  while (k < plan.units.size() && in_place(s, plan.units[k])) ++k;
  return k;
}

// ---------------------------------------------------------------------------
// One unit's moves.

// Where a unit stands and the moves to follow: a shortest path in the model
// of its current phase (rank, lower is later); following all of it ends the
// phase.
struct Step {
  int rank = 0;
  std::vector<Move> path;
};

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

// REQUIRES: !in_place(s, u), region is the unit's.
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

// ---------------------------------------------------------------------------
// Manhattan distance plus linear conflicts, and the last region's IDA*.

// Of the tiles in r (whose homes are in r too, or the conflicts are still a
// bound but a weaker one): each tile's Manhattan distance, plus two moves for
// each tile that must leave its line for the tiles of that line homed in it
// to pass each other (the line's length less its longest increasing run of
// homes: those tiles never pass each other within the line). A tile counted in
// its row and in its column needs both a vertical and a horizontal detour,
// which the distance does not count: the sum is admissible.
int md_lc(const Geometry& g, const State& s, const Rect& r) {
  int sum = 0;
  for (int row = r.r0; row < r.r1; ++row) {
    for (int col = r.c0; col < r.c1; ++col) {
      const int t = s.at[row * g.cols + col];
      if (t == s.blank_tile) continue;
      sum += std::abs(g.row(t) - row) + std::abs(g.col(t) - col);
    }
  }
  // The line's homes in order, and grid::removals() (line_conflicts.h),
  // the one count of the tiles that must leave a line.
  std::array<std::uint8_t, kMaxSide> homes{};
  for (int row = r.r0; row < r.r1; ++row) {
    int n = 0;
    for (int col = r.c0; col < r.c1; ++col) {
      const int t = s.at[row * g.cols + col];
      if (t != s.blank_tile && g.row(t) == row) homes[n++] = static_cast<std::uint8_t>(g.col(t));
    }
    sum += 2 * grid::removals(homes.data(), n);
  }
  for (int col = r.c0; col < r.c1; ++col) {
    int n = 0;
    for (int row = r.r0; row < r.r1; ++row) {
      const int t = s.at[row * g.cols + col];
      if (t != s.blank_tile && g.col(t) == col) homes[n++] = static_cast<std::uint8_t>(g.row(t));
    }
    sum += 2 * grid::removals(homes.data(), n);
  }
  return sum;
}

// IDA* over the last region, whose tiles are all homed in it. Its recursion
// is as deep as the path it finds, at most kMaxLastBound.
class LastRegion {
 public:
  LastRegion(const Geometry& g, const State& s, const Rect& r) : g_(g), s_(s), r_(r) {}

  // An optimal path inside the region (the first found with moves tried in
  // kAllMoves order, so always the same one).
  std::vector<Move> solve() {
    for (int bound = md_lc(g_, s_, r_); bound <= kMaxLastBound; bound = next_bound_) {
      next_bound_ = std::numeric_limits<int>::max();
      path_.clear();
      if (search(0, bound, -1, DuplicatePaths::kStart)) return path_;
    }
    assert(false && "the last region cannot be solved: the board breaks the REQUIRES");
    return {};
  }

 private:
  bool inside(int c) const {
    const int row = g_.row(c), col = g_.col(c);
    return row >= r_.r0 && row < r_.r1 && col >= r_.c0 && col < r_.c1;
  }

  // `state` is the duplicate-path machine's after the path so far.
  bool search(int depth, int bound, int previous, int state) {
    const int h = md_lc(g_, s_, r_);
    if (depth + h > bound) {
      next_bound_ = std::min(next_bound_, depth + h);
      return false;
    }
    if (h == 0) return true;  // every tile home, so the blank too
    for (int m = 0; m < 4; ++m) {
      if (previous >= 0 && m == (previous ^ 1)) continue;
      const Move move = static_cast<Move>(m);
      // Nor a path that an earlier or shorter one reaches the same board by
      // (the rules hold inside any rectangle).
      const int next_state = duplicate_paths_.next(state, move);
      if (next_state == DuplicatePaths::kPruned) continue;
      const int e2 = g_.nbr[s_.blank()][m];
      if (e2 < 0 || !inside(e2)) continue;
      s_.apply(g_, move);
      path_.push_back(move);
      if (search(depth + 1, bound, m, next_state)) return true;
      path_.pop_back();
      s_.apply(g_, opposite(move));
    }
    return false;
  }

  const Geometry& g_;
  const DuplicatePaths& duplicate_paths_ = DuplicatePaths::get();
  State s_;
  Rect r_;
  std::vector<Move> path_;
  int next_bound_ = 0;
};

// ---------------------------------------------------------------------------
// The plan's first move and its measure, shared by first_move() and progress().

struct Standing {
  std::size_t units_left = 0;
  int rank = 0;
  std::vector<Move> path;  // the current phase's, or the last region's
};

Standing standing(const Geometry& g, const Plan& plan, const State& s) {
  const std::size_t k = units_in_place(plan, s);
  Standing out;
  out.units_left = plan.units.size() - k;
  if (k < plan.units.size()) {
    Step step = plan_unit(g, s, region_of(g, plan, k), weights_of(g, plan, k),
                          key_tiles_of(plan, k), plan.units[k]);
    out.rank = step.rank;
    out.path = std::move(step.path);
  } else {
    out.path = LastRegion(g, s, plan.last).solve();
  }
  return out;
}

// Cancels each move followed by its opposite, repeatedly (a stack does it in
// one pass), keeping the first move.
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

// The Manhattan distance from `s` to `t`, tile by tile, the blank aside.
int manhattan_between(const Geometry& g, const State& s, const State& t) {
  int h = 0;
  for (int c = 0; c < g.cells; ++c) {
    const int tile = s.at[c];
    if (tile != s.blank_tile) h += g.distance(t.where[tile], c);
  }
  return h;
}

// Depth-first search with iterative deepening (Manhattan distance) for a path
// between two boards shorter than a window of the plan joining them. Its
// recursion is as deep as the window; it gives up past a node budget, so one
// window costs some ten microseconds at most. On 10x10 three windows in four
// pass the distance filter of shorten_windows() and one in sixty is shortened,
// by two moves on average: the searches are most of the time it adds.
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
    // Every move changes the distance by one, so paths between the two boards
    // all have the parity of `limit`.
    for (int bound = h_; bound <= limit - 2; bound += 2) {
      path_.clear();
      if (search(0, h_, bound, -1, DuplicatePaths::kStart)) return path_;
      if (nodes_ > kWindowBudget) break;
    }
    return std::nullopt;
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

  // `state` is the duplicate-path machine's after the path so far.
  // REQUIRES: depth + h <= bound (the caller prunes a child past the bound
  // before it makes the move: most children are, and a call costs more).
  bool search(int depth, int h, int bound, int previous, int state) {
    assert(depth + h <= bound);
    if (h == 0) return true;  // every tile where `to` has it, so the blank too
    if (++nodes_ > kWindowBudget) return false;
    const int e = blank_;
    for (int m = 0; m < 4; ++m) {
      if (previous >= 0 && m == (previous ^ 1)) continue;
      const Move move = static_cast<Move>(m);
      // Nor a path that an earlier or shorter one reaches the same board by.
      const int next_state = duplicate_paths_.next(state, move);
      if (next_state == DuplicatePaths::kPruned) continue;
      const int e2 = g_.nbr[e][m];
      if (e2 < 0) continue;
      const std::uint8_t tile = at_[e2];
      const int h2 = h + change(tile, e2, e);
      if (depth + 1 + h2 > bound) continue;
      at_[e] = tile;
      at_[e2] = static_cast<std::uint8_t>(blank_tile_);
      blank_ = e2;
      path_.push_back(move);
      if (search(depth + 1, h2, bound, m, next_state)) return true;
      path_.pop_back();
      at_[e2] = tile;
      at_[e] = static_cast<std::uint8_t>(blank_tile_);
      blank_ = e;
    }
    return false;
  }

  const Geometry& g_;
  const DuplicatePaths& duplicate_paths_ = DuplicatePaths::get();
  // The board searched from: the tile on each cell and the blank's cell
  // (State's `where` is not kept: the search never asks where a tile is).
  std::array<std::uint8_t, kMaxBoardCells> at_;
  int blank_;
  int blank_tile_;
  int h_;
  std::array<std::int8_t, kMaxBoardCells> goal_row_{}, goal_col_{};
  std::vector<Move> path_;
  int nodes_ = 0;
};

// Replaces each window of `window` moves of the path, after its first move,
// by a shorter path between the same two boards when the search above finds
// one. `s` is the board the path starts from. The window's two ends slide
// along the path a move at a time, and the Manhattan distance between them
// with them: a slide changes it by the two tiles that move, so no window
// replays its moves or sums its hundred cells (the three were a fifth of a
// 10x10 answer's time).
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
    const int e = moving.blank(), e2 = g.nbr[e][static_cast<int>(m)];
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

// The plan's path from `s`, not improved: each unit placed in turn, then
// the last region solved.
std::vector<Move> plan_path(const Geometry& g, State s) {
  const Plan plan = make_plan(g, s.blank_tile);
  std::vector<Move> path;
  Mask region{};
  std::fill(region.begin(), region.begin() + g.cells, std::uint8_t{1});
  for (std::size_t k = 0; k < plan.units.size(); ++k) {
    const Unit& u = plan.units[k];
    const Mask weight = weights_of(g, plan, k);
    const KeyTiles keys = key_tiles_of(plan, k);
    // A unit has at most four phases, each ended by its path, and a fallback.
    for (int round = 0; round < 8 && !in_place(s, u); ++round) {
      const Step step = plan_unit(g, s, region, weight, keys, u);
      for (const Move m : step.path) s.apply(g, m);
      path.insert(path.end(), step.path.begin(), step.path.end());
    }
    assert(in_place(s, u));
    region[u.a] = 0;
    if (u.b >= 0) region[u.b] = 0;
  }
  const std::vector<Move> last = LastRegion(g, s, plan.last).solve();
  path.insert(path.end(), last.begin(), last.end());
  return path;
}

// A symmetry of the rectangle: its rows reversed, its columns reversed, then
// transposed (a square's only). The plan is not symmetric (which side it
// peels, which end of a line it starts from), so the same board seen turned
// gets another path, sometimes shorter.
struct Orientation {
  bool flip_rows = false;
  bool flip_cols = false;
  bool transpose = false;

  // The cell of the turned board (shape `g`'s turned) that cell c goes to.
  int cell(const Geometry& g, int c) const {
    int r = g.row(c), k = g.col(c);
    if (flip_rows) r = g.rows - 1 - r;
    if (flip_cols) k = g.cols - 1 - k;
    return transpose ? k * g.rows + r : r * g.cols + k;
  }
  // The move on the board that a move `m` of the turned board is.
  Move back(Move m) const {
    int dr = kMoveRowDelta[static_cast<int>(m)], dc = kMoveColDelta[static_cast<int>(m)];
    if (transpose) std::swap(dr, dc);
    if (flip_rows) dr = -dr;
    if (flip_cols) dc = -dc;
    return dr < 0 ? Move::kUp : dr > 0 ? Move::kDown : dc < 0 ? Move::kLeft : Move::kRight;
  }
};
// The other orientation solve() tries: a square's transpose (rows placed
// where the identity places columns), else the board turned half a turn.
// Measured on 100 random 10x10 boards (length/(MD+LC), ms a board): 2.613 and
// 19.9 with the identity alone, 2.564 and 23.9 with its transpose too, 2.58
// with the half turn instead, 2.55 and 27 to 29 with a third orientation
// (any), 2.524 and 58 with all eight: a second one is most of the gain.
constexpr Orientation kTransposed{false, false, true};
constexpr Orientation kHalfTurn{true, true, false};

// `s` on the board turned by `o` (whose geometry the caller makes). A tile
// is named by its goal cell (State), so the names turn too.
State orient(const Geometry& g, const State& s, const Orientation& o) {
  State t;
  for (int c = 0; c < g.cells; ++c) {
    const int to = o.cell(g, c);
    const auto tile = static_cast<std::uint8_t>(o.cell(g, s.at[c]));
    t.at[to] = tile;
    t.where[tile] = static_cast<std::uint8_t>(to);
  }
  t.blank_tile = o.cell(g, s.blank_tile);
  return t;
}

}  // namespace

std::vector<Move> solve(int rows, int cols, std::span<const std::uint8_t> start,
                        std::span<const std::uint8_t> goal) {
  const Geometry g(rows, cols);
  const State s = rename(rows, cols, start, goal);
  assert(is_solvable(g, s));
  std::vector<Move> path = plan_path(g, s);
  cancel_inverse_pairs(path);
  if (path.empty()) return path;
  // The first move is the plan's (first_move()): the hint, which must be
  // this plan's for progress() to fall along hints. After it, the plan of
  // another orientation of the board is tried too, and the shorter kept.
  State after = s;
  after.apply(g, path[0]);
  const Orientation& o = rows == cols ? kTransposed : kHalfTurn;
  const Geometry turned(o.transpose ? cols : rows, o.transpose ? rows : cols);
  std::vector<Move> other = plan_path(turned, orient(g, after, o));
  for (Move& m : other) m = o.back(m);
  other.insert(other.begin(), path[0]);
  cancel_inverse_pairs(other);
  if (other.size() < path.size()) path = std::move(other);
  shorten_windows(g, s, path, kWindow);
  cancel_inverse_pairs(path);
  return path;
}

std::optional<Move> first_move(int rows, int cols, std::span<const std::uint8_t> start,
                               std::span<const std::uint8_t> goal) {
  const Geometry g(rows, cols);
  const State s = rename(rows, cols, start, goal);
  assert(is_solvable(g, s));
  const Standing now = standing(g, make_plan(g, s.blank_tile), s);
  if (now.path.empty()) return std::nullopt;
  return now.path.front();
}

// The measure, packed as (units left) << 40 | rank << 32 | distance, where the
// units left count from the first unit not in place, rank is its phase
// (plan_pair(); 0 for one tile) and distance its path's length in that
// phase's model, or with no unit left, the last region's exact distance.
//
// Why first_move() decreases it strictly. Let k be the first unit not in
// place. The move is the first of a shortest path in the phase's restricted
// model, whose moves are the real board's and keep the blank in the unit's
// region: the cells of units 0..k-1 are never entered, so those units stay in
// place and the new first unit not in place is k or later. If later, the
// first field drops. If k, the unit's phase is the same or a later one, of a
// lower rank (plan_pair()'s comment), and in the same phase (same walls) the
// rest of the path is a path of the same model one move shorter, so the
// shortest one is too: the distance drops by one. With no unit left the move
// starts an optimal path of the last region, whose exact distance drops by
// one. The one gap: plan_pair()'s fallback (rank 4) would be a later rank if
// a phase ever failed; none does on any board of the tests (it asserts there). The
// fields never overflow: units <= 100, rank <= 4, distances < 100^3.
std::uint64_t progress(int rows, int cols, std::span<const std::uint8_t> start,
                       std::span<const std::uint8_t> goal) {
  const Geometry g(rows, cols);
  const State s = rename(rows, cols, start, goal);
  assert(is_solvable(g, s));
  const Standing now = standing(g, make_plan(g, s.blank_tile), s);
  return (static_cast<std::uint64_t>(now.units_left) << 40) |
         (static_cast<std::uint64_t>(now.rank) << 32) | now.path.size();
}

int manhattan_linear_conflict(int rows, int cols, std::span<const std::uint8_t> start,
                              std::span<const std::uint8_t> goal) {
  const Geometry g(rows, cols);
  const State s = rename(rows, cols, start, goal);
  return md_lc(g, s, Rect{0, rows, 0, cols});
}

}  // namespace eight::reduction
