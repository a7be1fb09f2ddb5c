#include "eight/random.h"

#include <cassert>
#include <unordered_set>

#include "eight/any_rank.h"
#include "eight/rank.h"
#include "eight/solver.h"
#include "frame_check.h"

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
  if (shape == kShape3x3) return unrank_3x3(r, 0);
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

template <int kCapacity>
BasicBoard<kCapacity> shuffled_board(const BasicBoard<kCapacity>& goal, Rng& rng) {
  assert(is_valid(goal));
  BasicBoard<kCapacity> b = goal;
  for (std::size_t i = static_cast<std::size_t>(b.size()) - 1; i > 0; --i) {
    std::swap(b.cells[i], b.cells[rng.below(i + 1)]);
  }
  if (board_class(b) != board_class(goal)) {
    const std::size_t a = b.cells[0] == 0 ? 1 : 0;
    const std::size_t c = b.cells[a + 1] == 0 ? a + 2 : a + 1;
    std::swap(b.cells[a], b.cells[c]);
  }
  return b;
}
template Board shuffled_board(const Board&, Rng&);
template GridBoard shuffled_board(const GridBoard&, Rng&);

Result<Board> random_board(const Table& table, const GoalFrame& goal, int distance, Rng& rng,
                           const std::atomic<bool>* cancel,
                           std::optional<std::chrono::steady_clock::time_point> deadline) {
  assert(is_frame_of(table.view(), goal));
  if (table.view().section(goal.section()).encoding == format::Encoding::kPatternDb) {
    // (A precondition the server and CLI keep: they ask answer.h.)
    return make_error(ErrorCode::kBadArgument,
                      "4x4 boards are drawn by search (eight/answer.h), not from a table");
  }
  const DistanceIndex& index = table.index();
  const std::size_t section = goal.section();
  // (index.at() asserts that the frame's section is one of the index's.)
  const auto& hist = index.histogram(section);
  const bool in_range = distance >= 0 && distance <= format::kMaxDistance;
  if (!in_range || hist[static_cast<std::size_t>(distance)] == 0) {
    return make_error(ErrorCode::kBadArgument, "no board is " + std::to_string(distance) +
                                                   " moves from goal " + to_string(goal.goal()));
  }
  const auto group = index.at(section, distance);
  if (!group.empty()) {  // a full section, or a mod-3 section's farthest distance
    const std::uint32_t r = group[rng.below(group.size())];
    return goal.from_section(index.board(section, r));
  }
  const std::uint32_t positions = table.view().section(section).positions;
  const std::uint32_t at = hist[static_cast<std::size_t>(distance)];
  const Board section_goal = goal.to_section(goal.goal());
  std::uint64_t ball = 0;  // positions within `distance` of the goal
  for (int d = 0; d <= distance; ++d) ball += hist[static_cast<std::size_t>(d)];
  if (ball <= kMaxBall) {
    // Near the goal: every position `distance` away, found breadth-first
    // (level d of the search is exactly the positions d moves away), one
    // drawn. The levels come out in the same order every run.
    std::vector<Board> level{section_goal};
    std::unordered_set<std::uint32_t> seen{rank_cells(section_goal.shape, section_goal.used())};
    for (int d = 0; d < distance; ++d) {
      std::vector<Board> next;
      for (const Board& b : level) {
        for (Move m : kAllMoves) {
          const auto n = apply_move(b, m);
          if (n && seen.insert(rank_cells(n->shape, n->used())).second) next.push_back(*n);
        }
      }
      level = std::move(next);
    }
    if (level.size() != at) {
      return make_error(ErrorCode::kBadEntry,
                        "the table's histogram says " + std::to_string(at) + " boards are " +
                            std::to_string(distance) + " moves from goal " +
                            to_string(goal.goal()) + ", a search finds " +
                            std::to_string(level.size()) +
                            ": the table is corrupt; `eight verify` says more");
    }
    return goal.from_section(level[rng.below(level.size())]);
  }
  if (positions / at > kMaxRejectionRatio) {
    return make_error(ErrorCode::kBadArgument,
                      "boards " + std::to_string(distance) + " moves from goal " +
                          to_string(goal.goal()) + " are too rare to draw at random: " +
                          std::to_string(at) + " of " + std::to_string(positions));
  }
  // Expected positions / at draws; twenty times that fails with odds below
  // e^-20, and a table whose descents disagree with its histogram (a
  // resealed bad file) is refused rather than searched forever.
  const std::uint64_t budget = 20 * (static_cast<std::uint64_t>(positions) / at + 1);
  // The section's own goal, framed the one way (Table::frame()): through
  // the identity, onto this very section.
  const Result<GoalFrame> own = table.frame(section_goal);
  assert(own.ok() && own->section() == section);
  if (!own.ok()) return own.error();
  for (std::uint64_t i = 0; i < budget; ++i) {
    if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
      return make_error(ErrorCode::kCancelled, "the draw was cancelled");
    }
    if (deadline && std::chrono::steady_clock::now() >= *deadline) {
      return make_error(ErrorCode::kDeadlineExceeded,
                        "the draw stopped at its deadline after " + std::to_string(i) + " tries");
    }
    const Board b = index.board(section, static_cast<std::uint32_t>(rng.below(positions)));
    if (table.solver().distance(b, *own) == distance) return goal.from_section(b);
  }
  return make_error(ErrorCode::kBadEntry,
                    "no board " + std::to_string(distance) + " moves from goal " +
                        to_string(goal.goal()) + " in " + std::to_string(budget) +
                        " draws, though the section's histogram holds " + std::to_string(at) +
                        ": the table is corrupt; `eight verify` says more");
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
