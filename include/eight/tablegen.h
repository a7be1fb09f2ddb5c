// Building a table: reverse breadth-first search from each section's goal,
// then the v1 file bytes (docs/table-format.md), then a safe write.
//
// Output is a pure function of the requested blank cells: the search visits
// moves in a fixed order, so every run produces the same bytes.
#pragma once

#include <cstdint>
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
// canonical_goal(blank), indexed by rank. Requires 0 <= blank < 9.
std::vector<std::uint32_t> generate_section(int blank);

// The whole file for the given blank cells, checksum included. Sections are
// generated in parallel (one thread each); the bytes do not depend on it.
// Requires 1..9 distinct cells.
std::vector<std::uint8_t> build_table(std::span<const int> blanks);

using Status = Result<std::monostate>;

// Writes `bytes` to `path` without ever leaving a partial file there: writes
// path + ".tmp", fsyncs it, renames it over `path`, then fsyncs the folder.
// On failure the temporary file is removed and the error names the step.
Status write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes);

}  // namespace eight
