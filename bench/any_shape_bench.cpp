// Any-shape engine benchmarks: rank and unrank on 3x4, and descent solves
// of random 3x4 positions from a 3x4 mod-3 section.
//
//   build/bin/eight-any-bench
//
// The section (blank in the corner, cell 11) is generated once, up front
// of the descent benchmark: about ten seconds on two cores, 120 MB.
// Positions are drawn once from a fixed seed over the whole class, so
// descent reads the 60 MB table as real traffic would.
#include <benchmark/benchmark.h>

#include <array>
#include <random>
#include <vector>

#include "eight/any_rank.h"
#include "eight/descent.h"
#include "mod3_search.h"

namespace {

constexpr eight::Shape k3x4{3, 4};
using Cells = std::array<std::uint8_t, 12>;

const std::vector<Cells>& positions_3x4() {
  static const auto v = [] {
    std::mt19937 rng(20261202);
    std::uniform_int_distribution<std::uint32_t> pick(0, eight::positions(k3x4) - 1);
    std::vector<Cells> out(4096);
    for (Cells& c : out) eight::unrank_cells(k3x4, pick(rng), eight::board_class(eight::canonical_goal(11, k3x4)), c);
    return out;
  }();
  return v;
}

const eight::detail::Mod3Section& section_3x4() {
  static const auto s = eight::detail::mod3_search(k3x4, 11);
  return s;
}

void BM_RankCells3x4(benchmark::State& state) {
  const auto& p = positions_3x4();
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(eight::rank_cells(k3x4, p[i++ & 4095]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RankCells3x4);

void BM_UnrankCells3x4(benchmark::State& state) {
  std::uint32_t r = 0;
  Cells out{};
  for (auto _ : state) {
    eight::unrank_cells(k3x4, r, 0, out);
    benchmark::DoNotOptimize(out);
    r = (r + 7919) % eight::positions(k3x4);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UnrankCells3x4);

// One optimal path per iteration, by descent over the mod-3 table.
void BM_Descent3x4(benchmark::State& state) {
  const auto& section = section_3x4();
  const auto& p = positions_3x4();
  std::size_t i = 0;
  long moves = 0;
  for (auto _ : state) {
    const auto path = eight::descend(k3x4, section.table, section.max_distance(), section.goal_rank,
                                     p[i++ & 4095]);
    moves += path->distance;
    benchmark::DoNotOptimize(path);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["moves/solve"] =
      static_cast<double>(moves) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_Descent3x4);

}  // namespace
