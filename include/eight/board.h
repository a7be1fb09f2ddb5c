// The 3x3 board, its moves, and the one parser for every board notation.
//
// Cells are numbered 0..8 in reading order (row-major, top-left first).
// A Board stores the tile on each cell, 0 for the blank. Every Board value
// produced by this library is a permutation of 0..8; a Board is a plain
// value, so one built by hand may not be, and the functions below that need
// one say REQUIRES: is_valid(b). parse_board() is the way in from text.
//
// Thread safety: everything here is a pure function or a constant.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "eight/result.h"

namespace eight {

inline constexpr int kRows = 3;
inline constexpr int kCols = 3;
inline constexpr int kCells = kRows * kCols;
inline constexpr int kTiles = kCells - 1;
// Longest board text the parser looks at. Generous for every notation
// ("1, 2, 3, 4, 5, 6, 7, 8, x" is 25 characters), small enough that no
// caller needs its own limit.
inline constexpr std::size_t kMaxBoardText = 128;

struct Board {
  std::array<std::uint8_t, kCells> cells{};

  friend bool operator==(const Board&, const Board&) = default;
};

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
inline Move opposite(Move m) { return static_cast<Move>(static_cast<int>(m) ^ 1); }
std::optional<Move> move_from_letter(char c);  // accepts u d l r, either case

namespace detail {
// Row and column deltas per Move, in enum order.
inline constexpr int kDeltaRow[4] = {-1, 1, 0, 0};
inline constexpr int kDeltaCol[4] = {0, 0, -1, 1};
constexpr std::array<std::array<std::int8_t, 4>, kCells> make_neighbors() {
  std::array<std::array<std::int8_t, 4>, kCells> table{};
  for (int cell = 0; cell < kCells; ++cell) {
    for (int m = 0; m < 4; ++m) {
      const int r = cell / kCols + kDeltaRow[m];
      const int c = cell % kCols + kDeltaCol[m];
      const bool inside = r >= 0 && r < kRows && c >= 0 && c < kCols;
      table[static_cast<std::size_t>(cell)][static_cast<std::size_t>(m)] =
          static_cast<std::int8_t>(inside ? r * kCols + c : -1);
    }
  }
  return table;
}
inline constexpr auto kNeighbors = make_neighbors();
}  // namespace detail

// The one move table: the cell the blank reaches from `cell` by `m`, or -1
// when that would leave the board. Inline: the solver asks it every step.
// REQUIRES: 0 <= cell < kCells; m is one of kAllMoves.
inline int neighbor(int cell, Move m) {
  assert(cell >= 0 && cell < kCells && static_cast<unsigned>(m) < 4);
  return detail::kNeighbors[static_cast<std::size_t>(cell)][static_cast<std::size_t>(m)];
}

// Position of the blank. REQUIRES: is_valid(b).
int blank_cell(const Board& b);

// The board after the blank moves by `m`, or nullopt if the move leaves the
// board. `slid_tile`, when given, receives the tile that slid (and is left
// alone when nothing did). REQUIRES: is_valid(b); m is one of kAllMoves.
std::optional<Board> apply_move(const Board& b, Move m, std::uint8_t* slid_tile = nullptr);

// Parity (0 even, 1 odd) of the tiles 1..8 read in reading order, skipping
// the blank. On a 3x3 board no move changes it, so two boards are reachable
// from each other exactly when their parities are equal.
int tile_parity(const Board& b);
inline bool same_class(const Board& a, const Board& b) { return tile_parity(a) == tile_parity(b); }

// True when `b` is a permutation of 0..8.
bool is_valid(const Board& b);

// Parses every notation users bring: "123456780", "12345678x",
// "1 2 3 4 5 6 7 8 x", "1,2,3,4,5,6,7,8,0", "123/456/780", with the blank
// written 0, x, X or _, and spaces, tabs, commas, slashes or newlines
// (\n, \r) between cells. Each error names what was wrong: the character and
// its position, the cell count, the duplicated or missing tile.
Result<Board> parse_board(std::string_view text);

// One line of a batch: a board, or a board and then its goal (18 cells, in
// any notation: "867254301 123456780", 18 numbers), as judges' batch inputs
// are written. The same errors as parse_board (a goal's start with "goal: "),
// and the line may be twice as long.
struct BoardLine {
  Board board;
  std::optional<Board> goal;  // empty: the caller's goal
};
Result<BoardLine> parse_board_line(std::string_view text);

// Canonical form: nine digits in reading order, 0 for the blank.
std::string to_string(const Board& b);

// The blank's moves as letters, e.g. "dlur". REQUIRES: each is one of
// kAllMoves.
std::string path_letters(std::span<const Move> moves);

// The standard goal, 123456780.
inline constexpr Board kStandardGoal{{1, 2, 3, 4, 5, 6, 7, 8, 0}};

}  // namespace eight
