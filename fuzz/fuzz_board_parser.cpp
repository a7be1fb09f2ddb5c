// Fuzzes the one board parser with arbitrary bytes, with and without a
// shape named. Whatever it accepts must be a valid board of a table shape
// (the one named, if any) whose canonical form parses back to itself, with
// no shape named, and, on 3x3, ranks consistently; the same text as a batch
// line must give the same board. Whatever it refuses must come with a
// message.
//
//   byte 0      bits 0-3: 0 no shape named, else kTableShapes[(v - 1) % 12]
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
  if ((data[0] & 0xF) != 0) {
    shape = eight::kTableShapes[static_cast<std::size_t>(((data[0] & 0xF) - 1) % 12)];
  }
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const auto board = eight::parse_board(text, shape);
  if (!board.ok()) {
    if (board.error().message.empty()) std::abort();
    return 0;
  }
  if (!eight::is_valid(*board) || !eight::is_table_shape(board->shape)) std::abort();
  if (shape && board->shape != *shape) std::abort();
  const auto again = eight::parse_board(eight::to_string(*board));
  if (!again.ok() || !(*again == *board)) std::abort();
  const auto line = eight::parse_board_line(text, shape);
  if (!line.ok() || line->goal || !(line->board == *board)) std::abort();
  if (board->shape == eight::kShape3x3) {
    const std::uint32_t r = eight::rank_3x3(*board);
    if (r >= eight::kPositions3x3 || !(eight::unrank_3x3(r, eight::tile_parity(*board)) == *board))
      std::abort();
  }
  return 0;
}
