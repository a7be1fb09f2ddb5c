// The grid shapes' answers (Engine::kGrid, answer.h): an optimal attempt by
// IDA* (grid_search.h), else a bounded path: the beam's up to 64 cells
// (beam_search.h, on 5x5 over the pattern databases and then shortened by
// path_shortener.h; past 25 cells wider), past them the reduction's with its
// last region's moves the beam's (search/region_beam.h), else the
// reduction's alone; and the
// swap to a path the client already holds (Question::known_path). Private
// to the core: answer.cpp's solve_board() and board_moves() are the way in.
//
// Thread safety: pure functions; the state lives on the caller's stack.
#pragma once

#include <span>
#include <vector>

#include "eight/answer.h"
#include "eight/board.h"
#include "eight/fifteen_search.h"
#include "eight/pattern_db.h"

namespace eight {

// `board`'s answer towards `goal` within `budget`: the optimal attempt over
// `patterns` (a pattern shape's sets, may be empty), else, unless
// `require_optimal`, the bounded path (over `pdb5x5`'s databases on 5x5,
// when not null; `fast`: Question::grid_fast's answers). The
// path's moves and tiles are set when `with_path`. REQUIRES: is_valid(board),
// board.shape == goal.shape, is_grid_shape(goal.shape).
SearchedSolution grid_solve(const GridBoard& goal,
                            std::span<const fifteen::PatternSetView> patterns,
                            const grid::Pdb5x5View* pdb5x5, const GridBoard& board, bool with_path,
                            const fifteen::SearchBudget& budget, bool require_optimal, bool fast);

// `board`'s moves, each with its distance, as grid_solve() answers the
// board (its path's first move is the hint), with `known` (when not null:
// a legal path from `board` to `goal`) preferred as prefer_known() does.
// REQUIRES: as grid_solve().
SearchedMoves grid_moves(const GridBoard& goal, std::span<const fifteen::PatternSetView> patterns,
                         const grid::Pdb5x5View* pdb5x5, const GridBoard& board,
                         const fifteen::SearchBudget& budget, bool require_optimal, bool fast,
                         const std::vector<Move>* known);

// The known path (Question::known_path's moves) in place of `out`'s own
// path when no longer: the known one wins a tie, so a client following
// hints keeps the one path it holds; a path no longer than the proven lower
// bound is optimal. A search that did not finish, or an unsolvable board,
// keeps its answer. REQUIRES: `known` is a legal path from `board` to the
// answer's goal.
void prefer_known(std::span<const Move> known, const GridBoard& board, bool with_path,
                  SearchedSolution& out);

}  // namespace eight
