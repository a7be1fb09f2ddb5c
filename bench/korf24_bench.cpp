// Korf and Felner's 50 24-puzzle instances (Korf and Felner 2002;
// tests/data/korf_felner_24.txt), each answered as eight answers a 5x5
// board: through solve_board() with the grid question of Korf's goal (the
// blank on cell 0) and the default budget, on this thread. Every path is
// replayed and must be legal and end at the goal; every answer's proven
// lower bound must be at most the published optimal length, and a path no
// shorter than it. The 5x5 pattern databases are the --table file's (the
// default table holds them for Korf's goal); without one the beam runs over
// Manhattan distance and linear conflicts alone. One answer is taken first,
// untimed (a warm-up), and its time printed apart. Prints one line per instance (the
// path's length, the lower bound, the published length, milliseconds) and the totals, then PASS or
// FAIL against issue 20's floors:
//   - the lengths sum to at most --max-ratio (1.15) times the published sum;
//   - every answer under --max-ms (1000) milliseconds;
//   - every lower bound at most the published length.
//
//   eight-korf24-bench [--instances PATH] [--table PATH] [--repeat N] [--max-ms MS]
//                      [--max-ratio R] [--quiet]
//
// With --repeat N each instance is answered N times and its median time
// reported (the answer is the same each time). Exit status 0 when every
// floor holds, 1 when one does not or an answer is wrong, 2 on bad usage or
// a bad instance file.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "bench_tables.h"
#include "eight/answer.h"
#include "eight/board.h"
#include "eight/table.h"
#include "eight/table_set.h"
#include "instances.h"

