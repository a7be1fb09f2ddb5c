// The JSON shape of every answer, shared by the HTTP server and `eight
// ... --format json` so both always say the same thing. A small library
// above the core (which knows nothing of JSON or HTTP).
//
// A solve answer:
//   {"board": "...", "goal": "...", "shape": "3x3",
//    "board_cells": [8, 6, ...], "goal_cells": [1, 2, ...],
//    "solvable": bool, "distance": n|null,
//    "moves": ["up", ...], "path": "ul...", "tiles": [5, ...],
//    "boards": ["...", ...], "boards_cells": [[...], ...]}
// moves, path and tiles when the path was asked for; boards (the board
// after each move) when those were asked for too. Keys in that order, no
// spaces: exactly what nlohmann::json would dump for those keys
// (tests/answer_json_test.cpp checks that for every position).
//
// The naming rule of every answer, here and in the server's own JSON: a
// field holding a board's text ("board", "goal") has a sibling of the same
// name plus "_cells" holding its cells in reading order as integers, 0 for
// the blank; a list of boards ("boards") has "boards_cells", a list of such
// arrays; and an object with a board or goal says its "shape" ("2x3") once,
// right after its texts, since a board and its goal always share it. So a
// client draws a board without parsing any of the notations ("867254301",
// "123/405", "5,1,2,3/...") and nothing existing is renamed.
//
// Thread safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "eight/solver.h"

namespace eight {

// The cells of `b` in reading order, blank 0: a "..._cells" field.
// REQUIRES: is_valid(b).
nlohmann::ordered_json cells_json(const GridBoard& b);

// Adds "board" (when `board` is given), "goal", "shape", "board_cells"
// (with "board") and "goal_cells" to `j`, in that order: the leading fields
// of every answer about a board or a goal. REQUIRES: is_valid(goal), and
// board, when given, valid and of goal's shape.
void add_board_fields(nlohmann::ordered_json& j, const GridBoard* board, const GridBoard& goal);

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
//   {"board", "goal", "shape", "board_cells", "goal_cells", "solvable", "distance",
//    "hints": [{"move": "up", "letter": "u", "tile": 6, "board": "...",
//               "board_cells": [...], "distance": n}, ...],
//    "moves": [{"move", "letter", "tile", "board", "board_cells", "distance": n|null,
//               "optimal": bool}, ...]}
// hints: the optimal moves (the field every version had); moves: every legal
// move, best first (MoveOptions).
std::string hints_json(const GridBoard& board, const GridBoard& goal, const MoveOptions& options);

// The inverses, for the tool's remote mode (`eight --server URL ...`), which
// prints a server's answer through the same printers as its own: the values
// an answer of solution_json (with the path) or hints_json describes. The
// text is not trusted: boards go through the one board parser, the path is
// replayed from the board and must end on the goal, the tiles, distances and
// next boards must be the ones the moves give. Anything else is a
// kBadArgument error naming the field ("answer field 'path': ..."). The
// "shape" and "..._cells" fields are not read: the board texts say the same.
Result<Solution> parse_solution_json(const nlohmann::json& j);

struct HintsAnswer {
  GridBoard board;
  GridBoard goal;
  MoveOptions options;
};
Result<HintsAnswer> parse_hints_json(const nlohmann::json& j);

// What stands in an answer list for an input that could not be answered:
// {"input": <the input as sent>, "error": "<why>"}. Never throws, whatever
// the bytes: invalid UTF-8 becomes U+FFFD.
std::string input_error_json(const nlohmann::json& input, std::string_view error);

}  // namespace eight
