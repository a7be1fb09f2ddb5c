// The checks TableView::parse() runs (include/eight/table.h): the header's
// and each section record's and stats' (records.cpp), and the proofs of a
// section's entries (proofs.cpp). Private to the core.
//
// Each returns the first thing wrong as an Error whose message starts with
// `name` (the file's path), or nothing.
//
// Thread safety: pure functions (a proof may use threads of its own).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "eight/result.h"
#include "eight/table.h"
#include "eight/table_format.h"

namespace eight::table_checks {

// An error whose message starts with the table's name.
inline Error fail(ErrorCode code, std::string_view name, const std::string& what) {
  return make_error(code, std::string(name) + ": " + what);
}

// 16 lowercase hex digits.
inline std::string hex64(std::uint64_t v) {
  char buf[19];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// The header against the file's size.
std::optional<Error> check_header(const format::Header& h, std::uint64_t size,
                                  std::string_view name);

// Checks section i's record against everything the header and the earlier
// records fixed; on success fills `info` but for its stats pointers.
// `entries_at` is where the layout puts its entries.
std::optional<Error> check_record(const format::SectionRecord& rec, std::size_t i,
                                  std::uint64_t entries_at, std::span<const SectionInfo> earlier,
                                  std::string_view name, SectionInfo& info);

// Section i's stats, which the layout puts at `stats_at`: inside the file,
// the histogram summing to the positions with the goal alone at 0 and the
// farthest count its last count, the farthest ranks ascending in range.
std::optional<Error> check_stats(const format::SectionRecord& rec, std::size_t i,
                                 std::uint64_t stats_at, std::span<const std::uint8_t> bytes,
                                 std::string_view name, SectionInfo& info);

// The proof of section `index`'s entries that `check` asks for
// (Check::kFull and up; table.h says what each level proves).
std::optional<Error> verify_section(const SectionInfo& s, std::size_t index, std::string_view name,
                                    Check check);

}  // namespace eight::table_checks
