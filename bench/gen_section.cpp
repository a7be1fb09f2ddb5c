// Generates one mod-3 section and reports what it cost: wall time, CPU
// time (user + system, all threads) and peak resident memory.
//
//   build/bin/eight-gen-section            # 3x4, blank in the corner (11)
//   build/bin/eight-gen-section 2x6 11     # any table shape and blank cell
//   build/bin/eight-gen-section 3x4 11 1   # on one worker (default: a core each)
//
// Prints a progress line per level on stderr and the figures and the
// histogram on stdout. The table itself is dropped: this measures.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "eight/any_rank.h"
#include "eight/shape.h"
#include "mod3_search.h"

namespace {

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  eight::Shape shape{3, 4};
  if (argc > 1) {
    auto parsed = eight::parse_shape(argv[1]);
    if (!parsed.ok()) {
      std::fprintf(stderr, "eight-gen-section: %s\n", parsed.error().message.c_str());
      return 2;
    }
    shape = *parsed;
  }
  int blank = shape.cells() - 1;
  if (argc > 2) {
    blank = std::atoi(argv[2]);
    if (blank < 0 || blank >= shape.cells()) {
      std::fprintf(stderr, "eight-gen-section: blank cell must be 0..%d\n", shape.cells() - 1);
      return 2;
    }
  }
  unsigned workers = 0;
  if (argc > 3) workers = static_cast<unsigned>(std::atoi(argv[3]));
  const std::uint32_t total = eight::positions(shape);
  const auto start = std::chrono::steady_clock::now();
  const auto section = eight::detail::mod3_search(
      shape, blank, {.workers = workers, .progress = [total](int level, std::uint64_t found) {
                       std::fprintf(stderr, "\rlevel %3d  %11llu / %u positions (%5.1f%%)", level,
                                    static_cast<unsigned long long>(found), total,
                                    100.0 * static_cast<double>(found) / total);
                     }});
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "\n");
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("%s section, blank %d: %u positions, max distance %d, %zu positions at it\n",
              eight::to_string(shape).c_str(), blank, total, section.max_distance(),
              section.farthest.size());
  std::printf("wall %.2f s, cpu %.2f s (user %.2f, system %.2f), peak rss %.1f MB\n", wall,
              seconds(usage.ru_utime) + seconds(usage.ru_stime), seconds(usage.ru_utime),
              seconds(usage.ru_stime), static_cast<double>(usage.ru_maxrss) / 1024.0);
  std::printf("histogram:");
  for (const auto count : section.histogram)
    std::printf(" %llu", static_cast<unsigned long long>(count));
  std::printf("\n");
  return 0;
}
