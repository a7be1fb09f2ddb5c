// /metrics as Prometheus reads it: every series (name and label set) once,
// for one table file and for a --tables folder of several. Prometheus drops
// the samples of a series repeated in one scrape (issue 18: the 4x4 goals'
// max distance appeared once per pattern database).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "api/metrics.h"
#include "api/table_slot.h"
#include "server_fixture.h"
#include "support.h"

namespace {

using eight::server::Metrics;
using eight::server::Route;
using eight::test::TempDir;

// Each sample line's series (everything before the value) and how often it
// appears; comment lines are skipped.
std::map<std::string, int> series_counts(const std::string& text) {
  std::map<std::string, int> counts;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.rfind(' ');
    REQUIRE(space != std::string::npos);
    ++counts[line.substr(0, space)];
  }
  return counts;
}

// Renders the metrics of `source` after some requests, and checks every
// series appears once; returns the text.
std::string render_checked(const eight::TableSource& source) {
  Metrics m;
  m.record(Route::kSolve, 200, std::chrono::microseconds(40));
  m.record(Route::kSolve, 400, std::chrono::microseconds(10));
  m.record(Route::kOther, 404, std::chrono::microseconds(10));
  auto loaded = eight::server::load_tables(source);
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
  const std::string text = m.render(loaded->get());
  const auto counts = series_counts(text);
  CHECK(counts.size() > 20);
  for (const auto& entry : counts) {  // no structured binding: clang 14's CAPTURE cannot take one
    const std::string& series = entry.first;
    CAPTURE(series);
    CHECK(entry.second == 1);
  }
  return text;
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("/metrics names every series once: pattern databases apart, by goal and tiles") {
  // The 6-6-3 pattern databases of three 4x4 goals, three per goal.
  const std::string text = render_checked({eight::test::fifteen_table_path(), false});
  // Pattern databases have no solution length: none is a section max distance.
  CHECK(count_of(text, "\neight_table_section_max_distance{") == 0);
  CHECK(count_of(text, "\neight_table_pattern_database_max_entry{goal=\"") == 9);
  // Korf's goal's three databases, told apart by their tiles.
  CHECK(count_of(text,
                 "eight_table_pattern_database_max_entry{goal=\"0,1,2,3/4,5,6,7/8,9,10,11/"
                 "12,13,14,15\",tiles=\"") == 3);
  CHECK(text.find("# TYPE eight_table_pattern_database_max_entry gauge\n") != std::string::npos);
}

TEST_CASE("/metrics names every series once: the default sections, and a folder of several files") {
  TempDir dir;
  eight::test::write_file(dir.file("eight.tbl"), eight::test::default_table_bytes());
  std::string text = render_checked({dir.file("eight.tbl"), false});
  CHECK(text.find("eight_table_section_max_distance{goal=\"123456780\"} 31\n") !=
        std::string::npos);
  // The same sections next to the 4x4 databases and the 3x3 table, which
  // shares goals with the first file: told apart by path.
  eight::test::write_file(dir.file("three.tbl"), eight::test::table_bytes());
  std::filesystem::create_symlink(std::filesystem::absolute(eight::test::fifteen_table_path()),
                                  dir.file("fifteen-663.tbl"));
  text = render_checked({dir.path(), true});
  CHECK(count_of(text, "eight_table_section_max_distance{goal=\"123456780\",path=\"") == 2);
  CHECK(count_of(text, "\neight_table_pattern_database_max_entry{goal=\"") == 9);
  CHECK(text.find("eight_table_files 3\n") != std::string::npos);
}

TEST_CASE("/metrics writes a label of any length whole, each line ending in a newline") {
  TempDir dir;
  const std::string long_dir = dir.file(std::string(200, 'd'));
  std::filesystem::create_directory(long_dir);
  const std::string path = long_dir + "/" + std::string(200, 'f') + ".tbl";
  eight::test::write_file(path, eight::test::table_bytes());
  const std::string text = render_checked({path, false});
  CHECK(text.find("eight_table_file_bytes{path=\"" + path + "\"} " +
                  std::to_string(eight::test::table_bytes().size()) + "\n") != std::string::npos);
}

TEST_CASE(
    "docs/api.md's metrics table lists exactly the families /metrics writes, with their types") {
  // The families (# TYPE lines) of a folder holding both kinds of table, so
  // that every family has series.
  TempDir dir;
  eight::test::write_file(dir.file("eight.tbl"), eight::test::default_table_bytes());
  std::filesystem::create_symlink(std::filesystem::absolute(eight::test::fifteen_table_path()),
                                  dir.file("fifteen-663.tbl"));
  const std::string text = render_checked({dir.path(), true});
  std::map<std::string, std::string> written;
  {
    std::istringstream in(text);
    std::string line;
    const std::string type = "# TYPE ";
    while (std::getline(in, line)) {
      if (line.rfind(type, 0) != 0) continue;
      const auto space = line.find(' ', type.size());
      REQUIRE(space != std::string::npos);
      written[line.substr(type.size(), space - type.size())] = line.substr(space + 1);
    }
  }
  // The table's rows: "| `name` | type | labels | meaning |"; a type may
  // say more after its first word ("gauge (1)").
  std::map<std::string, std::string> documented;
  {
    std::ifstream in(EIGHT_SOURCE_DIR "/docs/api.md");
    REQUIRE(in.good());
    std::string line;
    const std::string row = "| `eight_";
    while (std::getline(in, line)) {
      if (line.rfind(row, 0) != 0) continue;
      const auto name_end = line.find('`', 3);
      REQUIRE(name_end != std::string::npos);
      const std::string name = line.substr(3, name_end - 3);
      std::istringstream cells(line.substr(line.find('|', name_end) + 1));
      std::string type;
      cells >> type;
      CAPTURE(name);
      CHECK(documented.count(name) == 0);
      documented[name] = type;
    }
  }
  CHECK(written.size() > 15);
  CHECK(documented == written);
  for (const auto& entry : written) {
    const std::string& family = entry.first;
    CAPTURE(family);
    CHECK(documented.count(family) == 1);
  }
  for (const auto& entry : documented) {
    const std::string& row = entry.first;
    CAPTURE(row);
    CHECK(written.count(row) == 1);
  }
}
