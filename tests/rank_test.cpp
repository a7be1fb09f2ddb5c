#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "eight/any_rank.h"
#include "eight/rank.h"
#include "rank/kernel.h"
#include "section_search.h"
#include "support.h"

using namespace eight;

TEST_CASE("rank is a bijection from each class onto 0..181439 over all 9! permutations") {
  std::vector<std::uint8_t> seen[2] = {std::vector<std::uint8_t>(kPositions3x3),
                                       std::vector<std::uint8_t>(kPositions3x3)};
  std::array<std::uint8_t, 9> p{0, 1, 2, 3, 4, 5, 6, 7, 8};
  do {
    const Board b = test::board_of_cells(p);
    const std::uint32_t r = rank_3x3(b);
    const int parity = tile_parity(b);
    REQUIRE(r < kPositions3x3);
    REQUIRE(seen[parity][r] == 0);
    seen[parity][r] = 1;
    REQUIRE(unrank_3x3(r, parity) == b);
  } while (std::next_permutation(p.begin(), p.end()));
  for (int parity = 0; parity < 2; ++parity) {
    CHECK(std::count(seen[parity].begin(), seen[parity].end(), 1) == kPositions3x3);
  }
}

TEST_CASE("unrank then rank is the identity on every rank of both classes") {
  for (int parity = 0; parity < 2; ++parity) {
    for (std::uint32_t r = 0; r < kPositions3x3; ++r) {
      const Board b = unrank_3x3(r, parity);
      REQUIRE(is_valid(b));
      REQUIRE(tile_parity(b) == parity);
      REQUIRE(rank_3x3(b) == r);
    }
  }
}

TEST_CASE("rank leads with the blank cell") {
  CHECK(rank_3x3(test::board("012345678")) == 0);
  CHECK(rank_3x3(test::board("123456780")) == 8 * kTileOrders3x3);
  CHECK(rank_3x3(test::board("123405678")) == 4 * kTileOrders3x3);
  CHECK(rank_3x3(test::board("087654321")) / kTileOrders3x3 == 0);
}

TEST_CASE("the transition tables move between ranks exactly as boards move, everywhere") {
  // The generator and the verifier move between ranks through tables
  // (core/section_search.h); every move of every position of the class
  // must be apply_move() and rank_3x3().
  const auto& transitions = detail::Transitions::get();
  detail::Moves moves;
  for (std::uint32_t r = 0; r < kPositions3x3; ++r) {
    const Board b = unrank_3x3(r, 0);
    transitions.moves(r, moves);
    for (Move m : kAllMoves) {
      const auto i = static_cast<std::size_t>(m);
      const auto n = apply_move(b, m);
      REQUIRE(((moves.legal >> i) & 1) == (n ? 1u : 0u));
      REQUIRE(moves.rank[i] == (n ? rank_3x3(*n) : r));  // an illegal move stays put
    }
  }
}

TEST_CASE("the packed-order Lehmer rank and parity are those of every order") {
  std::array<std::uint32_t, 8> p{0, 1, 2, 3, 4, 5, 6, 7};
  std::uint32_t lehmer = 0;
  do {  // lexicographic order is Lehmer order
    std::uint32_t packed = 0;
    int inversions = 0;
    for (int i = 0; i < 8; ++i) {
      packed |= p[static_cast<std::size_t>(i)] << (3 * i);
      for (int j = i + 1; j < 8; ++j)
        inversions += p[static_cast<std::size_t>(j)] < p[static_cast<std::size_t>(i)];
    }
    const std::uint32_t got = detail::packed_order_lehmer(packed);
    REQUIRE((got & 0x7FFFFFFF) == lehmer++);
    REQUIRE(static_cast<int>(got >> 31) == inversions % 2);
  } while (std::next_permutation(p.begin(), p.end()));
  CHECK(lehmer == 40320);
}

TEST_CASE("rank_with_parity is rank and tile_parity together, on all 9! permutations") {
  std::array<std::uint8_t, 9> p{0, 1, 2, 3, 4, 5, 6, 7, 8};
  do {
    const Board b = test::board_of_cells(p);
    const Ranked r = rank_3x3_with_parity(b);
    REQUIRE(r.rank == rank_3x3(b));
    REQUIRE(r.parity == tile_parity(b));
  } while (std::next_permutation(p.begin(), p.end()));
}

TEST_CASE("the 3x3 fast path is the any-shape kernel, on all 9! permutations") {
  // rank.h's functions and ShapeKernel<3, 3>'s Lehmer rank take the half
  // tables (core/rank/kernel.h); every shape else takes the generic loop.
  // Both must give every 3x3 position the same rank, class and inverse.
  using K = detail::ShapeKernel<3, 3>;
  std::array<std::uint8_t, 9> p{0, 1, 2, 3, 4, 5, 6, 7, 8};
  do {
    const Board b = test::board_of_cells(p);
    int blank = 0;
    const std::uint64_t order = K::pack(p.data(), blank);
    int packed_blank = -1;
    REQUIRE(K::pack<3>(p.data(), packed_blank) == K::narrow(order));
    REQUIRE(packed_blank == blank);
    const std::uint32_t generic = K::generic_lehmer(order);
    const int cls = static_cast<int>(generic >> 31);
    const std::uint32_t r = K::rank_of_lehmer(blank, generic);
    REQUIRE(K::lehmer(order) == generic);
    const Ranked fast = rank_3x3_with_parity(b);
    REQUIRE(fast.rank == r);
    REQUIRE(fast.parity == cls);
    REQUIRE(rank_cells(kShape3x3, p) == r);
    REQUIRE(board_class(test::board_of_cells(p, kShape3x3)) == cls);
    std::array<std::uint8_t, 9> back{};
    unrank_cells(kShape3x3, r, cls, back);
    REQUIRE(back == p);
    REQUIRE(unrank_3x3(r, cls) == b);
  } while (std::next_permutation(p.begin(), p.end()));
}

TEST_CASE("the 3x3 order table is the generic unrank on every order index of both parities") {
  // ShapeKernel<3, 3>::order_of takes kEvenOrders (core/rank/kernel.h);
  // every shape else takes the generic digits.
  using K = detail::ShapeKernel<3, 3>;
  for (std::uint32_t rest = 0; rest < K::kOrders; ++rest) {
    for (int parity = 0; parity < 2; ++parity) {
      const std::uint32_t packed = detail::packed_order_of(rest, parity);
      REQUIRE(K::widen(packed) == K::generic_order_of(rest, parity));
      REQUIRE(K::order_of(rest, parity) == K::generic_order_of(rest, parity));
      const std::uint32_t lehmer = detail::packed_order_lehmer(packed);
      REQUIRE(((lehmer & 0x7FFFFFFF) >> 1) == rest);
      REQUIRE(static_cast<int>(lehmer >> 31) == parity);
    }
  }
}
