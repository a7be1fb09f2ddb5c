#include "eight/board.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdio>
#include <cstring>

#include "rank/kernel.h"

namespace eight {

Result<GridBoard> checked_standard_goal(Shape s) {
  if (!is_board_shape(s)) return unanswered_shape(to_string(s));
  return standard_goal(s);
}

std::string_view move_name(Move m) {
  assert(static_cast<unsigned>(m) < 4);
  constexpr std::string_view kNames[4] = {"up", "down", "left", "right"};
  return kNames[static_cast<int>(m)];
}

std::optional<Move> move_from_letter(char c) {
  switch (c) {
    case 'u':
    case 'U':
      return Move::kUp;
    case 'd':
    case 'D':
      return Move::kDown;
    case 'l':
    case 'L':
      return Move::kLeft;
    case 'r':
    case 'R':
      return Move::kRight;
    default:
      return std::nullopt;
  }
}

template <int kCapacity>
int blank_cell(const BasicBoard<kCapacity>& b) {
  assert(is_valid(b));
  for (int i = 0; i < b.size(); ++i) {
    if (b.cells[static_cast<std::size_t>(i)] == 0) return i;
  }
  return -1;
}

template <int kCapacity>
std::optional<BasicBoard<kCapacity>> apply_move(const BasicBoard<kCapacity>& b, Move m,
                                                std::uint8_t* slid_tile) {
  assert(is_valid(b) && static_cast<unsigned>(m) < 4);
  const int from = blank_cell(b);
  const int to = neighbor(b.shape, from, m);
  if (to < 0) return std::nullopt;
  BasicBoard<kCapacity> next = b;
  next.cells[static_cast<std::size_t>(from)] = b.cells[static_cast<std::size_t>(to)];
  next.cells[static_cast<std::size_t>(to)] = 0;
  if (slid_tile != nullptr) *slid_tile = b.cells[static_cast<std::size_t>(to)];
  return next;
}

template <int kCapacity>
int tile_parity(const BasicBoard<kCapacity>& b) {
  assert(is_valid(b));
  int inversions = 0;
  const int n = b.size();
  for (int i = 0; i < n; ++i) {
    const std::uint8_t t = b.cells[static_cast<std::size_t>(i)];
    if (t == 0) continue;
    for (int j = i + 1; j < n; ++j) {
      const std::uint8_t u = b.cells[static_cast<std::size_t>(j)];
      if (u != 0 && u < t) ++inversions;
    }
  }
  return inversions & 1;
}

template <int kCapacity>
int board_class(const BasicBoard<kCapacity>& b) {
  assert(is_valid(b));
  if (is_table_shape(b.shape)) {
    // The ranking's way (rank/kernel.h), O(cells): the parity the Lehmer
    // rank comes with, and the blank's row term.
    return detail::with_kernel(b.shape, [&](auto k) {
      using K = decltype(k);
      int blank = 0;
      const std::uint64_t order = K::pack(b.cells.data(), blank);
      return static_cast<int>(K::lehmer(order) >> 31) ^ K::row_term(blank);
    });
  }
  const int parity = tile_parity(b);
  if (b.shape.cols % 2 != 0) return parity;
  return parity ^ (blank_cell(b) / b.shape.cols & 1);
}

template <int kCapacity>
bool is_valid(const BasicBoard<kCapacity>& b) {
  if (!is_board_shape(b.shape) || b.size() > kCapacity) return false;
  const int n = b.size();
  // Tiles seen, as a bit set of up to kMaxCells bits.
  std::array<std::uint64_t, (kMaxCells + 63) / 64> seen{};
  for (int i = 0; i < n; ++i) {
    const unsigned t = b.cells[static_cast<std::size_t>(i)];
    if (t >= static_cast<unsigned>(n)) return false;
    seen[t / 64] |= std::uint64_t{1} << (t % 64);
  }
  for (int i = n; i < kZeroedCells; ++i) {
    if (b.cells[static_cast<std::size_t>(i)] != 0) return false;
  }
  int count = 0;
  for (const std::uint64_t word : seen) count += std::popcount(word);
  return count == n;
}

Error shape_mismatch_error(Shape board, Shape goal) {
  return make_error(ErrorCode::kWrongShape, "the board is " + to_string(board) + " and the goal " +
                                                to_string(goal) + ": a goal has the board's shape");
}

std::string path_letters(std::span<const Move> moves) {
  std::string out;
  out.reserve(moves.size());
  for (Move m : moves) out += move_letter(m);
  return out;
}

template <int kCapacity>
std::string to_string(const BasicBoard<kCapacity>& b) {
  assert(is_valid(b));
  const int n = b.size();
  std::string s;
  if (b.shape == kShape3x3) {
    s.assign(static_cast<std::size_t>(n), '0');
    for (int i = 0; i < n; ++i)
      s[static_cast<std::size_t>(i)] =
          static_cast<char>('0' + b.cells[static_cast<std::size_t>(i)]);
    return s;
  }
  const bool digits = n <= 10;
  for (int i = 0; i < n; ++i) {
    if (i > 0) {
      if (i % b.shape.cols == 0) {
        s += '/';
      } else if (!digits) {
        s += ',';
      }
    }
    s += std::to_string(b.cells[static_cast<std::size_t>(i)]);
  }
  return s;
}

std::optional<Board> to_board(const GridBoard& b) {
  assert(is_valid(b));
  if (b.size() > Board::kRoom) return std::nullopt;
  std::array<std::uint8_t, Board::kRoom> cells;
  std::memcpy(cells.data(), b.cells.data(), cells.size());
  return Board(cells, b.shape);
}

// The two board types' instances of the functions above (board.h declares
// them for both).
#define EIGHT_BOARD_FUNCTIONS(B)                                       \
  template bool is_valid(const B&);                                    \
  template int blank_cell(const B&);                                   \
  template std::optional<B> apply_move(const B&, Move, std::uint8_t*); \
  template int tile_parity(const B&);                                  \
  template int board_class(const B&);                                  \
  template std::string to_string(const B&);
EIGHT_BOARD_FUNCTIONS(Board)
EIGHT_BOARD_FUNCTIONS(GridBoard)
#undef EIGHT_BOARD_FUNCTIONS

}  // namespace eight
