// Building a table: reverse breadth-first search from each section's goal,
// then the v1 file bytes (docs/table-format.md), then a safe write that
// checks what it wrote before it takes the file's name.
//
// Output is a pure function of the requested blank cells: the search visits
// moves in a fixed order, so every run produces the same bytes.
//
// Thread safety: callable from any thread; the builders run workers of their
// own and return when they are done. Two writes to one path at once would
// share its temporary file: callers keep to one writer per path.
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
// REQUIRES: 0 <= blank < kCells.
std::vector<std::uint32_t> generate_section(int blank);

// The whole file for the given blank cells, checksum included, its sections
// in the order of `blanks`. The sections are searched by one worker per core
// (no more than there are sections), each taking the next section left; the
// bytes do not depend on who searched what.
// REQUIRES: 1..9 distinct cells, each 0..8.
std::vector<std::uint8_t> build_table(std::span<const int> blanks);

using Status = Result<std::monostate>;

// A check of the file written so far, run before it takes its name; given
// the temporary file's path.
using WriteCheck = std::function<Status(const std::string& tmp)>;

// Writes `bytes` to `path` without ever leaving a partial file there: writes
// all of them to path + ".tmp", fsyncs it while `check` (if any) runs on it,
// renames it over `path` only if both succeed, then fsyncs the folder (best
// effort: the rename has happened, so a failure there is not reported). On
// failure the temporary file is removed, `path` is as it was, and the error
// names the step.
Status write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes,
                             const WriteCheck& check = {});

// Generates the table for `blanks` and writes it to `path` as above, the
// check being the full structural proof (Check::kFull) of the bytes that
// landed, run from the file while it is fsynced: a table that does not
// prove sound never takes the name. REQUIRES: `blanks` as for build_table.
Status write_table(const std::string& path, std::span<const int> blanks);

}  // namespace eight
