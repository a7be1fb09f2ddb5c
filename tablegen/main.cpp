// eight-tablegen: generates the table every other program answers from.
//
//   eight-tablegen [--shape default|3x3|3x4|4x3|2x6|6x2|all] [--out PATH] [--quiet]
//   eight-tablegen --pdb 6-6-3|7-8 [--pdb-goals corner,edge,centre] [--out PATH] [--quiet]
//   eight-tablegen --pdb 2x7|3x5|2x8|2x8-7-8 [--out PATH] [--quiet]
//
// Runs a reverse BFS from each section's goal (in parallel), writes
// PATH.tmp once, fsyncs it while proving what landed sound (tablegen.h),
// and only then renames it to PATH. With no option it writes the default
// table, every shape up to 10 cells, to data/eight.tbl; `--out PATH` alone
// writes the 3x3 sections alone, as it always has; `--shape` says which
// explicitly, and builds the 12-cell tables on demand, a file each
// (data/eight-3x4.tbl, data/eight-2x6.tbl), with a progress line on a
// terminal. The default table includes the 4x4 board's 6-6-3 pattern
// databases; `--pdb 7-8` writes the stronger 7-8 ones, a file of their own
// (data/eight-4x4-7-8.tbl), on demand. It also holds the pattern databases
// of 2x7 and 3x5; `--pdb 2x8` writes 2x8's (data/eight-2x8.tbl), and
// `--pdb 2x8-7-8` its standard goal's far stronger 7-8 ones
// (data/eight-2x8-7-8.tbl, as a server with --pdb-dir builds). Prints
// each section's distance (or entry) histogram, the checksum and the time
// taken.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <mutex>
#include <span>

#include <unistd.h>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/exit_codes.h"
#include "common/option_reader.h"
#include "eight/any_rank.h"
#include "eight/random.h"
#include "eight/table.h"
#include "eight/tablegen.h"

