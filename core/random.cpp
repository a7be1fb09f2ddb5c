#include "eight/random.h"

#include <cassert>

#include "eight/rank.h"

namespace eight {

std::uint64_t Rng::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t Rng::below(std::uint64_t n) {
  assert(n > 0);
  // Reject the top partial block of 2^64 so every residue is equally likely.
  const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
  std::uint64_t x;
  do {
    x = next();
  } while (x >= limit);
  return x % n;
}

DistanceIndex::DistanceIndex(const TableView& table)
    : ranks_(table.section_count()),
      starts_(table.section_count()),
      histograms_(table.section_count()) {
  for (std::size_t i = 0; i < table.section_count(); ++i) {
    auto& hist = histograms_[i];
    hist = table.histogram(i);
    auto& starts = starts_[i];
    starts[0] = 0;
    for (int d = 0; d <= format::kMaxDistance; ++d) starts[d + 1] = starts[d] + hist[d];
    auto fill = starts;
    auto& ranks = ranks_[i];
    ranks.resize(kPositions);
    for (std::uint32_t r = 0; r < kPositions; ++r) ranks[fill[table.entry(i, r).distance]++] = r;
  }
}

std::span<const std::uint32_t> DistanceIndex::at(std::size_t section, int distance) const {
  assert(section < ranks_.size());
  if (distance < 0 || distance > format::kMaxDistance) return {};
  const auto& s = starts_[section];
  return std::span<const std::uint32_t>(ranks_[section])
      .subspan(s[distance], s[distance + 1] - s[distance]);
}

const DistanceHistogram& DistanceIndex::histogram(std::size_t section) const {
  assert(section < histograms_.size());
  return histograms_[section];
}

Result<Board> random_board(const DistanceIndex& index, const GoalFrame& goal, int distance,
                           Rng& rng) {
  // (index.at() asserts that the frame's section is one of the index's.)
  const auto group = index.at(goal.section(), distance);
  if (group.empty()) {
    return make_error(ErrorCode::kBadArgument, "no board is " + std::to_string(distance) +
                                                   " moves from goal " + to_string(goal.goal()));
  }
  const std::uint32_t r = group[rng.below(group.size())];
  return goal.from_section(unrank(r, 0));
}

std::vector<Board> hardest_boards(const DistanceIndex& index, const GoalFrame& goal) {
  const auto& hist = index.histogram(goal.section());
  int max = 0;
  for (int d = 0; d <= format::kMaxDistance; ++d) {
    if (hist[d] != 0) max = d;
  }
  std::vector<Board> out;
  for (std::uint32_t r : index.at(goal.section(), max))
    out.push_back(goal.from_section(unrank(r, 0)));
  return out;
}

}  // namespace eight
