// eight-tablegen: generates the table every other program answers from.
//
//   eight-tablegen [--out PATH] [--quiet]
//
// Runs a reverse BFS from each section's goal, writes PATH.tmp, fsyncs it,
// renames it to PATH (default data/eight.tbl), then re-reads and verifies
// what it wrote. Prints each section's distance histogram, the checksum and
// the time taken.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "eight/table.h"
#include "eight/tablegen.h"

namespace {

constexpr const char* kUsage =
    "usage: eight-tablegen [--out PATH] [--quiet]\n"
    "  --out PATH  where to write the table (default data/eight.tbl)\n"
    "  --quiet     print nothing but errors\n";

void print_summary(const eight::TableView& t, double generate_ms, double total_ms) {
  for (std::size_t i = 0; i < t.section_count(); ++i) {
    const auto& s = t.section(i);
    std::printf("section %zu  goal %s  max distance %d\n", i, eight::to_string(s.goal).c_str(),
                s.max_distance);
    for (int d = 0; d <= s.max_distance; ++d) {
      std::printf("  %2d %6u\n", d, s.histogram[d]);
    }
  }
  std::printf("checksum %016llx\n", static_cast<unsigned long long>(t.checksum()));
  std::printf("generated in %.1f ms, written in %.1f ms total\n", generate_ms, total_ms);
}

}  // namespace

int main(int argc, char** argv) {
  std::string out = "data/eight.tbl";
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      out = argv[++i];
    } else if (std::strcmp(argv[i], "--quiet") == 0) {
      quiet = true;
    } else if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::fputs(kUsage, stdout);
      return 0;
    } else {
      std::fprintf(stderr, "eight-tablegen: unknown argument '%s'\n%s", argv[i], kUsage);
      return 2;
    }
  }
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto bytes = eight::build_table(eight::kDefaultSectionBlanks);
  const auto generated = Clock::now();
  if (auto st = eight::write_file_atomically(out, bytes); !st.ok()) {
    std::fprintf(stderr, "eight-tablegen: %s\n", st.error().message.c_str());
    return 1;
  }
  const auto written = Clock::now();
  // Read back what landed: a table that does not verify must not be left
  // looking finished.
  auto table = eight::MappedTable::open(out);
  if (!table.ok()) {
    std::fprintf(stderr, "eight-tablegen: wrote a table that does not verify: %s\n",
                 table.error().message.c_str());
    return 1;
  }
  if (!quiet) {
    const auto ms = [](auto a, auto b) {
      return std::chrono::duration<double, std::milli>(b - a).count();
    };
    std::printf("wrote %s (%zu bytes)\n", out.c_str(), bytes.size());
    print_summary(table->view(), ms(start, generated), ms(start, written));
  }
  return 0;
}
