// Puzzles by difficulty: boards drawn uniformly from all boards exactly D
// moves from a goal, in O(1) per draw.
//
// Reproducibility: a seeded draw must give the same board on every machine
// and with every standard library, so the generator (SplitMix64) and the
// range reduction (rejection sampling) are spelled out here rather than left
// to std::uniform_int_distribution, whose algorithm is implementation-defined.
//
// Thread safety: an Rng is mutable state, one per thread (or per request);
// a DistanceIndex is immutable once built and shared by every thread.
#pragma once

#include <atomic>
#include <cassert>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "eight/goal.h"
#include "eight/result.h"
#include "eight/table.h"

namespace eight {

// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and fully specified.
// Not for cryptography. Not thread-safe: one per thread or per request.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // Uniform in [0, n), without modulo bias. REQUIRES: n > 0.
  std::uint64_t below(std::uint64_t n);

 private:
  std::uint64_t state_;
};

// For each full section of a table, its ranks grouped by distance (a
// counting sort of the entries), so drawing a board at distance d is one
// random index into one group. About 4 bytes per position (2.3 MB for the
// default table's full sections) and a millisecond per 3x3 section to
// build; Table::index() builds it once. A mod-3 section holds no distance
// per position, so only its farthest positions (from its stats) are
// grouped. Histograms are the sections' stats (which Check::kFull proves
// against the entries).
// Lifetime: independent of the table's bytes once built; it must be used
// with the table it was built from. Immutable, so safe to share.
class DistanceIndex {
 public:
  explicit DistanceIndex(const TableView& table);

  // Ranks of a section's positions at distance d, ascending; empty when no
  // position is that far (or d is out of range). The span lives as long as
  // the index. REQUIRES: section < the table's section_count().
  std::span<const std::uint32_t> at(std::size_t section, int distance) const;
  // How many positions of a section are at each distance, 0..kMaxDistance.
  // REQUIRES: section < the table's section_count().
  const DistanceHistogram& histogram(std::size_t section) const;
  // The position of rank r of a section, as the section sees it.
  // REQUIRES: section < the table's section_count(); r < its positions.
  Board board(std::size_t section, std::uint32_t r) const;

 private:
  std::vector<std::vector<std::uint32_t>> ranks_;  // per section, grouped by distance
  std::vector<std::array<std::uint32_t, format::kMaxDistance + 2>> starts_;
  std::vector<DistanceHistogram> histograms_;
  std::vector<Shape> shapes_;
  std::vector<int> classes_;
};

// A uniformly random board among those that reach `goal` (its class,
// board_class()), of any shape: a Fisher-Yates shuffle of the goal's cells,
// then, for the other class, the first two tiles swapped, which pairs the
// boards of the two classes one to one. REQUIRES: is_valid(goal).
template <int kCapacity>
BasicBoard<kCapacity> shuffled_board(const BasicBoard<kCapacity>& goal, Rng& rng);

// A board exactly `distance` moves from the frame's goal, uniformly among all
// such boards: from a full section one random index into the group of that
// distance; from a mod-3 section (no distance per position) breadth-first
// from the goal where at most kMaxBall positions lie that near, else by
// rejection sampling, a uniform position of the class measured by descent
// until one is that far, which the section's histogram bounds: a distance
// held by
// fewer than one position in kMaxRejectionRatio is refused (kBadArgument,
// saying how rare it is) rather than searched for, and the farthest
// distance is drawn from the section's farthest positions. Fails
// (kBadArgument) when no board is that far: check the distance against the
// section's max_distance first to tell users the range.
// The rejection sampling checks `cancel` (when given) and `deadline` (when
// given) before every draw and fails once it is true (kCancelled) or past
// (kDeadlineExceeded): a draw can take a second.
// REQUIRES: `goal` is a frame of `table` (Table::frame()).
Result<Board> random_board(
    const Table& table, const GoalFrame& goal, int distance, Rng& rng,
    const std::atomic<bool>* cancel = nullptr,
    std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

// For mod-3 sections: how many positions may lie within the distance asked
// for that random_board() finds them all breadth-first instead (a few
// milliseconds), so distances near the goal, rare as they are, are drawn.
inline constexpr std::uint64_t kMaxBall = 100000;

// For mod-3 sections: the rarest distance random_board() samples for, as
// positions per position at that distance (about 0.1 s of descents on
// 2x5, 1 s on 3x4, per draw at worst).
inline constexpr std::uint64_t kMaxRejectionRatio = 100000;

// The boards at the section's max distance (as its entries say), as boards
// for the frame's goal. REQUIRES: `goal` is a frame of the table `index` was
// built from (the index keeps no table to compare with: only that the
// frame's section is one of the index's is checked).
std::vector<Board> hardest_boards(const DistanceIndex& index, const GoalFrame& goal);

}  // namespace eight
