// The pattern database generator's variant for the WebAssembly module,
// exposed so that the native tests can check it. Private to the core.
//
// Thread safety: as generate_pattern_db() (include/eight/pattern_db.h).
#pragma once

#include <cstdint>
#include <vector>

#include "eight/pattern_db.h"

namespace eight::fifteen {

// generate_pattern_db() with the board's cells read at run time: one
// generator for each group size, where the native build has one for each
// group size and board of 14, 15 or 16 cells (constants, so that ranks
// divide by constants). The WebAssembly module (js/) generates with this
// alone, a smaller download. The same bytes, at some cost in speed.
// REQUIRES: as generate_pattern_db().
std::vector<std::uint8_t> generate_pattern_db_cells_at_run_time(Shape shape, int goal_blank,
                                                                TileMask group,
                                                                const PdbOptions& options = {});

}  // namespace eight::fifteen
