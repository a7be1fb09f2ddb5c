// The searches' duplicate-path machine (core/duplicate_paths.h): what the
// build compiles in, the rules it starts from, and the promise the searches
// rely on, that it keeps the first shortest path to every board.
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "doctest/doctest.h"
#include "duplicate_paths.h"
#include "eight/board.h"
#include "eight/goal.h"

namespace eight {
namespace {

// The machine's state after `moves` from the start, or kPruned.
int walk(const DuplicatePaths& machine, const std::string& moves) {
  int state = DuplicatePaths::kStart;
  for (const char c : moves) {
    const Move m = c == 'U'   ? Move::kUp
                   : c == 'D' ? Move::kDown
                   : c == 'L' ? Move::kLeft
                              : Move::kRight;
    state = machine.next(state, m);
    if (state == DuplicatePaths::kPruned) break;
  }
  return state;
}

// Up to 16 cells, four bits each: a board's key in the maps below.
std::uint64_t key(const GridBoard& b) {
  std::uint64_t k = 0;
  for (const std::uint8_t t : b.used()) k = k << 4 | t;
  return k;
}

struct Reached {
  int distance;
  std::string path;  // the first shortest path, in kAllMoves order
};

// Breadth first from `start`, to `depth` moves: each board's distance and
// its first shortest path (boards are taken in the order of their first
// shortest paths and moves in kAllMoves order, so the first path to reach a
// board is its first shortest one).
std::unordered_map<std::uint64_t, Reached> breadth_first(const GridBoard& start, int depth) {
  std::unordered_map<std::uint64_t, Reached> seen{{key(start), {0, ""}}};
  std::vector<GridBoard> layer{start};
  for (int d = 1; d <= depth && !layer.empty(); ++d) {
    std::vector<GridBoard> next;
    for (const GridBoard& b : layer) {
      const std::string& path = seen.at(key(b)).path;
      for (const Move m : kAllMoves) {
        const auto child = apply_move(b, m);
        if (!child) continue;
        if (seen.emplace(key(*child), Reached{d, path + "UDLR"[static_cast<int>(m)]}).second) {
          next.push_back(*child);
        }
      }
    }
    layer = std::move(next);
  }
  return seen;
}

// Depth first from `start` to `depth` moves, never undoing a move and
// skipping what the machine forbids, as the searches do: the first path to
// reach each board at its distance.
class PrunedWalk {
 public:
  PrunedWalk(const std::unordered_map<std::uint64_t, Reached>& truth, int depth)
      : truth_(truth), depth_(depth) {}

  void run(const GridBoard& start) { visit(start, -1, DuplicatePaths::kStart); }
  const std::unordered_map<std::uint64_t, std::string>& first() const { return first_; }
  std::uint64_t nodes() const { return nodes_; }

 private:
  void visit(const GridBoard& b, int last, int state) {
    ++nodes_;
    const Reached& r = truth_.at(key(b));
    if (r.distance == static_cast<int>(path_.size())) first_.emplace(key(b), path_);
    if (static_cast<int>(path_.size()) == depth_) return;
    for (const Move m : kAllMoves) {
      if (last >= 0 && static_cast<int>(opposite(m)) == last) continue;
      const int next = machine_.next(state, m);
      if (next == DuplicatePaths::kPruned) continue;
      const auto child = apply_move(b, m);
      if (!child) continue;
      path_.push_back("UDLR"[static_cast<int>(m)]);
      visit(*child, static_cast<int>(m), next);
      path_.pop_back();
    }
  }

  const DuplicatePaths& machine_ = DuplicatePaths::get();
  const std::unordered_map<std::uint64_t, Reached>& truth_;
  const int depth_;
  std::string path_;
  std::unordered_map<std::uint64_t, std::string> first_;
  std::uint64_t nodes_ = 0;
};

TEST_CASE("the compiled-in duplicate-path machine is the one its finder finds") {
  const DuplicatePaths& built = DuplicatePaths::get();
  const DuplicatePaths found = DuplicatePaths::find(DuplicatePaths::kMaxRuleLength);
  CHECK(built.rule_count() == 2360);
  CHECK(built.state_count() == 10367);
  REQUIRE(found.state_count() == built.state_count());
  CHECK(found.rule_count() == built.rule_count());
  const auto n = static_cast<std::size_t>(built.state_count()) * 4;
  CHECK(std::equal(built.table(), built.table() + n, found.table()));
  // Shorter rules, fewer: the finder stops where it is told.
  CHECK(DuplicatePaths::find(6).rule_count() == 4);
  CHECK(DuplicatePaths::find(10).rule_count() == 296);
}

TEST_CASE("the blank's turn and a half round a 2x2 block is kept one way and forbidden the other") {
  const DuplicatePaths& m = DuplicatePaths::get();
  // Each pair ends with the same board; the one whose first move comes
  // first in kAllMoves order (up, down, left, right) is kept.
  const std::pair<const char*, const char*> pairs[] = {
      {"DRULDR", "RDLURD"}, {"URDLUR", "RULDRU"}, {"DLURDL", "LDRULD"}, {"ULDRUL", "LURDLU"}};
  for (const auto& [kept_text, forbidden] : pairs) {
    const std::string kept = kept_text;
    CAPTURE(kept);
    CHECK(walk(m, kept) != DuplicatePaths::kPruned);
    CHECK(walk(m, forbidden) == DuplicatePaths::kPruned);
    // Anywhere in a path, not only at its start.
    CHECK(walk(m, std::string("UU") + forbidden) == DuplicatePaths::kPruned);
    CHECK(walk(m, kept.substr(0, 1) + kept.substr(0, 1) + kept) != DuplicatePaths::kPruned);
  }
  // Five moves of a turn are no rule: nothing shorter than six is forbidden.
  CHECK(walk(m, "RDLUR") != DuplicatePaths::kPruned);
}

TEST_CASE("skipping forbidden paths keeps every board's first shortest path, on every edge") {
  struct Case {
    GridBoard start;
    int depth;
  };
  auto board = [](const char* text) {
    auto b = parse_board(text);
    REQUIRE(b.ok());
    return *b;
  };
  // Whole classes where they are small (every distance), and 4x4 to 15
  // moves from the blank in a corner and in the middle: every edge and
  // corner of a board meets the rules there.
  const Case cases[] = {
      {board("123/450"), 30},
      {board("1234/5670"), 40},
      {board("123/456/780"), 31},
      {board("4,1,2,3/5,0,6,7/8,9,10,11/12,13,14,15"), 14},
      {board("1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,0"), 15},
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.start));
    const auto truth = breadth_first(c.start, c.depth);
    PrunedWalk walk(truth, c.depth);
    walk.run(c.start);
    CHECK(walk.first().size() == truth.size());  // every board reached at its distance
    std::size_t same = 0;
    for (const auto& [k, r] : truth) {
      const auto it = walk.first().find(k);
      if (it != walk.first().end() && it->second == r.path) ++same;
    }
    CHECK(same == truth.size());  // ...by its first shortest path
    MESSAGE(to_string(c.start) << ": " << truth.size() << " boards, " << walk.nodes() << " nodes");
  }
}

}  // namespace
}  // namespace eight
