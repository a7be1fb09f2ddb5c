// eight-test-tables DIR: writes the tables the tests read into DIR, once
// per build tree, as a build step (tests/CMakeLists.txt), so that no test
// process pays for generating them:
//   DIR/default-sections.tbl  kDefaultSections (every shape up to 10 cells)
//   DIR/fifteen-663.tbl       the 6-6-3 pattern databases of kFifteenGoalBlanks
//   DIR/fifteen-663-6-14-15.tbl  those of the goals with the blank on cells
//                             6, 14 and 15, which the 4x4 tests search from
//                             directly (the default table answers them
//                             through symmetries)
//   DIR/fifteen-663-0.tbl     those of Korf's goal alone (blank on cell 0),
//                             three sections: the corruption tests' file,
//                             which `eight verify` searches again in full
// All are written by the library in this process (write_table), not by
// eight-tablegen, whose default table (EIGHT_BUILD_TABLE) the tests compare
// with them section by section.
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>

#include "eight/pattern_db.h"
#include "eight/tablegen.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: eight-test-tables DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "eight-test-tables: %s: %s\n", dir.c_str(), ec.message().c_str());
    return 1;
  }
  const auto write = [](const std::string& path, std::span<const eight::SectionSpec> sections) {
    const auto st = eight::write_table(path, sections);
    if (!st.ok()) std::fprintf(stderr, "eight-test-tables: %s\n", st.error().message.c_str());
    return st.ok();
  };
  const auto pdbs =
      eight::pattern_sections(eight::fifteen::Partition::k663, eight::kFifteenGoalBlanks);
  const int other_blanks[] = {6, 14, 15};
  const auto other_pdbs =
      eight::pattern_sections(eight::fifteen::Partition::k663, other_blanks);
  const int korf_blank[] = {0};
  const auto korf_pdbs = eight::pattern_sections(eight::fifteen::Partition::k663, korf_blank);
  return write(dir + "/default-sections.tbl", eight::kDefaultSections) &&
                 write(dir + "/fifteen-663.tbl", pdbs) &&
                 write(dir + "/fifteen-663-6-14-15.tbl", other_pdbs) &&
                 write(dir + "/fifteen-663-0.tbl", korf_pdbs)
             ? 0
             : 1;
}
