// The JSON shape of an answer, shared by the HTTP server and `eight solve
// --format json` so both always say the same thing:
//   {"board": "...", "goal": "...", "solvable": bool, "distance": n|null,
//    "moves": ["up", ...], "path": "ul...", "tiles": [5, ...]}
// (moves, path and tiles only when the path was asked for), keys in that
// order, no spaces: exactly what nlohmann::json would dump for those keys
// (tests/solver_test.cpp checks that for every position).
//
// Thread safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <span>
#include <string>

#include "eight/solver.h"

namespace eight {

// The answer as JSON text. Written directly rather than through a JSON
// value: every field is a number, a literal or a canonical board, so nothing
// needs escaping, and the server answers this on every request (building a
// DOM of ~70 values and dumping it cost more than the table lookup and the
// HTTP framing together).
std::string solution_json(const Solution& s, bool with_path);
// The same, appended to `out`.
void append_solution_json(const Solution& s, bool with_path, std::string& out);

// The answer to "which moves are optimal from here?", shared by GET /hint
// and `eight hint --format json`:
//   {"board", "goal", "solvable", "distance",
//    "hints": [{"move": "up", "letter": "u", "tile": 6, "board": "...", "distance": n}, ...]}
nlohmann::ordered_json hints_json(const Board& board, const Board& goal, int distance,
                                  std::span<const Hint> hints);

// The blank's moves as letters, e.g. "dlur".
std::string path_letters(std::span<const Move> moves);

}  // namespace eight
