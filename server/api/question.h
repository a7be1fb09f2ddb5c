// A question, read once: the board (when the endpoint takes one), the goal
// and its frame in the table set that answers it, whether a table answers
// it or a search must, and the search's budget. /solve, /distance, /hint,
// /random and /stats read theirs from the query; each item of a POST /solve
// batch from the body; both through read_question(texts, ...) below, so
// every rule (the shape, the default goal, the shape check, the frame,
// searches turned off) is written once.
//
// The core parser is the only judge of board text, limits included: its
// messages go to the client verbatim, in a Problem naming the parameter at
// fault ("shape", "board" or "goal").
//
// Thread safety: plain values and pure functions (read_question takes one
// snapshot of the slot).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "eight/answer.h"
#include "eight/board.h"
#include "eight/goal.h"
#include "eight/table_set.h"
#include "problem.h"
#include "request.h"
#include "table_slot.h"

namespace eight::server {

struct Question {
  std::shared_ptr<const TableSet> tables;  // the snapshot it is answered from
  // The goal framed in `tables` (eight/answer.h): the file answering it,
  // its frame, looked up or searched. Always set once read.
  std::optional<eight::Question> framed;
  GridBoard board;           // when the endpoint takes one
  std::uint64_t budget = 0;  // the nodes a search may expand (budget=)
};

// The texts one question is read from, wherever they came from.
struct QuestionText {
  std::optional<Shape> shape;          // the shape of the board and goal texts (shape=)
  const std::string* board = nullptr;  // null: a question about a goal alone
  const std::string* goal = nullptr;   // null: `goal_board`, else the standard goal
  // A goal already read (a batch's own, for its items without one); its
  // shape must match the board's as a goal text's must.
  std::optional<GridBoard> goal_board;
};

// Frames by goal, for many questions against one snapshot (a batch): the
// last few goals asked about are remembered, so a batch with one goal, or
// with each shape's standard goal, finds each frame once.
class GoalFrames {
 public:
  explicit GoalFrames(const TableSet& tables) : tables_(tables) {}
  const Result<TableSet::Frame>& operator()(const GridBoard& goal);

 private:
  static constexpr std::size_t kKept = 8;
  const TableSet& tables_;
  std::vector<std::pair<GridBoard, Result<TableSet::Frame>>> kept_;
  std::size_t next_ = 0;  // the slot replaced next once kept_ is full
};

// Reads a question from `text` against `tables` (null when no table is
// loaded yet: 503 not-ready once the texts have parsed), with `budget`
// search nodes. `frames`, when given, finds the goal's frame (and must be
// over `*tables`). Problems in the order a client fixes them: the board,
// the goal, their shapes, the table, searches turned off.
std::variant<Question, Problem> read_question(std::shared_ptr<const TableSet> tables,
                                              const QuestionText& text, std::uint64_t budget,
                                              std::uint64_t max_budget,
                                              GoalFrames* frames = nullptr);

// The question of a GET: budget=, shape=, board= (when `needs_board`) and
// goal=, against the slot's table set.
std::variant<Question, Problem> read_question(const TableSlot& slot, const Request& req,
                                              bool needs_board, std::uint64_t max_budget);

// The most budget= may ask of this server (--max-budget); with searches
// off (0), budget= is still read, and ignored, up to kMaxSearchNodes.
std::uint64_t budget_ceiling(std::uint64_t max_budget);

// 503 not-ready: no table is loaded yet.
Problem not_ready();
// Why `slot` holds no tables: 503 table-unavailable when a reload stopped
// serving (TableSlot::unavailable() is the detail), else not_ready().
Problem no_tables(const TableSlot& slot);

}  // namespace eight::server
