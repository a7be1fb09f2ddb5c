// The instance files of the search benchmarks (tests/data/korf100.txt,
// korf_felner_24.txt, hardest_4x4.txt): one board a line, "NUMBER LENGTH
// CELLS...", its published optimal length, then its cells in reading order
// in any notation parse_grid_board() reads; lines starting with '#' are comments.
// Shared by eight-korf-bench and eight-korf24-bench.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "eight/board.h"
#include "eight/shape.h"

namespace eight::bench {

struct Instance {
  int number = 0;
  int length = 0;  // published optimal length
  GridBoard board;
};

// The instances of the file at `path`, every one a board of `shape` that can
// reach `goal`; or what is wrong, as a message naming the file or instance.
inline std::variant<std::vector<Instance>, std::string> read_instances(const std::string& path,
                                                                       Shape shape,
                                                                       const GridBoard& goal) {
  std::ifstream in(path);
  if (!in) return "cannot read " + path;
  std::vector<Instance> all;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Instance k;
    if (!(fields >> k.number >> k.length)) return "bad line: " + line;
    std::string rest;
    std::getline(fields, rest);
    auto b = parse_grid_board(rest, shape);
    if (!b.ok()) return "instance " + std::to_string(k.number) + ": " + b.error().message;
    if (!same_class(*b, goal)) {
      return "instance " + std::to_string(k.number) + " cannot reach the goal";
    }
    k.board = *b;
    all.push_back(k);
  }
  if (all.empty()) return "no instances in " + path;
  return all;
}

}  // namespace eight::bench
