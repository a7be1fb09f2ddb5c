// The shapes no table holds (eight/answer.h's grid engine): boards up to
// 10x10, the Manhattan-plus-linear-conflict heuristic, its IDA*, the
// reduction's bounded answers, their hints and random boards.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "beam_search.h"
#include "eight/answer.h"
#include "eight/random.h"
#include "grid_search.h"
#include "search/reduction_solver.h"
#include "support.h"

namespace eight {
namespace {

using test::replay;
using test::walk;

std::vector<Shape> grid_shapes() {
  std::vector<Shape> out;
  for (const Shape s : kBoardShapes) {
    if (is_grid_shape(s)) out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("every rectangle from 2x2 to 10x10 is a board shape, and the grid shapes are the rest") {
  CHECK(kBoardShapes.size() == 81);
  std::set<std::pair<int, int>> seen;
  for (const Shape s : kBoardShapes) {
    CHECK(is_board_shape(s));
    seen.insert({s.rows, s.cols});
  }
  CHECK(seen.size() == 81);
  CHECK(grid_shapes().size() == 81 - 12 - 1);
  CHECK_FALSE(is_board_shape(Shape{11, 2}));
  CHECK_FALSE(is_board_shape(Shape{1, 9}));
  CHECK(parse_shape("10x10").ok());
  CHECK(parse_shape("7x2").ok());
  CHECK(parse_shape("11x3").error().message ==
        "eight answers no 11x3 boards; the shapes have rows and columns from 2 to 10");
}

TEST_CASE("boards up to 10x10 parse in every notation and print back to themselves") {
  for (const Shape s : kBoardShapes) {
    Rng rng(s.cells());
    const GridBoard b = shuffled_board(standard_goal(s), rng);
    const std::string text = to_string(b);
    const auto back = parse_grid_board(text);
    REQUIRE_MESSAGE(back.ok(), text);
    CHECK(*back == b);
    // Numbers with separators and no rows: the count says square boards,
    // the shape= of the others.
    std::string flat;
    for (const std::uint8_t t : b.used()) {
      if (!flat.empty()) flat += ' ';
      flat += std::to_string(t);
    }
    const auto read = parse_grid_board(flat, s);
    REQUIRE_MESSAGE(read.ok(), flat);
    CHECK(*read == b);
    if (s.square()) CHECK(*parse_grid_board(flat) == b);
  }
  // 25 numbers are a 5x5 board; 14 fit 2x7 and 7x2.
  CHECK(
      parse_grid_board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0")->shape ==
      Shape{5, 5});
  CHECK(parse_grid_board("1 2 3 4 5 6 7 8 9 10 11 12 13 0").error().message ==
        "14 cells fit 2x7 and 7x2: say which shape, or write the rows");
  // Runs of two digits below 17 runs are still digits, as they always were.
  CHECK(to_string(*parse_grid_board("12 34 56 78 0")) == "123456780");
  // A tile past 15 on a board of 16 cells or fewer is out of range.
  CHECK(parse_grid_board("1 2 3 4 5 6 7 8 9 10 11 16").error().message ==
        "tile 16 at position 25 is out of range: a board of 16 cells or fewer has tiles up to 15");
  // A 10x10 board written with ", " is within the text limit.
  std::string wide;
  for (int t = 1; t < 100; ++t) wide += std::to_string(t) + ", ";
  wide += "0";
  REQUIRE(wide.size() <= kMaxBoardText);
  CHECK(*parse_grid_board(wide) == standard_goal(Shape{10, 10}));
}

TEST_CASE("Manhattan plus linear conflicts is at most the exact distance of every 3x3 board") {
  // Against the table's exact distances, over every board of the goal's
  // class; and it changes by exactly one a move (consistent).
  const GridBoard goal = kStandardGoal;
  const GoalFrame f = test::frame(goal);
  std::array<std::uint8_t, 9> cells = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  int checked = 0, equal = 0;
  do {
    const Board b = test::board_of_cells(cells);
    const int d = test::solver().distance(b, f);
    if (d < 0) continue;
    const int h = grid::manhattan_linear_conflict(b, goal);
    REQUIRE(h <= d);
    CHECK((d - h) % 2 == 0);
    equal += h == d;
    ++checked;
  } while (std::next_permutation(cells.begin(), cells.end()));
  CHECK(checked == 181440);
  CHECK(equal > 0);
}

TEST_CASE("Manhattan plus linear conflicts changes by one a move on every shape and any goal") {
  Rng rng(7);
  for (const Shape s : kBoardShapes) {
    const GridBoard goal = shuffled_board(standard_goal(s), rng);
    GridBoard b = shuffled_board(goal, rng);
    for (int i = 0; i < 200; ++i) {
      const auto next = apply_move(b, kAllMoves[rng.below(4)]);
      if (!next) continue;
      const int dh =
          grid::manhattan_linear_conflict(*next, goal) - grid::manhattan_linear_conflict(b, goal);
      REQUIRE((dh == 1 || dh == -1));
      b = *next;
    }
  }
}

TEST_CASE("the grid IDA*'s own heuristic is manhattan_linear_conflict on every shape") {
  // The search keeps its heuristic incrementally; its start value is the
  // one function's (core/line_conflicts.h's), or on a pattern shape at
  // least that.
  Rng rng(13);
  fifteen::SearchBudget none;
  none.max_nodes = 0;
  for (const Shape s : kBoardShapes) {
    for (int i = 0; i < 4; ++i) {
      GridBoard goal = shuffled_board(standard_goal(s), rng);
      // On a pattern shape the goals keep the blank on the last cell, tiles
      // shuffled: the search builds a pattern set for each blank cell of
      // its goals (grid::pattern_databases), a few seconds each, and goals
      // with their blank anywhere are grid_pdb_test.cpp's (the transposed
      // or turned question). With a blank drawn anew for each goal this
      // test took 68 s alone (release), the suite's longest; 17 s so.
      if (fifteen::is_pattern_shape(s)) {
        const auto blank = std::find(goal.cells.begin(), goal.cells.begin() + s.cells(), 0);
        std::swap(*blank, goal.cells[static_cast<std::size_t>(s.cells() - 1)]);
      }
      const GridBoard b = shuffled_board(goal, rng);
      const int h = grid::manhattan_linear_conflict(b, goal);
      CHECK(grid::search_with(b, goal, nullptr, none).initial_bound == h);
      // With pattern databases (14 to 16 cells) the search takes the larger.
      if (fifteen::is_pattern_shape(s)) {
        CHECK(grid::search(b, goal, none).initial_bound >= h);
      } else {
        CHECK(grid::search(b, goal, none).initial_bound == h);
      }
    }
  }
}

TEST_CASE("the grid IDA* finds the table's optimal distances on 3x3, for any goal") {
  Rng rng(11);
  for (int i = 0; i < 300; ++i) {
    const Board goal = shuffled_board(kStandardGoal, rng);
    const Board b = shuffled_board(goal, rng);
    const auto r = grid::search(b, goal, {});
    REQUIRE(r.status == fifteen::SearchStatus::kSolved);
    CHECK(static_cast<int>(r.path.size()) == test::solver().distance(b, test::frame(goal)));
    CHECK(replay(b, r.path) == goal);
  }
  // The other class is unsolvable at once.
  const GridBoard swapped = test::board("213456780");
  CHECK(grid::search(swapped, kStandardGoal, {}).status == fifteen::SearchStatus::kUnsolvable);
}

namespace {

// Every grid shape of `fewest` to `most` cells: a board near a goal of its
// own answered optimally, a far one with a bound, one of the other class
// refused. (Three test cases, by size, so that the suite runs them side by
// side: past 25 cells each far board's answer is a beam of a second or two.)
void answer_near_and_far(int fewest, int most, std::uint64_t seed) {
  Rng rng(seed);
  for (const Shape s : grid_shapes()) {
    if (s.cells() < fewest || s.cells() > most) continue;
    CAPTURE(to_string(s));
    const GridBoard goal = shuffled_board(standard_goal(s), rng);
    const Question q = grid_question(goal);
    // Near: a walk of 12 moves is at most 12 away; the attempt finds it.
    const GridBoard near = walk(goal, 12, rng);
    const auto a = solve_board(q, near, true, {});
    REQUIRE(a.ok());
    REQUIRE(a->report.optimal());
    CHECK(a->solution.quality.optimal);
    CHECK(a->solution.quality.method ==
          (fifteen::is_pattern_shape(s) ? Method::kPatternSearch : Method::kManhattanSearch));
    CHECK(a->solution.distance <= 12);
    CHECK(replay(near, a->solution.path()) == goal);
    // Far: a random board; a legal path to the goal, never called optimal
    // unless as short as its proven bound.
    const GridBoard far = shuffled_board(goal, rng);
    const auto b = solve_board(q, far, true, {});
    REQUIRE(b.ok());
    REQUIRE(b->report.finished());
    const Solution& sol = b->solution;
    CHECK(sol.solvable);
    CHECK(replay(far, sol.path()) == goal);
    CHECK(sol.length == sol.distance);
    CHECK(sol.slid_tiles().size() == sol.path().size());
    CHECK(b->report.lower_bound >= grid::manhattan_linear_conflict(far, goal));
    if (!sol.quality.optimal) {
      CHECK(b->report.status == fifteen::SearchStatus::kBounded);
      // The beam's path (past 64 cells over the reduction's last region);
      // past 25 cells the reduction's path whole when the beam finds none
      // shorter (on some boards of 4x9 and 10x4 the beam does not).
      if (s.cells() <= grid::kSmallBeamCells) {
        CHECK(sol.quality.method == Method::kBeamSearch);
      } else if (sol.quality.method != Method::kBeamSearch) {
        CHECK(sol.quality.method == Method::kReduction);
        const auto path = sol.path();
        CHECK(std::vector<Move>(path.begin(), path.end()) ==
              reduction::solve(s.rows, s.cols, far.used(), goal.used()));
      }
      CHECK(sol.quality.lower_bound == b->report.lower_bound);
      CHECK(sol.quality.lower_bound < sol.distance);
    }
    // The other class.
    GridBoard other = far;
    const std::size_t i = other.cells[0] == 0 ? 1 : 0, j = other.cells[i + 1] == 0 ? i + 2 : i + 1;
    std::swap(other.cells[i], other.cells[j]);
    const auto c = solve_board(q, other, true, {});
    REQUIRE(c.ok());
    CHECK_FALSE(c->solution.solvable);
    CHECK(c->report.status == fifteen::SearchStatus::kUnsolvable);
  }
}

}  // namespace

TEST_CASE(
    "grid shapes are answered optimally near the goal, and with a bound far from it (13 to 36 "
    "cells)") {
  answer_near_and_far(13, 36, 3);
}

TEST_CASE(
    "grid shapes are answered optimally near the goal, and with a bound far from it (37 to 64 "
    "cells)") {
  answer_near_and_far(37, 64, 4);
}

TEST_CASE(
    "grid shapes are answered optimally near the goal, and with a bound far from it (65 to 100 "
    "cells)") {
  answer_near_and_far(65, 100, 5);
}

TEST_CASE("an optimal answer required of a far 5x5 board stops at its budget instead") {
  Rng rng(5);
  const GridBoard goal = standard_goal(Shape{5, 5});
  const GridBoard far = shuffled_board(goal, rng);
  fifteen::SearchBudget budget;
  budget.max_nodes = 100'000;
  const auto a = solve_board(grid_question(goal), far, true, budget, true);
  REQUIRE(a.ok());
  CHECK(a->report.status == fifteen::SearchStatus::kBudgetExceeded);
  CHECK_FALSE(a->report.finished());
  CHECK(a->report.nodes == 100'000);
  CHECK(a->report.lower_bound >= grid::manhattan_linear_conflict(far, goal));
  // Not required: the same board gets a bounded answer.
  const auto b = solve_board(grid_question(goal), far, true, budget);
  REQUIRE(b.ok());
  CHECK(b->report.finished());
}

TEST_CASE("following hints from any board of a grid shape reaches the goal without cycling") {
  Rng rng(17);
  // (Each step asks for every move's worth, a few reductions: the larger
  // boards' walks, hundreds of steps, are the test's time.) The attempts
  // get 20,000 nodes, the attempt past 16 cells, which leave the beam
  // search (up to 25 cells) what the attempt did not spend, too few to
  // reach the goal of a board the attempt did not finish: the bounded
  // answers here are the reduction's (2x7, 7x2 and 3x5 too, which with
  // their default attempt are mostly optimal), whose hints never cycle by
  // the proof in reduction_solver.cpp. The beam's hints are walked below.
  fifteen::SearchBudget budget;
  budget.max_nodes = kGridAttemptNodes;
  const std::vector<std::pair<Shape, int>> shapes = {
      {Shape{2, 7}, 3}, {Shape{7, 2}, 2},  {Shape{3, 5}, 3}, {Shape{5, 5}, 2},
      {Shape{4, 7}, 1}, {Shape{2, 10}, 1}, {Shape{6, 6}, 1}};
  for (const auto& shape_trials : shapes) {
    // (Not a structured binding: clang 14 cannot capture one, and CAPTURE
    // does.)
    const Shape s = shape_trials.first;
    const int trials = shape_trials.second;
    CAPTURE(to_string(s));
    for (int trial = 0; trial < trials; ++trial) {
      const GridBoard goal = shuffled_board(standard_goal(s), rng);
      const Question q = grid_question(goal);
      GridBoard b = shuffled_board(goal, rng);
      std::set<std::string> visited;
      const auto first = solve_board(q, b, false, budget);
      REQUIRE(first.ok());
      const int most = first->solution.distance;
      int steps = 0;
      while (b != goal) {
        REQUIRE(visited.insert(to_string(b)).second);
        const SearchedMoves m = board_moves(q, b, budget);
        REQUIRE(m.report.finished());
        REQUIRE(m.options.count > 0);
        const MoveOption& o = m.options.moves[0];  // best first
        REQUIRE((o.optimal || o.hint));
        b = o.next;
        REQUIRE(++steps <= 4 * most);  // a hang guard: the plan may be longer than the path
      }
    }
  }
}

TEST_CASE("following hints from a 2x7 board proven optimal by pattern search takes its distance") {
  Rng rng(19);
  const GridBoard goal = standard_goal(Shape{2, 7});
  const Question q = grid_question(goal);
  // Boards 40 random moves out: proven within the default attempt.
  for (int trial = 0; trial < 3; ++trial) {
    GridBoard b = walk(goal, 40, rng);
    const auto first = solve_board(q, b, false, {});
    REQUIRE(first.ok());
    REQUIRE(first->solution.quality.optimal);
    CHECK(first->solution.quality.method == Method::kPatternSearch);
    int left = first->solution.distance;
    while (b != goal) {
      const SearchedMoves m = board_moves(q, b, {});
      REQUIRE(m.report.optimal());
      const MoveOption& o = m.options.moves[0];
      REQUIRE(o.optimal);
      REQUIRE(o.distance == left - 1);
      b = o.next;
      REQUIRE(--left >= 0);
    }
    CHECK(left == 0);
  }
}

TEST_CASE(
    "a hint on a bounded answer is the first move of the path solve gives, and the only hint") {
  Rng rng(23);
  // 5x5 and 3x6: the beam search's answer; 7x7: the reduction's with the
  // beam's last region.
  for (const Shape s : {Shape{5, 5}, Shape{3, 6}, Shape{7, 7}}) {
    CAPTURE(to_string(s));
    const GridBoard goal = standard_goal(s);
    const GridBoard b = shuffled_board(goal, rng);
    const Question q = grid_question(goal);
    const auto a = solve_board(q, b, true, {});
    REQUIRE(a.ok());
    REQUIRE_FALSE(a->solution.quality.optimal);
    CHECK(a->solution.quality.method == Method::kBeamSearch);
    // One answer: the distance, its quality and the hint are the solve's.
    const SearchedMoves m = board_moves(q, b, {});
    CHECK(m.options.distance == a->solution.distance);
    CHECK(m.options.quality == a->solution.quality);
    CHECK(m.report.lower_bound == a->report.lower_bound);
    int hints = 0;
    for (const MoveOption& o : m.options.all()) {
      CHECK_FALSE(o.optimal);
      if (!o.hint) {
        CHECK(o.distance == a->solution.distance + 1);  // back, then the path
        continue;
      }
      ++hints;
      CHECK(o.move == a->solution.path()[0]);
      CHECK(o.distance == a->solution.distance - 1);
    }
    CHECK(hints == 1);
    CHECK(m.options.moves[0].hint);  // best first
  }
}

TEST_CASE("following the beam search's hints from far boards reaches the goal without cycling") {
  Rng rng(31);
  // Far boards of shapes the beam answers (up to 25 cells), the default
  // budget: each step's hint is the first move of that board's beam path,
  // and the next board's answer is a new beam search. (A beam on 18 to 20
  // cells a step, some 70 steps a board: the test's time.)
  for (const Shape s : {Shape{3, 6}, Shape{4, 5}, Shape{6, 3}}) {
    CAPTURE(to_string(s));
    const GridBoard goal = standard_goal(s);
    const Question q = grid_question(goal);
    GridBoard b = shuffled_board(goal, rng);
    std::set<std::string> visited;
    int most = -1;
    int steps = 0;
    bool by_beam = false;
    while (b != goal) {
      REQUIRE(visited.insert(to_string(b)).second);
      const SearchedMoves m = board_moves(q, b, {});
      REQUIRE(m.report.finished());
      if (most < 0) most = m.options.distance;
      by_beam = by_beam || m.options.quality.method == Method::kBeamSearch;
      const MoveOption& o = m.options.moves[0];  // best first: the hint
      REQUIRE((o.optimal || o.hint));
      REQUIRE(o.distance == m.options.distance - 1);
      b = o.next;
      REQUIRE(++steps <= 2 * most);  // a hang guard
    }
    CHECK(by_beam);
  }
}

TEST_CASE("random boards of grid shapes are of the goal's class and never drawn by distance") {
  Rng rng(29);
  for (const Shape s : grid_shapes()) {
    const GridBoard goal = standard_goal(s);
    const Question q = grid_question(goal);
    for (int i = 0; i < 5; ++i) {
      const auto drawn = draw_board(q, std::nullopt, rng, {});
      REQUIRE(drawn.ok());
      CHECK(is_valid(drawn->board));
      CHECK(same_class(drawn->board, goal));
      CHECK(drawn->distance == -1);
    }
    const auto by_distance = draw_board(q, 10, rng, {});
    REQUIRE_FALSE(by_distance.ok());
    CHECK(by_distance.error().message ==
          "distances of " + to_string(s) +
              " boards are not exact, so none is drawn by distance: ask for a random board "
              "without one");
  }
  // Every cell takes every tile: the shuffle reaches the whole board.
  std::set<std::pair<int, int>> placed;
  const GridBoard goal = standard_goal(Shape{3, 5});
  for (int i = 0; i < 2000; ++i) {
    const GridBoard b = shuffled_board(goal, rng);
    for (int c = 0; c < b.size(); ++c) placed.insert({c, b.cells[static_cast<std::size_t>(c)]});
  }
  CHECK(placed.size() == 15 * 15);
}

}  // namespace eight
