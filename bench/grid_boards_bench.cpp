// Boards of the shapes no table holds, answered as eight answers them
// (eight/answer.h's grid engine: a brief optimal attempt, then the beam
// search up to 64 cells, past them over the reduction's last region): N
// uniformly random solvable boards of each shape asked for (fixed seed),
// each answered through
// solve_board() on this thread, its path replayed and checked. With
// --repeat R the boards are answered in R passes, the same path each time
// (checked), and each board's time is the median of its R, as
// eight-korf24-bench's: a burst of the machine's load (they last longer
// than a few answers here) then moves no board's time, unless it strikes
// the same board in most passes (a floor on the slowest answer is
// otherwise a floor on the slowest moment of the run). Prints, per shape, the time per answer
// (mean, median, max), the share proven optimal, the mean ratio of the path's length to its proven
// lower bound, and the time of two first answers (the goal's and one far board's, before the
// boards: on 2x7, 3x5 and 2x8 and their transposes it includes building that goal's pattern
// databases in memory when --table holds none), then PASS or FAIL against the floors
// given (issue 20: every answer under 50 ms on one core; 10x10 at most
// 2.5x its bound). The last column is an XXH3-64 digest of every path, in
// order: two builds that print the same one gave the same answers, which
// is how a change made for speed shows that it changed nothing else.
// "max cpu" is the largest CPU time of this thread over one answer (with
// --repeat, the largest of the boards' medians). A
// wall-clock maximum far above it is time the thread was not running:
// another process, or (where the kernel subtracts steal time from a task's,
// CONFIG_PARAVIRT_TIME_ACCOUNTING) the host taking the virtual CPU. Equal
// to it, the answer itself ran that long.
//
//   eight-grid-bench [--table PATH] [--fast] [--boards N] [--seed S] [--repeat R] [--max-ms MS]
//                    [--max-ratio R] [--max-mean-moves M] SHAPE...
//   eight-grid-bench --boards 1000 --repeat 3 --max-ms 50 6x6 8x8 10x10
//
// --table PATH: the table whose pattern databases the answers read (the
// default table's, as a deployment's: the 5x5 corner class's, which the
// beam of 5x5 ranks by; 2x7's, 3x5's
// and 2x8's); without one, none (MD and linear conflicts alone, and 2x7's
// to 2x8's built in memory).
// --fast: the fast option's answers (Question::grid_fast; issue 39 keeps
// issue 20's floors for them: under 50 ms, 10x10 at most 2.5x its bound).
// --max-ratio and --max-mean-moves (issue 39: the mean length against
// DeepCubeA's published means) apply to the last shape named. Exit status 0 when every
// floor holds, 1 when one does not, 2 on bad usage.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <variant>
#include <vector>

#define XXH_INLINE_ALL  // as core/table_format.cpp: the state on the stack
#include <xxhash.h>

#include "bench_tables.h"
#include "common/text.h"
#include "eight/answer.h"
#include "eight/random.h"
#include "eight/table.h"
#include "eight/table_set.h"

