// Answers to questions, for every shape: a Question (a goal framed once in
// the table that answers it, looked up or searched, or of a shape that no
// table holds), solve_board() and board_moves(), the one way from a
// question to its answer, and the answers by search they take for 4x4.
//
// Every answer says how good it is (solver.h's Quality): exact from a table
// (Method::kTable), optimal by a search (kPatternSearch over a table's
// pattern databases for 4x4; kManhattanSearch, IDA* over Manhattan
// distance and linear conflicts, for the shapes no table or pattern
// database is written for: is_grid_shape()), or, for those shapes when the
// search does not finish within its attempt, found by a beam search
// (kBeamSearch: boards of up to 64 cells, and past them the reduction's
// path with its last region of at most 64 cells the beam's) or by
// reduction alone (kReduction: a row and a column at a time, then
// improved), with a proven lower bound
// and never a claim of optimality (status kBounded). A bounded board's
// moves and hint follow the path its answer gives (the same answer). A
// caller that needs a proof asks for one (require_optimal): the search then
// gets the whole budget and a board it cannot finish is "budget exceeded",
// as a 4x4 one is.
//
// The answer's fields, defined here once for every interface (JSON over
// HTTP and from the tool and the C API, the C accessors, Python, and
// JavaScript, each naming them by its language; docs/answers.md):
//  - solvable: whether the board can reach the goal at all;
//  - distance: the fewest moves (a bounded answer: its path's length);
//  - optimal: the distance is proven the fewest;
//  - lower_bound: a proven lower bound (the distance when optimal);
//  - method: what found it (method_name());
//  - path: the blank's moves.
// A board that cannot reach the goal is an answer, not an error:
// solvable false, no distance and no lower bound (JSON null, Python None,
// JavaScript null, C -1), optimal true (proven: no path exists, by parity,
// never a search that gave up: Solution's Quality keeps its default), and
// an empty path. tests/interfaces_agree_test.py holds every interface to
// it.
//
// Answering 4x4 questions: the 15-puzzle's positions fit no table, so a
// table's pattern databases guide an IDA* search (fifteen_search.h) per
// question. The answers are the same values solver.h gives for the table
// shapes (Solution, MoveOptions), plus what the search did, within a budget
// of nodes that the caller sets: a question that needs more is answered
// "budget exceeded" with the nodes searched and the bound reached, never a
// hang.
//
// The budget counts nodes, not time, so an answer does not depend on the
// machine or its load: the same question with the same budget gets the same
// answer everywhere (and may be cached). A caller that must bound time too
// (the server: its --job-deadline) sets the budget's deadline; a search
// stopped there is kDeadlineExceeded, which depends on the machine and is
// not to be cached. A node takes about 30 ns on one
// core of the machine docs/performance.md measures, so the default budget
// is about 1.5 s of search; Korf's 100 boards need at most 3.0 million nodes
// with the default 6-6-3 databases.
//
// Thread safety: pure functions over an immutable Table; any number of
// threads may search one table at once.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eight/board.h"
#include "eight/fifteen_search.h"
#include "eight/goal.h"
#include "eight/random.h"
#include "eight/result.h"
#include "eight/solver.h"
#include "eight/table.h"
#include "eight/table_set.h"

