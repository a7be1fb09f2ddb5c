// The endgame after the beam on 5x5 (core/path_shortener.h): the path stays
// legal and never grows, a near board's path comes out optimal and proven
// so (against an independent IDA* over Manhattan distance and linear
// conflicts), and its nodes, cancel flag and deadline hold.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <vector>

#include "beam_search.h"
#include "eight/random.h"
#include "grid_search.h"
#include "path_shortener.h"
#include "support.h"

namespace eight {
namespace {

const GridBoard kEndgameGoal = canonical_goal(0, Shape{5, 5});

// A beam's path from `start`, narrow enough to leave moves to take off.
std::vector<Move> endgame_beam_path(const GridBoard& start, const grid::BeamHeuristic& h,
                                    int width) {
  const grid::BeamResult r = grid::beam_search(start, kEndgameGoal, width, {}, h);
  REQUIRE(r.status == fifteen::SearchStatus::kSolved);
  return r.path;
}

}  // namespace

TEST_CASE("the endgame never lengthens a beam's path and keeps it legal") {
  const grid::BeamHeuristic h = grid::beam_heuristic(kEndgameGoal, test::program_default_table().pdb5x5_set(0));
  REQUIRE(h.databases != nullptr);
  Rng rng(61);
  int saved = 0;
  for (int trial = 0; trial < 6; ++trial) {
    const GridBoard start = shuffled_board(kEndgameGoal, rng);
    std::vector<Move> path = endgame_beam_path(start, h, 20);
    const std::size_t before = path.size();
    const grid::ShortenResult r = grid::shorten_path(start, kEndgameGoal, h, path, {});
    CAPTURE(before);
    CHECK(r.status == fifteen::SearchStatus::kSolved);
    CHECK(test::replay(start, path) == kEndgameGoal);
    CHECK(path.size() <= before);
    CHECK(r.saved == static_cast<int>(before - path.size()));
    CHECK(r.nodes <= grid::kEndgameNodes);
    CHECK(static_cast<int>(path.size()) >= grid::manhattan_linear_conflict(start, kEndgameGoal));
    saved += r.saved;
  }
  // A beam of 20 boards leaves moves the endgame finds.
  CHECK(saved > 0);
}

TEST_CASE("the endgame makes a near 5x5 board's path optimal and says it is proven") {
  const grid::BeamHeuristic h = grid::beam_heuristic(kEndgameGoal, test::program_default_table().pdb5x5_set(0));
  Rng rng(67);
  for (int trial = 0; trial < 10; ++trial) {
    const GridBoard start = test::walk(kEndgameGoal, 40, rng);
    const grid::GridResult best = grid::search_with(start, kEndgameGoal, nullptr, {});
    REQUIRE(best.status == fifteen::SearchStatus::kSolved);
    // A beam's path with a detour at its end: the blank (on cell 0 at the
    // goal) three times round the top-left square, which puts its three
    // tiles back; 12 moves longer, still legal.
    std::vector<Move> path = endgame_beam_path(start, h, 50);
    for (int turn = 0; turn < 3; ++turn) {
      path.insert(path.end(), {Move::kRight, Move::kDown, Move::kLeft, Move::kUp});
    }
    REQUIRE(test::replay(start, path) == kEndgameGoal);
    const std::size_t before = path.size();
    const grid::ShortenResult r = grid::shorten_path(start, kEndgameGoal, h, path, {});
    CAPTURE(before);
    CHECK(test::replay(start, path) == kEndgameGoal);
    CHECK(path.size() == best.path.size());
    CHECK(r.saved >= 12);
    CHECK(r.optimal);
  }
}

TEST_CASE("the endgame stops at its node budget, its deadline or its cancel flag") {
  const grid::BeamHeuristic h = grid::beam_heuristic(kEndgameGoal, test::program_default_table().pdb5x5_set(0));
  Rng rng(71);
  const GridBoard start = shuffled_board(kEndgameGoal, rng);
  const std::vector<Move> beam = endgame_beam_path(start, h, 20);
  for (const std::uint64_t nodes : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{5000}}) {
    CAPTURE(nodes);
    fifteen::SearchBudget budget;
    budget.max_nodes = nodes;
    std::vector<Move> path = beam;
    const grid::ShortenResult r = grid::shorten_path(start, kEndgameGoal, h, path, budget);
    CHECK(r.nodes <= nodes);
    CHECK_FALSE(r.optimal);
    CHECK(test::replay(start, path) == kEndgameGoal);
    CHECK(path.size() <= beam.size());
  }
  // A far board's endgame runs to kEndgameNodes: past the first check
  // (every fifteen::kSearchCheckInterval nodes) it reads the flag and the
  // clock.
  std::atomic<bool> cancel{true};
  fifteen::SearchBudget cancelled;
  cancelled.cancel = &cancel;
  std::vector<Move> path = beam;
  const grid::ShortenResult c = grid::shorten_path(start, kEndgameGoal, h, path, cancelled);
  CHECK(c.status == fifteen::SearchStatus::kCancelled);
  CHECK(c.nodes <= 2 * fifteen::kSearchCheckInterval);
  CHECK(test::replay(start, path) == kEndgameGoal);
  fifteen::SearchBudget late;
  late.deadline = std::chrono::steady_clock::now();
  path = beam;
  const grid::ShortenResult d = grid::shorten_path(start, kEndgameGoal, h, path, late);
  CHECK(d.status == fifteen::SearchStatus::kDeadlineExceeded);
  CHECK(d.nodes <= 2 * fifteen::kSearchCheckInterval);
  CHECK(test::replay(start, path) == kEndgameGoal);
}

}  // namespace eight
