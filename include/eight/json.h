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

// The answer to "which moves are optimal from here?", shared by GET /hint
// and `eight hint --format json`:
//   {"board", "goal", "solvable", "distance",
//    "hints": [{"move": "up", "letter": "u", "tile": 6, "board": "...", "distance": n}, ...]}
nlohmann::ordered_json hints_json(const Board& board, const Board& goal, int distance,
                                  std::span<const Hint> hints);

// The blank's moves as letters, e.g. "dlur".
std::string path_letters(std::span<const Move> moves);

}  // namespace eight
