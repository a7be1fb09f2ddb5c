// Korf's 100 15-puzzle instances (Korf 1985; tests/data/korf100.txt), each
// solved optimally on this thread from a table's pattern databases, every
// length checked against the published one and every path replayed to the
// goal. Prints one line per board (nodes, milliseconds) and the totals;
// exits 1 when any answer is wrong.
//
//   eight-korf-bench [--table PATH] [--repeat N] [--quiet]
//
// The table defaults to data/eight.tbl (its 6-6-3 databases); give
// data/eight-4x4-7-8.tbl (eight-tablegen --pdb 7-8) for the 7-8 ones. With
// --repeat N each board is solved N times and its median time reported.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "eight/board.h"
#include "eight/answer.h"
#include "eight/table.h"

namespace {

struct Instance {
  int number = 0;
  int length = 0;
  eight::Board board;
};

}  // namespace

int main(int argc, char** argv) {
  std::string table_path = "data/eight.tbl";
  std::string instances = EIGHT_SOURCE_DIR "/tests/data/korf100.txt";
  int repeat = 1;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--table") == 0 && i + 1 < argc) {
      table_path = argv[++i];
    } else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--quiet") == 0) {
      quiet = true;
    } else {
      std::fprintf(stderr, "usage: eight-korf-bench [--table PATH] [--repeat N] [--quiet]\n");
      return 2;
    }
  }
  auto table = eight::Table::open(table_path, eight::Check::kChecksum);
  if (!table.ok()) {
    std::fprintf(stderr, "eight-korf-bench: %s\n", table.error().message.c_str());
    return 2;
  }
  const eight::Board goal = eight::canonical_goal(0, eight::kShape4x4);
  const auto frame = (*table)->frame(goal);
  if (!frame.ok() || !eight::is_search_frame(**table, *frame)) {
    std::fprintf(stderr, "eight-korf-bench: %s has no 4x4 pattern databases\n", table_path.c_str());
    return 2;
  }
  std::ifstream in(instances);
  std::vector<Instance> all;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Instance k;
    fields >> k.number >> k.length;
    std::string rest;
    std::getline(fields, rest);
    auto b = eight::parse_board(rest, eight::kShape4x4);
    if (!b.ok()) {
      std::fprintf(stderr, "eight-korf-bench: instance %d: %s\n", k.number,
                   b.error().message.c_str());
      return 2;
    }
    k.board = *b;
    all.push_back(k);
  }
  if (all.size() != 100) {
    std::fprintf(stderr, "eight-korf-bench: %zu instances in %s, not 100\n", all.size(),
                 instances.c_str());
    return 2;
  }
  using Clock = std::chrono::steady_clock;
  bool wrong = false;
  double total_ms = 0;
  std::uint64_t total_nodes = 0;
  int total_length = 0;
  double worst_ms = 0;
  int worst = 0;
  if (!quiet) std::printf("  #  len       nodes        ms\n");
  for (const Instance& k : all) {
    std::vector<double> times;
    eight::SearchedSolution answer;
    for (int r = 0; r < repeat; ++r) {
      const auto start = Clock::now();
      answer = eight::search_solve(**table, *frame, k.board, {});
      times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    const double ms = times[times.size() / 2];
    // The path must be legal and end at the goal, and as long as published.
    eight::Board cur = k.board;
    bool legal = answer.solution.solvable;
    for (const eight::Move m : answer.solution.path()) {
      const auto next = eight::apply_move(cur, m);
      if (!next) legal = false;
      if (next) cur = *next;
    }
    const bool ok = legal && cur == goal && answer.solution.distance == k.length &&
                    answer.solution.length == k.length;
    if (!ok) {
      wrong = true;
      std::fprintf(stderr, "instance %d: expected %d moves, got %d (%s)\n", k.number, k.length,
                   answer.solution.distance, legal && cur == goal ? "path ok" : "bad path");
    }
    if (!quiet) {
      std::printf("%3d  %3d  %10llu  %8.2f\n", k.number, answer.solution.distance,
                  static_cast<unsigned long long>(answer.report.nodes), ms);
    }
    total_ms += ms;
    total_nodes += answer.report.nodes;
    total_length += answer.solution.distance;
    if (ms > worst_ms) {
      worst_ms = ms;
      worst = k.number;
    }
  }
  std::printf(
      "%s: 100 boards, %d moves in all (published 5305), %llu nodes, %.3f s; slowest #%d "
      "%.1f ms%s\n",
      table_path.c_str(), total_length, static_cast<unsigned long long>(total_nodes),
      total_ms / 1000, worst, worst_ms, wrong ? "; SOME ANSWERS WRONG" : "");
  return wrong ? 1 : 0;
}
