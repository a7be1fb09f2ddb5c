#include "eight/tablegen.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>

#include "common/durable_file.h"
#include "common/workers.h"
#include "eight/any_rank.h"
#include "eight/goal.h"
#include "eight/rank.h"
#include "eight/table.h"
#include "eight/table_format.h"
#include "full_search.h"
#include "grid_search.h"
#include "mod3_search.h"
#include "pdb/pdb5x5.h"
#include "section_search.h"

namespace eight {
namespace {

// For the asserts: build_table's REQUIRES, 1..9 distinct cells on the board.
[[maybe_unused]] bool are_section_blanks(std::span<const int> blanks) {
  if (blanks.empty() || blanks.size() > static_cast<std::size_t>(kCells3x3)) return false;
  unsigned seen = 0;
  for (int b : blanks) {
    if (b < 0 || b >= kCells3x3 || (seen >> b & 1) != 0) return false;
    seen |= 1u << b;
  }
  return true;
}

}  // namespace

namespace {

// Writes the section of canonical_goal(blank) as little-endian entries into
// `out` (kPositions3x3 * kEntrySize bytes), straight from the search; returns
// its max distance.
int write_section(int blank, detail::SearchSpace& space, std::uint8_t* out) {
  const std::uint32_t goal_rank = rank_3x3(canonical_goal<Board>(blank));
  format::put_u32(out + format::kEntrySize * goal_rank,
                  format::pack_entry({goal_rank, Move::kUp, 0}));
  // A move that finds nothing writes its entry here instead, so the
  // search's loop writes without a branch. The moves out of the last level
  // find nothing and come with distance 32 in the 31-move section: masked,
  // so pack_entry's fields stay in range (no entry found is that far, and
  // the mask is constant over a level).
  std::uint8_t sink[format::kEntrySize];
  const auto base = reinterpret_cast<std::uintptr_t>(out);
  const auto drop = reinterpret_cast<std::uintptr_t>(sink);
  // Each position's parent is the one it was first found from; the search
  // tries moves in a fixed order, so the bytes are the same every run.
  return detail::section_search(
      blank, space,
      [base, drop](std::uint32_t r, std::uint32_t parent, Move m, std::uint8_t distance,
                   bool found) {
        const std::uintptr_t at = base + format::kEntrySize * r;
        const std::uintptr_t to = drop ^ ((at ^ drop) & (0 - static_cast<std::uintptr_t>(found)));
        format::put_u32(
            reinterpret_cast<std::uint8_t*>(to),
            format::pack_entry({parent, opposite(m), static_cast<std::uint8_t>(distance & 31)}));
      });
}

}  // namespace

std::vector<std::uint32_t> generate_section(int blank) {
  assert(blank >= 0 && blank < kCells3x3);
  std::vector<std::uint8_t> bytes(kPositions3x3 * format::kEntrySize, 0);
  detail::SearchSpace space;
  write_section(blank, space, bytes.data());
  std::vector<std::uint32_t> entries(kPositions3x3);
  for (std::uint32_t r = 0; r < kPositions3x3; ++r) {
    entries[r] = format::get_u32(bytes.data() + format::kEntrySize * r);
  }
  return entries;
}

namespace {

// A built section's stats.
struct Built {
  int max_distance = 0;
  std::vector<std::uint32_t> histogram;  // per distance 0..max
  std::vector<std::uint32_t> farthest;   // ranks at the max, ascending
};

// Full entries of any other shape, packed into `out`, and their stats.
Built write_full_section(Shape shape, int blank, std::uint8_t* out) {
  const auto entries = detail::full_section_search(shape, blank);
  Built b;
  for (const auto& e : entries) b.max_distance = std::max<int>(b.max_distance, e.distance);
  b.histogram.assign(static_cast<std::size_t>(b.max_distance) + 1, 0);
  for (std::uint32_t r = 0; r < entries.size(); ++r) {
    const auto& e = entries[r];
    format::put_u32(out + format::kEntrySize * r,
                    format::pack_entry({e.parent, e.move, e.distance}));
    ++b.histogram[e.distance];
    if (e.distance == b.max_distance) b.farthest.push_back(r);
  }
  return b;
}

Built write_mod3_section(Shape shape, int blank, std::uint8_t* out,
                         std::function<void(int, std::uint64_t)> progress) {
  detail::Mod3Options options;
  options.workers = 1;  // the sections are searched at once, one a core
  options.progress = std::move(progress);
  const auto section = detail::mod3_search(shape, blank, options);
  std::copy(section.table.begin(), section.table.end(), out);
  Built b;
  b.max_distance = section.max_distance();
  for (const auto count : section.histogram)
    b.histogram.push_back(static_cast<std::uint32_t>(count));
  b.farthest = section.farthest;
  return b;
}

// A section's positions: its shape's class, or its group's placements.
std::uint32_t spec_positions(const SectionSpec& spec) {
  if (spec.shape == grid::kShape5x5) {
    return static_cast<std::uint32_t>(grid::pdb5x5_placements(std::popcount(spec.group)));
  }
  if (spec.encoding == format::Encoding::kPatternDb) {
    return static_cast<std::uint32_t>(
        fifteen::placement_count(fifteen::group_size(spec.group), spec.shape.cells()));
  }
  return positions(spec.shape);
}

// A pattern database's entry histogram: placements per entry value.
Built pdb_built(std::span<const std::uint8_t> bytes) {
  std::array<std::uint32_t, 16> counts{};
  for (const std::uint8_t b : bytes) {
    ++counts[b & 0xF];
    ++counts[b >> 4];
  }
  Built built;
  for (int v = 0; v < 16; ++v) {
    if (counts[static_cast<std::size_t>(v)] != 0) built.max_distance = v;
  }
  built.histogram.assign(counts.begin(), counts.begin() + built.max_distance + 1);
  return built;
}

// A pattern database written into `out`, and its entry histogram.
Built write_pdb_section(const SectionSpec& spec, std::uint8_t* out, std::size_t index,
                        const TableProgress& progress) {
  fifteen::PdbOptions options;  // every core, one database at a time
  if (progress) {
    options.progress = [&progress, index](const fifteen::PdbProgress& p) {
      progress(index, p.depth, p.done);
    };
  }
  const auto bytes = fifteen::generate_pattern_db(
      spec.shape, spec.blank, static_cast<fifteen::TileMask>(spec.group), options);
  std::copy(bytes.begin(), bytes.end(), out);
  return pdb_built(bytes);
}

// A 5x5 pattern database (single-threaded: the sections are searched at
// once, one a core) written into `out`, and its entry histogram. Not in the
// WebAssembly module, which builds no 5x5 databases (are_buildable() says
// so: 15 s of a core, in a page) and whose download has a size floor; it
// reads them from a table file.
Built write_pdb5x5_section(const SectionSpec& spec, std::uint8_t* out) {
#if defined(__EMSCRIPTEN__)
  (void)spec;
  (void)out;
  assert(false && "are_buildable() refuses 5x5 sections in WebAssembly");
  return {};
#else
  const auto bytes =
      grid::generate_pdb5x5(spec.blank, grid::pdb5x5_group_cells(spec.group, spec.blank));
  std::copy(bytes.begin(), bytes.end(), out);
  return pdb_built(bytes);
#endif
}

// Writes every byte of the file for `sections` through `grow`, which
// returns room for at least the size it is given (first a bound, for the
// entries, then the file's size, keeping what was written); the room need
// not be zeroed: each byte is written once, the entries by the search that
// finds them, so the pages of a fresh buffer are first touched on the cores
// searching into them. Returns the file's size. REQUIRES:
// are_buildable(sections).
template <typename Grow>
std::size_t build_table_into(std::span<const SectionSpec> sections, Grow&& grow,
                             const TableProgress& progress = {}) {
  const std::size_t n = sections.size();
  assert(are_buildable(sections));
  // The layout (docs/table-format.md): the records, every section's
  // entries, then every section's stats, each in section order.
  std::vector<std::uint64_t> entries_at(n);
  std::uint64_t at = format::kHeaderSize + n * format::kSectionRecordSize;
  for (std::size_t i = 0; i < n; ++i) {
    entries_at[i] = at;
    at += format::entries_bytes(sections[i].encoding, spec_positions(sections[i]));
  }
  const std::uint64_t entries_end = at;
  // Room for the stats of sections of few farthest positions (3x3's have
  // 2 to 148); a file that needs more is moved once at the end.
  std::uint8_t* file = grow(entries_end + n * format::stats_bytes(format::kMaxDistance, 192));
  if (std::any_of(sections.begin(), sections.end(),
                  [](const SectionSpec& s) { return s.shape == kShape3x3; })) {
    detail::Transitions::get();  // before the workers, which all need it
  }
  // The sections are searched straight into their places in the file by
  // one worker per core, each taking the next section left and reusing its
  // memory for it; the bytes do not depend on who searched what.
  std::vector<Built> built(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (sections[i].encoding == format::Encoding::kPatternDb &&
        sections[i].shape != grid::kShape5x5) {
      built[i] = write_pdb_section(sections[i], file + entries_at[i], i, progress);
    }
  }
  std::atomic<std::size_t> next{0};
  {
    const auto workers = static_cast<unsigned>(std::min<std::size_t>(n, available_cores()));
    run_workers(workers, [&](unsigned) {
      detail::SearchSpace space;
      for (std::size_t i; (i = next.fetch_add(1)) < n;) {
        const SectionSpec& spec = sections[i];
        std::uint8_t* out = file + entries_at[i];
        if (spec.shape == grid::kShape5x5) {
          built[i] = write_pdb5x5_section(spec, out);
          if (progress) progress(i, built[i].max_distance, spec_positions(spec));
          continue;
        }
        if (spec.encoding == format::Encoding::kPatternDb) continue;  // built above
        if (spec.encoding == format::Encoding::kMod3) {
          std::function<void(int, std::uint64_t)> report;
          if (progress) {
            report = [&progress, i](int level, std::uint64_t found) { progress(i, level, found); };
          }
          built[i] = write_mod3_section(spec.shape, spec.blank, out, std::move(report));
        } else if (spec.shape == kShape3x3) {
          Built& b = built[i];
          b.max_distance = write_section(spec.blank, space, out);
          const auto& starts = space.level_starts;
          for (std::size_t d = 0; d + 1 < starts.size(); ++d) {
            b.histogram.push_back(starts[d + 1] - starts[d]);
          }
          b.farthest.assign(space.queue.begin() + starts[starts.size() - 2],
                            space.queue.begin() + kPositions3x3);
          std::sort(b.farthest.begin(), b.farthest.end());
        } else {
          built[i] = write_full_section(spec.shape, spec.blank, out);
        }
      }
    });
  }
  std::vector<std::uint64_t> stats_at(n);
  for (std::size_t i = 0; i < n; ++i) {
    stats_at[i] = at;
    at += format::stats_bytes(built[i].max_distance,
                              static_cast<std::uint32_t>(built[i].farthest.size()));
  }
  const std::size_t size = at;
  file = grow(size);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint8_t* p = file + stats_at[i];
    for (const std::uint32_t v : built[i].histogram) format::put_u32(p, v), p += 4;
    for (const std::uint32_t v : built[i].farthest) format::put_u32(p, v), p += 4;
    const SectionSpec& spec = sections[i];
    format::SectionRecord rec;
    rec.shape = spec.shape;
    rec.encoding = static_cast<std::uint8_t>(spec.encoding);
    rec.max_distance = static_cast<std::uint8_t>(built[i].max_distance);
    rec.positions = spec_positions(spec);
    rec.group = spec.group;
    rec.entries_offset = entries_at[i];
    rec.entries_bytes = format::entries_bytes(spec.encoding, rec.positions);
    rec.stats_offset = stats_at[i];
    rec.farthest_count = static_cast<std::uint32_t>(built[i].farthest.size());
    rec.goal = format::goal_field(canonical_goal<GridBoard>(spec.blank, spec.shape));
    format::encode_section_record(rec, file + format::kHeaderSize + i * format::kSectionRecordSize);
  }
  format::Header header;
  header.section_count = static_cast<std::uint16_t>(n);
  header.file_size = size;
  format::encode_header(header, file);
  header.checksum = format::compute_checksum({file, size});
  format::encode_header(header, file);
  return size;
}

std::vector<SectionSpec> full_3x3(std::span<const int> blanks) {
  assert(are_section_blanks(blanks));
  std::vector<SectionSpec> out;
  for (const int b : blanks) out.push_back({kShape3x3, b, format::Encoding::kFull});
  return out;
}

}  // namespace

