// A fast, non-optimal solver for rectangular sliding puzzles of 2x2 to 10x10
// by reduction: it places the board's outer rows and columns one at a time
// until a small region is left, which it solves optimally. Private to the
// core; it uses plain cell arrays, not GridBoard, so that it serves every shape
// up to 100 cells.
//
// A board is rows x cols cells in reading order (row-major), each holding its
// tile, 0 for the blank: a permutation of 0..rows*cols-1. Moves are named by
// the direction the blank moves (eight/board.h).
//
// The method. The goal's blank cell is kept inside the unsolved region, a
// rectangle that starts as the whole board: while it is larger than 3x3 (or
// 2x4), the side row or column away from that cell is peeled, rows when the
// region is at least as tall as wide and columns otherwise, so that it stays
// near square. A line is placed one *unit* at a time: two neighbouring tiles
// together, after one alone when the line's length is odd (the last tile of a
// line cannot be slid into its dead-end cell alone, and a pair's shortest
// path moves both at once). Each unit's moves are an exact shortest path in a restricted
// model whose state is the unit's tiles and the blank, moving inside the cells
// not yet placed; the other tiles are interchangeable. What is left is solved
// optimally (IDA* with Manhattan distance plus linear conflicts).
//
// The hints never cycle: progress() strictly decreases along first_move(),
// which the comment above progress() in reduction_solver.cpp proves.
//
// Where the pieces live, all in core/search/: reduction_state.h (the
// renamed board and the shape's geometry), restricted_model.* (the
// restricted model's breadth-first search and its choice among shortest
// paths), reduction_plan.* (the units and each unit's phases),
// last_region.* and window_shortener.* (the last region's IDA* and the
// windows', on the one driver of ida.h), and reduction_solver.cpp (the
// plan followed, the second orientation, the measure).
//
// Thread safety: every function is safe to call from several threads at
// once (the searches' scratch space is thread_local).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "eight/board.h"
#include "search/reduction_state.h"

namespace eight::reduction {

// A path (blank moves) from start to goal; any goal: the blank may be on any
// cell and the tiles in any order. Not optimal except on boards of up to 3x3
// or 2x4, where it is: on random boards about 1.85 (5x5) to 2.48 (10x10)
// times their Manhattan distance plus linear conflicts. The plan's first
// move (first_move()), then the shorter of two plans from there: this
// board's, and that of the board transposed (a square) or turned half a
// turn. Then shortened: a move followed by its opposite is dropped, and
// each window of 26 moves (kWindow, search/window_shortener.h) is searched for
// a shorter path between its ends; never the first move. Tens of
// milliseconds on a random 10x10 board (one core, -O2; docs/performance.md
// has the figures and how much they drift between runs).
// REQUIRES: kMinSide <= rows, cols <= kMaxSide; start and goal hold
// rows*cols cells and are permutations of 0..rows*cols-1; start can reach
// goal (the permutation's parity equals that of the blank's distance).
std::vector<Move> solve(int rows, int cols, std::span<const std::uint8_t> start,
                        std::span<const std::uint8_t> goal);

// The plan's first move, before any improvement of the path (solve()'s path
// starts with it too), or nullopt when start == goal.
// REQUIRES: as solve().
std::optional<Move> first_move(int rows, int cols, std::span<const std::uint8_t> start,
                               std::span<const std::uint8_t> goal);

// A measure of how far the plan has to go, which first_move() strictly
// decreases: the index of the first unit not in place, then where that unit
// stands (its phase and its distance in the restricted model), then for the
// last region its exact distance; 0 exactly when start == goal.
// REQUIRES: as solve().
std::uint64_t progress(int rows, int cols, std::span<const std::uint8_t> start,
                       std::span<const std::uint8_t> goal);

}  // namespace eight::reduction
