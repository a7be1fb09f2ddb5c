#include "eight/board.h"

#include <algorithm>
#include <cassert>
#include <cstdio>

namespace eight {
namespace {

bool is_separator(char c) {
  return c == ' ' || c == '\t' || c == ',' || c == '/' || c == '\n' || c == '\r';
}

// Describes one byte for an error message: printable ASCII as itself, the
// rest as a hex byte, so messages stay plain ASCII whatever came in.
std::string describe_byte(unsigned char c) {
  char buf[32];
  if (c >= 0x21 && c < 0x7f) {
    std::snprintf(buf, sizeof buf, "'%c'", c);
  } else {
    std::snprintf(buf, sizeof buf, "byte 0x%02X", c);
  }
  return buf;
}

}  // namespace

std::string_view move_name(Move m) {
  assert(static_cast<unsigned>(m) < 4);
  constexpr std::string_view kNames[4] = {"up", "down", "left", "right"};
  return kNames[static_cast<int>(m)];
}

std::optional<Move> move_from_letter(char c) {
  switch (c) {
    case 'u': case 'U': return Move::kUp;
    case 'd': case 'D': return Move::kDown;
    case 'l': case 'L': return Move::kLeft;
    case 'r': case 'R': return Move::kRight;
    default: return std::nullopt;
  }
}

int blank_cell(const Board& b) {
  assert(is_valid(b));
  for (int i = 0; i < kCells; ++i) {
    if (b.cells[i] == 0) return i;
  }
  return -1;
}

std::optional<Board> apply_move(const Board& b, Move m, std::uint8_t* slid_tile) {
  assert(is_valid(b) && static_cast<unsigned>(m) < 4);
  const int from = blank_cell(b);
  const int to = neighbor(from, m);
  if (to < 0) return std::nullopt;
  Board next = b;
  next.cells[from] = b.cells[to];
  next.cells[to] = 0;
  if (slid_tile != nullptr) *slid_tile = b.cells[to];
  return next;
}

int tile_parity(const Board& b) {
  int inversions = 0;
  for (int i = 0; i < kCells; ++i) {
    if (b.cells[i] == 0) continue;
    for (int j = i + 1; j < kCells; ++j) {
      if (b.cells[j] != 0 && b.cells[j] < b.cells[i]) ++inversions;
    }
  }
  return inversions & 1;
}

bool is_valid(const Board& b) {
  unsigned seen = 0;
  for (std::uint8_t t : b.cells) {
    if (t >= kCells) return false;
    seen |= 1u << t;
  }
  return seen == (1u << kCells) - 1;
}

namespace {

// The cells a text writes, up to `max_cells` kept (the rest only counted),
// or the error about a character it holds.
struct Scanned {
  std::array<std::uint8_t, 2 * kCells> cells{};
  int count = 0;
};

Result<Scanned> scan_cells(std::string_view text, std::size_t max_text) {
  if (text.size() > max_text) {
    return make_error(ErrorCode::kBoardTooLong,
                      "board is " + std::to_string(text.size()) + " characters long; at most " +
                          std::to_string(max_text) + " are allowed");
  }
  Scanned out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    int tile;
    if (c >= '0' && c <= '9') {
      tile = c - '0';
    } else if (c == 'x' || c == 'X' || c == '_') {
      tile = 0;
    } else if (is_separator(static_cast<char>(c))) {
      continue;
    } else {
      return make_error(ErrorCode::kBadCharacter,
                        describe_byte(c) + " at position " + std::to_string(i + 1) +
                            " is not allowed: use digits 1-8 for tiles, 0, x, X or _ for the "
                            "blank, and spaces, commas or slashes between cells");
    }
    if (tile == 9) {
      return make_error(ErrorCode::kTileOutOfRange, "tile 9 at position " + std::to_string(i + 1) +
                                                        " is out of range: tiles are 1 to 8");
    }
    if (out.count < static_cast<int>(out.cells.size())) {
      out.cells[static_cast<std::size_t>(out.count)] = static_cast<std::uint8_t>(tile);
    }
    ++out.count;
  }
  return out;
}

// Nine cells as a board: one blank, no tile twice (so every tile once).
Result<Board> board_of(std::span<const std::uint8_t> cells) {
  Board board;
  std::copy(cells.begin(), cells.begin() + kCells, board.cells.begin());
  int times[kCells] = {};
  for (std::uint8_t t : board.cells) ++times[t];
  if (times[0] == 0) {
    return make_error(ErrorCode::kNoBlank, "no blank: write the blank as 0, x, X or _");
  }
  if (times[0] > 1) {
    return make_error(ErrorCode::kTwoBlanks, std::to_string(times[0]) +
                                                 " blanks: a board has exactly one blank");
  }
  for (int t = 1; t < kCells; ++t) {
    if (times[t] > 1) {
      int missing = 1;
      while (times[missing] != 0) ++missing;
      return make_error(ErrorCode::kDuplicateTile,
                        "tile " + std::to_string(t) + " appears " +
                            (times[t] == 2 ? std::string("twice") : std::to_string(times[t]) + " times") +
                            " and tile " + std::to_string(missing) + " is missing");
    }
  }
  return board;  // 9 cells, one blank, no duplicate: every tile is present.
}

}  // namespace

Result<Board> parse_board(std::string_view text) {
  auto scanned = scan_cells(text, kMaxBoardText);
  if (!scanned.ok()) return scanned.error();
  if (scanned->count == 0) {
    return make_error(ErrorCode::kEmptyBoard, "board is empty: expected 9 cells such as 123456780");
  }
  if (scanned->count != kCells) {
    return make_error(ErrorCode::kWrongCellCount,
                      "expected 9 cells, got " + std::to_string(scanned->count));
  }
  return board_of(scanned->cells);
}

Result<BoardLine> parse_board_line(std::string_view text) {
  auto scanned = scan_cells(text, 2 * kMaxBoardText);
  if (!scanned.ok()) return scanned.error();
  if (scanned->count != kCells && scanned->count != 2 * kCells) {
    if (scanned->count == 0) {
      return make_error(ErrorCode::kEmptyBoard,
                        "board is empty: expected 9 cells such as 123456780");
    }
    // (The same words as parse_board's: a line of 18 is the other case.)
    return make_error(ErrorCode::kWrongCellCount,
                      "expected 9 cells, got " + std::to_string(scanned->count));
  }
  auto board = board_of(std::span(scanned->cells).first(kCells));
  if (!board.ok()) return board.error();
  BoardLine line{*board, std::nullopt};
  if (scanned->count == 2 * kCells) {
    auto goal = board_of(std::span(scanned->cells).subspan(kCells, kCells));
    if (!goal.ok()) return make_error(goal.error().code, "goal: " + goal.error().message);
    line.goal = *goal;
  }
  return line;
}

std::string path_letters(std::span<const Move> moves) {
  std::string out;
  out.reserve(moves.size());
  for (Move m : moves) out += move_letter(m);
  return out;
}

std::string to_string(const Board& b) {
  std::string s(kCells, '0');
  for (int i = 0; i < kCells; ++i) s[i] = static_cast<char>('0' + b.cells[i]);
  return s;
}

}  // namespace eight
