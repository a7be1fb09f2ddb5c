// The JSON shape of every answer, shared by the HTTP server and `eight
// ... --format json` so both always say the same thing. A small library
// above the core (which knows nothing of JSON or HTTP).
//
// A solve answer:
//   {"board": "...", "goal": "...", "solvable": bool, "distance": n|null,
//    "moves": ["up", ...], "path": "ul...", "tiles": [5, ...],
//    "boards": ["...", ...]}
// moves, path and tiles when the path was asked for; boards (the board
// after each move) when those were asked for too. Keys in that order, no
// spaces: exactly what nlohmann::json would dump for those keys
// (tests/answer_json_test.cpp checks that for every position).
//
// Thread safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "eight/solver.h"

namespace eight {

struct SolveFields {
  bool path = true;     // moves, path, tiles
  bool boards = false;  // the board after each move; only with path
};

// The answer as JSON text. Written directly rather than through a JSON
// value: every field is a number, a literal or a canonical board, so nothing
// needs escaping, and the server writes this on every request (building a
// DOM of ~70 values and dumping it cost more than the table lookup and the
// HTTP framing together).
// REQUIRES: fields.path || !fields.boards; with fields.boards, s.path() is
// legal from s.board, as in every Solution Solver::solve returns.
std::string solution_json(const Solution& s, SolveFields fields = {});
// The same, appended to `out`. REQUIRES: as solution_json.
void append_solution_json(const Solution& s, SolveFields fields, std::string& out);

// The answer to "what does each move do from here?", shared by GET /hint and
// `eight hint --format json`:
//   {"board", "goal", "solvable", "distance",
//    "hints": [{"move": "up", "letter": "u", "tile": 6, "board": "...", "distance": n}, ...],
//    "moves": [{"move", "letter", "tile", "board", "distance": n|null, "optimal": bool}, ...]}
// hints: the optimal moves (the field every version had); moves: every legal
// move, best first (MoveOptions).
std::string hints_json(const Board& board, const Board& goal, const MoveOptions& options);

// The inverses, for the tool's remote mode (`eight --server URL ...`), which
// prints a server's answer through the same printers as its own: the values
// an answer of solution_json (with the path) or hints_json describes. The
// text is not trusted: boards go through the one board parser, the path is
// replayed from the board and must end on the goal, the tiles, distances and
// next boards must be the ones the moves give. Anything else is a
// kBadArgument error naming the field ("answer field 'path': ...").
Result<Solution> parse_solution_json(const nlohmann::json& j);

struct HintsAnswer {
  Board board;
  Board goal;
  MoveOptions options;
};
Result<HintsAnswer> parse_hints_json(const nlohmann::json& j);

// What stands in an answer list for an input that could not be answered:
// {"input": <the input as sent>, "error": "<why>"}. Never throws, whatever
// the bytes: invalid UTF-8 becomes U+FFFD.
std::string input_error_json(const nlohmann::json& input, std::string_view error);

}  // namespace eight
