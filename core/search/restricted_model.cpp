#include "search/restricted_model.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdlib>

namespace eight::reduction {
namespace {

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
  std::uint32_t inverse = 0;                 // ceil(2^32 / n)
  std::array<std::int8_t, kMaxCells> local;  // -1: not allowed
  std::array<std::uint8_t, kMaxCells> global{};
  std::array<std::array<std::int8_t, 4>, kMaxCells> nb{};  // -1: not allowed
  std::array<std::uint8_t, kMaxCells> goal0{}, goal1{}, goal_blank{};
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
  std::vector<std::array<std::uint8_t, kMaxCells>> boards;  // the real board at each node
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
}  // namespace

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

}  // namespace eight::reduction