bool are_buildable(std::span<const SectionSpec> sections) {
  if (sections.empty() || sections.size() > format::kMaxSections) return false;
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const SectionSpec& s = sections[i];
    if (s.shape == grid::kShape5x5) {
#if defined(__EMSCRIPTEN__)
      return false;  // write_pdb5x5_section(): read from a table file instead
#endif
      // pdb5x5_sections()'s: each kept goal's five groups in order.
      if (s.encoding != format::Encoding::kPatternDb || s.blank < 0 || s.blank >= 25 ||
          grid::pdb5x5_class_blank(s.blank) != s.blank) {
        return false;
      }
      std::size_t before = 0;
      for (std::size_t j = 0; j < i; ++j) {
        if (sections[j].shape == s.shape && sections[j].blank == s.blank) ++before;
      }
      if (before >= static_cast<std::size_t>(grid::kPdb5x5Groups) ||
          s.group != grid::pdb5x5_group_tiles(s.blank, grid::pdb5x5_groups(s.blank)[before])) {
        return false;
      }
      const bool complete_or_last = before + 1 == grid::kPdb5x5Groups ||
                                    (i + 1 < sections.size() && sections[i + 1].shape == s.shape &&
                                     sections[i + 1].blank == s.blank);
      if (!complete_or_last) return false;
      continue;
    }
    if (s.group > 0xFFFF) return false;
    if (fifteen::is_pattern_shape(s.shape)) {
      if (s.encoding != format::Encoding::kPatternDb ||
          !fifteen::is_group(static_cast<fifteen::TileMask>(s.group), s.shape) || s.blank < 0 ||
          s.blank >= s.shape.cells() ||
          (s.shape != kShape4x4 && !grid::is_pattern_key(s.shape, s.blank))) {
        return false;
      }
      std::vector<fifteen::TileMask> goal_groups;  // the goal's, in order, up to s's
      for (std::size_t j = 0; j <= i; ++j) {
        if (sections[j].shape == s.shape && sections[j].blank == s.blank) {
          goal_groups.push_back(sections[j].group);
        }
      }
      const fifteen::SetSplit split = fifteen::split_into_sets(goal_groups);
      if (split.largest > fifteen::kMaxGroups || split.sets > fifteen::kMaxPatternSets ||
          (s.shape == kShape4x4 && split.sets > 1)) {
        return false;
      }
      continue;
    }
    if (s.group != 0 || !is_table_shape(s.shape) || s.blank < 0 || s.blank >= s.shape.cells() ||
        (s.shape.cells() > 10 && s.encoding != format::Encoding::kMod3)) {
      return false;
    }
    if ((s.encoding != format::Encoding::kFull && s.encoding != format::Encoding::kMod3) ||
        !format::encoding_fits(s.encoding, positions(s.shape))) {
      return false;
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (sections[j].shape == s.shape && sections[j].blank == s.blank) return false;
    }
  }
  return true;
}