namespace eight {

// Nodes one question may expand unless the caller says otherwise (the CLI's
// --budget, the server's budget=).
inline constexpr std::uint64_t kDefaultSearchNodes = 50'000'000;
// The most the server lets one request spend (about 15 s of one core on
// 4x4, more on larger boards, whose nodes cost more: the server's
// --job-deadline bounds the time); a batch shares it among its boards.
inline constexpr std::uint64_t kMaxSearchNodes = 500'000'000;

// Nodes the optimal attempt on a grid shape's board (is_grid_shape) spends
// at most, unless the caller requires an optimal answer: a few
// milliseconds, which answers boards near the goal optimally and leaves
// the rest to the reduction, whose answer takes about as long.
inline constexpr std::uint64_t kGridAttemptNodes = 20'000;
// Nodes the optimal attempt on a board of 14 to 16 cells other than 4x4
// (2x7, 3x5, 2x8 and transposes, searched over pattern databases) spends at
// most unless the caller requires an optimal answer: about 2 s on one core.
// Nearly every 2x7 and 3x5 board is proven optimal within it
// (docs/performance.md); the rest get the beam search's answer.
inline constexpr std::uint64_t kPatternAttemptNodes = 5'000'000;
// The same on 2x8 and 8x2, whose far boards take more nodes (searched over
// the largest of three sets' sums, each node costs more too): the most of
// 30 seeded far boards took 6.9 million (docs/answers.md), so all 30 are
// proven optimal, and 98 of 100 more; a typical board takes under two
// hundred thousand.
inline constexpr std::uint64_t kTwoByEightAttemptNodes = 25'000'000;
// Past this lower bound (Manhattan distance and linear conflicts), a grid
// board gets no optimal attempt unless required: the search could not
// finish in kGridAttemptNodes (a random 5x5 board's bound is about 80, a
// 10x10 one's about 650), and a 10x10 answer stays within its time.
inline constexpr int kGridAttemptMaxBound = 120;
// The beam search's width on boards of up to 25 cells that the attempt did
// not prove (core/beam_search.h): Korf and Felner's 5x5 boards get paths
// about 1.045 times their distance over the 5x5 pattern databases (with the
// endgame of core/path_shortener.h), in at most 0.7 s a board
// (docs/performance.md). 16,000 since the beam's children became small
// (4,000 before: 1.069 times).
inline constexpr int kBeamWidth = 16000;
// Nodes (boards generated) the beam search spends at most, about three
// times what a 5x5 board takes: its memory follows the boards it keeps,
// about 32 MB on a 5x5 board (docs/deployment.md, "Capacity"); a search
// that needs more leaves the board to the reduction.
inline constexpr std::uint64_t kBeamNodes = 12'000'000;
// The fast option's beam up to 25 cells (Question::grid_fast): the width
// and nodes of before issue 39, so its answers are those of then, in about
// a quarter of the default's time, over Manhattan distance and linear
// conflicts alone.
inline constexpr int kFastBeamWidth = 4000;
inline constexpr std::uint64_t kFastBeamNodes = 3'000'000;
// The beam's width and nodes on boards past 25 cells (6x6, 7x7 and 8x8
// whole, past 64 cells the last 8x8 region, core/search/region_beam.h),
// whose answers may take seconds (issue 39: 2, 3 and 5 s on 6x6, 7x7 and
// 10x10): 8,000 gives paths about 4% shorter on 7x7 than 4,000 (356.7
// moves against 373.6 on 20 seeded boards), 12,000 about 1% shorter again
// for half as much time more, which 8x8's and 10x10's slowest answers
// (2.3 s) could not take with room (docs/performance.md). The beam looks
// no deeper than the reduction's path less one; a search holds 30 to 40 MB
// (docs/deployment.md, "Capacity").
inline constexpr int kWideBeamWidth = 8000;
inline constexpr std::uint64_t kWideBeamNodes = 20'000'000;

// What a search did.
struct SearchReport {
  fifteen::SearchStatus status = fifteen::SearchStatus::kSolved;
  std::uint64_t nodes = 0;  // expanded (by a beam: generated), over every search it took
  // A proven lower bound on the distance (the distance itself when solved).
  int lower_bound = 0;
  // The bound being searched when the budget ran out (the distance when
  // solved).
  int bound = 0;

