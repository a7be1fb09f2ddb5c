// Fuzzes the one board parser with arbitrary bytes, with and without a
// shape named. Whatever parse_grid_board accepts must be a valid board of a
// board shape (the one named, if any) whose canonical form parses back to
// itself with no shape named, and, on 3x3, ranks consistently; the same text
// as a batch line must give the same board; parse_board must give the same
// board when it has at most 16 cells and refuse it (kWrongShape) when it has
// more. Whatever either refuses must come with a message, and the same
// refusal from both.
//
//   byte 0      0 no shape named, else kBoardShapes[(v - 1) % 81]
//   the rest    the board text
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "eight/board.h"
#include "eight/rank.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::optional<eight::Shape> shape;
  if (data[0] != 0) {
    shape = eight::kBoardShapes[static_cast<std::size_t>(data[0] - 1) % eight::kBoardShapes.size()];
  }
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const auto board = eight::parse_grid_board(text, shape);
  const auto small = eight::parse_board(text, shape);
  if (!board.ok()) {
    if (board.error().message.empty()) std::abort();
    if (small.ok() || small.error().code != board.error().code ||
        small.error().message != board.error().message) {
      std::abort();
    }
    return 0;
  }
  if (!eight::is_valid(*board) || !eight::is_board_shape(board->shape)) std::abort();
  if (shape && board->shape != *shape) std::abort();
  if (board->size() <= eight::Board::kRoom) {
    if (!small.ok() || !(eight::GridBoard(*small) == *board) || !eight::is_valid(*small)) {
      std::abort();
    }
  } else if (small.ok() || small.error().code != eight::ErrorCode::kWrongShape) {
    std::abort();
  }
  const auto again = eight::parse_grid_board(eight::to_string(*board));
  if (!again.ok() || !(*again == *board)) std::abort();
  const auto line = eight::parse_board_line(text, shape);
  if (!line.ok() || line->goal || !(line->board == *board)) std::abort();
  if (board->shape == eight::kShape3x3) {
    const std::uint32_t r = eight::rank_3x3(*small);
    if (r >= eight::kPositions3x3 || !(eight::unrank_3x3(r, eight::tile_parity(*small)) == *small))
      std::abort();
  }
  return 0;
}
