// The checks of a table's header, section records and stats (checks.h).
#include <algorithm>
#include <bit>
#include <cassert>
#include <optional>
#include <vector>

#include "checks.h"
#include "eight/any_rank.h"
#include "eight/goal.h"
#include "eight/pattern_db.h"
#include "grid_search.h"
#include "pdb/pdb5x5.h"

namespace eight::table_checks {
namespace {

bool all_zero(std::span<const std::uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0; });
}

}  // namespace

std::optional<Error> check_header(const format::Header& h, std::uint64_t size,
                                  std::string_view name) {
  if (h.version == 1) {
    return fail(ErrorCode::kBadVersion, name,
                "format version 1 is no longer read (this build reads version 2): regenerate "
                "the table with eight-tablegen, which writes version 2");
  }
  if (h.version != format::kVersion) {
    return fail(ErrorCode::kBadVersion, name,
                "format version " + std::to_string(h.version) +
                    " is not supported (this build reads version " +
                    std::to_string(format::kVersion) + ")");
  }
  if (h.record_size != format::kSectionRecordSize) {
    return fail(ErrorCode::kBadHeader, name,
                "section record size " + std::to_string(h.record_size) + " is not 64");
  }
  if (h.reserved != 0) return fail(ErrorCode::kBadHeader, name, "header reserved bytes are set");
  if (h.section_count < 1 || h.section_count > format::kMaxSections) {
    return fail(ErrorCode::kBadHeader, name,
                "section count " + std::to_string(h.section_count) + " is not between 1 and " +
                    std::to_string(format::kMaxSections));
  }
  if (h.file_size > format::kMaxFileSize) {
    return fail(ErrorCode::kBadHeader, name,
                "header says " + std::to_string(h.file_size) +
                    " bytes, more than a table may have (" + std::to_string(format::kMaxFileSize) +
                    ")");
  }
  if (h.file_size != size) {
    return fail(ErrorCode::kTruncated, name,
                "header says " + std::to_string(h.file_size) + " bytes but the file has " +
                    std::to_string(size));
  }
  const std::uint64_t records = format::kHeaderSize + h.section_count * format::kSectionRecordSize;
  if (size < records) {
    return fail(ErrorCode::kTruncated, name,
                "file has " + std::to_string(size) + " bytes, too few for the records of " +
                    std::to_string(h.section_count) + " sections (" + std::to_string(records) +
                    ")");
  }
  return std::nullopt;
}

