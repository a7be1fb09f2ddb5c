// The legal moves of a board, each with the tile it slides and the board it
// leads to: the one enumeration behind every answer that lists a board's
// moves (Solver::moves, and the searched shapes' moves in search_answer.cpp
// and grid_answer.cpp). Private to the core.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "eight/board.h"
#include "eight/solver.h"

namespace eight {

// A board's legal moves (2 to 4) in kAllMoves order, each with its tile and
// next board, its distance -1 and neither optimal nor a hint: the callers
// fill those in.
struct LegalMoves {
  std::array<MoveOption, 4> options;
  std::size_t count = 0;

  std::span<MoveOption> moves() { return std::span(options).first(count); }
};

// REQUIRES: is_valid(board).
inline LegalMoves legal_moves(const GridBoard& board) {
  LegalMoves out;
  for (const Move m : kAllMoves) {
    std::uint8_t tile = 0;
    const auto next = apply_move(board, m, &tile);
    if (!next) continue;
    out.options[out.count++] = MoveOption{m, tile, *next, -1, false, false};
  }
  return out;
}

}  // namespace eight
