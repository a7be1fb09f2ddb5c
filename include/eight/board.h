// A rectangular board of any shape (shape.h), its moves, and the one parser
// for every board notation.
//
// Cells are numbered 0..cells()-1 in reading order (row-major, top-left
// first). A board stores its shape and the tile on each cell, 0 for the
// blank, in one of two types of one template (BasicBoard), which differ
// only in their room:
//
//   Board      up to 16 cells (18 bytes): the table shapes and 4x4, the
//              boards that rank.h, the tables, the solver and the 4x4
//              search take (the type 207ef7f's API had);
//   GridBoard  up to 10x10 (102 bytes): every board eight answers, the one
//              answer.h, the JSON, the CLI and the server take.
//
// A Board widens to a GridBoard implicitly (it always fits); a GridBoard
// narrows only through to_board(), which says when it does not fit. The
// table code streams boards by the thousand, and a board the size of its
// shapes keeps four of them in a cache line where a GridBoard takes two
// lines (docs/performance.md).
//
// Only the shape's cells mean anything: past them, the cells up to
// kZeroedCells are zero (the 3x3 and 4x4 code reads 16 at once) and the
// rest, in a GridBoard, are unspecified, so that making one zeroes 16
// bytes, not 100. Every board value produced by this library is a
// permutation of 0..cells()-1 on a board shape (is_board_shape); a board is
// a plain value, so one built by hand may not be, and the functions below
// that need one say REQUIRES: is_valid(b). parse_board() (a Board) and
// parse_grid_board() (a GridBoard) are the ways in from text. The 3x3
// board is the default shape (Board{{1, 2, 3, 4, 5, 6, 7, 8, 0}} is the
// standard goal) and the one the fast paths of rank.h and the tables' 3x3
// sections are written for.
//
// Thread safety: everything here is a pure function or a constant.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "eight/result.h"
#include "eight/shape.h"

namespace eight {

// The 3x3 board's dimensions, for the code written for it alone.
inline constexpr int kRows3x3 = 3;
inline constexpr int kCols3x3 = 3;
inline constexpr int kCells3x3 = kRows3x3 * kCols3x3;
inline constexpr int kTiles3x3 = kCells3x3 - 1;
// Room for the largest board a GridBoard holds (10x10).
inline constexpr int kMaxCells = kMaxSide * kMaxSide;
// Longest board text the parser looks at. Generous for every notation (a
// 10x10 board written "1, 2, ..., 99, 0" is 388 characters), small enough
// that no caller needs its own limit.
inline constexpr std::size_t kMaxBoardText = 512;

// The cells past a board's shape that are always zero: the first 16 (a
// 4x4 board's), which the ranking and the sections read as whole words.
inline constexpr int kZeroedCells = 16;
// The most cells a Board holds: 4x4's, the largest shape a table or the 4x4
// search answers.
inline constexpr int kMaxBoardCells = 16;

// A board with room for kCapacity cells: Board and GridBoard below, the only
// two.
template <int kCapacity>
struct BasicBoard {
  static_assert(kCapacity >= kZeroedCells && kCapacity <= kMaxCells);
  // The most cells this type holds.
  static constexpr int kRoom = kCapacity;

  // [0, size()): the tiles; [size(), kZeroedCells): zero; past both:
  // unspecified (never read, nor copied).
  std::array<std::uint8_t, kCapacity> cells;
  Shape shape = kShape3x3;

