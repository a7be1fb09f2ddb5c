// eight-tablegen: generates the table every other program answers from.
//
//   eight-tablegen [--shape default|3x3|3x4|4x3|2x6|6x2|all] [--out PATH] [--quiet]
//
// Runs a reverse BFS from each section's goal (in parallel), writes
// PATH.tmp once, fsyncs it while proving what landed sound (tablegen.h),
// and only then renames it to PATH. With no option it writes the default
// table, every shape up to 10 cells, to data/eight.tbl; `--out PATH` alone
// writes the 3x3 sections alone, as it always has; `--shape` says which
// explicitly, and builds the 12-cell tables on demand, a file each
// (data/eight-3x4.tbl, data/eight-2x6.tbl), with a progress line on a
// terminal. Prints each section's distance histogram, the checksum and the
// time taken.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <mutex>
#include <span>

#include <unistd.h>
#include <optional>
#include <string>
#include <vector>

#include "eight/any_rank.h"
#include "eight/exit_codes.h"
#include "eight/random.h"
#include "eight/table.h"
#include "eight/tablegen.h"

namespace {

constexpr const char* kUsage =
    "usage: eight-tablegen [--shape default|3x3|3x4|4x3|2x6|6x2|all] [--out PATH] [--quiet]\n"
    "  --shape S   default: every shape up to 10 cells (2x2, 2x3, 3x2, 2x4, 4x2,\n"
    "              3x3, 2x5, 5x2), 3.7 MB, in a second; 3x3: the 3x3 sections alone;\n"
    "              3x4 (or 4x3): the 3x4 and 4x3 boards, 240 MB, data/eight-3x4.tbl;\n"
    "              2x6 (or 6x2): 180 MB, data/eight-2x6.tbl (each about a minute on\n"
    "              two cores and under 600 MB of memory); all: the default table\n"
    "              and both 12-cell ones, into data/\n"
    "              (without --shape: default, or 3x3 when --out is given)\n"
    "  --out PATH  where to write the table (default data/eight.tbl, or the\n"
    "              12-cell file's name in data/); not with --shape all\n"
    "  --quiet     print nothing but errors\n";

// One file to write.
struct Job {
  std::string path;
  std::vector<eight::SectionSpec> sections;
};

// The progress line of a 12-cell file on a terminal: positions found over
// all its sections, redrawn as each level of a section ends. The searching
// threads report at once: a mutex keeps the line whole.
class ProgressLine {
 public:
  ProgressLine(std::string path, const std::vector<eight::SectionSpec>& sections)
      : path_(std::move(path)), found_(sections.size(), 0) {
    for (const auto& s : sections) total_ += eight::positions(s.shape);
  }
  void report(std::size_t section, int level, std::uint64_t found) {
    std::lock_guard lock(mutex_);
    found_[section] = found;
    std::uint64_t all = 0;
    for (const auto f : found_) all += f;
    std::fprintf(stderr, "\r%s: section %zu at distance %d, %llu of %llu positions (%.0f%%)  ",
                 path_.c_str(), section, level, static_cast<unsigned long long>(all),
                 static_cast<unsigned long long>(total_),
                 100.0 * static_cast<double>(all) / static_cast<double>(total_));
  }
  void done() { std::fputs("\n", stderr); }

 private:
  std::string path_;
  std::mutex mutex_;
  std::vector<std::uint64_t> found_;
  std::uint64_t total_ = 0;
};

void print_summary(const eight::Table& t, double total_ms) {
  const auto& view = t.view();
  for (std::size_t i = 0; i < view.section_count(); ++i) {
    const auto& s = view.section(i);
    std::printf("section %zu  %s goal %s  %s  max distance %d\n", i,
                eight::to_string(s.shape).c_str(), eight::to_string(s.goal).c_str(),
                s.encoding == eight::format::Encoding::kFull ? "full" : "mod-3", s.max_distance);
    const auto histogram = view.histogram(i);
    for (int d = 0; d <= s.max_distance; ++d) std::printf("  %2d %6u\n", d, histogram[d]);
  }
  std::printf("checksum %s\n", t.checksum_hex().c_str());
  std::printf("generated, written and proven in %.1f ms\n", total_ms);
}

}  // namespace

