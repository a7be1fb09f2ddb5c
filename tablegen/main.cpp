// eight-tablegen: generates the table every other program answers from.
//
//   eight-tablegen [--shape default|3x3] [--out PATH] [--quiet]
//
// Runs a reverse BFS from each section's goal (in parallel), writes
// PATH.tmp once, fsyncs it while proving what landed sound (Check::kFull),
// and only then renames it to PATH. With no option it writes the default
// table, every shape up to 10 cells, to data/eight.tbl; `--out PATH` alone
// writes the 3x3 sections alone, as it always has; `--shape` says which
// explicitly. Prints each section's distance histogram, the checksum and
// the time taken.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "eight/exit_codes.h"
#include "eight/random.h"
#include "eight/table.h"
#include "eight/tablegen.h"

namespace {

constexpr const char* kUsage =
    "usage: eight-tablegen [--shape default|3x3] [--out PATH] [--quiet]\n"
    "  --shape S   default: every shape up to 10 cells (2x2, 2x3, 3x2, 2x4, 4x2,\n"
    "              3x3, 2x5, 5x2); 3x3: the 3x3 sections alone\n"
    "              (without --shape: default, or 3x3 when --out is given)\n"
    "  --out PATH  where to write the table (default data/eight.tbl)\n"
    "  --quiet     print nothing but errors\n";

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
  std::vector<eight::SectionSpec> sections;
  if (*shape == "default") {
    sections.assign(std::begin(eight::kDefaultSections), std::end(eight::kDefaultSections));
  } else if (*shape == "3x3") {
    for (const int b : eight::kDefaultSectionBlanks) {
      sections.push_back({eight::kShape3x3, b, eight::format::Encoding::kFull});
    }
  } else {
    std::fprintf(stderr,
                 "eight-tablegen: --shape %s: this build writes 'default' (every shape up to 10 "
                 "cells) or '3x3'\n%s",
                 shape->c_str(), kUsage);
    return eight::kExitUsage;
  }
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  if (auto st = eight::write_table(out, sections); !st.ok()) {
    std::fprintf(stderr, "eight-tablegen: %s\n", st.error().message.c_str());
    return eight::kExitFailed;
  }
  const auto done = Clock::now();
  if (!quiet) {
    // Proven while it was written: opening it again needs only its checksum.
    auto table = eight::Table::open(out, eight::Check::kChecksum);
    if (!table.ok()) {
      std::fprintf(stderr, "eight-tablegen: %s\n", table.error().message.c_str());
      return eight::kExitFailed;
    }
    std::printf("wrote %s (%zu bytes)\n", out.c_str(), (*table)->view().bytes().size());
    print_summary(**table, std::chrono::duration<double, std::milli>(done - start).count());
  }
  return eight::kExitOk;
}
