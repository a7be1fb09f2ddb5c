#include <doctest/doctest.h>

#include <map>
#include <set>

#include "eight/random.h"
#include "eight/rank.h"
#include "support.h"

using namespace eight;

namespace {

const DistanceIndex& index() {
  static const DistanceIndex idx(test::table());
  return idx;
}

GoalFrame frame(const std::string& goal) {
  auto f = test::solver().frame(test::board(goal));
  REQUIRE(f.ok());
  return *f;
}

}  // namespace

TEST_CASE("the generator is SplitMix64, so seeded draws agree on every machine") {
  // Reference outputs of SplitMix64 seeded with 0.
  Rng rng(0);
  CHECK(rng.next() == 0xE220A8397B1DCDAFull);
  CHECK(rng.next() == 0x6E789E6AA1B965F4ull);
  CHECK(rng.next() == 0x06C45D188009454Full);
}

TEST_CASE("below(n) stays in range") {
  Rng rng(42);
  for (std::uint64_t n : {1ull, 2ull, 3ull, 20ull, 181440ull, (1ull << 63) + 1}) {
    for (int i = 0; i < 1000; ++i) CHECK(rng.below(n) < n);
  }
}

TEST_CASE("the distance index groups every position by its distance") {
  const auto& t = test::table();
  for (std::size_t s = 0; s < t.section_count(); ++s) {
    std::size_t total = 0;
    for (int d = 0; d <= format::kMaxDistance; ++d) {
      const auto group = index().at(s, d);
      REQUIRE(group.size() == t.section(s).histogram[d]);
      for (std::uint32_t r : group) REQUIRE(t.entry(s, r).distance == d);
      total += group.size();
    }
    CHECK(total == kPositions);
  }
  CHECK(index().at(2, 31).empty());
  CHECK(index().at(0, -1).empty());
}

TEST_CASE("a random board is exactly the asked distance from any goal") {
  Rng rng(7);
  for (const char* g : {"123456780", "123804765", "012345678", "213456780"}) {
    const GoalFrame f = frame(g);
    const int max = test::table().section(f.section()).max_distance;
    for (int d = 0; d <= max; ++d) {
      for (int k = 0; k < 5; ++k) {
        const Board b = random_board(index(), f, d, rng);
        REQUIRE(is_valid(b));
        REQUIRE(test::solver().distance(b, f) == d);
      }
    }
  }
}

TEST_CASE("a seeded draw gives the same board every time") {
  const GoalFrame f = frame("123456780");
  Rng a(12345), b(12345);
  for (int i = 0; i < 50; ++i) {
    CHECK(random_board(index(), f, 20, a) == random_board(index(), f, 20, b));
  }
  // Pinned: the first draw for seed 12345 at distance 20, worked out by hand
  // in Python from the table file (SplitMix64, rejection, 16,993 ranks at
  // distance 20 in ascending order, unrank). Changes only if the generator,
  // the index order or the ranking changes.
  Rng c(12345);
  CHECK(to_string(random_board(index(), f, 20, c)) == "436875021");
}

TEST_CASE("draws are uniform over a small distance class (chi-square)") {
  // The 20 boards at distance 5 from 123456780, 20,000 draws: the statistic
  // has 19 degrees of freedom; 43.82 is its 0.999 quantile.
  const GoalFrame f = frame("123456780");
  Rng rng(2026);
  std::map<std::string, int> counts;
  constexpr int kDraws = 20000;
  for (int i = 0; i < kDraws; ++i) ++counts[to_string(random_board(index(), f, 5, rng))];
  REQUIRE(counts.size() == 20);
  const double expected = kDraws / 20.0;
  double chi2 = 0;
  for (const auto& [board, n] : counts) chi2 += (n - expected) * (n - expected) / expected;
  CHECK(chi2 < 43.82);
}

TEST_CASE("the hardest boards of the standard goal are its two 31-move positions") {
  const auto boards = hardest_boards(index(), test::table(), frame("123456780"));
  REQUIRE(boards.size() == 2);
  std::set<std::string> got{to_string(boards[0]), to_string(boards[1])};
  CHECK(got == std::set<std::string>{"647850321", "867254301"});
  const auto snail = hardest_boards(index(), test::table(), frame("123804765"));
  CHECK(snail.size() == 148);
  for (const Board& b : snail) CHECK(test::solver().distance(b, frame("123804765")) == 30);
}

TEST_CASE("from_section undoes to_section for every goal cell") {
  Rng rng(1);
  for (int blank = 0; blank < kCells; ++blank) {
    const GoalFrame f = frame(to_string(canonical_goal(blank)));
    for (int i = 0; i < 200; ++i) {
      const Board b = unrank(static_cast<std::uint32_t>(rng.below(kPositions)), i & 1);
      CHECK(f.from_section(f.to_section(b)) == b);
    }
  }
}

TEST_CASE("hints list exactly the optimal first moves, for every position of a section") {
  const GoalFrame f = frame("123804765");
  std::array<Hint, 4> hints;
  long with_several = 0;
  for (std::uint32_t r = 0; r < kPositions; ++r) {
    const Board b = f.from_section(unrank(r, 0));
    const int d = test::solver().distance(b, f);
    const int n = test::solver().hints(b, f, hints);
    int expected = 0;
    for (Move m : kAllMoves) {
      auto next = apply_move(b, m);
      if (next && test::solver().distance(*next, f) == d - 1) ++expected;
    }
    REQUIRE(n == expected);
    REQUIRE((d == 0) == (n == 0));
    for (int i = 0; i < n; ++i) {
      REQUIRE(apply_move(b, hints[i].move) == hints[i].next);
      REQUIRE(hints[i].distance == d - 1);
      REQUIRE(b.cells[neighbor(blank_cell(b), hints[i].move)] == hints[i].tile);
    }
    with_several += n > 1;
  }
  CHECK(with_several > 0);
  CHECK(test::solver().hints(test::board("213456780"), frame("123456780"), hints) == 0);
}