int main(int argc, char** argv) {
  std::string out = "data/eight.tbl";
  bool out_given = false;
  std::optional<std::string> shape;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      out = argv[++i];
      out_given = true;
    } else if (std::strcmp(argv[i], "--shape") == 0 && i + 1 < argc) {
      shape = argv[++i];
    } else if (std::strcmp(argv[i], "--quiet") == 0) {
      quiet = true;
    } else if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::fputs(kUsage, stdout);
      return eight::kExitOk;
    } else {
      std::fprintf(stderr, "eight-tablegen: unknown argument '%s'\n%s", argv[i], kUsage);
      return eight::kExitUsage;
    }
  }
  if (!shape) shape = out_given ? "3x3" : "default";
  std::vector<Job> jobs;
  const auto add = [&](std::string path, std::span<const eight::SectionSpec> sections) {
    jobs.push_back({std::move(path), {sections.begin(), sections.end()}});
  };
  std::vector<eight::SectionSpec> only_3x3;
  for (const int b : eight::kDefaultSectionBlanks) {
    only_3x3.push_back({eight::kShape3x3, b, eight::format::Encoding::kFull});
  }
  if (*shape == "default") {
    add(out, eight::kDefaultSections);
  } else if (*shape == "3x3") {
    add(out, only_3x3);
  } else if (*shape == "3x4" || *shape == "4x3") {
    add(out_given ? out : "data/eight-3x4.tbl", eight::kSections3x4);
  } else if (*shape == "2x6" || *shape == "6x2") {
    add(out_given ? out : "data/eight-2x6.tbl", eight::kSections2x6);
  } else if (*shape == "all") {
    if (out_given) {
      std::fprintf(stderr,
                   "eight-tablegen: --shape all writes three files into data/; --out "
                   "names one\n%s",
                   kUsage);
      return eight::kExitUsage;
    }
    add("data/eight.tbl", eight::kDefaultSections);
    add("data/eight-3x4.tbl", eight::kSections3x4);
    add("data/eight-2x6.tbl", eight::kSections2x6);
  } else {
    std::fprintf(stderr,
                 "eight-tablegen: --shape %s: the tables are default (every shape up to 10 "
                 "cells), 3x3, 3x4 (4x3), 2x6 (6x2) and all\n%s",
                 shape->c_str(), kUsage);
    return eight::kExitUsage;
  }
  const bool terminal = !quiet && ::isatty(STDERR_FILENO) == 1;
  for (const Job& job : jobs) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const bool big = job.sections.front().shape.cells() > 10;
    std::optional<ProgressLine> line;
    eight::TableProgress progress;
    if (terminal && big) {
      line.emplace(job.path, job.sections);
      progress = [&line](std::size_t s, int level, std::uint64_t found) {
        line->report(s, level, found);
      };
    }
    const auto st = eight::write_table(job.path, job.sections, progress);
    if (line) line->done();
    if (!st.ok()) {
      std::fprintf(stderr, "eight-tablegen: %s\n", st.error().message.c_str());
      return eight::kExitFailed;
    }
    const auto done = Clock::now();
    if (!quiet) {
      // Proven while it was written: opening it again needs only its checksum.
      auto table = eight::Table::open(job.path, eight::Check::kChecksum);
      if (!table.ok()) {
        std::fprintf(stderr, "eight-tablegen: %s\n", table.error().message.c_str());
        return eight::kExitFailed;
      }
      std::printf("wrote %s (%zu bytes)\n", job.path.c_str(), (*table)->view().bytes().size());
      print_summary(**table, std::chrono::duration<double, std::milli>(done - start).count());
    }
  }
  return eight::kExitOk;
}
