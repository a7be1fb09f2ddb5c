#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "eight/rank.h"
#include "section_search.h"
#include "support.h"

using namespace eight;

TEST_CASE("rank is a bijection from each class onto 0..181439 over all 9! permutations") {
  std::vector<std::uint8_t> seen[2] = {std::vector<std::uint8_t>(kPositions),
                                       std::vector<std::uint8_t>(kPositions)};
  std::array<std::uint8_t, 9> p{0, 1, 2, 3, 4, 5, 6, 7, 8};
  do {
    const Board b{p};
    const std::uint32_t r = rank(b);
    const int parity = tile_parity(b);
    REQUIRE(r < kPositions);
    REQUIRE(seen[parity][r] == 0);
    seen[parity][r] = 1;
    REQUIRE(unrank(r, parity) == b);
  } while (std::next_permutation(p.begin(), p.end()));
  for (int parity = 0; parity < 2; ++parity) {
    CHECK(std::count(seen[parity].begin(), seen[parity].end(), 1) == kPositions);
  }
}

TEST_CASE("unrank then rank is the identity on every rank of both classes") {
  for (int parity = 0; parity < 2; ++parity) {
    for (std::uint32_t r = 0; r < kPositions; ++r) {
      const Board b = unrank(r, parity);
      REQUIRE(is_valid(b));
      REQUIRE(tile_parity(b) == parity);
      REQUIRE(rank(b) == r);
    }
  }
}

TEST_CASE("rank leads with the blank cell") {
  CHECK(rank(test::board("012345678")) == 0);
  CHECK(rank(test::board("123456780")) == 8 * kTileOrders);
  CHECK(rank(test::board("123405678")) == 4 * kTileOrders);
  CHECK(rank(test::board("087654321")) / kTileOrders == 0);
}

TEST_CASE("the search's packed states rank and move exactly as boards do, everywhere") {
  // The generator and the verifier search packed states (core/section_search.h);
  // their ranks and neighbours must be rank() and apply_move() for every
  // position of both classes and every move.
  const auto& ranker = detail::OrderRanker::get();
  std::array<detail::Step, 4> steps;
  for (int parity = 0; parity < 2; ++parity) {
    for (std::uint32_t r = 0; r < kPositions; ++r) {
      const Board b = unrank(r, parity);
      const std::uint32_t state = detail::pack_state(b);
      REQUIRE(ranker.rank(state) == r);
      const int count = detail::neighbours(ranker, state, r, steps);
      int expected = 0;
      for (Move m : kAllMoves) {
        const auto n = apply_move(b, m);
        if (!n) continue;
        REQUIRE(expected < count);
        const detail::Step& step = steps[static_cast<std::size_t>(expected++)];
        REQUIRE(step.move == m);
        REQUIRE(step.rank == rank(*n));
        REQUIRE(step.state == detail::pack_state(*n));
      }
      REQUIRE(count == expected);
    }
  }
}
