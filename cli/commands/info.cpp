// eight info [PATH | --tables DIR]: each table's header, sections and
// histograms; with --svg FILE, the goal's distance histogram as a picture.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <span>
#include <string>

#include "../histogram_svg.h"
#include "commands.h"
#include "common/text.h"
#include "eight/answer.h"
#include "eight/pattern_db.h"
#include "eight/solver.h"
#include "eight/table.h"

namespace eight::cli {
namespace {

// One file's header, sections and histograms.
void print_info(const Table& table) {
  const auto& v = table.view();
  const auto& h = v.header();
  std::printf("file       %s\n", table.path().c_str());
  std::printf("version    %u\n", h.version);
  std::string shapes;
  for (const Shape s : v.shapes()) {
    if (!shapes.empty()) shapes += ' ';
    shapes += to_string(s);
  }
  std::printf("shapes     %s\n", shapes.c_str());
  std::printf("sections   %u\n", h.section_count);
  std::printf("file size  %llu bytes\n", static_cast<unsigned long long>(h.file_size));
  std::printf("checksum   %s (XXH3-64, checked; `eight verify` proves every entry)\n",
              table.checksum_hex().c_str());
  constexpr std::size_t kShown = 8;
  for (std::size_t i = 0; i < v.section_count(); ++i) {
    const auto& s = v.section(i);
    if (s.encoding == format::Encoding::kPatternDb) {
      std::printf(
          "\nsection %zu: %s goal %s, blank on cell %d, pattern database of tiles %s, %u "
          "placements, max entry %d\n",
          i, to_string(s.shape).c_str(), to_string(s.goal).c_str(), s.blank,
          fifteen::describe_group(s.group).c_str(), s.positions, s.max_distance);
      std::printf("  entry  placements\n");
      const auto histogram = v.histogram(i);
      for (int d = 0; d <= s.max_distance; ++d) std::printf("  %5d  %10u\n", d, histogram[d]);
      continue;
    }
    std::printf("\nsection %zu: %s goal %s, blank on cell %d, %s, %u positions, max distance %d\n",
                i, to_string(s.shape).c_str(), to_string(s.goal).c_str(), s.blank,
                s.encoding == format::Encoding::kFull ? "full" : "mod-3", s.positions,
                s.max_distance);
    std::printf("  distance  positions\n");
    const auto histogram = v.histogram(i);
    for (int d = 0; d <= s.max_distance; ++d) std::printf("  %8d  %9u\n", d, histogram[d]);
    const auto boards = hardest_boards(table.index(), *table.frame(s.goal));
    std::printf("  hardest (%d moves, %zu in all):", s.max_distance, boards.size());
    for (std::size_t k = 0; k < std::min(kShown, boards.size()); ++k) {
      std::printf(" %s", to_string(boards[k]).c_str());
    }
    std::printf("%s\n", boards.size() > kShown ? " ..." : "");
  }
}

}  // namespace

int info_command(const TableSource& source) {
  const auto tables = open_tables(source, Check::kChecksum);
  if (!tables) return kExitBadTable;
  for (std::size_t i = 0; i < tables->size(); ++i) {
    if (i > 0) std::printf("\n");
    print_info(*tables->table(i));
  }
  return kExitOk;
}

// `eight info --svg FILE`: the histogram of the goal asked (as solve asks
// it: --goal, else the standard goal of --shape or 3x3) as a picture.
int info_svg_command(const TableSource& source, const Options& opt) {
  const auto goal = goal_of(opt);
  if (goal.index() == 1) return std::get<1>(goal);
  const auto tables = open_tables(source, Check::kChecksum);
  if (!tables) return kExitBadTable;
  const auto q = frame_question(*tables, std::get<0>(goal));
  if (!q.ok()) {
    std::fprintf(stderr, "eight: %s\n", q.error().message.c_str());
    return kExitBadTable;
  }
  if (q->by_search()) {
    std::fprintf(stderr,
                 "eight: %s positions are not tabulated (a search answers each question), so "
                 "there is no distance histogram for goal %s\n",
                 to_string(q->goal().shape).c_str(), to_string(q->goal()).c_str());
    return kExitBadTable;
  }
  // The section's stats, as GET /stats sends them: relabelling and symmetry
  // keep every distance, so the goal's histogram is its section's.
  const int max = q->max_distance();
  const auto histogram = q->table->view().histogram(q->frame->section());
  const std::string svg = histogram_svg(
      std::span<const std::uint32_t>(histogram.data(), static_cast<std::size_t>(max) + 1),
      std::get<0>(goal));
  std::ofstream file(*opt.svg, std::ios::binary | std::ios::trunc);
  file << svg;
  file.close();
  if (!file) {
    std::fprintf(stderr, "eight: %s: cannot write: %s\n", opt.svg->c_str(), std::strerror(errno));
    return kExitBadInput;
  }
  std::printf("%s: distance histogram of goal %s, %d bars (0 to %d moves)\n", opt.svg->c_str(),
              to_string(std::get<0>(goal)).c_str(), max + 1, max);
  return kExitOk;
}

}  // namespace eight::cli
