// eight-gen-duplicate-paths OUT: finds the duplicate-path machine
// (duplicate_paths.h) and writes it to OUT as C++ for
// duplicate_paths_table.cpp. A build step, never installed: the machine is
// the same every run, so the build's output is too.
#include <cstdio>
#include <fstream>
#include <string>

#include "duplicate_paths.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: eight-gen-duplicate-paths OUT\n");
    return 2;
  }
  const auto machine = eight::DuplicatePaths::find(eight::DuplicatePaths::kMaxRuleLength);
  const std::string tmp = std::string(argv[1]) + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << "// Written by eight-gen-duplicate-paths (core/duplicate_paths_gen.cpp).\n"
        << "constexpr int kDuplicatePathRuleLength = " << eight::DuplicatePaths::kMaxRuleLength
        << ";\nconstexpr int kDuplicatePathRules = " << machine.rule_count()
        << ";\nconstexpr std::int16_t kDuplicatePathMachine[" << machine.state_count() * 4
        << "] = {";
    for (int i = 0; i < machine.state_count() * 4; ++i) {
      out << (i % 16 == 0 ? "\n   " : "") << ' ' << machine.table()[i] << ',';
    }
    out << "\n};\n";
    if (!out.flush()) {
      std::fprintf(stderr, "eight-gen-duplicate-paths: cannot write %s\n", tmp.c_str());
      return 1;
    }
  }
  if (std::rename(tmp.c_str(), argv[1]) != 0) {
    std::perror("eight-gen-duplicate-paths: rename");
    return 1;
  }
  return 0;
}
