#include "eight/table.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>
#include <utility>

#include "eight/any_rank.h"
#include "eight/fifteen_search.h"
#include "eight/goal.h"
#include "eight/pattern_db.h"
#include "eight/random.h"
#include "eight/solver.h"
#include "mod3_search.h"
#include "section_search.h"

namespace eight {
namespace {

using format::Entry;

Error fail(ErrorCode code, std::string_view name, const std::string& what) {
  return make_error(code, std::string(name) + ": " + what);
}

std::string hex64(std::uint64_t v) {
  char buf[19];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// The structural proof of one full section, over its entries in rank order,
// with the moves between ranks that `moves_of` gives:
//  1. the goal's entry has distance 0 and is its own parent, and no other
//     entry has distance 0;
//  2. every other entry's parent is in range, one move closer, and the
//     position its move leads to;
//  3. every move's two ends differ in distance by at most one (each move
//     checked once, from the end it goes down or right from).
// Following parents (2) from a position reaches the goal in exactly its
// distance, so no distance is too short; and along a shortest path a
// distance can fall by at most one a move (3) to the goal's 0, so none is
// too long: every distance is exact. The checks on an entry's own fields
// come first, so the message names the first thing wrong.
//
// `moves_of(r, moves)` fills the moves from rank r (detail::Moves: the rank
// each move leads to, and which stay on the board): detail::Transitions for
// 3x3, whose 181,440 entries make this a hot loop; unranking and ranking
// again for the other shapes, of a few thousand positions.
template <typename MovesOf>
std::optional<Error> verify_entries(const SectionInfo& s, std::size_t index, std::string_view name,
                                    MovesOf&& moves_of) {
  const auto at = [&](std::uint32_t r) { return format::get_u32(s.entries + 4 * r); };
  const auto where = [&](std::uint32_t r) {
    return "section " + std::to_string(index) + ", entry " + std::to_string(r) + ": ";
  };
  int max_distance = 0;
  detail::Moves moves;
  for (std::uint32_t r = 0; r < s.positions; ++r) {
    const std::uint32_t raw = at(r);
    const auto refuse = [&](const std::string& what) {
      return fail(ErrorCode::kBadEntry, name, where(r) + what);
    };
    if ((raw & format::kReservedEntryMask) != 0) return refuse("reserved bits are set");
    const Entry e = format::unpack_entry(raw);
    max_distance = std::max<int>(max_distance, e.distance);
    if (e.parent >= s.positions) {
      return refuse("parent " + std::to_string(e.parent) + " is out of range");
    }
    if (r == s.goal_rank || e.distance == 0) {
      if (r != s.goal_rank || e.distance != 0 || e.parent != r) {
        return refuse("distance 0 but not the goal, or the goal not at distance 0");
      }
      continue;
    }
    if (format::unpack_entry(at(e.parent)).distance + 1 != e.distance) {
      return refuse("parent is not one move closer to the goal");
    }
    moves_of(r, moves);
    const auto m = static_cast<std::size_t>(e.move);
    if ((moves.legal >> m & 1) == 0 || moves.rank[m] != e.parent) {
      return refuse("move does not lead to the parent");
    }
    for (Move forward : {Move::kDown, Move::kRight}) {
      const auto f = static_cast<std::size_t>(forward);
      if ((moves.legal >> f & 1) == 0) continue;
      const int d = format::unpack_entry(at(moves.rank[f])).distance;
      if (d + 1 < e.distance || d > e.distance + 1) {
        return refuse("distance differs from a neighbour's by more than one");
      }
    }
  }
  if (max_distance != s.max_distance) {
    return fail(ErrorCode::kBadHeader, name,
                "section " + std::to_string(index) + ": records max distance " +
                    std::to_string(s.max_distance) + " but its entries reach " +
                    std::to_string(max_distance));
  }
  return std::nullopt;
}

// The proof of a full section's entries, with its shape's moves.
std::optional<Error> verify_full_entries(const SectionInfo& s, std::size_t index,
                                         std::string_view name) {
  if (s.shape == kShape3x3) {
    const auto& transitions = detail::Transitions::get();
    return verify_entries(s, index, name,
                          [&](std::uint32_t r, detail::Moves& out) { transitions.moves(r, out); });
  }
  const int n = s.shape.cells();
  std::array<std::uint8_t, kMaxCells> cells{};
  const std::span<std::uint8_t> view(cells.data(), static_cast<std::size_t>(n));
  return verify_entries(s, index, name, [&](std::uint32_t r, detail::Moves& out) {
    unrank_cells(s.shape, r, s.cls, view);
    const int blank =
        static_cast<int>(std::find(cells.begin(), cells.begin() + n, 0) - cells.begin());
    out.legal = 0;
    for (Move m : kAllMoves) {
      const auto i = static_cast<std::size_t>(m);
      const int to = neighbor(s.shape, blank, m);
      out.rank[i] = r;
      if (to < 0) continue;
      out.legal |= 1u << i;
      std::swap(cells[static_cast<std::size_t>(blank)], cells[static_cast<std::size_t>(to)]);
      out.rank[i] = rank_cells(s.shape, view);
      std::swap(cells[static_cast<std::size_t>(blank)], cells[static_cast<std::size_t>(to)]);
    }
  });
}

// A full section's stats against its (proven) entries: the histogram counts
// its distances, the farthest ranks are those at its max, ascending.
std::optional<Error> verify_full_stats(const SectionInfo& s, std::size_t index,
                                       std::string_view name) {
  std::vector<std::uint32_t> hist(static_cast<std::size_t>(s.max_distance) + 1, 0);
  std::uint32_t next_farthest = 0;
  const auto refuse = [&](const std::string& what) {
    return fail(ErrorCode::kBadHeader, name, "section " + std::to_string(index) + ": " + what);
  };
  for (std::uint32_t r = 0; r < s.positions; ++r) {
    const int d = format::unpack_entry(format::get_u32(s.entries + 4 * r)).distance;
    ++hist[static_cast<std::size_t>(d)];  // d <= max_distance, proven above
    if (d == s.max_distance) {
      if (next_farthest >= s.farthest_count || s.farthest_rank(next_farthest) != r) {
        return refuse("the farthest positions do not match the entries");
      }
      ++next_farthest;
    }
  }
  for (int d = 0; d <= s.max_distance; ++d) {
    if (hist[static_cast<std::size_t>(d)] != s.count_at(d)) {
      return refuse("histogram says " + std::to_string(s.count_at(d)) + " positions at distance " +
                    std::to_string(d) + " but the entries have " +
                    std::to_string(hist[static_cast<std::size_t>(d)]));
    }
  }
  return std::nullopt;
}

// A mod-3 section against a fresh search of it: the values of a section are
// unique (each is its position's true distance mod 3), so equal bytes are
// the proof.
std::optional<Error> verify_mod3(const SectionInfo& s, std::size_t index, std::string_view name) {
  detail::Mod3Options options;
  options.workers = 1;  // the sections are proven at once, one thread each
  const auto fresh = detail::mod3_search(s.shape, s.blank, options);
  const auto refuse = [&](ErrorCode code, const std::string& what) {
    return fail(code, name, "section " + std::to_string(index) + ": " + what);
  };
  if (fresh.table.size() != s.entries_bytes ||
      !std::equal(fresh.table.begin(), fresh.table.end(), s.entries)) {
    return refuse(ErrorCode::kBadEntry,
                  "its mod-3 entries differ from a fresh search of the section");
  }
  if (fresh.max_distance() != s.max_distance) {
    return refuse(ErrorCode::kBadHeader, "records max distance " + std::to_string(s.max_distance) +
                                             " but it reaches " +
                                             std::to_string(fresh.max_distance()));
  }
  for (int d = 0; d <= s.max_distance; ++d) {
    if (fresh.histogram[static_cast<std::size_t>(d)] != s.count_at(d)) {
      return refuse(ErrorCode::kBadHeader,
                    "histogram differs from a fresh search at distance " + std::to_string(d));
    }
  }
  for (std::uint32_t i = 0; i < s.farthest_count; ++i) {
    if (fresh.farthest[i] != s.farthest_rank(i)) {
      return refuse(ErrorCode::kBadHeader, "the farthest positions differ from a fresh search's");
    }
  }
  return std::nullopt;
}

// A pattern database's entry histogram against its bytes (Check::kFull),
// and with `regenerate` its bytes against a fresh search (Check::kExhaustive:
// a PDB's entries are a function of its goal and group, so equal bytes are
// the proof).
std::optional<Error> verify_pdb(const SectionInfo& s, std::size_t index, std::string_view name,
                                bool regenerate) {
  const auto refuse = [&](ErrorCode code, const std::string& what) {
    return fail(code, name, "section " + std::to_string(index) + ": " + what);
  };
  // Bytes first (one count a byte, four interleaved tallies so that runs of
  // equal bytes do not wait on one counter), then their two nibbles each:
  // the server runs this at start over 17 MB.
  std::array<std::array<std::uint64_t, 256>, 4> by_byte{};
  const auto bytes = s.pdb();
  std::size_t i = 0;
  for (; i + 4 <= bytes.size(); i += 4) {
    ++by_byte[0][bytes[i]];
    ++by_byte[1][bytes[i + 1]];
    ++by_byte[2][bytes[i + 2]];
    ++by_byte[3][bytes[i + 3]];
  }
  for (; i < bytes.size(); ++i) ++by_byte[0][bytes[i]];
  std::array<std::uint64_t, 16> counts{};
  for (int b = 0; b < 256; ++b) {
    const std::uint64_t n = by_byte[0][b] + by_byte[1][b] + by_byte[2][b] + by_byte[3][b];
    counts[static_cast<std::size_t>(b & 0xF)] += n;
    counts[static_cast<std::size_t>(b >> 4)] += n;
  }
  for (int v = 0; v < 16; ++v) {
    const std::uint64_t recorded = v <= s.max_distance ? s.count_at(v) : 0;
    if (counts[static_cast<std::size_t>(v)] != recorded) {
      return refuse(ErrorCode::kBadHeader, "entry histogram says " + std::to_string(recorded) +
                                               " placements hold " + std::to_string(v) +
                                               " but the entries have " +
                                               std::to_string(counts[static_cast<std::size_t>(v)]));
    }
  }
  if (!regenerate) return std::nullopt;
  fifteen::PdbOptions options;
  options.threads = 1;  // the sections are proven at once, one thread each
  const auto fresh = fifteen::generate_pattern_db(s.blank, s.group, options);
  if (!std::equal(fresh.begin(), fresh.end(), s.entries, s.entries + s.entries_bytes)) {
    return refuse(ErrorCode::kBadEntry,
                  "its pattern database differs from a fresh search of its group");
  }
  return std::nullopt;
}

std::optional<Error> verify_section(const SectionInfo& s, std::size_t index, std::string_view name,
                                    Check check) {
  if (s.encoding == format::Encoding::kPdb4) {
    return verify_pdb(s, index, name, check == Check::kExhaustive);
  }
  if (s.encoding == format::Encoding::kMod3) return verify_mod3(s, index, name);
  auto err = verify_full_entries(s, index, name);
  if (err) return err;
  return verify_full_stats(s, index, name);
}

std::optional<Error> check_header(const format::Header& h, std::size_t size,
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

bool all_zero(std::span<const std::uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0; });
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
  // 4x4 sections are pattern databases, one per group of tiles; every
  // other shape's are a class of positions.
  const bool pdb = rec.shape == kShape4x4;
  if (!is_table_shape(rec.shape) && !pdb) {
    return refuse("shape " + std::to_string(rec.shape.rows) + "x" + std::to_string(rec.shape.cols) +
                  " is not a table shape");
  }
  const auto encoding = static_cast<format::Encoding>(rec.encoding);
  if (encoding != format::Encoding::kFull && encoding != format::Encoding::kMod3 &&
      encoding != format::Encoding::kPdb4) {
    return refuse("encoding " + std::to_string(rec.encoding) +
                  " is not 1 (full), 2 (mod-3) or 3 (pattern database)");
  }
  if (pdb != (encoding == format::Encoding::kPdb4)) {
    return refuse(pdb ? "a 4x4 section must be a pattern database (encoding 3)"
                      : "only 4x4 sections are pattern databases (encoding 3)");
  }
  if (pdb ? !fifteen::is_group(rec.group) : rec.group != 0) {
    return refuse(pdb ? "group " + std::to_string(rec.group) + " is not 1 to 8 of the tiles 1 to 15"
                      : "group bytes are set on a section that is not a pattern database");
  }
  const std::uint64_t expected_positions =
      pdb ? fifteen::placement_count(fifteen::group_size(rec.group)) : positions(rec.shape);
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
  const Board goal = format::goal_board(rec);
  if (!all_zero(std::span(rec.goal).subspan(cells)) || !is_valid(goal) ||
      !is_canonical_goal(goal)) {
    return refuse("goal is not a canonical goal of " + to_string(rec.shape));
  }
  const int blank = blank_cell(goal);
  int set_size = 1;  // a 4x4 goal's pattern databases, this one included
  for (const SectionInfo& e : earlier) {
    if (e.shape != rec.shape || e.blank != blank) continue;
    if (!pdb) {
      return refuse("a second " + to_string(rec.shape) + " section for blank cell " +
                    std::to_string(blank));
    }
    // One goal's pattern databases are summed: their groups must not share
    // a tile, or the sum could overestimate.
    if ((e.group & rec.group) != 0) {
      return refuse("group " + std::to_string(rec.group) + " shares tiles with section " +
                    std::to_string(&e - earlier.data()) + "'s, of the same goal");
    }
    ++set_size;
  }
  if (set_size > fifteen::kMaxGroups) {
    return refuse("more than " + std::to_string(fifteen::kMaxGroups) +
                  " pattern databases for the 4x4 goal with blank cell " + std::to_string(blank));
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
  info.goal_rank = pdb ? fifteen::pattern_rank(goal, rec.group)
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
  if (info.encoding == format::Encoding::kPdb4) {
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

}  // namespace

Result<TableView> TableView::parse(std::span<const std::uint8_t> bytes, std::string_view name,
                                   Check check) {
  if (bytes.empty()) return fail(ErrorCode::kTruncated, name, "file is empty");
  if (bytes.size() < format::kMagic.size() ||
      !std::equal(format::kMagic.begin(), format::kMagic.end(), bytes.begin())) {
    return fail(ErrorCode::kBadMagic, name, "not an eight table (bad magic)");
  }
  if (bytes.size() < format::kHeaderSize) {
    return fail(ErrorCode::kTruncated, name,
                "file is truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the " +
                    std::to_string(format::kHeaderSize) + "-byte header");
  }
  TableView view;
  view.bytes_ = bytes;
  view.header_ = format::decode_header(bytes.data());
  if (auto err = check_header(view.header_, bytes.size(), name)) return *err;
  const std::uint64_t actual = format::compute_checksum(bytes);
  if (actual != view.header_.checksum) {
    return fail(ErrorCode::kBadChecksum, name,
                "checksum mismatch: header says " + hex64(view.header_.checksum) +
                    ", contents hash to " + hex64(actual) + " (file is corrupted)");
  }
  const std::size_t n = view.header_.section_count;
  std::vector<format::SectionRecord> records;
  // The layout: the records, every section's entries in record order, then
  // every section's stats in record order, then the end of the file.
  std::uint64_t at = format::kHeaderSize + n * format::kSectionRecordSize;
  for (std::size_t i = 0; i < n; ++i) {
    records.push_back(format::decode_section_record(bytes.data() + format::kHeaderSize +
                                                    i * format::kSectionRecordSize));
    SectionInfo info;
    if (auto err = check_record(records.back(), i, at, view.sections_, name, info)) return *err;
    if (at + info.entries_bytes > bytes.size()) {
      return fail(ErrorCode::kTruncated, name,
                  "section " + std::to_string(i) + ": entries run past the end of the file (" +
                      std::to_string(at + info.entries_bytes) + " > " +
                      std::to_string(bytes.size()) + ")");
    }
    info.entries = bytes.data() + at;
    if (info.encoding == format::Encoding::kPdb4) {
      // What the search relies on: the goal's placement is 0 (its heuristic
      // is 0 at the goal). Every 4-bit value is a value, so nothing else
      // can be out of range.
      const auto v = fifteen::PatternDbView::open(info.pdb(), info.blank, info.group);
      if (!v.ok())
        return fail(v.error().code, name,
                    "section " + std::to_string(i) + ": " + v.error().message);
    }
    at += info.entries_bytes;
    view.sections_.push_back(info);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (auto err = check_stats(records[i], i, at, bytes, name, view.sections_[i])) return *err;
    at += format::stats_bytes(records[i].max_distance, records[i].farthest_count);
  }
  if (at != bytes.size()) {
    return fail(ErrorCode::kBadHeader, name,
                "file has " + std::to_string(bytes.size()) + " bytes but its sections end at " +
                    std::to_string(at));
  }
  if (check == Check::kChecksum) return view;
  // Sections are independent: prove them at once, one thread each.
  std::vector<std::optional<Error>> errors(n);
  {
    std::vector<std::jthread> workers;
    for (std::size_t i = 0; i < n; ++i) {
      const SectionInfo& section = view.sections_[i];
      // (A mod-3 section's proof is a search again: kExhaustive.)
      if (check == Check::kFull && section.encoding == format::Encoding::kMod3) continue;
      workers.emplace_back(
          [&, i] { errors[i] = verify_section(view.sections_[i], i, name, check); });
    }
  }
  for (auto& err : errors) {
    if (err) return *err;
  }
  return view;
}

std::optional<std::size_t> TableView::section_for(Shape shape, int cell) const {
  for (std::size_t i = 0; i < sections_.size(); ++i) {
    if (sections_[i].shape == shape && sections_[i].blank == cell) return i;
  }
  return std::nullopt;
}

std::vector<Shape> TableView::shapes() const {
  std::vector<Shape> out;
  for (const Shape s : kBoardShapes) {
    if (std::any_of(sections_.begin(), sections_.end(),
                    [s](const SectionInfo& i) { return i.shape == s; })) {
      out.push_back(s);
    }
  }
  return out;
}

DistanceHistogram TableView::histogram(std::size_t section) const {
  assert(section < sections_.size());
  const SectionInfo& s = sections_[section];
  DistanceHistogram hist{};
  for (int d = 0; d <= s.max_distance; ++d) hist[static_cast<std::size_t>(d)] = s.count_at(d);
  return hist;
}

// What a Table's bytes live in: a read-only mapping of its file, unmapped on
// destruction, or a buffer it owns.
struct Table::Bytes {
  void* addr = nullptr;
  std::size_t size = 0;
  std::vector<std::uint8_t> buffer;

  ~Bytes() {
    if (addr != nullptr) ::munmap(addr, size);
  }
  std::span<const std::uint8_t> span() const {
    if (addr != nullptr) return {static_cast<const std::uint8_t*>(addr), size};
    return buffer;
  }
};

Table::Table(std::string path, std::unique_ptr<Bytes> bytes, TableView view)
    : path_(std::move(path)),
      bytes_(std::move(bytes)),
      view_(std::move(view)),
      solver_(std::make_unique<Solver>(view_)) {
  checksum_hex_ = hex64(view_.checksum());
  const auto held = view_.shapes();
  for (const Shape s : kBoardShapes) {
    if (std::find(held.begin(), held.end(), s) != held.end() ||
        std::find(held.begin(), held.end(), s.transposed()) != held.end()) {
      answered_.push_back(s);
    }
  }
  // Each 4x4 goal's pattern databases, in record order, make its search.
  // parse() has checked all that IdaSearch::create() asks: sound groups, sizes,
  // no tile shared within a goal, at most kMaxGroups.
  for (std::size_t i = 0; i < view_.section_count(); ++i) {
    const SectionInfo& first = view_.section(i);
    if (first.encoding != format::Encoding::kPdb4) continue;
    if (view_.section_for(first.shape, first.blank) != i) continue;  // not the goal's first
    fifteen::PatternSet set;
    set.goal_blank = first.blank;
    std::vector<fifteen::PatternDbView> dbs;
    for (std::size_t j = i; j < view_.section_count(); ++j) {
      const SectionInfo& s = view_.section(j);
      if (s.encoding != format::Encoding::kPdb4 || s.blank != first.blank) continue;
      set.groups[static_cast<std::size_t>(set.group_count++)] = s.group;
      auto v = fifteen::PatternDbView::open(s.pdb(), s.blank, s.group);
      assert(v.ok());
      dbs.push_back(*v);
    }
    auto search = fifteen::IdaSearch::create(set, dbs);
    assert(search.ok());
    ida_searches_.emplace_back(
        i, std::make_unique<const fifteen::IdaSearch>(std::move(search).value()));
  }
  // The standard goal is asked about most: its frame is found once.
  if (auto f = frame(kStandardGoal); f.ok()) standard_frame_.emplace(*f);
}

Table::~Table() = default;

Result<std::shared_ptr<const Table>> Table::open(const std::string& path, Check check) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return fail(ErrorCode::kIo, path, std::string("cannot open: ") + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return fail(ErrorCode::kIo, path, std::string("cannot stat: ") + std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(ErrorCode::kIo, path, "not a regular file");
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    return fail(ErrorCode::kTruncated, path, "file is empty");
  }
  void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int map_errno = errno;
  ::close(fd);  // the mapping keeps the file alive
  if (addr == MAP_FAILED) {
    return fail(ErrorCode::kIo, path, std::string("cannot map: ") + std::strerror(map_errno));
  }
  auto bytes = std::make_unique<Bytes>();
  bytes->addr = addr;
  bytes->size = size;
  auto view = TableView::parse(bytes->span(), path, check);
  if (!view.ok()) return view.error();  // ~Bytes unmaps
  return std::shared_ptr<const Table>(new Table(path, std::move(bytes), std::move(view).value()));
}

Result<std::shared_ptr<const Table>> Table::adopt(std::vector<std::uint8_t> data, std::string name,
                                                  Check check) {
  auto bytes = std::make_unique<Bytes>();
  bytes->buffer = std::move(data);
  auto view = TableView::parse(bytes->span(), name, check);
  if (!view.ok()) return view.error();
  return std::shared_ptr<const Table>(
      new Table(std::move(name), std::move(bytes), std::move(view).value()));
}

Result<GoalFrame> Table::frame(const Board& goal) const {
  assert(is_valid(goal));
  if (standard_frame_ && goal == kStandardGoal) return *standard_frame_;
  const int blank = blank_cell(goal);
  // In the order of symmetries(): the identity first, so a goal that has a
  // section of its own is answered from it.
  for (const Symmetry& s : symmetries(goal.shape)) {
    if (const auto section = view_.section_for(s.to, s.cell_map[static_cast<std::size_t>(blank)])) {
      return GoalFrame(goal, *section, s);
    }
  }
  if (!answers(goal.shape)) {
    return make_error(ErrorCode::kNoShape, "the table answers " + shape_list(answered_) +
                                               " boards, not " + to_string(goal.shape) +
                                               " ones such as goal " + to_string(goal));
  }
  return make_error(ErrorCode::kNoSection, "the table has no section for goal " + to_string(goal) +
                                               " (blank on cell " + std::to_string(blank) + ")");
}

bool Table::answers(Shape shape) const {
  return std::find(answered_.begin(), answered_.end(), shape) != answered_.end();
}

const fifteen::IdaSearch* Table::ida_search(std::size_t section) const {
  for (const auto& [first, search] : ida_searches_) {
    if (first == section) return search.get();
  }
  return nullptr;
}

const DistanceIndex& Table::index() const {
  std::call_once(index_once_, [this] { index_ = std::make_unique<DistanceIndex>(view_); });
  return *index_;
}

}  // namespace eight
