// 2x8's far boards searched as eight's attempt searches them: IDA* over the
// largest of the pattern sets' sums (grid_search.h), counting nodes, which
// a busy machine does not change (issue 39: 2x8 and 8x2 optimal by
// default). N boards shuffled uniformly in the standard goal's class (seed
// S: Rng(1)'s first 30 are docs/answers.md's far boards), each searched
// with at most M nodes; one line a board (its distance, the heuristic at
// the start, nodes, seconds), then the nodes in all and the most on one
// board. With no LAYOUT the sets are the search's own
// (fifteen::pattern_set_count partitions, built in memory); each LAYOUT
// (16 characters, the 2x8 goal with its blank on cell 0 in reading order,
// '.' the blank and a letter a group, 'a' first) is a set of its own, so
// other partitions can be measured against them:
//
//   eight-two-by-eight-nodes [--boards N] [--seed S] [--max-nodes M] [LAYOUT...]
//   eight-two-by-eight-nodes .aaabbbcaaabbbcc          # 6-6-3 alone, as before
//
// Exit status 0 when every board was proven optimal within M nodes
// (default kTwoByEightAttemptNodes, the attempt's), 1 when one was not, 2
// on bad usage.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "common/text.h"
#include "eight/answer.h"
#include "eight/goal.h"
#include "eight/random.h"
#include "grid_search.h"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: eight-two-by-eight-nodes [--boards N] [--seed S] [--max-nodes M] "
               "[LAYOUT...]\n");
  return 2;
}

// A LAYOUT's set, or nullopt when it is not one.
std::optional<eight::fifteen::PatternSet> set_of(const std::string& layout) {
  eight::fifteen::PatternSet set;
  set.shape = eight::Shape{2, 8};
  set.goal_blank = 0;
  if (layout.size() != 16 || layout[0] != '.') return std::nullopt;
  for (int c = 1; c < 16; ++c) {
    const int g = layout[static_cast<std::size_t>(c)] - 'a';
    if (g < 0 || g >= eight::fifteen::kMaxGroups) return std::nullopt;
    // The canonical goal of blank 0 holds tile c on cell c.
    set.groups[static_cast<std::size_t>(g)] |= static_cast<eight::fifteen::TileMask>(1u << c);
    set.group_count = std::max(set.group_count, g + 1);
  }
  if (!eight::fifteen::check_pattern_set(set).ok()) return std::nullopt;
  return set;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace eight;
  using Clock = std::chrono::steady_clock;
  std::uint64_t boards = 30, seed = 1, max_nodes = kTwoByEightAttemptNodes;
  std::vector<fifteen::PatternSet> layouts;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if ((a == "--boards" || a == "--seed" || a == "--max-nodes") && has_value) {
      const auto n = parse_decimal(argv[++i]);
      if (!n) return usage();
      (a == "--boards" ? boards : a == "--seed" ? seed : max_nodes) = *n;
    } else if (const auto set = set_of(a)) {
      if (layouts.size() == static_cast<std::size_t>(fifteen::kMaxPatternSets)) return usage();
      layouts.push_back(*set);
    } else {
      return usage();
    }
  }
  const Shape shape{2, 8};
  std::vector<fifteen::PatternDatabases> owned;
  std::vector<fifteen::PatternSetView> views;
  const auto t0 = Clock::now();
  for (const fifteen::PatternSet& set : layouts) {
    fifteen::PdbOptions o;
    o.threads = 1;
    owned.push_back(fifteen::generate_pattern_set(set, o));
  }
  for (const auto& o : owned) views.push_back(o.view());
  if (layouts.empty()) {
    for (const auto& v : grid::pattern_databases(shape, 0)) views.push_back(v);
  }
  std::printf("%zu sets built in %.1f s (one core)\n", views.size(),
              std::chrono::duration<double>(Clock::now() - t0).count());
  // The standard goal (blank on cell 15) seen through the half turn, as
  // grid::search sees it: its key's blank on cell 0.
  const GridBoard goal = standard_goal(shape);
  const Symmetry* half_turn = nullptr;
  for (const Symmetry& s : symmetries(shape)) {
    if (s.to == shape && s.cell_map[15] == 0) half_turn = &s;
  }
  const GridBoard key_goal = transform(goal, *half_turn);
  Rng rng(seed);
  std::uint64_t total = 0, most = 0;
  int unproven = 0;
  for (std::uint64_t i = 0; i < boards; ++i) {
    const GridBoard b = shuffled_board(goal, rng);
    fifteen::SearchBudget budget;
    budget.max_nodes = max_nodes;
    const auto b0 = Clock::now();
    const grid::GridResult r = grid::search_with(transform(b, *half_turn), key_goal, views, budget);
    const double s = std::chrono::duration<double>(Clock::now() - b0).count();
    const bool solved = r.status == fifteen::SearchStatus::kSolved;
    unproven += solved ? 0 : 1;
    total += r.nodes;
    most = std::max(most, r.nodes);
    std::printf("%3llu %s %s %d start %d nodes %llu %.2f s\n", static_cast<unsigned long long>(i),
                to_string(b).c_str(), solved ? "optimal" : "NOT PROVEN, at least",
                solved ? static_cast<int>(r.path.size()) : r.lower_bound(), r.initial_bound,
                static_cast<unsigned long long>(r.nodes), s);
    std::fflush(stdout);
  }
  std::printf("nodes %llu in all, at most %llu on one board; %d of %llu not proven within %llu\n",
              static_cast<unsigned long long>(total), static_cast<unsigned long long>(most),
              unproven, static_cast<unsigned long long>(boards),
              static_cast<unsigned long long>(max_nodes));
  std::printf("%s\n", unproven == 0 ? "PASS" : "FAIL");
  return unproven == 0 ? 0 : 1;
}
