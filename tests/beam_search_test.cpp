// The beam search (core/beam_search.h): legal paths to any goal on every
// shape of 14 to 25 cells, never shorter than the distance, the same path
// every time, and its budget, deadline and cancel flag.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "beam_search.h"
#include "eight/random.h"
#include "grid_search.h"
#include "support.h"

namespace eight {
namespace {

// Every board shape of 14 to 25 cells, one of each pair of transposes and
// some of the other: the shapes the beam answers.
const std::vector<Shape> kBeamShapes = {Shape{2, 7}, Shape{3, 5}, Shape{5, 3}, Shape{2, 8},
                                        Shape{3, 6}, Shape{9, 2}, Shape{4, 5}, Shape{2, 10},
                                        Shape{7, 3}, Shape{4, 6}, Shape{3, 8}, Shape{5, 5}};

}  // namespace

TEST_CASE("the beam search finds a legal path to any goal on every shape of 14 to 25 cells") {
  Rng rng(31);
  for (const Shape s : kBeamShapes) {
    CAPTURE(to_string(s));
    for (int trial = 0; trial < 3; ++trial) {
      const Board goal = shuffled_board(standard_goal(s), rng);
      const Board start = shuffled_board(goal, rng);
      const grid::BeamResult r = grid::beam_search(start, goal, 300, {});
      REQUIRE(r.status == fifteen::SearchStatus::kSolved);
      CHECK(test::replay(start, r.path) == goal);
      CHECK(static_cast<int>(r.path.size()) >= grid::manhattan_linear_conflict(start, goal));
      CHECK(r.nodes > 0);
    }
  }
}

TEST_CASE("the beam's paths are never shorter than the optimal distance, and of its parity") {
  Rng rng(37);
  for (const Shape s : {Shape{3, 5}, Shape{4, 5}, Shape{5, 5}}) {
    CAPTURE(to_string(s));
    const Board goal = standard_goal(s);
    for (int trial = 0; trial < 10; ++trial) {
      const Board start = test::walk(goal, 24, rng);
      const grid::GridResult best = grid::search_with(start, goal, nullptr, {});
      REQUIRE(best.status == fifteen::SearchStatus::kSolved);
      const grid::BeamResult r = grid::beam_search(start, goal, 50, {});
      REQUIRE(r.status == fifteen::SearchStatus::kSolved);
      CHECK(test::replay(start, r.path) == goal);
      CHECK(r.path.size() >= best.path.size());
      CHECK(r.path.size() % 2 == best.path.size() % 2);
    }
  }
}

TEST_CASE("the beam gives the same path every time, and an empty one at the goal") {
  Rng rng(41);
  const Board goal = standard_goal(Shape{5, 5});
  const Board start = shuffled_board(goal, rng);
  const grid::BeamResult a = grid::beam_search(start, goal, 200, {});
  const grid::BeamResult b = grid::beam_search(start, goal, 200, {});
  REQUIRE(a.status == fifteen::SearchStatus::kSolved);
  CHECK(a.path == b.path);
  CHECK(a.nodes == b.nodes);
  const grid::BeamResult home = grid::beam_search(goal, goal, 200, {});
  CHECK(home.status == fifteen::SearchStatus::kSolved);
  CHECK(home.path.empty());
  CHECK(home.nodes == 0);
}

TEST_CASE("the beam tells the other class at once, generating nothing") {
  const Board goal = standard_goal(Shape{5, 5});
  Board other = goal;
  std::swap(other.cells[0], other.cells[1]);  // tiles 1 and 2
  const grid::BeamResult r = grid::beam_search(other, goal, 4000, {});
  CHECK(r.status == fifteen::SearchStatus::kUnsolvable);
  CHECK(r.nodes == 0);
  CHECK(r.path.empty());
}

TEST_CASE("the beam stops at its node budget, its deadline or its cancel flag") {
  Rng rng(43);
  const Board goal = standard_goal(Shape{5, 5});
  const Board start = shuffled_board(goal, rng);
  // A beam far wider than its budget: it stops at the budget exactly.
  for (const std::uint64_t nodes : {std::uint64_t{1}, std::uint64_t{1000}, std::uint64_t{50'000}}) {
    fifteen::SearchBudget budget;
    budget.max_nodes = nodes;
    const grid::BeamResult r = grid::beam_search(start, goal, 100'000, budget);
    CHECK(r.status == fifteen::SearchStatus::kBudgetExceeded);
    CHECK(r.nodes == nodes);
    CHECK(r.path.empty());
  }
  fifteen::SearchBudget late;
  late.deadline = std::chrono::steady_clock::now();
  const grid::BeamResult d = grid::beam_search(start, goal, 4000, late);
  CHECK(d.status == fifteen::SearchStatus::kBudgetExceeded);
  CHECK(d.nodes < 5 * 4000);  // one layer at most
  std::atomic<bool> cancel{true};
  fifteen::SearchBudget cancelled;
  cancelled.cancel = &cancel;
  const grid::BeamResult c = grid::beam_search(start, goal, 4000, cancelled);
  CHECK(c.status == fifteen::SearchStatus::kCancelled);
  CHECK(c.nodes < 5 * 4000);
}

}  // namespace eight
