// A question, read once: the board (when the endpoint takes one), the goal
// and its frame in the table set that answers it, whether a table answers
// it or a search must, and the search's budget. /solve, /distance, /hint,
// /random and /stats read theirs from the query; each item of a POST /solve
// batch from the body; both through read_question(texts, ...) below, so
// every rule is written once: the shape, the default goal and the shape
// check in the core's eight::read_question() (the tool's and the C API's
// too), the frame and searches turned off here.
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
#include "eight/question.h"
#include "eight/table_set.h"
#include "problem.h"
#include "request.h"
#include "table_slot.h"

namespace eight::server {

// What an endpoint's own query parameters ask (answers.h's read_asks()),
// read by the plan step with the question, so the run step reads no
// parameter again.
struct Asks {
  bool require_optimal = false;        // optimal=required (/solve, /distance, /hint)
  bool boards = false;                 // boards=1 (/solve, /distance)
  std::optional<int> distance;         // distance= (/random)
  std::uint64_t seed = 0;              // seed=, else a fresh one (/random)
  bool seeded = false;                 // seed= was given: the answer is the same forever
  std::optional<std::uint64_t> count;  // count= (/random)
};

struct Question {
  std::shared_ptr<const TableSet> tables;  // the snapshot it is answered from
  // The goal framed in `tables` (eight/answer.h): the file answering it,
  // its frame, looked up or searched. Always set once read.
  std::optional<eight::Question> framed;
  GridBoard board;           // when the endpoint takes one
  std::uint64_t budget = 0;  // the nodes a search may expand (budget=)
  Asks asks;                 // the endpoint's own parameters
};

// The texts one question is read from, wherever they came from: the core's
// (eight/question.h), whose reader holds the default-goal rule.
using QuestionText = eight::QuestionText;

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
