// DuplicatePaths::find (duplicate_paths.h): the rules found on an unbounded
// board, level by level, and the Aho-Corasick machine that matches them.
// get() is duplicate_paths_table.cpp, over what the build found with this.
#include "duplicate_paths.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <optional>
#include <queue>

namespace eight {
namespace {

constexpr int kRadius = DuplicatePaths::kMaxRuleLength;  // room for the longest
constexpr int kWidth = 2 * kRadius + 1;                  // the blank never leaves this square
constexpr int kCells = kWidth * kWidth;
constexpr int kCentre = kRadius * kWidth + kRadius;

// A sequence of moves, the first in the highest bits, so that sequences of
// one length compare in kAllMoves order as numbers.
struct Sequence {
  std::uint32_t code = 0;
  int length = 0;

  Move move(int i) const { return static_cast<Move>((code >> (2 * (length - 1 - i))) & 3); }
};

// Every tile's cell-of-origin (the blank's is the centre) on the unbounded
// board, and a hash of where the tiles stand: the XOR over the cells whose
// tile is not its own of a mix of the cell and its tile.
class Plane {
 public:
  Plane() {
    for (int c = 0; c < kCells; ++c)
      tile_[static_cast<std::size_t>(c)] = static_cast<std::uint16_t>(c);
  }
  void play(Move m) {
    const int to = blank_ + move_step(kWidth, m);
    hash_ ^= term(blank_) ^ term(to);
    std::swap(tile_[static_cast<std::size_t>(blank_)], tile_[static_cast<std::size_t>(to)]);
    hash_ ^= term(blank_) ^ term(to);
    blank_ = to;
  }
  std::uint64_t hash() const { return hash_; }
  int blank() const { return blank_; }
  const std::array<std::uint16_t, kCells>& tiles() const { return tile_; }

 private:
  std::uint64_t term(int c) const {
    const std::uint16_t t = tile_[static_cast<std::size_t>(c)];
    if (t == c) return 0;
    std::uint64_t x = static_cast<std::uint64_t>(c) * 1024 + t + 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;  // splitmix64's finaliser
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
  }

  std::array<std::uint16_t, kCells> tile_{};
  int blank_ = kCentre;
  std::uint64_t hash_ = 0;
};

// What a sequence does (the tiles that end away from their cell) and the
// cells its blank visits, both sorted: what the rules compare exactly.
struct Effect {
  std::vector<std::pair<std::uint16_t, std::uint16_t>> moved;
  std::vector<std::uint16_t> visited;
};

Effect effect_of(const Sequence& s) {
  Plane p;
  Effect e;
  e.visited.push_back(static_cast<std::uint16_t>(p.blank()));
  for (int i = 0; i < s.length; ++i) {
    p.play(s.move(i));
    e.visited.push_back(static_cast<std::uint16_t>(p.blank()));
  }
  for (int c = 0; c < kCells; ++c) {
    const std::uint16_t t = p.tiles()[static_cast<std::size_t>(c)];
    if (t != c) e.moved.emplace_back(static_cast<std::uint16_t>(c), t);
  }
  std::sort(e.visited.begin(), e.visited.end());
  e.visited.erase(std::unique(e.visited.begin(), e.visited.end()), e.visited.end());
  return e;
}

// True when `b` may stand in for `a`: the same effect, and its blank stays
// on cells `a`'s visits (so it is legal wherever `a` is).
bool replaces(const Effect& b, const Effect& a) {
  return b.moved == a.moved &&
         std::includes(a.visited.begin(), a.visited.end(), b.visited.begin(), b.visited.end());
}

// The Aho-Corasick machine of a set of sequences: next[state * 4 + m], -1
// where a sequence ends.
std::vector<int> build_machine(const std::vector<Sequence>& rules) {
  std::vector<std::array<int, 4>> trie(1, {-1, -1, -1, -1});
  std::vector<char> ends(1, 0);
  for (const Sequence& r : rules) {
    int state = 0;
    for (int i = 0; i < r.length; ++i) {
      const auto m = static_cast<std::size_t>(r.move(i));  // kAllMoves order
      if (trie[static_cast<std::size_t>(state)][m] < 0) {
        trie[static_cast<std::size_t>(state)][m] = static_cast<int>(trie.size());
        trie.push_back({-1, -1, -1, -1});
        ends.push_back(0);
      }
      state = trie[static_cast<std::size_t>(state)][m];
    }
    ends[static_cast<std::size_t>(state)] = 1;
  }
  const std::size_t n = trie.size();
  std::vector<int> fail(n, 0);
  std::vector<int> next(n * 4, 0);
  std::queue<int> order;
  for (std::size_t m = 0; m < 4; ++m) {
    const int v = trie[0][m];
    next[m] = v < 0 ? 0 : v;
    if (v >= 0) order.push(v);
  }
  while (!order.empty()) {  // breadth first, so each fail link is done first
    const auto u = static_cast<std::size_t>(order.front());
    order.pop();
    if (ends[static_cast<std::size_t>(fail[u])]) ends[u] = 1;  // a rule ends here too
    for (std::size_t m = 0; m < 4; ++m) {
      const int v = trie[u][m];
      if (v >= 0) {
        fail[static_cast<std::size_t>(v)] = next[static_cast<std::size_t>(fail[u]) * 4 + m];
        next[u * 4 + m] = v;
        order.push(v);
      } else {
        next[u * 4 + m] = next[static_cast<std::size_t>(fail[u]) * 4 + m];
      }
    }
  }
  for (int& v : next) {
    if (ends[static_cast<std::size_t>(v)]) v = DuplicatePaths::kPruned;
  }
  return next;
}

struct Found {
  std::uint64_t hash;
  Sequence sequence;
};

// Every sequence of `length` moves that never undoes a move and contains no
// rule yet (the machine of the shorter rules), with its hash: depth first on
// one plane, each move taken back by its opposite.
class Enumeration {
 public:
  Enumeration(const std::vector<int>& machine, int length, std::vector<Found>& out)
      : machine_(machine), length_(length), out_(out) {}
  void run() { walk(0, 0, std::nullopt, 0); }

