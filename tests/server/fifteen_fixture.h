// Shared by the 4x4 integration tests (http_fifteen_test.cpp, load_test.cpp):
// Korf's 100 instances, the goals' texts, and a --tables folder holding the
// 3x3 test table and the 6-6-3 pattern databases.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "server_fixture.h"
#include "support.h"

namespace eight::test::fifteen {

using eight::test::ServerSpec;
using eight::test::TempDir;

// Korf's goal: the blank top left, tile t on cell t.
constexpr const char* kKorfGoal = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15";
// Its canonical text, as answers give it.
constexpr const char* kKorfGoalText = "0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15";
constexpr const char* kStandardGoalText = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,0";
// One of the hardest 4x4 boards (80 moves from the standard goal, blank
// last; Brüngger et al. 1999; of the other class for Korf's goal): more
// nodes than the 6-6-3 search may spend within any budget the server allows.
constexpr const char* kHardest = "0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1";

struct KorfInstance {
  int number = 0;
  int length = 0;
  std::vector<int> cells;
  // Comma-separated, as a query carries it without encoding.
  std::string text() const {
    std::string out;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) out += ',';
      out += std::to_string(cells[i]);
    }
    return out;
  }
};

inline const std::vector<KorfInstance>& korf100() {
  static const std::vector<KorfInstance> all = [] {
    std::ifstream in(EIGHT_SOURCE_DIR "/tests/data/korf100.txt");
    REQUIRE(in.good());
    std::vector<KorfInstance> v;
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      KorfInstance k;
      fields >> k.number >> k.length;
      int c = 0;
      while (fields >> c) k.cells.push_back(c);
      REQUIRE(k.cells.size() == 16);
      v.push_back(std::move(k));
    }
    REQUIRE(v.size() == 100);
    return v;
  }();
  return all;
}

inline const KorfInstance& korf(int number) {
  return korf100()[static_cast<std::size_t>(number - 1)];
}

// Instances the 6-6-3 search answers in well under 0.1 s each (the list of
// tests/fifteen_test.cpp).
constexpr int kQuickKorf[] = {1,  2,  4,  5,  6,  8,  9,  12, 13, 16, 19, 28, 30, 31, 42,
                              47, 48, 55, 73, 74, 79, 82, 85, 86, 90, 93, 94, 97, 100};

// A folder of the 3x3 test table and (a link to) the 6-6-3 file: the server
// answers 3x3 from the one and 4x4 from the other.
struct FifteenDir {
  TempDir dir;
  FifteenDir() {
    eight::test::write_file(dir.file("eight.tbl"), eight::test::table_bytes());
    std::filesystem::create_symlink(std::filesystem::absolute(eight::test::fifteen_table_path()),
                                    dir.file("fifteen-663.tbl"));
  }
  ServerSpec spec(std::vector<std::string> more = {}) const {
    ServerSpec s{.args = {"--tables", dir.path(), "--host", "127.0.0.1", "--port", "0"},
                 .default_args = false};
    s.args.insert(s.args.end(), more.begin(), more.end());
    return s;
  }
};

}  // namespace eight::test::fifteen