// Checks section i's record against everything the header and the earlier
// records fixed; on success fills `info` but for its stats pointers.
// `entries_at` is where the layout puts its entries.
std::optional<Error> check_record(const format::SectionRecord& rec, std::size_t i,
                                  std::uint64_t entries_at, std::span<const SectionInfo> earlier,
                                  std::string_view name, SectionInfo& info) {
  const std::string where = "section " + std::to_string(i) + ": ";
  const auto refuse = [&](const std::string& what) {
    return fail(ErrorCode::kBadHeader, name, where + what);
  };
  // The sections of the shapes of 14 to 16 cells are pattern databases, one
  // per group of tiles: 4x4's, and those of 2x7, 3x5 and 2x8 in the form
  // the grid search keeps them (rows <= cols); and 5x5's, the beam's
  // (core/pdb/pdb5x5.h). Every other shape's are a class of positions.
  const bool is5x5 = rec.shape == grid::kShape5x5;
  const bool pdb =
      (fifteen::is_pattern_shape(rec.shape) && rec.shape.rows <= rec.shape.cols) || is5x5;
  if (!is_table_shape(rec.shape) && !pdb) {
    const std::string shape = std::to_string(rec.shape.rows) + "x" + std::to_string(rec.shape.cols);
    return refuse(
        "shape " + shape + " is not a table shape" +
        (fifteen::is_pattern_shape(rec.shape)
             ? " (its pattern databases are kept as " + to_string(rec.shape.transposed()) + "'s)"
             : ""));
  }
  const auto encoding = static_cast<format::Encoding>(rec.encoding);
  if (encoding != format::Encoding::kFull && encoding != format::Encoding::kMod3 &&
      encoding != format::Encoding::kPatternDb) {
    return refuse("encoding " + std::to_string(rec.encoding) +
                  " is not 1 (full), 2 (mod-3) or 3 (pattern database)");
  }
  if (pdb != (encoding == format::Encoding::kPatternDb)) {
    return refuse(pdb ? "a " + to_string(rec.shape) +
                            " section must be a pattern database (encoding 3)"
                      : "only 4x4, 2x7, 3x5, 2x8 and 5x5 sections are pattern databases "
                        "(encoding 3)");
  }
  // (A 5x5 group is checked against its goal below.)
  if (is5x5 ? (rec.group & 1) != 0 || (rec.group >> 25) != 0 || std::popcount(rec.group) < 4 ||
                  std::popcount(rec.group) > 5
      : pdb ? rec.group > 0xFFFF ||
                  !fifteen::is_group(static_cast<fifteen::TileMask>(rec.group), rec.shape)
            : rec.group != 0) {
    return refuse(pdb ? "group " + std::to_string(rec.group) + " is not " +
                            (is5x5 ? "4 or 5" : "1 to 8") + " of the tiles 1 to " +
                            std::to_string(rec.shape.cells() - 1)
                      : "group bytes are set on a section that is not a pattern database");
  }
  const int group_size = std::popcount(rec.group);
  const std::uint64_t expected_positions =
      is5x5 ? grid::pdb5x5_placements(group_size)
      : pdb ? fifteen::placement_count(group_size, rec.shape.cells())
            : positions(rec.shape);
  if (rec.positions != expected_positions) {
    return refuse("positions " + std::to_string(rec.positions) + " is not " +
                  std::to_string(expected_positions) + ", the " +
                  (pdb ? "group's placements" : to_string(rec.shape) + " class's"));
  }
  if (!format::encoding_fits(encoding, rec.positions)) {
    return refuse("encoding full does not fit the " + std::to_string(rec.positions) +
                  " positions of " + to_string(rec.shape) + " (at most " +
                  std::to_string(format::kMaxFullPositions) + ")");
  }
  const auto cells = static_cast<std::size_t>(rec.shape.cells());
  const GridBoard goal = format::goal_board(rec);
  if (!all_zero(std::span(rec.goal).subspan(std::min<std::size_t>(cells, rec.goal.size()))) ||
      !is_valid(goal) || goal != canonical_goal<GridBoard>(blank_cell(goal), rec.shape)) {
    return refuse("goal is not a canonical goal of " + to_string(rec.shape) +
                  (is5x5 ? " with its blank among the first 16 cells" : ""));
  }
  const int blank = blank_cell(goal);
  // The 5x5 sets are kept under the lowest cell of each class of the
  // square's symmetries, their groups pdb5x5_groups()'s in order.
  if (is5x5 && grid::pdb5x5_class_blank(blank) != blank) {
    return refuse("goal blank cell " + std::to_string(blank) +
                  " is not where 5x5 pattern databases are kept (the lowest cell of its class "
                  "under the square's symmetries: 0, 1, 2, 6, 7 or 12)");
  }
  // The grid search asks for one set per goal key (grid_search.h); a set
  // under another blank cell would never be read.
  if (pdb && !is5x5 && rec.shape != kShape4x4 && !grid::is_pattern_key(rec.shape, blank)) {
    return refuse("goal blank cell " + std::to_string(blank) + " is not where the " +
                  to_string(rec.shape) +
                  " search keeps a pattern set (the lowest cell of its class under the "
                  "shape's symmetries)");
  }
  // A 5x5 goal's sections are its class's five groups, pdb5x5_groups()'s
  // in order (disjoint by construction).
  int set_size = 1;  // the goal's pattern databases, this one included
  for (const SectionInfo& e : earlier) {
    if (e.shape == rec.shape && e.blank == blank) ++set_size;
  }
  if (is5x5 && (set_size > grid::kPdb5x5Groups ||
                rec.group != grid::pdb5x5_group_tiles(
                                 blank, grid::pdb5x5_groups(
                                            blank)[static_cast<std::size_t>(set_size - 1)]))) {
    return refuse("group " + std::to_string(rec.group) + " is not the 5x5 goal's group " +
                  std::to_string(set_size) + " (of " + std::to_string(grid::kPdb5x5Groups) +
                  ", core/pdb/pdb5x5.h) for blank cell " + std::to_string(blank));
  }
  // Any other goal's pattern databases, in record order, make its sets
  // (Table::pattern_sets, fifteen::split_into_sets): each set's groups are
  // summed, so they must not share a tile, or the sum could overestimate.
  // On the grid search's shapes a group sharing a tile with the set being
  // read starts the next set (the search takes the largest sum); 4x4's
  // search takes one set.
  std::vector<fifteen::TileMask> groups;  // the goal's, rec's last
  std::size_t taker = 0;                  // an earlier section sharing a tile with rec
  for (const SectionInfo& e : earlier) {
    if (e.shape != rec.shape || e.blank != blank) continue;
    if (!pdb) {
      return refuse("a second " + to_string(rec.shape) + " section for blank cell " +
                    std::to_string(blank));
    }
    if (is5x5) continue;
    groups.push_back(static_cast<fifteen::TileMask>(e.group));
    if ((e.group & rec.group) != 0) taker = static_cast<std::size_t>(&e - earlier.data());
  }
  if (!is5x5) {
    groups.push_back(static_cast<fifteen::TileMask>(rec.group));
    const fifteen::SetSplit split = fifteen::split_into_sets(groups);
    if (rec.shape == kShape4x4 && split.sets > 1) {
      return refuse("group " + std::to_string(rec.group) + " shares tiles with section " +
                    std::to_string(taker) + "'s, of the same goal");
    }
    if (split.largest > fifteen::kMaxGroups) {
      return refuse("more than " + std::to_string(fifteen::kMaxGroups) +
                    " pattern databases in a set for the " + to_string(rec.shape) +
                    " goal with blank cell " + std::to_string(blank));
    }
    if (split.sets > fifteen::kMaxPatternSets) {
      return refuse("more than " + std::to_string(fifteen::kMaxPatternSets) +
                    " pattern sets for the " + to_string(rec.shape) + " goal with blank cell " +
                    std::to_string(blank) +
                    " (a group sharing a tile with its set starts the next)");
    }
  }
  if (pdb && rec.max_distance > fifteen::kMaxEntry) {
    return refuse("max entry " + std::to_string(rec.max_distance) + " is over " +
                  std::to_string(fifteen::kMaxEntry));
  }
  if (rec.max_distance > format::kMaxDistance) {
    return refuse("max distance " + std::to_string(rec.max_distance) + " is over " +
                  std::to_string(format::kMaxDistance));
  }
  if (rec.entries_offset != entries_at) {
    return refuse("entries offset " + std::to_string(rec.entries_offset) +
                  " is not where the layout puts them, " + std::to_string(entries_at));
  }
  if (rec.entries_bytes != format::entries_bytes(encoding, rec.positions)) {
    return refuse("entries bytes " + std::to_string(rec.entries_bytes) + " is not " +
                  std::to_string(format::entries_bytes(encoding, rec.positions)) +
                  " for its encoding and positions");
  }
  if (pdb ? rec.farthest_count != 0
          : rec.farthest_count == 0 || rec.farthest_count > rec.positions) {
    return refuse("farthest count " + std::to_string(rec.farthest_count) + " is out of range" +
                  (pdb ? " (a pattern database lists none)" : ""));
  }
  if (!all_zero(rec.reserved)) return refuse("reserved bytes are set");
  info.shape = rec.shape;
  info.encoding = encoding;
  info.goal = goal;
  info.blank = blank;
  info.cls = board_class(goal);
  info.goal_rank =
      is5x5 ? grid::pdb5x5_goal_rank(rec.group, blank)
      : pdb ? fifteen::pattern_rank(*to_board(goal), static_cast<fifteen::TileMask>(rec.group))
            : rank_cells(rec.shape, std::span(goal.cells).first(cells));
  info.group = rec.group;
  info.positions = rec.positions;
  info.max_distance = rec.max_distance;
  info.entries_bytes = static_cast<std::size_t>(rec.entries_bytes);
  info.farthest_count = rec.farthest_count;
  return std::nullopt;
}