  // An answer, optimal or not (kBounded), or "unsolvable": not stopped.
  bool finished() const {
    return status == fifteen::SearchStatus::kSolved ||
           status == fifteen::SearchStatus::kUnsolvable ||
           status == fifteen::SearchStatus::kBounded;
  }
  // A path proven optimal (and the distance exact).
  bool optimal() const { return status == fifteen::SearchStatus::kSolved; }
};

struct SearchedSolution {
  SearchReport report;
  // Filled when report.finished(): distance and path as Solver::solve
  // gives them (distance -1, solvable false for the other class; for a
  // kBounded answer, distance is the length of the path found).
  Solution solution;
};

struct SearchedMoves {
  SearchReport report;
  MoveOptions options;  // filled when report.finished()
};

// True when `frame` (Table::frame()) names a 4x4 goal's pattern databases,
// whose questions the functions below answer and Solver does not.
bool is_search_frame(const Table& table, const GoalFrame& frame);

// An optimal path from `board` to the frame's goal, searching at most
// `budget.max_nodes` nodes (and stopping on its deadline or cancel flag).
// REQUIRES: is_valid(board), board.shape == frame.goal().shape,
// is_search_frame(table, frame).
SearchedSolution search_solve(const Table& table, const GoalFrame& frame, const Board& board,
                              const fifteen::SearchBudget& budget);

// Every legal move from `board` with its next board's distance, as
// Solver::moves gives them: the board is solved, then each move that is not
// the path's first is ruled out by the heuristic (a next board whose
// heuristic exceeds distance - 1 is at distance + 1) or solved in turn, all
// within one budget. REQUIRES: as search_solve.
SearchedMoves search_moves(const Table& table, const GoalFrame& frame, const Board& board,
                           const fifteen::SearchBudget& budget);

// A random board for a search frame's goal. Without `distance`: uniformly
// random among the boards that reach the goal (a shuffle of the cells, two
// tiles swapped when it is of the other class), always; its distance too
// when the search finds it within the budget (else -1). With `distance` d:
// a board exactly d moves away. Up to kOutwardWalkDistances, by an outward
// walk (each step to a random neighbour one move farther, found by the
// heuristic or a search), which is not uniform among the boards at d;
// beyond, by drawing uniformly random boards until one is d away (most are
// 50 to 56, so far distances take many draws and may exhaust the budget).
// The board is valid when distance is given only if report.finished().
inline constexpr int kOutwardWalkDistances = 48;
struct SearchedBoard {
  SearchReport report;
  GridBoard board;
  int distance = -1;
  int draws = 0;  // boards drawn and solved
};
SearchedBoard random_search_board(const Table& table, const GoalFrame& frame,
                                  std::optional<int> distance, Rng& rng,
                                  const fifteen::SearchBudget& budget);

// How a question is answered.
enum class Engine : std::uint8_t {
  kTable,          // looked up in the frame's table section
  kPatternSearch,  // IDA* over the frame's pattern databases (4x4)
  kGrid,           // a grid shape: IDA* over Manhattan distance, else reduction
};

// A question's goal, framed once: the table that answers it, the goal's
// frame there, and whether the table looks the answers up or a search finds
// them (kPatternSearch: the frame names a 4x4 goal's pattern databases);
// or, for a grid shape, the goal alone (no table, no frame). The server
// frames one per request on its I/O thread and carries it to where the
// request runs (a compute thread for a search); `eight` frames one per
// goal. solve_board() and board_moves() take it and dispatch inside.
// A plain value: copy it freely while `table` lives.
struct Question {
  const Table* table = nullptr;    // not owned; outlives the Question; null for kGrid
  std::optional<GoalFrame> frame;  // set unless kGrid
  Engine engine = Engine::kTable;
  GridBoard grid_goal;  // kGrid's goal
  // kGrid on a pattern shape: the pattern databases a table holds for the
  // goal (TableSet::pattern_sets(); not owned, outlive the Question), or
  // empty for the ones the search builds in memory (grid_search.h).
  std::span<const fifteen::PatternSetView> grid_patterns;
  // kGrid on 5x5: the pattern databases of the goal blank's class that a
  // table holds (TableSet::pdb5x5_set(); not owned, outlives the Question),
  // which the bounded answers' beam ranks boards by. Null when the tables
  // loaded hold none, and on every other shape: the beam over Manhattan
  // distance and linear conflicts alone (nothing is built).
  const grid::Pdb5x5View* grid_pdb5x5 = nullptr;
  // kGrid: the bounded answers of up to 25 cells by the beam over Manhattan
  // distance and linear conflicts alone, kFastBeamWidth wide, as before
  // issue 39 (no 5x5 pattern databases are built or read: a tenth of a
  // second or two, about 1.12 times the optimal on Korf and Felner's 5x5
  // boards instead of 1.045); past 25 cells the reduction's path alone,
  // without the beam over the whole board or its last region
  // (core/search/region_beam.h: tens of milliseconds, not a second or two,
  // and 1.3 to 1.4 times as long on 6x6 and 7x7, 1.26 times on 8x8, 1.10
  // times on 10x10); on 2x8 and 8x2 an
  // attempt of kPatternAttemptNodes. Every interface's fast option sets it
  // (HTTP's fast=1, --fast, the C API's eight_options_set_fast:
  // docs/answers.md, "Two speeds").
  bool grid_fast = false;
  // A path the asker already holds from the board asked about to the goal
  // (letters u d l r: the rest of the path an earlier answer showed, a
  // continuation), or none. The answer is never longer than it: solve_board()
  // answers with the shorter of its own path and this one, this one on a
  // tie, so that a client following hints keeps one path and the distance
  // it shows never goes up (docs/answers.md#hints). Read by read_question()
  // (eight/question.h), which checks it with read_known_path().
  std::optional<std::string> known_path;

