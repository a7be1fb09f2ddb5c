// Building a table: reverse breadth-first search from each section's goal,
// then the v1 file bytes (docs/table-format.md), then a safe write that
// checks what it wrote before it takes the file's name.
//
// Output is a pure function of the requested blank cells: the search visits
// moves in a fixed order, so every run produces the same bytes.
//
// Thread safety: pure functions, but for the files they write.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "eight/board.h"
#include "eight/result.h"

namespace eight {

// The sections the default table holds: the standard goal's corner (8), an
// edge (7) and the centre (4). Every blank cell maps onto one of them by a
// symmetry of the square, so these three answer every goal.
inline constexpr int kDefaultSectionBlanks[3] = {8, 7, 4};

// The packed entries (format::pack_entry) of the section whose goal is
// canonical_goal(blank), indexed by rank: about two milliseconds.
// REQUIRES: 0 <= blank < 9.
std::vector<std::uint32_t> generate_section(int blank);

// The whole file for the given blank cells, checksum included. Sections are
// generated in parallel (one thread each); the bytes do not depend on it.
// REQUIRES: 1..9 distinct cells, each 0..8.
std::vector<std::uint8_t> build_table(std::span<const int> blanks);

using Status = Result<std::monostate>;

// A check of the file written so far, run before it takes its name; given
// the temporary file's path.
using WriteCheck = std::function<Status(const std::string& tmp)>;

// Writes `bytes` to `path` without ever leaving a partial file there: writes
// path + ".tmp" in one write, fsyncs it while `check` (if any) runs on it,
// renames it over `path` only if both succeed, then fsyncs the folder. On
// failure the temporary file is removed, `path` is as it was, and the error
// names the step.
Status write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes,
                             const WriteCheck& check = {});

// Generates the table for `blanks` and writes it to `path` as above, the
// check being the full structural proof (Check::kFull) of the bytes that
// landed, run from the file while it is fsynced: a table that does not
// prove sound never takes the name.
Status write_table(const std::string& path, std::span<const int> blanks);

}  // namespace eight
