// Core benchmarks: ranking, distance lookup, full solve, table generation.
//
//   make build && build/bin/eight-bench
//
// Boards are drawn once, up front, from a fixed seed over all positions, so
// lookups touch the whole table as real traffic would rather than one hot
// cache line. Figures and how to read them: docs/performance.md.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "eight/random.h"
#include "eight/rank.h"
#include "eight/solver.h"
#include "eight/table.h"
#include "eight/tablegen.h"

#include "core_boards.h"

namespace {

const std::vector<std::uint8_t>& table_bytes() {
  static const auto bytes = eight::build_table(eight::kDefaultSectionBlanks);
  return bytes;
}

const eight::Table& table() {
  static const auto t = *eight::Table::adopt(table_bytes(), "bench", eight::Check::kFull);
  return *t;
}

// core_boards.h's boards of each class, drawn once.
const std::vector<eight::Board>& boards(int parity = 0) {
  static const std::vector<eight::Board> all[2] = {eight::bench::random_boards(0),
                                                   eight::bench::random_boards(1)};
  return all[parity];
}

void BM_Rank(benchmark::State& state) {
  const auto& b = boards();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(eight::rank_3x3(b[i++ & 4095]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Rank);

void BM_Unrank(benchmark::State& state) {
  std::uint32_t r = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(eight::unrank_3x3(r, 0));
    r = (r + 7919) % eight::kPositions3x3;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Unrank);

void BM_Parse(benchmark::State& state) {
  const std::string text = eight::bench::kParseText;
  for (auto _ : state) benchmark::DoNotOptimize(eight::parse_board(text));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Parse);

// Distance of a parsed board to a goal whose frame was built once.
void BM_Distance(benchmark::State& state, const char* goal_text) {
  const eight::Solver& solver = table().solver();
  const auto goal = *eight::parse_board(goal_text);
  const auto frame = *table().frame(goal);
  const auto& b = boards(frame.board_class());
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(solver.distance(b[i++ & 4095], frame));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_Distance, standard_goal, "123456780");
BENCHMARK_CAPTURE(BM_Distance, snail_goal, "123804765");

// Distance and the whole optimal path with its tiles.
void BM_Solve(benchmark::State& state, const char* goal_text) {
  const eight::Solver& solver = table().solver();
  const auto frame = *table().frame(*eight::parse_board(goal_text));
  const auto& b = boards(frame.board_class());
  std::size_t i = 0;
  long moves = 0;
  for (auto _ : state) {
    const auto s = solver.solve(b[i++ & 4095], frame);
    moves += s->length;
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["moves/solve"] =
      static_cast<double>(moves) / static_cast<double>(state.iterations());
}
BENCHMARK_CAPTURE(BM_Solve, standard_goal, "123456780");
BENCHMARK_CAPTURE(BM_Solve, snail_goal, "123804765");

// Parse both texts, build the goal frame, solve a 31-move board: what one
// query costs before any JSON or HTTP.
void BM_SolveFromText(benchmark::State& state) {
  const eight::Solver& solver = table().solver();
  for (auto _ : state) {
    const auto board = eight::parse_board(eight::bench::kParseText);
    const auto goal = eight::parse_board("123456780");
    const auto frame = table().frame(*goal);
    benchmark::DoNotOptimize(solver.solve(*board, *frame));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SolveFromText);

void BM_GenerateSection(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(eight::generate_section(8));
}
BENCHMARK(BM_GenerateSection)->Unit(benchmark::kMillisecond);

void BM_BuildTable(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(eight::build_table(eight::kDefaultSectionBlanks));
}
BENCHMARK(BM_BuildTable)->Unit(benchmark::kMillisecond)->UseRealTime();

// Opening for answers: the header, the records and the checksum.
void BM_CheckTable(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        eight::TableView::parse(table_bytes(), "bench", eight::Check::kChecksum));
  }
}
BENCHMARK(BM_CheckTable)->Unit(benchmark::kMicrosecond);

// The full structural proof, sections on all cores.
void BM_VerifyTable(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(eight::TableView::parse(table_bytes(), "bench", eight::Check::kFull));
  }
}
BENCHMARK(BM_VerifyTable)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