  // A 3x3 board of zeros (not a valid board: fill it). Zeroes 16 bytes.
  constexpr BasicBoard() { zero_head(); }
  // Every cell from `all` (a constant's way in: canonical_goal()).
  constexpr BasicBoard(const std::array<std::uint8_t, kCapacity>& all, Shape s)
      : cells(all), shape(s) {}
  // The first cells from `tiles`, the rest zero: Board{{1, 2, 3, 4, 5, 6,
  // 7, 8, 0}} is the standard goal, Board{{}, kShape4x4} a 4x4 board of
  // zeros. REQUIRES: tiles.size() <= kCapacity.
  constexpr BasicBoard(std::initializer_list<std::uint8_t> tiles, Shape s = kShape3x3)
      : cells{}, shape(s) {
    assert(tiles.size() <= static_cast<std::size_t>(kCapacity));
    std::size_t i = 0;
    for (const std::uint8_t t : tiles) cells[i++] = t;
  }
  // A smaller board's cells and shape: a Board as a GridBoard. Implicit, as
  // it always fits; the way back is to_board().
  template <int kSmaller>
  requires(kSmaller < kCapacity) BasicBoard(const BasicBoard<kSmaller>& small)
      : shape(small.shape) {
    copy_cells(small);
  }
  template <int kSmaller>
  requires(kSmaller < kCapacity) BasicBoard& operator=(const BasicBoard<kSmaller>& small) {
    shape = small.shape;
    copy_cells(small);
    return *this;
  }
  // A copy carries the shape's cells and the zeroed ones, 16 bytes for every
  // board up to 4x4, not 100: a 3x3 answer copies its board and its goal
  // (docs/performance.md).
  BasicBoard(const BasicBoard& other) : shape(other.shape) { copy_cells(other); }
  BasicBoard& operator=(const BasicBoard& other) {
    shape = other.shape;
    copy_cells(other);
    return *this;
  }

  constexpr int size() const { return shape.cells(); }
  // The cells of the board's shape (the first size() of `cells`).
  std::span<const std::uint8_t> used() const {
    return std::span<const std::uint8_t>(cells).first(static_cast<std::size_t>(size()));
  }

  // The same shape and the same tiles (the unspecified cells aside).
  friend bool operator==(const BasicBoard& a, const BasicBoard& b) {
    if (a.shape != b.shape) return false;
    // The head's 16 bytes (zero past a smaller shape in both), then the rest.
    if (std::memcmp(a.cells.data(), b.cells.data(), kZeroedCells) != 0) return false;
    if constexpr (kCapacity > kZeroedCells) {
      return a.size() <= kZeroedCells ||
             std::memcmp(a.cells.data() + kZeroedCells, b.cells.data() + kZeroedCells,
                         static_cast<std::size_t>(a.size() - kZeroedCells)) == 0;
    }
    return true;
  }

