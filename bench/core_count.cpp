// Fixed work for an instruction count, for callgrind: the core benchmarks'
// 3x3 ranks, distance lookups and solves over the same 4,096 boards, and their
// parse of one text 4,096 times a pass (core_boards.h, which core_bench.cpp
// reads too), a set number of passes. This machine's timings drift by 2x
// from one process to the next; the count of instructions and of simulated
// cache misses does not, and tells two builds apart where time cannot
// (bench/count_core.sh runs it against two trees; docs/performance.md).
//
//   eight-core-count rank|distance|solve|parse [PASSES]
//
// Only the public API that 207ef7f (the commit before issue 20) already
// had, so the script can build it against that tree too.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "eight/solver.h"
#include "eight/table.h"
#include "eight/tablegen.h"

#include "core_boards.h"

namespace {

// callgrind counts these alone (--toggle-collect='count_*').
[[gnu::noinline]] long count_distance(const eight::Solver& s, const eight::GoalFrame& f,
                                      const std::vector<eight::Board>& b, int passes) {
  long sum = 0;
  for (int k = 0; k < passes; ++k) {
    for (const auto& x : b) sum += s.distance(x, f);
  }
  return sum;
}

[[gnu::noinline]] long count_solve(const eight::Solver& s, const eight::GoalFrame& f,
                                   const std::vector<eight::Board>& b, int passes) {
  long sum = 0;
  for (int k = 0; k < passes; ++k) {
    for (const auto& x : b) sum += s.solve(x, f, true)->length;
  }
  return sum;
}

[[gnu::noinline]] long count_rank(const std::vector<eight::Board>& b, int passes) {
  long sum = 0;
  for (int k = 0; k < passes; ++k) {
    for (const auto& x : b) sum += eight::rank_3x3(x);
  }
  return sum;
}

[[gnu::noinline]] long count_parse(int passes) {
  const std::string text = eight::bench::kParseText;
  long sum = 0;
  for (int k = 0; k < passes * 4096; ++k) sum += eight::parse_board(text)->cells[0];
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view what = argc > 1 ? argv[1] : "";
  const int passes = argc > 2 ? std::atoi(argv[2]) : 10;
  if ((what != "rank" && what != "distance" && what != "solve" && what != "parse") || passes < 1 ||
      passes > 100000) {
    std::fprintf(stderr,
                 "usage: eight-core-count rank|distance|solve|parse [PASSES, 1 to 100000]\n");
    return 2;
  }
  if (what == "parse") {
    std::printf("parse %d passes of 4096 texts: %ld\n", passes, count_parse(passes));
    return 0;
  }
  if (what == "rank") {
    const auto b = eight::bench::random_boards(0);
    std::printf("rank %d passes of %zu boards: %ld\n", passes, b.size(), count_rank(b, passes));
    return 0;
  }
  static const auto bytes = eight::build_table(eight::kDefaultSectionBlanks);
  const auto table = *eight::Table::adopt(bytes, "count", eight::Check::kFull);
  const auto frame = *table->frame(*eight::parse_board("123456780"));
  const auto b = eight::bench::random_boards(frame.board_class());
  const long sum = what == "solve" ? count_solve(table->solver(), frame, b, passes)
                                   : count_distance(table->solver(), frame, b, passes);
  // The answers' sum, so that two builds are seen to answer alike.
  std::printf("%s %d passes of %zu boards: %ld\n", std::string(what).c_str(), passes, b.size(),
              sum);
  return 0;
}
