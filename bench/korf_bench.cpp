// Korf's 100 15-puzzle instances (Korf 1985; tests/data/korf100.txt), or
// another file of 4x4 instances in its format (--instances: the 17
// positions that need 80 moves, tests/data/hardest_4x4.txt), each solved
// optimally on this thread from a table's pattern databases, every length
// checked against the published one and every path replayed to the goal.
// Prints one line per board (nodes, milliseconds) and the totals; exits 1
// when any answer is wrong.
//
//   eight-korf-bench [--table PATH] [--instances PATH] [--budget NODES|default]
//                    [--max-ms MS] [--repeat N] [--quiet]
//
// The table defaults to data/eight.tbl (its 6-6-3 databases); give
// data/eight-4x4-7-8.tbl (eight-tablegen --pdb 7-8) for the 7-8 ones. With
// --repeat N each board is solved N times and its median time reported.
// --budget caps the nodes each search may expand ("default": the budget
// eight gives a question, kDefaultSearchNodes); a board that needs more is
// reported as stopped at the budget, with the bound it reached, and counts
// as not answered (no cap without --budget). --max-ms adds a floor: PASS
// when every board is answered optimally, each in under MS milliseconds,
// else FAIL (exit 1).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <variant>
#include <vector>

#include "common/text.h"
#include "eight/answer.h"
#include "eight/board.h"
#include "eight/table.h"
#include "instances.h"

namespace {

using eight::bench::Instance;

}  // namespace

int main(int argc, char** argv) {
  std::string table_path = "data/eight.tbl";
  const std::string korf100 = EIGHT_SOURCE_DIR "/tests/data/korf100.txt";
  std::string instances = korf100;
  int repeat = 1;
  bool quiet = false;
  eight::fifteen::SearchBudget budget;  // no cap unless --budget
  double max_ms = 0;                    // no floor unless --max-ms
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--table") == 0 && has_value) {
      table_path = argv[++i];
    } else if (std::strcmp(argv[i], "--instances") == 0 && has_value) {
      instances = argv[++i];
    } else if (std::strcmp(argv[i], "--budget") == 0 && has_value) {
      const std::string value = argv[++i];
      const auto n = eight::parse_decimal(value);
      if (value == "default") {
        budget.max_nodes = eight::kDefaultSearchNodes;
      } else if (n && *n > 0) {
        budget.max_nodes = *n;
      } else {
        std::fprintf(stderr, "eight-korf-bench: --budget takes a node count or \"default\"\n");
        return 2;
      }
    } else if (std::strcmp(argv[i], "--max-ms") == 0 && has_value) {
      max_ms = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--repeat") == 0 && has_value) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--quiet") == 0) {
      quiet = true;
    } else {
      std::fprintf(stderr,
                   "usage: eight-korf-bench [--table PATH] [--instances PATH] "
                   "[--budget NODES|default] [--max-ms MS] [--repeat N] [--quiet]\n");
      return 2;
    }
  }
  auto table = eight::Table::open(table_path, eight::Check::kChecksum);
  if (!table.ok()) {
    std::fprintf(stderr, "eight-korf-bench: %s\n", table.error().message.c_str());
    return 2;
  }
  const eight::GridBoard goal = eight::canonical_goal(0, eight::kShape4x4);
  const auto frame = (*table)->frame(goal);
  if (!frame.ok() || !eight::is_search_frame(**table, *frame)) {
    std::fprintf(stderr, "eight-korf-bench: %s has no 4x4 pattern databases\n", table_path.c_str());
    return 2;
  }
  auto read = eight::bench::read_instances(instances, eight::kShape4x4, goal);
  if (const auto* why = std::get_if<std::string>(&read)) {
    std::fprintf(stderr, "eight-korf-bench: %s\n", why->c_str());
    return 2;
  }
  const std::vector<Instance>& all = std::get<std::vector<Instance>>(read);
  if (instances == korf100 && all.size() != 100) {
    std::fprintf(stderr, "eight-korf-bench: %zu instances in %s\n", all.size(), instances.c_str());
    return 2;
  }
  using Clock = std::chrono::steady_clock;
  bool wrong = false;
  double total_ms = 0;
  std::uint64_t total_nodes = 0;
  int total_length = 0;
  int published = 0;
  int stopped = 0;  // boards whose search stopped at the budget
  double worst_ms = 0;
  int worst = 0;
  if (!quiet) std::printf("  #  len       nodes        ms\n");
  for (const Instance& k : all) {
    std::vector<double> times;
    eight::SearchedSolution answer;
    for (int r = 0; r < repeat; ++r) {
      const auto start = Clock::now();
      answer = eight::search_solve(**table, *frame, *eight::to_board(k.board), budget);
      times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    const double ms = times[times.size() / 2];
    published += k.length;
    total_ms += ms;
    total_nodes += answer.report.nodes;
    if (ms > worst_ms) {
      worst_ms = ms;
      worst = k.number;
    }
    if (answer.report.status == eight::fifteen::SearchStatus::kBudgetExceeded) {
      // Not an answer, and not a wrong one: the search stopped at its
      // budget, having proven the distance at least the lower bound.
      ++stopped;
      if (answer.report.lower_bound > k.length) {
        wrong = true;
        std::fprintf(stderr, "instance %d: lower bound %d exceeds the published %d\n", k.number,
                     answer.report.lower_bound, k.length);
      }
      if (!quiet) {
        std::printf("%3d    -  %10llu  %8.2f  stopped at the budget: at least %d (bound %d)\n",
                    k.number, static_cast<unsigned long long>(answer.report.nodes), ms,
                    answer.report.lower_bound, answer.report.bound);
      }
      continue;
    }
    // The path must be legal and end at the goal, and as long as published.
    eight::GridBoard cur = k.board;
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
    total_length += answer.solution.distance;
  }
  std::string stops;
  if (stopped > 0) {
    stops = "; " + std::to_string(stopped) + " stopped at the budget of " +
            std::to_string(budget.max_nodes) + " nodes";
  }
  std::printf(
      "%s: %zu boards, %d moves in all (published %d), %llu nodes, %.3f s; slowest #%d "
      "%.1f ms%s%s\n",
      table_path.c_str(), all.size(), total_length, published,
      static_cast<unsigned long long>(total_nodes), total_ms / 1000, worst, worst_ms, stops.c_str(),
      wrong ? "; SOME ANSWERS WRONG" : "");
  if (max_ms > 0) {
    const bool pass = !wrong && stopped == 0 && worst_ms < max_ms;
    std::printf("%s: every board optimal within %.0f ms (%zu of %zu answered; slowest %.1f ms)\n",
                pass ? "PASS" : "FAIL", max_ms, all.size() - static_cast<std::size_t>(stopped),
                all.size(), worst_ms);
    return pass ? 0 : 1;
  }
  return wrong ? 1 : 0;
}
