// Answering questions from a table: distances, optimal paths and every
// move's worth, for any (board, goal) pair of any shape the table holds, in
// O(path length) with no search: from a full section by following parents,
// with no allocation; from a mod-3 section by descent (descent.h), which
// tries up to four neighbours a step and allocates the path it walks.
//
// Every read is bounds-checked and every walk bounded by the longest
// distance an entry can hold, so a table that passed only its checksum but
// was built wrong (Check::kChecksum on a resealed file) gives a wrong answer
// or a kBadEntry refusal, never a crash, a hang or a read outside the table.
//
// Lifetime: a Solver keeps a reference to its TableView; it must not outlive
// the view (Table owns both). Thread safety: const member functions only
// read the table, so one Solver serves any number of threads.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "eight/board.h"
#include "eight/goal.h"
#include "eight/result.h"
#include "eight/table.h"

namespace eight {

// How an answer was found (eight/answer.h says when each is used).
enum class Method : std::uint8_t {
  kTable,            // looked up in a table section: exact
  kPatternSearch,    // IDA* over pattern databases (4x4: a table's; 2x7, 3x5, 2x8 and
                     // transposes: built in memory, grid_search.h): optimal
  kManhattanSearch,  // IDA* over Manhattan distance and linear conflicts: optimal
  kReduction,        // a row and a column at a time, then improved: bounded
  kBeamSearch,       // a breadth-first beam over Manhattan distance and linear
                     // conflicts (up to 64 cells; past them over the
                     // reduction's last region): bounded
};
// "table", "pattern-search", "manhattan-search", "reduction", "beam-search": the names the
// API and the CLI print. REQUIRES: m is one of the enumerators.
std::string_view method_name(Method m);
// The Method of a name method_name() gives, or nothing.
std::optional<Method> method_from_name(std::string_view name);

// How good an answer is: proven optimal or not, and how it was found. An
// answer's proven lower bound on the distance is the distance itself when
// optimal (the JSON's lower_bound prints it so), else `lower_bound`.
struct Quality {
  bool optimal = true;
  int lower_bound = 0;  // read only when !optimal
  Method method = Method::kTable;

  friend bool operator==(const Quality&, const Quality&) = default;
};

// The longest path any answer holds: boards up to 4x4 have at most
// format::kMaxDistance (80) moves; a reduction's path on a 10x10 board has
// a few thousand.
inline constexpr int kMaxPathLength = 20000;

struct Solution {
  // Provided, not defaulted, so that value-initialising one (Solution{},
  // a Result made in place) runs the member initialisers below and does not
  // first zero all 440 bytes: that zeroing took 9% of a 3x3 solve
  // (docs/performance.md).
  Solution() {}  // NOLINT(modernize-use-equals-default): see above
  GridBoard board;
  GridBoard goal;
  bool solvable = false;
  // -1 when the board cannot reach the goal. The distance, except for an
  // answer answer.h says is not proven optimal (boards past 16 cells), where
  // it is the length of the path found.
  int distance = -1;
  int length = 0;  // number of moves in the path (0 unless a path was asked for)
  // The path, when it has at most kMaxDistance moves (every table and 4x4
  // answer), without allocating; a longer one (boards past 16 cells) is in
  // long_moves and long_tiles instead. Read it through path() and
  // slid_tiles().
  std::array<Move, format::kMaxDistance> moves{};
  std::array<std::uint8_t, format::kMaxDistance> tiles{};  // tile slid at each step
  std::vector<Move> long_moves;
  std::vector<std::uint8_t> long_tiles;
  Quality quality;  // Solver::solve's: optimal, the distance, kTable

  std::span<const Move> path() const {
    if (length > format::kMaxDistance) return long_moves;
    return {moves.data(), static_cast<std::size_t>(length)};
  }
  std::span<const std::uint8_t> slid_tiles() const {
    if (length > format::kMaxDistance) return long_tiles;
    return {tiles.data(), static_cast<std::size_t>(length)};
  }
};

// One legal move from a board: the tile it slides, where it leads, how far
// that is from the goal, and whether it is optimal (one closer).
struct MoveOption {
  Move move = Move::kUp;
  std::uint8_t tile = 0;
  GridBoard next;
  // Of `next`; for a move of a board whose answer is not proven optimal
  // (eight/answer.h, kBounded), the length of the path found from `next`.
  int distance = 0;
  bool optimal = false;  // proven one closer
  // The first move of the best path found, on a board whose answer is not
  // proven optimal (no move is `optimal` there): the hint to follow.
  bool hint = false;
};

// Every legal move from a board (2 to 4), best first. On every board every
// move changes the distance by exactly one (the moves alternate the blank's
// colour on a chessboard), so a move is either optimal (distance - 1) or
// not (distance + 1): there is no "as good" move.
struct MoveOptions {
  // Of the board itself; -1 when it cannot reach the goal; for an answer
  // not proven optimal, the length of the best path found.
  int distance = -1;
  Quality quality;  // of `distance`
  int count = 0;
  std::array<MoveOption, 4> moves{};  // [0, count): optimal ones first, then in move order

  std::span<const MoveOption> all() const {
    return {moves.data(), static_cast<std::size_t>(count)};
  }
  // Sets moves and count to `legal` (a board's legal moves, in move order)
  // best first: the optimal ones and the hint, then the rest, each group in
  // move order. REQUIRES: legal.size() <= 4.
  void set_best_first(std::span<const MoveOption> legal);
};

class Solver {
 public:
  explicit Solver(const TableView& table) : table_(&table) {}

  const TableView& table() const { return *table_; }

  // (4x4 frames, whose sections are pattern databases, are answer.h's:
  // distance() answers them -1 and solve() kBadArgument.)
  //
  // Distance from `board` to the frame's goal, or -1 if the board is in the
  // other class. REQUIRES: is_valid(board); `goal` is a frame of this
  // table (Table::frame()); board.shape == goal.goal().shape (see
  // shape_mismatch()). Release builds answer a board of another shape -1
  // rather than rank it outside the section.
  int distance(const Board& board, const GoalFrame& goal) const;

  // Distance and, if `with_path`, an optimal path with the tiles it slides.
  // Fails (kBadEntry) only on a table whose entries contradict each other
  // along the path (one that did not pass Check::kFull), and (kWrongShape)
  // for a board of another shape than the goal's. REQUIRES:
  // is_valid(board); `goal` is a frame of this table.
  Result<Solution> solve(const Board& board, const GoalFrame& goal, bool with_path = true) const;

  // Every legal move from `board`, with its next board's distance. For a
  // solved or unsolvable board every move is listed, none optimal.
  // REQUIRES: is_valid(board); `goal` is a frame of this table;
  // board.shape == goal.goal().shape.
  MoveOptions moves(const Board& board, const GoalFrame& goal) const;

 private:
  // solve()'s answer into `s` (a Solution as made, kept where solve()
  // returns it), or what went wrong.
  std::optional<Error> fill(const Board& board, const GoalFrame& goal, bool with_path,
                            Solution& s) const;
  // fill() for a board of a mod-3 section, `seen` as the section sees it:
  // the path by descent (descent.h), mapped back through the frame.
  std::optional<Error> solve_mod3(const SectionInfo& section, const GoalFrame& goal,
                                  const Board& seen, Solution& s) const;

  const TableView* table_;
};

}  // namespace eight
