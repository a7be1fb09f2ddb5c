// The JSON shape of an answer, shared by the HTTP server and `eight solve
// --format json` so both always say the same thing:
//   {"board": "...", "goal": "...", "solvable": bool, "distance": n|null,
//    "moves": ["up", ...], "path": "ul...", "tiles": [5, ...]}
// (moves, path and tiles only when the path was asked for), keys in that order.
#pragma once

#include <nlohmann/json.hpp>

#include "eight/solver.h"

namespace eight {

nlohmann::ordered_json solution_json(const Solution& s, bool with_path);

// The blank's moves as letters, e.g. "dlur".
std::string path_letters(std::span<const Move> moves);

}  // namespace eight
