// The proofs of a table's section entries (checks.h): full sections
// structurally against their moves, mod-3 sections and pattern databases
// against a fresh search or their histograms.
#include <algorithm>
#include <cassert>
#include <optional>
#include <thread>

#include "checks.h"
#include "eight/any_rank.h"
#include "eight/pattern_db.h"
#include "mod3_search.h"
#include "pdb/pdb5x5.h"
#include "section_search.h"

namespace eight::table_checks {
namespace {

using format::Entry;

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
  const auto fresh =
      s.shape == grid::kShape5x5
          ? grid::generate_pdb5x5(s.blank, grid::pdb5x5_group_cells(s.group, s.blank))
          : fifteen::generate_pattern_db(s.shape, s.blank, static_cast<fifteen::TileMask>(s.group),
                                         options);
  if (!std::equal(fresh.begin(), fresh.end(), s.entries, s.entries + s.entries_bytes)) {
    return refuse(ErrorCode::kBadEntry,
                  "its pattern database differs from a fresh search of its group");
  }
  return std::nullopt;
}

}  // namespace

std::optional<Error> verify_section(const SectionInfo& s, std::size_t index, std::string_view name,
                                    Check check) {
  if (s.encoding == format::Encoding::kPatternDb) {
    return verify_pdb(s, index, name, check == Check::kExhaustive);
  }
  if (s.encoding == format::Encoding::kMod3) return verify_mod3(s, index, name);
  auto err = verify_full_entries(s, index, name);
  if (err) return err;
  return verify_full_stats(s, index, name);
}

}  // namespace eight::table_checks