 private:
  void walk(int depth, int state, std::optional<Move> last, std::uint32_t code) {
    if (depth == length_) {
      out_.push_back({plane_.hash(), {code, length_}});
      return;
    }
    for (const Move m : kAllMoves) {
      if (last && m == opposite(*last)) continue;
      const auto index = static_cast<std::size_t>(m);
      const int next = machine_[static_cast<std::size_t>(state) * 4 + index];
      if (next == DuplicatePaths::kPruned) continue;
      plane_.play(m);
      walk(depth + 1, next, m, code * 4 + static_cast<std::uint32_t>(index));
      plane_.play(opposite(m));
    }
  }

  const std::vector<int>& machine_;
  const int length_;
  std::vector<Found>& out_;
  Plane plane_;
};

}  // namespace

DuplicatePaths DuplicatePaths::find(int max_rule_length) {
  assert(max_rule_length >= 1 && max_rule_length <= kMaxRuleLength);
  std::vector<Sequence> rules;
  std::vector<int> machine = build_machine(rules);
  // Every kept sequence so far, by hash: what a longer one may equal.
  std::vector<Found> kept;
  for (int length = 1; length <= max_rule_length; ++length) {
    std::vector<Found> found;
    Enumeration(machine, length, found).run();
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
      return a.hash != b.hash ? a.hash < b.hash : a.sequence.code < b.sequence.code;
    });
    std::vector<Found> kept_now;
    for (std::size_t i = 0; i < found.size();) {
      std::size_t j = i;
      while (j < found.size() && found[j].hash == found[i].hash) ++j;
      const auto shorter =
          std::equal_range(kept.begin(), kept.end(), found[i],
                           [](const Found& a, const Found& b) { return a.hash < b.hash; });
      if (j - i == 1 && shorter.first == shorter.second) {
        kept_now.push_back(found[i]);  // the only way to its effect so far
        i = j;
        continue;
      }
      std::vector<Effect> earlier;  // shorter kept ones, then this length's
      for (auto k = shorter.first; k != shorter.second; ++k)
        earlier.push_back(effect_of(k->sequence));
      for (; i < j; ++i) {
        Effect e = effect_of(found[i].sequence);
        const bool forbidden = std::any_of(earlier.begin(), earlier.end(),
                                           [&](const Effect& b) { return replaces(b, e); });
        if (forbidden) {
          rules.push_back(found[i].sequence);
        } else {
          kept_now.push_back(found[i]);
          earlier.push_back(std::move(e));
        }
      }
    }
    if (length == max_rule_length) break;
    kept.insert(kept.end(), kept_now.begin(), kept_now.end());
    std::sort(kept.begin(), kept.end(), [](const Found& a, const Found& b) {
      return a.hash != b.hash ? a.hash < b.hash : a.sequence.length < b.sequence.length;
    });
    machine = build_machine(rules);
  }
  machine = build_machine(rules);
  std::vector<std::int16_t> next;
  next.reserve(machine.size());
  for (const int v : machine) {
    assert(v < 32768);  // 10,367 states at 12 moves
    next.push_back(static_cast<std::int16_t>(v));
  }
  return DuplicatePaths(std::move(next), static_cast<int>(rules.size()));
}

}  // namespace eight