  // (A copy: a frame's goal is a Board.)
  GridBoard goal() const { return frame ? GridBoard(frame->goal()) : grid_goal; }
  // Answered by a search (with a budget), not looked up.
  bool by_search() const { return engine != Engine::kTable; }
  // The farthest a board of the goal can be: the section's deepest
  // distance, or for a search the longest 4x4 solution.
  // REQUIRES: engine != kGrid (whose distances are not tabulated).
  int max_distance() const;
};
// The question of `frame` in `table`. REQUIRES: `frame` is a frame of `table`.
Question question_of(const Table& table, const GoalFrame& frame);
// The question of a grid shape's goal, searched with the pattern databases
// `tables` holds for it (may be null: none; when not null it must outlive
// the Question). REQUIRES: is_valid(goal), is_grid_shape(goal.shape).
Question grid_question(const GridBoard& goal, const TableSet* tables = nullptr);
// The question of `goal`: for a grid shape, grid_question(goal, &tables); else in the
// table of `tables` that TableSet::frame() picks (the first that answers
// it; for 4x4 the strongest pattern databases), with its errors.
Result<Question> frame_question(const TableSet& tables, const GridBoard& goal);

// The most moves a known path (Question::known_path) may have: the longest
// path any answer holds (solver.h), so that what a caller sends sizes
// nothing larger than an answer.
inline constexpr int kMaxKnownPathMoves = kMaxPathLength;

// The moves of `path` (letters u d l r, either case) when it is a known
// path from `board` to `goal`: at most kMaxKnownPathMoves moves, each legal,
// ending on the goal; else kBadArgument saying which move failed, or where
// the path ends (replayed as check_path() replays a path).
Result<std::vector<Move>> read_known_path(const GridBoard& board, const GridBoard& goal,
                                          std::string_view path);

// The one way from a question to its answer, for every shape: from the
// table (Solver, O(path length), report.nodes 0) when the frame's section
// holds positions, by search when it holds pattern databases; for a grid
// shape, IDA* over Manhattan distance and linear conflicts (and, on 14 to
// 16 cells, pattern databases: grid_search.h) within kGridAttemptNodes
// (none past kGridAttemptMaxBound; kPatternAttemptNodes on 14 and 15 cells,
// kTwoByEightAttemptNodes on 2x8 and 8x2;
// the whole budget when `require_optimal`), then, if
// that did not finish and an optimal answer is not required, a beam search
// within kBeamNodes (up to 25 cells the whole board's, on 5x5 with its
// endgame; kFastBeamNodes with q.grid_fast), or kWideBeamNodes (up to 64
// cells the whole board's; past them
// the reduction's path with the beam over its last region,
// core/search/region_beam.h), else a reduction (status kBounded,
// unless its path is as short as the lower bound, which proves it optimal).
// With q.known_path, a finished answer takes the known path when it is no
// longer than the answer's own (optimal when no longer than the proven lower
// bound; `method` still names what searched this board). Errors are
// Solver::solve's, for a search a board of another shape than the goal's,
// and read_known_path()'s for a known path that is not a path from `board`
// to the goal. REQUIRES: is_valid(board); q.table is not
// null unless q.engine is kGrid.
Result<SearchedSolution> solve_board(const Question& q, const GridBoard& board, bool with_path,
                                     const fifteen::SearchBudget& budget,
                                     bool require_optimal = false);
// The moves of `board` the same way, from the answer solve_board() gives
// (the same budget gives the same answer). For a kBounded answer, the
// first move of its path is the one marked `hint` (and no move is
// `optimal`), its distance the rest of the path's length, each other
// move's distance d + 1 (back, then the path). Following hints from a
// board past 64 cells never visits a board twice while its cells outside
// the last region are not all home (core/search/region_beam.h): the hint
// is the reduction's first move, which always makes progress
// (core/search/reduction_solver.h); with Question::grid_fast all the way,
// from 26 cells. Up to 64 cells, and past them in the last region, each
// board's answer is
// a new beam search, which nothing proves to be no longer than the rest of
// the previous board's path (docs/answers.md#hints has what was measured): a
// caller that sends that rest as q.known_path gets an answer no longer than
// it, so following hints with it the distance goes down at every step. On
// the table shapes and 4x4 a known path changes no move (their answers are
// optimal: every optimal move is marked already). One that is not a path
// from `board` to the goal is ignored (this function has no error to give:
// read_question() refuses it first).
// REQUIRES: as solve_board, and board.shape == q.goal().shape (see
// shape_mismatch()).
SearchedMoves board_moves(const Question& q, const GridBoard& board,
                          const fifteen::SearchBudget& budget, bool require_optimal = false);

// A random board for the question's goal, the one way for every shape: a
// table's section draws one exactly `distance` moves away (random_board(),
// its errors included; budget.cancel and budget.deadline stop it, report.nodes
// is 0), a search
// frame as random_search_board(), which never fails (distance optional; a
// budget that runs out is in the report: check report.finished() when a
// distance is given); a grid shape, a uniformly random board of the goal's
// class, with no distance (kBadArgument when one is asked for: a grid
// shape's distances are not exact).
// REQUIRES: q.table is not null unless kGrid; `distance` is given unless
// q.by_search().
Result<SearchedBoard> draw_board(const Question& q, std::optional<int> distance, Rng& rng,
                                 const fifteen::SearchBudget& budget);

// Whether a path is an answer to a question: every move legal, ending on
// the goal, and as short as the distance. The one path check of every
// interface (the C API's eight_check(), so Python's and JavaScript's check).
struct PathCheck {
  bool legal = false;    // every move a letter u d l r that keeps the blank on the board
  bool reaches = false;  // legal, and ends on the goal
  // 1: reaches the goal in the distance; 0: in more moves, or does not
  // reach it; -1: reaches it, and no search within the budget proved
  // whether a shorter path exists (boards past 16 cells, mostly).
  int optimal = 0;
  std::string why;  // which move failed, or how far the path is from optimal
};
// Checks `path` from `board` against `q`'s goal, proving optimality within
// `budget` (an optimal answer is required of the search). Errors are
// solve_board()'s. REQUIRES: as solve_board, and board.shape ==
// q.goal().shape.
Result<PathCheck> check_path(const Question& q, const GridBoard& board, std::string_view path,
                             const fifteen::SearchBudget& budget);

// "the search stopped at its budget of 1000 nodes: it searched 1000 nodes and
// the distance is at least 44 (bound 46 was being searched)": for messages.
// A search stopped by its deadline says so ("the search stopped at its
// deadline of 10 s before its budget of ... nodes: ..."), naming
// `time_limit` (the time the deadline allowed) when it is not zero.
// REQUIRES: !report.finished().
std::string describe_stop(const SearchReport& report, std::uint64_t budget_nodes,
                          std::chrono::milliseconds time_limit = {});
// "10 s", "0.2 s": a time limit of whole milliseconds, for messages.
std::string describe_seconds(std::chrono::milliseconds time);

}  // namespace eight
