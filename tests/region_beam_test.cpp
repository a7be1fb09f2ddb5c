// Boards past 25 cells: by default the reduction's path with its last
// region's moves the beam's (core/search/region_beam.h; up to 49 cells the
// region is the whole board, so the beam's path alone, core/beam_search.h), legal,
// reaching the goal, shorter than the reduction's and never shorter than
// the proven lower bound; with Question::grid_fast the reduction's path as
// before; and the beam's node budget, deadline and cancel flag, after which
// the answer is the reduction's (or none, cancelled).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <span>
#include <vector>

#include "beam_search.h"
#include "eight/answer.h"
#include "eight/random.h"
#include "grid_search.h"
#include "search/reduction_solver.h"
#include "search/region_beam.h"
#include "support.h"

namespace eight {
namespace {

std::vector<Move> reduction_path(const GridBoard& start, const GridBoard& goal) {
  return reduction::solve(start.shape.rows, start.shape.cols, start.used(), goal.used());
}

std::vector<Move> moves(std::span<const Move> path) {
  return {path.begin(), path.end()};
}

}  // namespace

TEST_CASE(
    "past 25 cells the default answer is the beam's (past 64 over the reduction's last region), "
    "legal and shorter than the reduction's, on seeded 6x6, 7x7, 8x8, 10x10, 5x10, 4x7 and 9x3 "
    "boards") {
  Rng rng(20261207);
  // The standard goals (6x6, 7x7, 8x8, 5x10 and 4x7 whole, 10x10's last
  // 8x8 region), and two other goals: every one over MD and linear
  // conflicts (the 5x5 databases serve 5x5 boards alone).
  std::vector<GridBoard> goals;
  for (const Shape s :
       {Shape{6, 6}, Shape{7, 7}, Shape{8, 8}, Shape{10, 10}, Shape{5, 10}, Shape{4, 7}}) {
    goals.push_back(standard_goal(s));
  }
  goals.push_back(shuffled_board(standard_goal(Shape{8, 8}), rng));
  goals.push_back(shuffled_board(standard_goal(Shape{9, 3}), rng));
  for (const GridBoard& goal : goals) {
    CAPTURE(to_string(goal));
    const GridBoard start = shuffled_board(goal, rng);
    // The default table, as every interface loads it: no databases past 5x5.
    const Question q = grid_question(goal, &test::program_default_tables());
    CHECK(q.grid_pdb5x5 == nullptr);
    const auto a = solve_board(q, start, true, {});
    REQUIRE(a.ok());
    REQUIRE(a->report.finished());
    const Solution& s = a->solution;
    CHECK(s.quality.method == Method::kBeamSearch);
    CHECK_FALSE(s.quality.optimal);
    CHECK(test::replay(start, s.path()) == goal);
    CHECK(s.distance == static_cast<int>(s.path().size()));
    CHECK(s.quality.lower_bound >= grid::manhattan_linear_conflict(start, goal));
    CHECK(s.quality.lower_bound <= s.distance);
    CHECK(s.distance < static_cast<int>(reduction_path(start, goal).size()));
    CHECK(a->report.nodes > 0);
  }
}

TEST_CASE(
    "from 26 to 64 cells the last region is the whole board from its start, searched as it is, "
    "no deeper than the reduction's path less one") {
  Rng rng(47);
  // A standard goal and two others (their tiles not renamed: the beam's
  // own path over the board as given).
  for (const GridBoard& goal :
       {standard_goal(Shape{3, 9}), shuffled_board(standard_goal(Shape{6, 6}), rng),
        shuffled_board(standard_goal(Shape{5, 7}), rng), standard_goal(Shape{9, 7})}) {
    CAPTURE(to_string(goal));
    const GridBoard start = shuffled_board(goal, rng);
    const std::vector<Move> reduced = reduction_path(start, goal);
    const int most = std::min(static_cast<int>(reduced.size()) - 1, grid::kMaxBeamDepth);
    const grid::BeamResult direct = grid::beam_search(start, goal, 2000, {}, {}, most);
    REQUIRE(direct.status == fifteen::SearchStatus::kSolved);
    const grid::RegionBeamResult r = grid::region_beam(start, goal, 2000, {});
    CHECK(r.beam.status == fifteen::SearchStatus::kSolved);
    CHECK(r.used_beam);
    CHECK(r.beam.path == direct.path);
    CHECK(r.beam.nodes == direct.nodes);
    CHECK(r.beam.start_bound == grid::manhattan_linear_conflict(start, goal));
    // Within 1,000 nodes the beam finds none: the reduction's path.
    fifteen::SearchBudget few;
    few.max_nodes = 1000;
    const grid::RegionBeamResult cut = grid::region_beam(start, goal, 2000, few);
    CHECK(cut.beam.status == fifteen::SearchStatus::kSolved);
    CHECK_FALSE(cut.used_beam);
    CHECK(cut.beam.path == reduced);
  }
}

TEST_CASE("past 25 cells an answer with grid_fast is the reduction's path") {
  Rng rng(41);
  for (const Shape s : {Shape{7, 7}, Shape{10, 10}, Shape{3, 9}}) {
    CAPTURE(to_string(s));
    const GridBoard goal = standard_goal(s);
    const GridBoard start = shuffled_board(goal, rng);
    Question fast = grid_question(goal);
    fast.grid_fast = true;
    const auto a = solve_board(fast, start, true, {});
    REQUIRE(a.ok());
    CHECK(a->solution.quality.method == Method::kReduction);
    CHECK(moves(a->solution.path()) == reduction_path(start, goal));
  }
}

TEST_CASE(
    "the last region's beam stops at its node budget, deadline or cancel flag, and the answer is "
    "the reduction's (none when cancelled)") {
  Rng rng(43);
  // Blank first: the last region is 8x8's top-left 7x7, blank in its first
  // cell.
  const GridBoard goal = canonical_goal(0, Shape{8, 8});
  const GridBoard start = shuffled_board(goal, rng);
  const std::vector<Move> reduced = reduction_path(start, goal);

  fifteen::SearchBudget nodes;
  nodes.max_nodes = 1000;
  const grid::RegionBeamResult few = grid::region_beam(start, goal, kBeamWidth, nodes);
  CHECK(few.beam.status == fifteen::SearchStatus::kSolved);
  CHECK_FALSE(few.used_beam);
  CHECK(few.beam.nodes <= 1000);
  CHECK(few.beam.path == reduced);
  const auto a = solve_board(grid_question(goal), start, true, nodes);
  REQUIRE(a.ok());
  CHECK(a->solution.quality.method == Method::kReduction);
  CHECK(moves(a->solution.path()) == reduced);
  CHECK(a->report.nodes <= 1000);

  fifteen::SearchBudget late;
  late.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  const grid::RegionBeamResult past = grid::region_beam(start, goal, kBeamWidth, late);
  CHECK(past.beam.status == fifteen::SearchStatus::kSolved);
  CHECK_FALSE(past.used_beam);
  CHECK(past.beam.path == reduced);

  const std::atomic<bool> cancel{true};
  fifteen::SearchBudget cancelled;
  cancelled.cancel = &cancel;
  const grid::RegionBeamResult none = grid::region_beam(start, goal, kBeamWidth, cancelled);
  CHECK(none.beam.status == fifteen::SearchStatus::kCancelled);
  CHECK(none.beam.path.empty());
  const auto c = solve_board(grid_question(goal), start, true, cancelled);
  REQUIRE(c.ok());
  CHECK(c->report.status == fifteen::SearchStatus::kCancelled);
  CHECK_FALSE(c->report.finished());

  // With the whole budget, the beam's path is shorter.
  const grid::RegionBeamResult full = grid::region_beam(start, goal, kBeamWidth, {});
  CHECK(full.used_beam);
  CHECK(full.beam.path.size() < reduced.size());
  CHECK(test::replay(start, full.beam.path) == goal);
}

}  // namespace eight