namespace {

using Clock = std::chrono::steady_clock;

using eight::bench::Instance;

int usage() {
  std::fprintf(stderr,
               "usage: eight-korf24-bench [--instances PATH] [--table PATH] [--repeat N] "
               "[--max-ms MS] "
               "[--max-ratio R] [--quiet]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string instances = EIGHT_SOURCE_DIR "/tests/data/korf_felner_24.txt";
  int repeat = 1;
  double max_ms = 1000;
  double max_ratio = 1.15;
  bool quiet = false;
  std::string table;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--instances") == 0 && has_value) {
      instances = argv[++i];
    } else if (std::strcmp(argv[i], "--table") == 0 && has_value) {
      table = argv[++i];
    } else if (std::strcmp(argv[i], "--repeat") == 0 && has_value) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--max-ms") == 0 && has_value) {
      max_ms = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--max-ratio") == 0 && has_value) {
      max_ratio = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--quiet") == 0) {
      quiet = true;
    } else {
      return usage();
    }
  }
  const eight::Shape shape{5, 5};
  // Korf's goal: the blank on cell 0, tile t on cell t.
  const eight::GridBoard goal = eight::canonical_goal(0, shape);
  auto loaded = eight::bench::open_tables(table);
  if (const auto* error = std::get_if<std::string>(&loaded)) {
    std::fprintf(stderr, "eight-korf24-bench: %s\n", error->c_str());
    return 2;
  }
  const eight::TableSet tables(std::get<0>(std::move(loaded)));
  const eight::Question q = eight::grid_question(goal, &tables);
  if (!quiet) {
    std::printf("5x5 pattern databases: %s\n",
                q.grid_pdb5x5 != nullptr ? "the table's" : "none (MD and linear conflicts alone)");
  }

  auto read = eight::bench::read_instances(instances, shape, goal);
  if (const auto* why = std::get_if<std::string>(&read)) {
    std::fprintf(stderr, "eight-korf24-bench: %s\n", why->c_str());
    return 2;
  }
  const std::vector<Instance>& all = std::get<std::vector<Instance>>(read);

  // The budget eight itself gives a question (the CLI's and server's
  // default): the grid engine spends at most kGridAttemptNodes of it on the
  // optimal attempt, then reduces.
  eight::fifteen::SearchBudget budget;
  budget.max_nodes = eight::kDefaultSearchNodes;

  // An answer taken first, untimed (the first touch of the databases'
  // pages), its time reported apart.
  {
    const auto start = Clock::now();
    (void)eight::solve_board(q, all.front().board, true, budget);
    if (!quiet) {
      std::printf("first answer (a warm-up): %.0f ms\n",
                  std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
  }

  bool wrong = false;
  bool bound_ok = true;
  int published_sum = 0;
  long long length_sum = 0;
  long long bound_sum = 0;
  double total_ms = 0;
  double worst_ms = 0;
  int worst = 0;
  int optimal = 0;
  if (!quiet) {
    std::printf("%3s %6s %6s %9s %7s %17s %9s %9s\n", "#", "length", "bound", "published", "ratio",
                "method", "nodes", "ms");
  }
  for (const Instance& k : all) {
    std::vector<double> times;
    eight::Result<eight::SearchedSolution> answer = eight::SearchedSolution{};
    for (int r = 0; r < repeat; ++r) {
      const auto start = Clock::now();
      answer = eight::solve_board(q, k.board, true, budget);
      times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    const double ms = times[times.size() / 2];
    published_sum += k.length;
    total_ms += ms;
    if (ms > worst_ms) {
      worst_ms = ms;
      worst = k.number;
    }
    if (!answer.ok() || !answer->report.finished() || !answer->solution.solvable) {
      wrong = true;
      std::fprintf(stderr, "instance %d: no answer%s%s\n", k.number, answer.ok() ? "" : ": ",
                   answer.ok() ? "" : answer.error().message.c_str());
      continue;
    }
    const eight::Solution& s = answer->solution;
    // The path must be legal, end at the goal and be as long as it says.
    eight::GridBoard at = k.board;
    bool legal = true;
    int moves = 0;
    for (const eight::Move m : s.path()) {
      const auto next = eight::apply_move(at, m);
      if (!next) {
        legal = false;
        break;
      }
      at = *next;
      ++moves;
    }
    const int length = s.distance;
    const int bound = answer->report.lower_bound;
    std::string problem;
    if (!legal) {
      problem = "an illegal move";
    } else if (at != goal) {
      problem = "the path misses the goal";
    } else if (moves != length || s.length != length) {
      problem = "the path's length is not its distance";
    } else if (length < k.length) {
      problem = "a path shorter than the published optimum";
    } else if ((length - k.length) % 2 != 0) {
      problem = "a length of the wrong parity";
    } else if (answer->report.optimal() && length != k.length) {
      problem = "claimed optimal, but not the published length";
    }
    if (!problem.empty()) {
      wrong = true;
      std::fprintf(stderr, "instance %d: %s (length %d, published %d)\n", k.number, problem.c_str(),
                   length, k.length);
    }
    if (bound > k.length) {
      bound_ok = false;
      std::fprintf(stderr, "instance %d: lower bound %d exceeds the published length %d\n",
                   k.number, bound, k.length);
    }
    if (answer->report.optimal()) ++optimal;
    length_sum += length;
    bound_sum += bound;
    if (!quiet) {
      std::printf("%3d %6d %6d %9d %7.3f %17s %9llu %9.2f\n", k.number, length, bound, k.length,
                  static_cast<double>(length) / k.length,
                  std::string(eight::method_name(s.quality.method)).c_str(),
                  static_cast<unsigned long long>(answer->report.nodes), ms);
    }
  }
  const double n = static_cast<double>(all.size());
  const double ratio = static_cast<double>(length_sum) / published_sum;
  std::printf(
      "%zu instances: %lld moves in all against %d published (ratio %.3f); lower bounds %lld in "
      "all (%.3f of published); %d answered optimally; %.3f s in all, mean %.2f ms, slowest #%d "
      "%.2f ms%s\n",
      all.size(), length_sum, published_sum, ratio, bound_sum,
      static_cast<double>(bound_sum) / published_sum, optimal, total_ms / 1000, total_ms / n, worst,
      worst_ms, wrong ? "; SOME ANSWERS WRONG" : "");
  bool pass = !wrong;
  const auto floor = [&pass](bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "pass" : "FAIL", what.c_str());
    pass = pass && ok;
  };
  char buf[200];
  std::snprintf(buf, sizeof buf, "moves in all %.3fx the published sum (floor: at most %.2fx)",
                ratio, max_ratio);
  floor(ratio <= max_ratio, buf);
  std::snprintf(buf, sizeof buf, "slowest answer %.2f ms (floor: every answer under %.0f ms)",
                worst_ms, max_ms);
  floor(worst_ms < max_ms, buf);
  floor(bound_ok, "every lower bound at most the published length");
  std::printf("%s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