 private:
  template <int kOther>
  void copy_cells(const BasicBoard<kOther>& other) {
    std::memcpy(cells.data(), other.cells.data(), kZeroedCells);
    if constexpr (kOther > kZeroedCells) {
      if (other.size() > kZeroedCells) {
        std::memcpy(cells.data() + kZeroedCells, other.cells.data() + kZeroedCells,
                    static_cast<std::size_t>(other.size() - kZeroedCells));
      }
    }
  }
  // The first kZeroedCells cells zero, not the rest: making a board is then
  // one 16-byte store.
  constexpr void zero_head() {
    for (int i = 0; i < kZeroedCells; ++i) cells[static_cast<std::size_t>(i)] = 0;
  }
};

// Up to 16 cells: the table shapes and 4x4 (18 bytes).
using Board = BasicBoard<kMaxBoardCells>;
// Every board shape, up to 10x10 (102 bytes).
using GridBoard = BasicBoard<kMaxCells>;
static_assert(sizeof(Board) == 18 && sizeof(GridBoard) == 102);

// `b` as a Board, or nothing when it has more cells than a Board holds.
// REQUIRES: is_valid(b).
std::optional<Board> to_board(const GridBoard& b);

// Moves are named by the direction the *blank* moves (the convention of the
// POJ 1077 judge): kUp slides the tile above the blank down into it.
// Functions taking a Move index tables by it, hence their "REQUIRES: m is one
// of kAllMoves" (every Move this library makes is one; only a cast is not).
enum class Move : std::uint8_t { kUp = 0, kDown = 1, kLeft = 2, kRight = 3 };
inline constexpr std::array<Move, 4> kAllMoves = {Move::kUp, Move::kDown, Move::kLeft,
                                                  Move::kRight};

// u d l r. REQUIRES: m is one of kAllMoves.
inline char move_letter(Move m) {
  assert(static_cast<unsigned>(m) < 4);
  return "udlr"[static_cast<int>(m)];
}
// "up", "down", "left", "right". REQUIRES: m is one of kAllMoves.
std::string_view move_name(Move m);
// The move that undoes m.
inline Move opposite(Move m) {
  return static_cast<Move>(static_cast<int>(m) ^ 1);
}
std::optional<Move> move_from_letter(char c);  // accepts u d l r, either case

// Row and column change of the blank per Move, in enum order.
inline constexpr int kMoveRowDelta[4] = {-1, 1, 0, 0};
inline constexpr int kMoveColDelta[4] = {0, 0, -1, 1};
// The change of the blank's cell index when it moves by m on a board `cols`
// wide (a move that stays on the board). REQUIRES: m is one of kAllMoves.
constexpr int move_step(int cols, Move m) {
  assert(static_cast<unsigned>(m) < 4);
  return kMoveRowDelta[static_cast<int>(m)] * cols + kMoveColDelta[static_cast<int>(m)];
}

// The one move table, which neighbor() reads and every other move table of
// the library (the 4x4 searches', the table shapes' legal-move masks) is
// derived from: [rows - 1][cols - 1][cell][move], the cell the blank
// reaches or -1, for every rectangle up to kMaxSide x kMaxSide (40 KB; a
// shape's rows are contiguous, so the 3x3 ones are 36 bytes).
using NeighborTables =
    std::array<std::array<std::array<std::array<std::int8_t, 4>, kMaxCells>, kMaxSide>, kMaxSide>;
inline constexpr NeighborTables kNeighborTables = [] {
  NeighborTables all{};
  for (int rows = 1; rows <= kMaxSide; ++rows) {
    for (int cols = 1; cols <= kMaxSide; ++cols) {
      auto& table = all[static_cast<std::size_t>(rows - 1)][static_cast<std::size_t>(cols - 1)];
      for (int cell = 0; cell < rows * cols; ++cell) {
        for (int m = 0; m < 4; ++m) {
          const int r = cell / cols + kMoveRowDelta[m];
          const int c = cell % cols + kMoveColDelta[m];
          const bool inside = r >= 0 && r < rows && c >= 0 && c < cols;
          table[static_cast<std::size_t>(cell)][static_cast<std::size_t>(m)] =
              static_cast<std::int8_t>(inside ? r * cols + c : -1);
        }
      }
    }
  }
  return all;
}();

// The cell the blank reaches from `cell` of a board of shape `s` by `m`, or
// -1 when that would leave the board (kNeighborTables). Inline: the solver
// asks it every step. REQUIRES: is_board_shape(s);
// 0 <= cell < s.cells(); m is one of kAllMoves.
inline int neighbor(Shape s, int cell, Move m) {
  assert(is_board_shape(s) && cell >= 0 && cell < s.cells() && static_cast<unsigned>(m) < 4);
  return kNeighborTables[s.rows - 1u][s.cols - 1u][static_cast<std::size_t>(cell)]
                        [static_cast<std::size_t>(m)];
}

// True when `b` has a board shape (is_board_shape), its cells are a
// permutation of 0..size()-1 and the cells past them up to kZeroedCells are
// zero.
template <int kCapacity>
bool is_valid(const BasicBoard<kCapacity>& b);

// Position of the blank. REQUIRES: is_valid(b).
template <int kCapacity>
int blank_cell(const BasicBoard<kCapacity>& b);

// The board after the blank moves by `m`, or nullopt if the move leaves the
// board. `slid_tile`, when given, receives the tile that slid (and is left
// alone when nothing did). REQUIRES: is_valid(b); m is one of kAllMoves.
template <int kCapacity>
std::optional<BasicBoard<kCapacity>> apply_move(const BasicBoard<kCapacity>& b, Move m,
                                                std::uint8_t* slid_tile = nullptr);

// Parity (0 even, 1 odd) of the tiles read in reading order, skipping the
// blank. REQUIRES: is_valid(b).
template <int kCapacity>
int tile_parity(const BasicBoard<kCapacity>& b);

// What no move changes, so that two boards of one shape are reachable from
// each other exactly when theirs are equal: the tile parity, and on a board
// with an even number of columns also the parity of the blank's row (a
// vertical move there carries a tile over an odd number of others, flipping
// the tile parity while the blank changes row). On 3x3 it is tile_parity().
// The one function for a board's class: a section's class is its canonical
// goal's, board_class(canonical_goal(blank, s)); GoalFrame::board_class()
// holds its goal's; rank.h's rank_3x3_with_parity() gives it on 3x3 with the
// rank. REQUIRES: is_valid(b).
template <int kCapacity>
int board_class(const BasicBoard<kCapacity>& b);
// REQUIRES: is_valid(a), is_valid(b).
template <int kCapacity>
bool same_class(const BasicBoard<kCapacity>& a, const BasicBoard<kCapacity>& b) {
  assert(is_valid(a) && is_valid(b));
  return a.shape == b.shape && board_class(a) == board_class(b);
}

// Parses every notation users bring: "123456780", "12345678x",
// "1 2 3 4 5 6 7 8 x", "1,2,3,4,5,6,7,8,0", "123/456/780", with the blank
// written 0, x, X or _, and spaces, tabs, commas, slashes or newlines
// (\n, \r) between cells; and boards of other shapes the same way:
// "123/450" (2x3), "1 2 3 4 5 6 7 8 9 10 11 0", "1,2,3,4/5,6,7,8/9,10,11,0".
//
// Cells: when the text holds two or more runs of characters between
// separators and each run is a number 0 to 15 (or a blank letter), each run
// is one cell, so tiles 10 and up are written with separators; so too when
// there are 17 runs or more and each is a number 0 to 99, the tiles of
// boards past 16 cells. Otherwise each character is a cell ("123 456 780"
// is nine; "12 34 56 78 0" too). Shape: slashes or newlines between rows
// give it (every row the same length, at least two rows of two cells); else
// `shape` does; else the cell count, when a square has it (4: 2x2, 9: 3x3,
// 16: 4x4, 25: 5x5 ... 100: 10x10; 36 is 6x6, not 4x9). Any other count
// that boards have is shared by a shape and its transpose at least (6: 2x3
// and 3x2; 12: 2x6, 3x4, 4x3 and 6x2): without rows or `shape` it is
// kAmbiguousShape, whose message lists the shapes that fit; a count no
// shape has (7, 22) is kWrongCellCount; rows and `shape` that disagree are
// kWrongShape.
//
// Each error names what was wrong: the character and its position, the cell
// count ("expected 9 cells, got 8", measured against the board the largest
// tile implies; past tile 15, a count no shape has is named so: "no board has
// 17 cells; the nearest sizes are 16 (...) and 18 (...)"), the tile at fault.
//
// parse_grid_board() reads every shape; parse_board() reads the boards a
// Board holds, up to 16 cells (the shapes 207ef7f read), and says
// kWrongShape for a larger one that is otherwise sound.
Result<Board> parse_board(std::string_view text, std::optional<Shape> shape = std::nullopt);
Result<GridBoard> parse_grid_board(std::string_view text,
                                   std::optional<Shape> shape = std::nullopt);

// One line of a batch: a board, or a board and then its goal (18 cells for
// 3x3, in any notation: "867254301 123456780", 18 numbers), as judges' batch
// inputs are written. A line is one board if its cells make one, else a pair
// if it has twice a board's cells. The same errors as parse_grid_board (a goal's
// start with "goal: "), and the line may be twice as long. Rows in a pair
// line do not give its shape: `shape` or the count does.
struct BoardLine {
  GridBoard board;
  std::optional<GridBoard> goal;  // empty: the caller's goal
};
Result<BoardLine> parse_board_line(std::string_view text,
                                   std::optional<Shape> shape = std::nullopt);

// Canonical form: for 3x3 nine digits in reading order, 0 for the blank;
// for other shapes the rows, separated by '/', each of digits when every
// tile is a single digit ("123/450"), else of numbers separated by commas
// ("1,2,3,4/5,6,7,8/9,10,11,0"). parse_grid_board() reads every one back to
// the same board without a shape. REQUIRES: is_valid(b).
template <int kCapacity>
std::string to_string(const BasicBoard<kCapacity>& b);

namespace detail {
Error shape_mismatch_error(Shape board, Shape goal);
}  // namespace detail
// A kWrongShape error saying so when `board` and `goal` are boards of
// different shapes, which no table answers together; nothing otherwise.
// (Inline: the 3x3 solve asks it every time.)
template <int kBoard, int kGoal>
std::optional<Error> shape_mismatch(const BasicBoard<kBoard>& board,
                                    const BasicBoard<kGoal>& goal) {
  if (board.shape == goal.shape) [[likely]]
    return std::nullopt;
  return detail::shape_mismatch_error(board.shape, goal.shape);
}

// The blank's moves as letters, e.g. "dlur". REQUIRES: each is one of
// kAllMoves.
std::string path_letters(std::span<const Move> moves);

// The canonical goal, the one goal every other is written from: tiles
// 1..n-1 in reading order around a blank at `blank` on a board of shape `s`;
// e.g. on 3x3 blank 8 gives the standard goal 123456780, blank 4 gives
// 123405678. Every table section is the canonical goal of its blank cell,
// and goal.h maps any goal onto one. As a GridBoard, unless asked for a
// Board (canonical_goal<Board>(blank, s), for a table's shape).
// REQUIRES: is_board_shape(s); 0 <= blank < s.cells() <= B::kRoom.
// Checked in every build, as `s` sizes the loop over a fixed array: a
// caller that breaks it ends the process (std::abort) rather than write
// past the board (issue 41: a 16x16 shape from the C API's options did).
// A shape from outside is checked first (board_shape(), checked_standard_goal()).
template <class B = GridBoard>
constexpr B canonical_goal(int blank, Shape s = kShape3x3) {
  if (!(is_board_shape(s) && blank >= 0 && blank < s.cells() && s.cells() <= B::kRoom)) {
    std::abort();
  }
  // Every cell set, and returned as a prvalue: kStandardGoal is a constant.
  std::array<std::uint8_t, B::kRoom> cells{};
  std::uint8_t tile = 1;
  for (int i = 0; i < s.cells(); ++i) {
    cells[static_cast<std::size_t>(i)] = i == blank ? 0 : tile++;
  }
  return B(cells, s);
}

// The standard goal of a shape, blank last: canonical_goal(s.cells() - 1, s),
// under the name the programs use; a GridBoard unless asked for a Board.
// REQUIRES: is_board_shape(s); s.cells() <= B::kRoom.
template <class B = GridBoard>
constexpr B standard_goal(Shape s) {
  return canonical_goal<B>(s.cells() - 1, s);
}

// standard_goal() of a shape from outside (a binding's options): the
// error unanswered_shape() gives for one that is no board shape, where
// standard_goal() would stop the process.
Result<GridBoard> checked_standard_goal(Shape s);

// The standard 3x3 goal, 123456780: standard_goal<Board>(kShape3x3).
inline constexpr Board kStandardGoal = standard_goal<Board>(kShape3x3);
static_assert(kStandardGoal.shape == kShape3x3 && kStandardGoal.cells[0] == 1 &&
              kStandardGoal.cells[7] == 8 && kStandardGoal.cells[8] == 0 &&
              kStandardGoal.cells[9] == 0);

}  // namespace eight
