// The core benchmarks' inputs, shared by eight-bench (core_bench.cpp) and
// eight-core-count (core_count.cpp), so that a count and a timing are of the
// same work. Public API only, and only what 207ef7f (the commit before issue
// 20) already had: bench/count_core.sh compiles core_count.cpp against that
// tree's headers.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "eight/board.h"
#include "eight/rank.h"

namespace eight::bench {

// BM_Parse's text, a 3x3 board 31 moves from the standard goal.
inline constexpr const char* kParseText = "8 6 7 2 5 4 3 x 1";

// 4096 boards of one class (tile parity 0 or 1), uniformly at random from a
// fixed seed, so that every board asked about a goal of that parity is
// solvable and lookups touch the whole table.
inline std::vector<Board> random_boards(int parity) {
  std::mt19937 rng(20261130);
  std::uniform_int_distribution<std::uint32_t> pick(0, kPositions3x3 - 1);
  std::vector<Board> v;
  for (int i = 0; i < 4096; ++i) v.push_back(unrank_3x3(pick(rng), parity));
  return v;
}

}  // namespace eight::bench