namespace {

// One kPatternDb section per group of `set`, in its order.
void append_sections(const fifteen::PatternSet& set, std::vector<SectionSpec>& out) {
  for (const fifteen::TileMask g : set.group_list()) {
    out.push_back({set.shape, set.goal_blank, format::Encoding::kPatternDb, g});
  }
}

}  // namespace

std::vector<SectionSpec> pattern_sections(fifteen::Partition partition,
                                          std::span<const int> goal_blanks) {
  assert(std::all_of(goal_blanks.begin(), goal_blanks.end(), [&](int b) {
    return b >= 0 && b < 16 && std::count(goal_blanks.begin(), goal_blanks.end(), b) == 1;
  }));
  std::vector<SectionSpec> out;
  for (const int blank : goal_blanks) append_sections(fifteen::pattern_set(partition, blank), out);
  return out;
}

std::vector<SectionSpec> grid_pattern_sections(Shape shape, std::optional<int> goal_blank) {
  assert(fifteen::is_pattern_shape(shape) && shape != kShape4x4 && shape.rows <= shape.cols);
  assert(!goal_blank || grid::is_pattern_key(shape, *goal_blank));
  std::vector<SectionSpec> out;
  for (int blank = 0; blank < shape.cells(); ++blank) {
    if (!grid::is_pattern_key(shape, blank) || (goal_blank && blank != *goal_blank)) continue;
    for (int p = 0; p < fifteen::pattern_set_count(shape); ++p) {
      append_sections(fifteen::pattern_set(shape, blank, p), out);
    }
  }
  return out;
}