namespace {

constexpr const char* kUsage =
    "usage: eight-tablegen [--shape default|3x3|3x4|4x3|2x6|6x2|all] [--out PATH] [--quiet]\n"
    "       eight-tablegen --pdb 6-6-3|7-8 [--pdb-goals corner,edge,centre] [--out PATH]\n"
    "       eight-tablegen --pdb 2x7|3x5|2x8|2x8-7-8 [--out PATH]\n"
    "       eight-tablegen --help | --version\n"
    "  --shape S   default: every shape up to 10 cells (2x2, 2x3, 3x2, 2x4, 4x2,\n"
    "              3x3, 2x5, 5x2), the 4x4 board's 6-6-3 pattern databases,\n"
    "              those of 2x7, 3x5 and 2x8's standard goal (and transposes)\n"
    "              and the 5x5 board's 5-5-5-5-4 for a blank on a corner,\n"
    "              52 MB, in under a minute;\n"
    "              3x3: the 3x3 sections alone;\n"
    "              3x4 (or 4x3): the 3x4 and 4x3 boards, 240 MB, data/eight-3x4.tbl;\n"
    "              2x6 (or 6x2): 180 MB, data/eight-2x6.tbl (each about a minute on\n"
    "              two cores and under 600 MB of memory); all: the default table\n"
    "              and both 12-cell ones, into data/\n"
    "              (without --shape: default, or 3x3 when --out is given)\n"
    "  --pdb P     the 4x4 board's pattern databases of partition P alone:\n"
    "              6-6-3 (17 MB, seconds) or 7-8 (288 MB a goal, about two minutes\n"
    "              a goal on two cores; 0.92 GB of memory at the peak for one goal,\n"
    "              about 1.8 GB for all three), into data/eight-4x4-P.tbl;\n"
    "              or a shape's: 2x8 (and 8x2; every goal's three sets, 59 MB,\n"
    "              seconds) into data/eight-2x8.tbl, 2x7 or 3x5 (the default\n"
    "              table has them); or 2x8-7-8: 2x8's and 8x2's 7-8 databases\n"
    "              for a blank on a corner (288 MB, a few minutes on two cores,\n"
    "              0.92 GB of memory at the peak), into data/eight-2x8-7-8.tbl\n"
    "  --pdb-goals G  with --pdb: the 4x4 goals to build for, a comma-separated\n"
    "              list of corner (blank on cell 0, Korf's goal), edge (cell 1)\n"
    "              and centre (cell 5); default all three, which answer every goal\n"
    "  --out PATH  where to write the table (default data/eight.tbl, or the\n"
    "              12-cell, 4x4 or 2x8 file's name in data/); not with --shape all\n"
    "  --quiet     print nothing but errors\n"
    "  --version   print the version and exit\n";

// Prints the usage error WHAT and the line pointing at --help; returns 2.
int usage_error(const std::string& what) {
  return eight::print_usage_error("eight-tablegen", eight::UsageError{what, {}, {}},
                                  "eight-tablegen --help");
}

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
    for (const auto& s : sections) {
      total_ += s.encoding == eight::format::Encoding::kPatternDb
                    ? eight::fifteen::placement_count(eight::fifteen::group_size(s.group),
                                                      s.shape.cells())
                    : eight::positions(s.shape);
    }
  }
  void report(std::size_t section, int level, std::uint64_t found) {
    std::lock_guard lock(mutex_);
    found_[section] = found;
    std::uint64_t all = 0;
    for (const auto f : found_) all += f;
    std::fprintf(stderr, "\r%s: section %zu at depth %d, %llu of %llu positions (%.0f%%)  ",
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
    if (s.encoding == eight::format::Encoding::kPatternDb) {
      std::printf("section %zu  %s goal %s  pattern database of tiles 0x%04x  max entry %d\n", i,
                  eight::to_string(s.shape).c_str(), eight::to_string(s.goal).c_str(), s.group,
                  s.max_distance);
    } else {
      std::printf("section %zu  %s goal %s  %s  max distance %d\n", i,
                  eight::to_string(s.shape).c_str(), eight::to_string(s.goal).c_str(),
                  s.encoding == eight::format::Encoding::kFull ? "full" : "mod-3", s.max_distance);
    }
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
  std::optional<std::string> pdb;
  std::optional<std::string> pdb_goals;
  bool quiet = false;
  namespace po = eight::po;
  static const po::options_description options = [] {
    po::options_description d;
    d.add_options()("out", po::value<std::string>())("shape", po::value<std::string>())(
        "pdb", po::value<std::string>())("pdb-goals", po::value<std::string>())("quiet", "")(
        "help,h", "")("version", "");
    return d;
  }();
  const std::vector<std::string> args(argv + 1, argv + argc);
  auto read = eight::read_options(args, options, false);
  if (const auto* e = std::get_if<eight::UsageError>(&read)) {
    return eight::print_usage_error("eight-tablegen", *e, "eight-tablegen --help");
  }
  for (const eight::GivenOption& given : std::get<std::vector<eight::GivenOption>>(read)) {
    const std::string value = given.value.value_or("");
    if (given.name == "out") {
      out = value;
      out_given = true;
    } else if (given.name == "shape") {
      shape = value;
    } else if (given.name == "pdb") {
      pdb = value;
    } else if (given.name == "pdb-goals") {
      pdb_goals = value;
    } else if (given.name == "quiet") {
      quiet = true;
    } else if (given.name == "help") {
      std::fputs(kUsage, stdout);
      return eight::kExitOk;
    } else if (given.name == "version") {
      std::puts("eight-tablegen " EIGHT_VERSION);
      return eight::kExitOk;
    }
  }
  if (pdb && shape) {
    return usage_error("--pdb writes a file of its own; not with --shape");
  }
  if (pdb_goals && !pdb) {
    return usage_error("--pdb-goals goes with --pdb");
  }
  std::vector<Job> jobs;
  // --pdb names 2x8's 7-8 file, a 4x4 partition or a shape.
  std::optional<eight::Shape> pdb_shape;
  if (pdb == "2x8-7-8") {
    if (pdb_goals) return usage_error("--pdb-goals names 4x4 goals; not with --pdb " + *pdb);
    jobs.push_back({out_given ? out : "data/eight-2x8-7-8.tbl", eight::two_by_eight_78_sections()});
  } else if (pdb) {
    if (const auto parsed = eight::parse_shape(*pdb); parsed.ok()) pdb_shape = *parsed;
  }
  if (pdb_shape) {
    eight::Shape s = *pdb_shape;
    if (s.rows > s.cols) s = s.transposed();
    if (!eight::fifteen::is_pattern_shape(s) || s == eight::kShape4x4) {
      return usage_error(
          "--pdb " + *pdb +
          ": the shapes with pattern databases of their own are 2x7, 3x5 and 2x8 "
          "(and their transposes); 4x4's are --pdb 6-6-3 or 7-8, 2x8's 7-8 file --pdb 2x8-7-8");
    }
    if (pdb_goals) {
      return usage_error("--pdb-goals names 4x4 goals; not with --pdb " + *pdb);
    }
    jobs.push_back({out_given ? out : "data/eight-" + eight::to_string(s) + ".tbl",
                    eight::grid_pattern_sections(s)});
  } else if (pdb && jobs.empty()) {
    eight::fifteen::Partition partition;
    if (*pdb == "6-6-3") {
      partition = eight::fifteen::Partition::k663;
    } else if (*pdb == "7-8") {
      partition = eight::fifteen::Partition::k78;
    } else {
      return usage_error("--pdb " + *pdb +
                         ": the partitions are 6-6-3 and 7-8, the shapes 2x7, 3x5 and 2x8, "
                         "and 2x8's 7-8 file is 2x8-7-8");
    }
    std::vector<int> blanks;
    const std::string goals = pdb_goals.value_or("corner,edge,centre");
    for (std::size_t at = 0; at <= goals.size();) {
      const std::size_t comma = std::min(goals.find(',', at), goals.size());
      const std::string name = goals.substr(at, comma - at);
      const int blank = name == "corner" ? 0 : name == "edge" ? 1 : name == "centre" ? 5 : -1;
      if (blank < 0 || std::find(blanks.begin(), blanks.end(), blank) != blanks.end()) {
        return usage_error(
            "--pdb-goals " + goals +
            ": expected corner, edge and centre, each at most once, separated by commas");
      }
      blanks.push_back(blank);
      at = comma + 1;
    }
    jobs.push_back({out_given ? out : "data/eight-4x4-" + *pdb + ".tbl",
                    eight::pattern_sections(partition, blanks)});
  }
  if (!shape && !pdb) shape = out_given ? "3x3" : "default";
  const auto add = [&](std::string path, std::span<const eight::SectionSpec> sections) {
    jobs.push_back({std::move(path), {sections.begin(), sections.end()}});
  };
  std::vector<eight::SectionSpec> only_3x3;
  for (const int b : eight::kDefaultSectionBlanks) {
    only_3x3.push_back({eight::kShape3x3, b, eight::format::Encoding::kFull});
  }
  if (pdb) {
    // (the job is above)
  } else if (*shape == "4x4") {
    return usage_error(
        "--shape 4x4: no table holds the 4x4 board's positions; its pattern databases are in the "
        "default table (6-6-3), and --pdb 7-8 writes stronger ones");
  } else if (*shape == "default") {
    add(out, eight::default_sections());
  } else if (*shape == "3x3") {
    add(out, only_3x3);
  } else if (*shape == "3x4" || *shape == "4x3") {
    add(out_given ? out : "data/eight-3x4.tbl", eight::kSections3x4);
  } else if (*shape == "2x6" || *shape == "6x2") {
    add(out_given ? out : "data/eight-2x6.tbl", eight::kSections2x6);
  } else if (*shape == "all") {
    if (out_given) {
      return usage_error("--shape all writes three files into data/; --out names one");
    }
    add("data/eight.tbl", eight::default_sections());
    add("data/eight-3x4.tbl", eight::kSections3x4);
    add("data/eight-2x6.tbl", eight::kSections2x6);
  } else {
    return usage_error(
        "--shape " + *shape +
        ": the tables are default (every shape up to 10 cells), 3x3, 3x4 (4x3), 2x6 (6x2) and all");
  }
  const bool terminal = !quiet && ::isatty(STDERR_FILENO) == 1;
  for (const Job& job : jobs) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const bool big = job.sections.front().shape.cells() > 10;  // 12 cells, or 4x4 alone
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