namespace {

using Clock = std::chrono::steady_clock;

// This thread's CPU time, in milliseconds.
double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

int usage() {
  std::fprintf(
      stderr,
      "usage: eight-grid-bench [--table PATH] [--fast] [--boards N] [--seed S] [--repeat R] "
      "[--max-ms MS] [--max-ratio R] [--max-mean-moves M] SHAPE...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t boards = 1000;
  std::uint64_t seed = 20261203;
  std::uint64_t repeat = 1;
  double max_ms = 50;
  double max_ratio = 0;
  double max_mean_moves = 0;
  std::vector<eight::Shape> shapes;
  std::string table;
  bool fast = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--table" && has_value) {
      table = argv[++i];
    } else if (arg == "--fast") {
      fast = true;
    } else if (arg == "--boards" && has_value) {
      const auto n = eight::parse_decimal(argv[++i]);
      if (!n || *n == 0) return usage();
      boards = *n;
    } else if (arg == "--seed" && has_value) {
      const auto n = eight::parse_decimal(argv[++i]);
      if (!n) return usage();
      seed = *n;
    } else if (arg == "--repeat" && has_value) {
      const auto n = eight::parse_decimal(argv[++i]);
      if (!n || *n == 0 || *n > 100) return usage();
      repeat = *n;
    } else if (arg == "--max-ms" && has_value) {
      max_ms = std::atof(argv[++i]);
    } else if (arg == "--max-ratio" && has_value) {
      max_ratio = std::atof(argv[++i]);
    } else if (arg == "--max-mean-moves" && has_value) {
      max_mean_moves = std::atof(argv[++i]);
    } else {
      const auto s = eight::parse_shape(arg);
      if (!s.ok() || !eight::is_grid_shape(*s)) return usage();
      shapes.push_back(*s);
    }
  }
  if (shapes.empty()) return usage();
  auto loaded = eight::bench::open_tables(table);
  if (const auto* error = std::get_if<std::string>(&loaded)) {
    std::fprintf(stderr, "eight-grid-bench: %s\n", error->c_str());
    return 2;
  }
  const eight::TableSet tables(std::get<0>(std::move(loaded)));
  bool pass = true;
  std::printf("%-6s %6s %9s %9s %9s %9s %8s %10s %9s %8s %9s %16s\n", "shape", "boards", "mean ms",
              "median ms", "max ms", "max cpu", "optimal", "mean moves", "bound", "ratio",
              "first ms", "paths");
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    const eight::Shape shape = shapes[k];
    const eight::GridBoard goal = eight::standard_goal(shape);
    eight::Question q = eight::grid_question(goal, &tables);
    q.grid_fast = fast;
    eight::Rng rng(seed);
    const auto first0 = Clock::now();
    if (!eight::solve_board(q, goal, true, {}).ok()) return 1;
    // And one far board's (not one of the boards: a seed of its own): the
    // first use of what its search reads.
    eight::Rng warm(seed + 1);
    if (!eight::solve_board(q, eight::shuffled_board(goal, warm), true, {}).ok()) return 1;
    const double first_ms =
        std::chrono::duration<double, std::milli>(Clock::now() - first0).count();
    std::vector<eight::GridBoard> drawn;
    for (std::uint64_t i = 0; i < boards; ++i) drawn.push_back(eight::shuffled_board(goal, rng));
    // wall[i] and cpu[i]: board i's times, one a pass; path_of[i] its
    // path's digest from the first pass, which the later ones must match.
    std::vector<std::vector<double>> wall(boards), cpu(boards);
    std::vector<std::uint64_t> path_of(boards);
    double ratio_sum = 0, moves_sum = 0, bound_sum = 0, optimal = 0;
    XXH3_state_t digest;
    XXH3_64bits_reset(&digest);
    for (std::uint64_t round = 0; round < repeat; ++round) {
      for (std::uint64_t i = 0; i < boards; ++i) {
        const eight::GridBoard& b = drawn[i];
        const double cpu0 = thread_cpu_ms();
        const auto t0 = Clock::now();
        const auto a = eight::solve_board(q, b, true, {});
        const auto t1 = Clock::now();
        wall[i].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        cpu[i].push_back(thread_cpu_ms() - cpu0);
        if (!a.ok() || !a->report.finished() || !a->solution.solvable) {
          std::fprintf(stderr, "FAIL: %s: no answer\n", eight::to_string(b).c_str());
          return 1;
        }
        const std::string letters = eight::path_letters(a->solution.path()) + "\n";
        const std::uint64_t path_digest = XXH3_64bits(letters.data(), letters.size());
        if (round > 0) {
          if (path_digest != path_of[i]) {
            std::fprintf(stderr, "FAIL: %s: another path when asked again\n",
                         eight::to_string(b).c_str());
            return 1;
          }
          continue;
        }
        path_of[i] = path_digest;
        eight::GridBoard at = b;
        for (const eight::Move m : a->solution.path()) {
          const auto next = eight::apply_move(at, m);
          if (!next) {
            std::fprintf(stderr, "FAIL: %s: an illegal move\n", eight::to_string(b).c_str());
            return 1;
          }
          at = *next;
        }
        if (at != goal) {
          std::fprintf(stderr, "FAIL: %s: the path misses the goal\n", eight::to_string(b).c_str());
          return 1;
        }
        XXH3_64bits_update(&digest, letters.data(), letters.size());
        const int bound = a->report.lower_bound;
        const int length = a->solution.distance;
        ratio_sum += bound > 0 ? static_cast<double>(length) / bound : 1.0;
        optimal += a->solution.quality.optimal ? 1 : 0;
        moves_sum += length;
        bound_sum += bound;
      }
    }
    // Each board's median over the passes.
    const auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    std::vector<double> ms;
    double max_cpu_ms = 0;
    for (std::uint64_t i = 0; i < boards; ++i) {
      ms.push_back(median(wall[i]));
      max_cpu_ms = std::max(max_cpu_ms, median(cpu[i]));
    }
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    double sum = 0;
    for (const double x : ms) sum += x;
    const double n = static_cast<double>(boards);
    const double ratio = ratio_sum / n;
    const unsigned long long paths = XXH3_64bits_digest(&digest);
    std::printf("%-6s %6llu %9.2f %9.2f %9.2f %9.2f %7.1f%% %10.1f %9.1f %8.3f %9.1f %016llx\n",
                eight::to_string(shape).c_str(), static_cast<unsigned long long>(boards), sum / n,
                sorted[sorted.size() / 2], sorted.back(), max_cpu_ms, 100 * optimal / n,
                moves_sum / n, bound_sum / n, ratio, first_ms, paths);
    if (sorted.back() >= max_ms) {
      const auto slowest =
          static_cast<std::size_t>(std::max_element(ms.begin(), ms.end()) - ms.begin());
      std::printf("FAIL: %s: an answer took %.2f ms, the floor is under %.0f ms (board %zu, %s)\n",
                  eight::to_string(shape).c_str(), sorted.back(), max_ms, slowest,
                  eight::to_string(drawn[slowest]).c_str());
      pass = false;
    }
    if (max_mean_moves > 0 && k + 1 == shapes.size() && moves_sum / n > max_mean_moves) {
      std::printf("FAIL: %s: mean length %.1f moves, the floor is at most %.1f\n",
                  eight::to_string(shape).c_str(), moves_sum / n, max_mean_moves);
      pass = false;
    }
    if (max_ratio > 0 && k + 1 == shapes.size() && ratio > max_ratio) {
      std::printf("FAIL: %s: mean ratio %.3f, the floor is at most %.2f\n",
                  eight::to_string(shape).c_str(), ratio, max_ratio);
      pass = false;
    }
  }
  std::printf("%s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