std::vector<SectionSpec> pattern_set_sections(const fifteen::PatternSet& set) {
  std::vector<SectionSpec> out;
  append_sections(set, out);
  return out;
}

std::vector<SectionSpec> two_by_eight_78_sections() {
  return pattern_set_sections(
      fifteen::pattern_set(Shape{2, 8}, kStandardTwoByEightKey, fifteen::kTwoByEightPartition78));
}

std::vector<SectionSpec> pdb5x5_sections(std::span<const int> goal_blanks) {
  std::vector<SectionSpec> out;
  for (const int blank : goal_blanks) {
    assert(grid::pdb5x5_class_blank(blank) == blank &&
           std::count(goal_blanks.begin(), goal_blanks.end(), blank) == 1);
    for (const std::uint32_t cells : grid::pdb5x5_groups(blank)) {
      out.push_back({grid::kShape5x5, blank, format::Encoding::kPatternDb,
                     grid::pdb5x5_group_tiles(blank, cells)});
    }
  }
  return out;
}

std::vector<SectionSpec> default_sections() {
  std::vector<SectionSpec> out(std::begin(kDefaultSections), std::end(kDefaultSections));
  constexpr int kCorner[] = {0};
  for (const auto& more : {pattern_sections(fifteen::Partition::k663, kFifteenGoalBlanks),
                           grid_pattern_sections(Shape{2, 7}), grid_pattern_sections(Shape{3, 5}),
                           grid_pattern_sections(Shape{2, 8}, kStandardTwoByEightKey),
                           pdb5x5_sections(kCorner)}) {
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

std::vector<std::uint8_t> build_table(std::span<const SectionSpec> sections) {
  assert(are_buildable(sections));
  std::vector<std::uint8_t> file;
  const std::size_t size = build_table_into(sections, [&file](std::size_t bytes) {
    file.resize(bytes);
    return file.data();
  });
  file.resize(size);
  return file;
}

std::vector<std::uint8_t> build_table(std::span<const int> blanks) {
  return build_table(full_3x3(blanks));
}

Status write_table(const std::string& path, std::span<const SectionSpec> sections,
                   const TableProgress& progress) {
  assert(are_buildable(sections));
  // A file that could not be written anyway (no such folder, no permission)
  // is refused before the build, which may take minutes, not after it: the
  // error write_file_atomically would give.
  const std::string probe_path = path + ".tmp";
  auto probe = create_new_file(probe_path);
  if (!probe.ok()) return probe.error();
  ::close(*probe);
  ::unlink(probe_path.c_str());
  // Not zeroed: build_table_into writes every byte.
  std::unique_ptr<std::uint8_t[]> buffer;
  std::size_t room = 0;
  const std::size_t size = build_table_into(
      sections,
      [&](std::size_t bytes) {
        if (bytes > room) {
          std::unique_ptr<std::uint8_t[]> bigger(new std::uint8_t[bytes]);
          if (room > 0) std::copy(buffer.get(), buffer.get() + room, bigger.get());
          buffer = std::move(bigger);
          room = bytes;
        }
        return buffer.get();
      },
      progress);
  const std::span<const std::uint8_t> bytes(buffer.get(), size);
  // The read-back proves every section, but for the 12-cell ones and the
  // pattern databases of 7 or 8 tiles, whose search again would double
  // minutes of generation (eight verify does it).
  const bool heavy = std::any_of(sections.begin(), sections.end(), [](const SectionSpec& s) {
    return s.shape.cells() > 10 &&
           (s.encoding != format::Encoding::kPatternDb ||
            (s.shape != grid::kShape5x5 &&
             fifteen::group_size(static_cast<fifteen::TileMask>(s.group)) >= 7));
  });
  const Check check = heavy ? Check::kFull : Check::kExhaustive;
  return write_file_atomically(path, bytes, [&path, check](const std::string& tmp) -> Status {
    auto table = Table::open(tmp, check);
    if (!table.ok()) {
      return make_error(table.error().code, "wrote a table that does not prove sound, so " + path +
                                                " was left as it was: " + table.error().message);
    }
    return std::monostate{};
  });
}

Status write_table(const std::string& path, std::span<const int> blanks) {
  return write_table(path, full_3x3(blanks));
}

}  // namespace eight
