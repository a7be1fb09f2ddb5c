// Near-optimal paths for the boards of up to 64 cells that no search proves
// optimal in time (5x5, 4x5, 3x6, 3x7, 3x8, 4x6, 6x6, 7x7, 8x8 and the like,
// and the last region of larger boards, search/region_beam.h): a
// breadth-first beam search over a heuristic it is given (BeamHeuristic):
// Manhattan distance plus linear conflicts (line_conflicts.h), and on 5x5
// also the 5-5-5-5-4 pattern databases with their reflection
// (pdb/pdb5x5.h), the larger of the two.
//
// The method. Layer d holds boards d moves from the start. Each board of a
// layer is expanded (less the child that undoes its own move); a child
// kept in the last 32 to 64 layers, or made twice in its layer, is dropped,
// so the search does not walk back (a board met again after longer than
// that leaves a loop in the path, which cut_loops() removes); of the
// children, the `width` of smallest rank make the next layer (ties broken by the
// board itself, so the answer never depends on the order of a sort): the
// heuristic, except that over the 5x5 databases the two lookups, straight
// and reflected, are added rather than the larger taken (beam_node.h's
// Node::rank()). The first layer to hold the goal gives the path. Every
// kept board of a layer has the same depth, so ranking by the heuristic is
// ranking by g + h, as A* would. On 5x5 the path is then made shorter near
// the goal (path_shortener.h).
//
// Why a beam and not weighted A*. On Korf and Felner's 50 random 5x5
// boards, measured side by side (docs/performance.md): weighted A* over
// Manhattan distance and linear conflicts gave 1.32x the optimal lengths
// at w = 2, and at w = 1.6 (1.16x) left 32 of the 50 unsolved within
// 300,000 expansions, and still 18 over 5-5-5-5-4 pattern databases. A
// beam of 1,000 boards gave 1.17x and one of 4,000 1.12x, in time linear
// in the width, with memory bounded by it; over the databases the beam's
// lengths come down further at the same width (docs/performance.md). A
// beam gives no factor bound of its own: what an answer proves is its lower
// bound (the heuristic at the start, or what the optimal attempt before it
// searched), which answer.h reports beside it.
//
// Its boards: up to 25 cells a node of 25 (5 bits a cell in its key), past
// them one of 64 (6 bits a cell): beam_node.h. The small node keeps the
// searches of up to 25 cells as they were: the same keys, so the same
// paths, and smaller nodes to copy.
//
// Costs. Nodes (boards generated: the children new in their layer, less
// the moves undone) are about width * 2.7 * depth. Each kept board (width a
// layer) holds 4 bytes of history for the path, and for the last 32 to 64
// layers an 8-byte fingerprint in a set at most three quarters full; a
// layer's boards take 104 bytes each (the cells, the tiles' cells and the
// heuristic's parts), its children 40 bytes each (Child in beam_search.cpp: the key, the
// fingerprint, the rank, the parent and the move; the child's board is
// built again only when it is kept). The 5x5 databases are 12.9 MB more, a
// table's (read once a process, shared by every search). Past 25 cells a
// board takes 224 bytes (the node of 64 cells) and a child 80, and
// answer.h's wider beam keeps more boards (docs/deployment.md, "Capacity",
// has the peaks measured).
//
// Thread safety: pure functions; the state lives in the call.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "beam_node.h"
#include "eight/board.h"
#include "eight/fifteen_search.h"
#include "pdb/pdb5x5.h"

namespace eight::grid {

// The most layers a search goes down before it gives up: far past the
// paths it finds (about 1.1 to 1.2 times the distance, at most a few
// hundred moves on 25 cells).
inline constexpr int kMaxBeamDepth = 1000;
// The widest beam: a kept board's parent index and move share 32 bits.
inline constexpr int kMaxBeamWidth = 1 << 24;

// What the beam ranks a layer's boards by: Manhattan distance plus linear
// conflicts, and when `databases` is not null (5x5 only) the larger of that
// and the databases' value over the board and its reflection. A plain
// value; the set's bytes must outlive the searches given it.
struct BeamHeuristic {
  // The set of the goal blank's class (pdb5x5_class_blank()).
  const Pdb5x5View* databases = nullptr;
};

// The heuristic for `goal`: on 5x5 the databases `stored` (a table's,
// Question::grid_pdb5x5; null when the tables loaded hold none for the
// goal's class), Manhattan distance and linear conflicts alone on other
// shapes or without them. Nothing is built. REQUIRES: is_valid(goal);
// stored null or the set of pdb5x5_class_blank(blank_cell(goal)).
BeamHeuristic beam_heuristic(const GridBoard& goal, const Pdb5x5View* stored);

struct BeamResult {
  // kSolved: `path` leads to the goal (not proven optimal). kBudgetExceeded:
  // the nodes, the deadline or kMaxBeamDepth ran out, or every child had
  // been generated before (the beam died out). kCancelled, kUnsolvable (the
  // other class) as fifteen::SearchStatus says.
  fifteen::SearchStatus status = fifteen::SearchStatus::kUnsolvable;
  std::uint64_t nodes = 0;  // boards generated
  std::vector<Move> path;
  // The heuristic of the start: a proven lower bound on its distance (0 for
  // the other class).
  int start_bound = 0;
};

// A path from `start` to `goal` by a beam of `width` boards ranked by
// `heuristic`, within the budget (nodes: at most budget.max_nodes boards
// generated; the cancel flag and the deadline, as fifteen::SearchBudget
// says, read once a layer), and of at most `max_depth` moves
// (kBudgetExceeded when no layer up to that depth reaches the goal: a
// caller holding a path of n moves asks for n - 1 at most, and a beam that
// wanders, as about one 8x8 board's region in a hundred did, stops there rather
// than at the nodes' cap). The same question gets the same path
// everywhere. REQUIRES:
// is_valid(start), is_valid(goal), start.shape == goal.shape, start.size()
// <= kMaxBeamCells, 1 <= width <= kMaxBeamWidth, 1 <= max_depth <=
// kMaxBeamDepth; heuristic.databases null, or goal 5x5 and the set of its
// blank's class.
BeamResult beam_search(const GridBoard& start, const GridBoard& goal, int width,
                       const fifteen::SearchBudget& budget, const BeamHeuristic& heuristic = {},
                       int max_depth = kMaxBeamDepth);

// `path` from `start` with its loops cut out: where it comes back to a
// board it passed, the moves in between are dropped, so no board is on the
// result twice (a shorter path between the same ends; boards told apart
// exactly). The beam's last step: it remembers only its last layers'
// boards (beam_search.cpp, kKeptLayers), so a long cycle could otherwise
// stay in its path. REQUIRES: is_valid(start), start.size() <=
// kMaxBeamCells, `path` legal from `start`.
void cut_loops(const GridBoard& start, std::vector<Move>& path);

}  // namespace eight::grid
