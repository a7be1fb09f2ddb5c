// TableView (include/eight/table.h): parse() runs the checks (checks.h)
// and keeps what they found.
#include <algorithm>
#include <atomic>
#include <cassert>
#include <optional>

#include "checks.h"
#include "common/workers.h"
#include "eight/pattern_db.h"
#include "eight/table.h"
#include "pdb/pdb5x5.h"

namespace eight {

using table_checks::check_header;
using table_checks::check_record;
using table_checks::check_stats;
using table_checks::fail;
using table_checks::hex64;
using table_checks::verify_section;

Result<format::Header> TableView::parse_header(std::span<const std::uint8_t> head,
                                               std::uint64_t file_size, std::string_view name) {
  if (head.empty()) return fail(ErrorCode::kTruncated, name, "file is empty");
  if (head.size() < format::kMagic.size() ||
      !std::equal(format::kMagic.begin(), format::kMagic.end(), head.begin())) {
    return fail(ErrorCode::kBadMagic, name, "not an eight table (bad magic)");
  }
  if (head.size() < format::kHeaderSize) {
    return fail(ErrorCode::kTruncated, name,
                "file is truncated: " + std::to_string(head.size()) + " bytes, shorter than the " +
                    std::to_string(format::kHeaderSize) + "-byte header");
  }
  const format::Header header = format::decode_header(head.data());
  if (auto err = check_header(header, file_size, name)) return *err;
  return header;
}

Result<TableView> TableView::parse(std::span<const std::uint8_t> bytes, std::string_view name,
                                   Check check) {
  auto header = parse_header(bytes, bytes.size(), name);
  if (!header.ok()) return header.error();
  TableView view;
  view.bytes_ = bytes;
  view.header_ = *header;
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
    if (info.encoding == format::Encoding::kPatternDb) {
      // What the search relies on: the goal's placement is 0 (its heuristic
      // is 0 at the goal). Every 4-bit value is a value, so nothing else
      // can be out of range.
      if (info.shape == grid::kShape5x5) {
        // (check_record has checked the group, its size and the bytes'.)
        const std::uint32_t r = info.goal_rank;
        if (((info.entries[r / 2] >> (4 * (r % 2))) & 0xF) != 0) {
          return fail(ErrorCode::kBadEntry, name,
                      "section " + std::to_string(i) +
                          ": the goal's placement has a nonzero entry (the heuristic would not "
                          "be 0 at the goal)");
        }
      } else {
        const auto v =
            fifteen::PatternDbView::open(info.pdb(), to_board(info.goal)->shape, info.blank,
                                         static_cast<fifteen::TileMask>(info.group));
        if (!v.ok())
          return fail(v.error().code, name,
                      "section " + std::to_string(i) + ": " + v.error().message);
      }
    }
    at += info.entries_bytes;
    view.sections_.push_back(info);
  }
  // The beam sums a 5x5 goal's five groups (check_record has checked each
  // in its place): a set with one missing is no set.
  for (std::size_t i = 0; i < n; ++i) {
    const SectionInfo& s = view.sections_[i];
    if (s.shape != grid::kShape5x5 || view.section_for(s.shape, s.blank) != i) continue;
    const auto count = std::count_if(view.sections_.begin(), view.sections_.end(), [&](auto& e) {
      return e.shape == s.shape && e.blank == s.blank;
    });
    if (count != grid::kPdb5x5Groups) {
      return fail(ErrorCode::kBadHeader, name,
                  "section " + std::to_string(i) + ": the 5x5 goal with blank cell " +
                      std::to_string(s.blank) + " has " + std::to_string(count) +
                      " pattern databases, not its " + std::to_string(grid::kPdb5x5Groups) +
                      " groups");
    }
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
  // Sections are independent: prove them at once, a worker per core each
  // taking the next section left.
  std::vector<std::optional<Error>> errors(n);
  std::atomic<std::size_t> next{0};
  run_workers(static_cast<unsigned>(std::min<std::size_t>(n, available_cores())), [&](unsigned) {
    for (std::size_t i; (i = next.fetch_add(1)) < n;) {
      // (A mod-3 section's proof is a search again: kExhaustive.)
      if (check == Check::kFull && view.sections_[i].encoding == format::Encoding::kMod3) continue;
      errors[i] = verify_section(view.sections_[i], i, name, check);
    }
  });
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

}  // namespace eight
