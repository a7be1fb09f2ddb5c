// The 4x4 board's geometry for the pattern databases' loops: cells as bits
// of a 16-bit mask, the distance between cells, and board.h's move table
// sliced for 4x4. Private to the core (core/pdb/).
//
// Thread safety: constants.
#pragma once

#include <array>
#include <cstdint>

#include "eight/board.h"
#include "eight/pattern_db.h"

namespace eight::fifteen::pdb {

// Cells as bits of a 16-bit mask; these are the left and right columns.
inline constexpr std::uint32_t kColumn0 = 0x1111;
inline constexpr std::uint32_t kColumn3 = 0x8888;
inline constexpr std::uint32_t kAllCells = 0xFFFF;

// Manhattan distance between two cells.
constexpr std::array<std::array<std::uint8_t, kCells>, kCells> make_distances() {
  std::array<std::array<std::uint8_t, kCells>, kCells> t{};
  for (int a = 0; a < kCells; ++a) {
    for (int b = 0; b < kCells; ++b) {
      const int dr = a / kSide - b / kSide;
      const int dc = a % kSide - b % kSide;
      t[a][b] = static_cast<std::uint8_t>((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc));
    }
  }
  return t;
}
inline constexpr auto kDistance = make_distances();

// The one move table's 4x4 slice (board.h), indexed [cell][move], for
// inner loops that know their shape.
inline constexpr const auto& kNeighbors = kNeighborTables[kSide - 1][kSide - 1];

}  // namespace eight::fifteen::pdb
