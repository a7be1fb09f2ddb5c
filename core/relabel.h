// The one relabelling of a section's cells, GoalFrame's work both ways
// (to_section, from_section): out[j] = label[cells[source[j]]] for the
// first n cells, zero for the rest of the first 16. Done a byte at a time
// it was most of a 3x3 distance lookup's instructions (about 80 of 200);
// with SSSE3 it is two byte shuffles: one gathers the cells, the second
// looks each tile up in the 16-entry label table. Chosen at run time, so
// that a build for any x86-64 uses the shuffles where the processor has
// them (every x86-64 made since 2006 save a few) and the portable loop
// everywhere else.
//
// Internal to the core; tests/goal_test.cpp holds every variant to the
// portable one. Thread safety: pure functions.
#pragma once

#include <cstdint>

namespace eight::detail {

// REQUIRES: 0 <= n <= 16; source[j] < 16 and cells[source[j]] < 16 for j < n
// (a section's cells, a board's tiles); `cells`, `source` and `label` each
// have 16 readable bytes; `out` has 16 writable bytes.
void relabel_head(const std::uint8_t* cells, const std::uint8_t* source, const std::uint8_t* label,
                  int n, std::uint8_t* out);

// The same, a byte at a time: the definition, and the path where SSSE3 is
// missing.
void relabel_head_portable(const std::uint8_t* cells, const std::uint8_t* source,
                           const std::uint8_t* label, int n, std::uint8_t* out);

// The same by two byte shuffles, when have_ssse3(). REQUIRES: have_ssse3().
void relabel_head_ssse3(const std::uint8_t* cells, const std::uint8_t* source,
                        const std::uint8_t* label, int n, std::uint8_t* out);

// Whether this processor runs relabel_head_ssse3 (false where it is not
// built: off x86-64).
bool have_ssse3();

}  // namespace eight::detail
