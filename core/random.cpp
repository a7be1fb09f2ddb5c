#include "eight/random.h"

#include <cassert>

#include "eight/any_rank.h"
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
      histograms_(table.section_count()),
      indexed_(table.section_count()) {
  for (std::size_t i = 0; i < table.section_count(); ++i) {
    const SectionInfo& section = table.section(i);
    shapes_.push_back(section.shape);
    classes_.push_back(section.cls);
    auto& hist = histograms_[i];
    hist = table.histogram(i);
    auto& starts = starts_[i];
    auto& ranks = ranks_[i];
    if (section.encoding != format::Encoding::kFull) {
      // A mod-3 section gives no distance without a descent: only its
      // farthest positions, which its stats list, are grouped.
      starts.fill(0);
      for (int d = section.max_distance + 1; d <= format::kMaxDistance + 1; ++d) {
        starts[static_cast<std::size_t>(d)] = section.farthest_count;
      }
      for (std::uint32_t k = 0; k < section.farthest_count; ++k) {
        ranks.push_back(section.farthest_rank(k));
      }
      continue;
    }
    indexed_[i] = true;
    starts[0] = 0;
    for (int d = 0; d <= format::kMaxDistance; ++d) starts[d + 1] = starts[d] + hist[d];
    auto fill = starts;
    ranks.resize(section.positions);
    for (std::uint32_t r = 0; r < section.positions; ++r) {
      ranks[fill[table.entry(i, r).distance]++] = r;
    }
  }
}

std::span<const std::uint32_t> DistanceIndex::at(std::size_t section, int distance) const {
  assert(section < ranks_.size());
  if (distance < 0 || distance > format::kMaxDistance) return {};
  const auto& s = starts_[section];
  return std::span<const std::uint32_t>(ranks_[section])
      .subspan(s[distance], s[distance + 1] - s[distance]);
}

Board DistanceIndex::board(std::size_t section, std::uint32_t r) const {
  assert(section < shapes_.size());
  const Shape shape = shapes_[section];
  if (shape == kShape3x3) return unrank(r, 0);
  Board b;
  b.shape = shape;
  unrank_cells(shape, r, classes_[section],
               std::span(b.cells).first(static_cast<std::size_t>(shape.cells())));
  return b;
}

const DistanceHistogram& DistanceIndex::histogram(std::size_t section) const {
  assert(section < histograms_.size());
  return histograms_[section];
}

Result<Board> random_board(const DistanceIndex& index, const GoalFrame& goal, int distance,
                           Rng& rng) {
  // (index.at() asserts that the frame's section is one of the index's.)
  if (!index.indexed(goal.section())) {
    return make_error(ErrorCode::kNoSection, "random boards of " + to_string(goal.goal().shape) +
                                                 " are not drawn yet: its section is mod-3");
  }
  const auto group = index.at(goal.section(), distance);
  if (group.empty()) {
    return make_error(ErrorCode::kBadArgument, "no board is " + std::to_string(distance) +
                                                   " moves from goal " + to_string(goal.goal()));
  }
  const std::uint32_t r = group[rng.below(group.size())];
  return goal.from_section(index.board(goal.section(), r));
}

std::vector<Board> hardest_boards(const DistanceIndex& index, const GoalFrame& goal) {
  const auto& hist = index.histogram(goal.section());
  int max = 0;
  for (int d = 0; d <= format::kMaxDistance; ++d) {
    if (hist[d] != 0) max = d;
  }
  std::vector<Board> out;
  for (std::uint32_t r : index.at(goal.section(), max))
    out.push_back(goal.from_section(index.board(goal.section(), r)));
  return out;
}

}  // namespace eight
