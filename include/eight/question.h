// A question as every interface reads it, once: a board (or none, for a
// question about a goal alone: random boards, statistics), its goal, and
// the shape their texts are written in. The HTTP API (server/api/), the
// tool (cli/), the C API (capi/) and through it the Python and JavaScript
// bindings all read theirs here, so the rules below are written once:
//  - the default goal: no goal given, the standard goal of the board's
//    shape; with no board, of the shape named; with neither, 3x3's;
//  - a goal text is read in the shape named, as the board's is;
//  - a board and a goal of different shapes are refused (the goal's
//    fault: the board is read first, and a client fixes the goal);
//  - a known path (the rest of a path an earlier answer showed, sent back
//    so that the answer is never longer: answer.h's Question::known_path)
//    is a path from the board to the goal, checked by answer.h's
//    read_known_path() once the board and goal are read.
// Framing the goal in a table set (answer.h's frame_question()) comes next,
// and is the caller's: the server keeps frames per batch (GoalFrames).
//
// Thread safety: pure functions of their arguments.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "eight/board.h"
#include "eight/result.h"

namespace eight {

// The texts one question is read from, wherever they came from (query
// parameters, a batch item, command-line arguments, a binding's options).
struct QuestionText {
  std::optional<Shape> shape;             // the shape of the board and goal texts
  std::optional<std::string_view> board;  // none: a question about a goal alone
  std::optional<std::string_view> goal;   // none: `goal_board`, else default_goal()
  // A goal already read (a batch's own goal, for its items without one);
  // its shape must match the board's as a goal text's must.
  std::optional<GridBoard> goal_board;
  // A known path from the board to the goal (letters u d l r), or none;
  // only with a board.
  std::optional<std::string_view> path;
};

// A question read: its board (when one was given) and its goal.
struct ReadQuestion {
  std::optional<GridBoard> board;
  GridBoard goal;
  std::optional<std::string> path;  // the known path, checked (Question::known_path)
};

// Which text of a question was at fault, for the interface to name it (the
// server's problem "parameter"; the tool and the C API say "bad goal: "
// before a goal text's error): the board text, the goal text, the two
// boards' shapes, which disagree (the goal's fault: a client fixes that),
// or the known path.
enum class QuestionPart : std::uint8_t { kBoard, kGoal, kShapes, kPath };
// "board", "path", else "goal".
std::string_view part_name(QuestionPart part);

struct QuestionError {
  QuestionPart part;
  Error error;  // the parser's own message (or shape_mismatch()'s), verbatim
};

// The default-goal rule: the standard goal of `board`'s shape when there is
// a board, else of `shape`, else 3x3's. An error only for a `shape` that is
// no board shape (checked_standard_goal()).
Result<GridBoard> default_goal(const GridBoard* board, std::optional<Shape> shape);

// Reads `text`: the board, then the goal (as given, else the default goal),
// then whether their shapes agree, then the known path (a path given
// without a board is refused). The first error in that order.
std::variant<ReadQuestion, QuestionError> read_question(const QuestionText& text);

}  // namespace eight
