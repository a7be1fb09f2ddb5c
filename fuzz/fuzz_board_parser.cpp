// Fuzzes the one board parser with arbitrary bytes. Whatever it accepts must
// be a valid board whose canonical form parses back to itself and ranks
// consistently; whatever it refuses must come with a message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "eight/board.h"
#include "eight/rank.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto board = eight::parse_board(text);
  if (!board.ok()) {
    if (board.error().message.empty()) std::abort();
    return 0;
  }
  if (!eight::is_valid(*board)) std::abort();
  const auto again = eight::parse_board(eight::to_string(*board));
  if (!again.ok() || !(*again == *board)) std::abort();
  const std::uint32_t r = eight::rank(*board);
  if (r >= eight::kPositions || !(eight::unrank(r, eight::tile_parity(*board)) == *board))
    std::abort();
  return 0;
}