// Section i's stats, which the layout puts at `stats_at`: inside the file,
// the histogram summing to the positions with the goal alone at 0 and the
// farthest count its last count, the farthest ranks ascending in range.
std::optional<Error> check_stats(const format::SectionRecord& rec, std::size_t i,
                                 std::uint64_t stats_at, std::span<const std::uint8_t> bytes,
                                 std::string_view name, SectionInfo& info) {
  const auto refuse = [&](ErrorCode code, const std::string& what) {
    return fail(code, name, "section " + std::to_string(i) + ": " + what);
  };
  if (rec.stats_offset != stats_at) {
    return refuse(ErrorCode::kBadHeader, "stats offset " + std::to_string(rec.stats_offset) +
                                             " is not where the layout puts them, " +
                                             std::to_string(stats_at));
  }
  // stats_at and the size are below 2^40 or so (checked sizes of at most 64
  // sections of at most 2^28 positions): no sum here overflows.
  const std::uint64_t size = format::stats_bytes(rec.max_distance, rec.farthest_count);
  if (stats_at + size > bytes.size()) {
    return refuse(ErrorCode::kTruncated, "stats run past the end of the file (" +
                                             std::to_string(stats_at + size) + " > " +
                                             std::to_string(bytes.size()) + ")");
  }
  info.histogram = bytes.data() + stats_at;
  info.farthest = info.histogram + 4 * (static_cast<std::size_t>(rec.max_distance) + 1);
  std::uint64_t sum = 0;
  for (int d = 0; d <= rec.max_distance; ++d) sum += info.count_at(d);
  if (info.encoding == format::Encoding::kPatternDb) {
    // Entry values, not distances: many placements share each, the goal's
    // among those at 0, and the max is reached.
    if (sum != rec.positions || info.count_at(0) == 0 || info.count_at(rec.max_distance) == 0) {
      return refuse(ErrorCode::kBadHeader, "entry histogram sums to " + std::to_string(sum) +
                                               " placements, not " + std::to_string(rec.positions) +
                                               ", or has none at 0 or at the max");
    }
    return std::nullopt;
  }
  if (sum != rec.positions || info.count_at(0) != 1) {
    return refuse(ErrorCode::kBadHeader, "histogram sums to " + std::to_string(sum) +
                                             " positions, not " + std::to_string(rec.positions) +
                                             ", or has no single goal at distance 0");
  }
  if (info.count_at(rec.max_distance) != rec.farthest_count) {
    return refuse(ErrorCode::kBadHeader, "farthest count " + std::to_string(rec.farthest_count) +
                                             " is not the histogram's count at the max distance, " +
                                             std::to_string(info.count_at(rec.max_distance)));
  }
  for (std::uint32_t k = 0; k < rec.farthest_count; ++k) {
    const std::uint32_t r = info.farthest_rank(k);
    if (r >= rec.positions || (k > 0 && r <= info.farthest_rank(k - 1))) {
      return refuse(ErrorCode::kBadHeader,
                    "farthest rank " + std::to_string(r) + " is out of range or out of order");
    }
  }
  return std::nullopt;
}

}  // namespace eight::table_checks
