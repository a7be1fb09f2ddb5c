#include "grid_answer.h"

#include <algorithm>
#include <cassert>

#include "beam_search.h"
#include "grid_search.h"
#include "legal_moves.h"
#include "path_shortener.h"
#include "search/reduction_solver.h"
#include "search/region_beam.h"

namespace eight {
namespace {

// `path` from `board` into `s`: the moves, and the tile each slides.
// REQUIRES: the path is legal from `board`.
void set_path(Solution& s, const GridBoard& board, std::span<const Move> path) {
  s.length = static_cast<int>(path.size());
  const bool long_path = s.length > format::kMaxDistance;
  if (long_path) {
    s.long_moves.assign(path.begin(), path.end());
    s.long_tiles.resize(path.size());
  }
  GridBoard cur = board;
  for (std::size_t i = 0; i < path.size(); ++i) {
    std::uint8_t tile = 0;
    const auto next = apply_move(cur, path[i], &tile);
    assert(next.has_value());
    if (long_path) {
      s.long_tiles[i] = tile;
    } else {
      s.moves[i] = path[i];
      s.tiles[i] = tile;
    }
    cur = *next;
  }
  assert(cur == s.goal);
}

// How a grid shape's optimal attempt searches: over pattern databases on
// the shapes that have them (14 to 16 cells), else over Manhattan distance
// and linear conflicts.
Method search_method(Shape s) {
  return fifteen::is_pattern_shape(s) ? Method::kPatternSearch : Method::kManhattanSearch;
}

// The nodes of a pattern shape's attempt: kTwoByEightAttemptNodes on 2x8
// and 8x2 (the grid shapes of 16 cells), else kPatternAttemptNodes; the fast
// option (Question::grid_fast) keeps kPatternAttemptNodes on every shape.
std::uint64_t pattern_attempt_nodes(Shape shape, bool fast) {
  return shape.cells() == 16 && !fast ? kTwoByEightAttemptNodes : kPatternAttemptNodes;
}

// The budget of a grid shape's optimal attempt: all of `budget` when an
// optimal answer is required; else, on a shape with pattern databases, at
// most pattern_attempt_nodes() of it; else at most kGridAttemptNodes of it,
// and none for a board whose lower bound is past kGridAttemptMaxBound.
fifteen::SearchBudget attempt_budget(Shape shape, const fifteen::SearchBudget& budget,
                                     bool require_optimal, int lower_bound, bool fast) {
  fifteen::SearchBudget b = budget;
  if (require_optimal) return b;
  if (fifteen::is_pattern_shape(shape)) {
    b.max_nodes = std::min(b.max_nodes, pattern_attempt_nodes(shape, fast));
  } else {
    b.max_nodes = lower_bound > kGridAttemptMaxBound ? 0 : std::min(b.max_nodes, kGridAttemptNodes);
  }
  return b;
}

std::vector<Move> reduce(const GridBoard& board, const GridBoard& goal) {
  return reduction::solve(board.shape.rows, board.shape.cols, board.used(), goal.used());
}

}  // namespace

SearchedSolution grid_solve(const GridBoard& goal,
                            std::span<const fifteen::PatternSetView> patterns,
                            const grid::Pdb5x5View* pdb5x5, const GridBoard& board, bool with_path,
                            const fifteen::SearchBudget& budget, bool require_optimal, bool fast) {
  SearchedSolution out;
  out.solution.board = board;
  out.solution.goal = goal;
  out.solution.quality.method = search_method(goal.shape);
  const grid::GridResult r =
      grid::search(board, goal,
                   attempt_budget(goal.shape, budget, require_optimal,
                                  grid::manhattan_linear_conflict(board, goal), fast),
                   grid::kDefaultMaxBound, patterns);
  out.report.nodes = r.nodes;
  out.report.lower_bound = r.lower_bound();
  out.report.bound =
      r.status == fifteen::SearchStatus::kSolved ? r.lower_bound() : r.completed_bound + 2;
  if (r.status == fifteen::SearchStatus::kUnsolvable) {
    out.report.status = r.status;
    return out;
  }
  std::vector<Move> path;
  if (r.status == fifteen::SearchStatus::kSolved) {
    out.report.status = r.status;
    path = r.path;
  } else if (require_optimal || r.status == fifteen::SearchStatus::kCancelled) {
    out.report.status = r.status;
    return out;
  } else {
    // Not proven within the attempt: a beam search's path, else (the beam
    // finds none within what is left of the budget) the reduction's.
    bool found = false;
    const bool wide = board.size() > grid::kSmallBeamCells;
    if (!(fast && wide)) {
      fifteen::SearchBudget b = budget;
      const std::uint64_t beam_nodes = wide ? kWideBeamNodes : (fast ? kFastBeamNodes : kBeamNodes);
      const int width = wide ? kWideBeamWidth : (fast ? kFastBeamWidth : kBeamWidth);
      b.max_nodes = std::min(beam_nodes, budget.max_nodes - std::min(budget.max_nodes, r.nodes));
      // Up to 25 cells the beam over the whole board, on 5x5 over the
      // pattern databases too (beam_search.h), whose value at the start is
      // a lower bound when larger than the attempt's (Question::grid_fast:
      // MD+LC alone). Past 25 cells the reduction's path with the beam
      // over its last region of at most 64 cells, the whole board up to 64
      // (search/region_beam.h); Question::grid_fast keeps the reduction's
      // alone.
      grid::BeamResult beam;
      bool used_beam = true;
      grid::BeamHeuristic h;  // MD+LC alone, unless the 5x5 databases below
      if (wide) {
        grid::RegionBeamResult rb = grid::region_beam(board, goal, width, b);
        beam = std::move(rb.beam);
        used_beam = rb.used_beam;
      } else {
        if (!fast) h = grid::beam_heuristic(goal, pdb5x5);
        beam = grid::beam_search(board, goal, width, b, h);
      }
      out.report.nodes += beam.nodes;
      if (beam.status == fifteen::SearchStatus::kCancelled) {
        out.report.status = beam.status;
        return out;
      }
      out.report.lower_bound = std::max(out.report.lower_bound, beam.start_bound);
      if (beam.status == fifteen::SearchStatus::kSolved) {
        path = std::move(beam.path);
        found = true;
        out.solution.quality.method = used_beam ? Method::kBeamSearch : Method::kReduction;
        if (h.databases != nullptr) {
          // On 5x5 the path then made shorter by the endgame
          // (path_shortener.h) with what is left of the nodes; past the
          // deadline it keeps what it found.
          b.max_nodes -= std::min(b.max_nodes, beam.nodes);
          const grid::ShortenResult shorter = grid::shorten_path(board, goal, h, path, b);
          out.report.nodes += shorter.nodes;
          if (shorter.status == fifteen::SearchStatus::kCancelled) {
            out.report.status = shorter.status;
            return out;
          }
          if (shorter.optimal) {
            out.report.lower_bound =
                std::max(out.report.lower_bound, static_cast<int>(path.size()));
          }
        }
      }
    }
    if (!found) {
      path = reduce(board, goal);
      out.solution.quality.method = Method::kReduction;
    }
    // A path no longer than a proven lower bound is optimal.
    out.report.status = static_cast<int>(path.size()) <= out.report.lower_bound
                            ? fifteen::SearchStatus::kSolved
                            : fifteen::SearchStatus::kBounded;
    out.report.bound = static_cast<int>(path.size());
  }
  Solution& s = out.solution;
  s.solvable = true;
  s.distance = static_cast<int>(path.size());
  s.quality.optimal = out.report.optimal();
  s.quality.lower_bound = out.report.lower_bound;
  if (with_path) set_path(s, board, path);
  return out;
}

// (The contract: grid_answer.h; also called for a table's and a 4x4
// search's answers, whose paths set_path() writes the same way.)
void prefer_known(std::span<const Move> known, const GridBoard& board, bool with_path,
                  SearchedSolution& out) {
  Solution& s = out.solution;
  const int n = static_cast<int>(known.size());
  if (!out.report.finished() || !s.solvable || n > s.distance) return;
  s.distance = n;
  s.length = 0;
  s.long_moves.clear();
  s.long_tiles.clear();
  if (with_path) set_path(s, board, known);
  if (n <= out.report.lower_bound) out.report.status = fifteen::SearchStatus::kSolved;
  out.report.bound = std::min(out.report.bound, n);
  s.quality.optimal = out.report.optimal();
}

SearchedMoves grid_moves(const GridBoard& goal, std::span<const fifteen::PatternSetView> patterns,
                         const grid::Pdb5x5View* pdb5x5, const GridBoard& board,
                         const fifteen::SearchBudget& budget, bool require_optimal, bool fast,
                         const std::vector<Move>* known) {
  SearchedMoves out;
  // The board's answer, the one solve_board() gives: its path's first move
  // is the hint and the rest its length.
  SearchedSolution first =
      grid_solve(goal, patterns, pdb5x5, board, true, budget, require_optimal, fast);
  if (known != nullptr) prefer_known(*known, board, true, first);
  out.report = first.report;
  if (!out.report.finished()) return out;
  const int d = first.solution.distance;
  out.options.distance = d;
  out.options.quality = first.solution.quality;
  const auto path = first.solution.path();
  std::uint64_t used = first.report.nodes;
  bool unsettled = false;  // a move's distance not found within the attempt
  LegalMoves legal = legal_moves(board);
  for (MoveOption& o : legal.moves()) {
    const bool first_move = d > 0 && path.front() == o.move;
    if (d < 0) {
      // The other class: so is every next board.
    } else if (first_move) {
      o.distance = d - 1;
    } else if (first.report.optimal()) {
      // As search_moves: each move changes the distance by one, so a next
      // board is d - 1 or d + 1; the heuristic or a search says which.
      const int h = grid::manhattan_linear_conflict(o.next, goal);
      if (d == 0 || h > d - 1) {
        o.distance = d + 1;
      } else {
        // What the question has left: of its budget, and on a pattern
        // shape of its one attempt (the board's and its moves' searches
        // share pattern_attempt_nodes(), so a hint takes no longer than a
        // solve) unless an optimal answer is required.
        fifteen::SearchBudget b = budget;
        const std::uint64_t total =
            fifteen::is_pattern_shape(goal.shape) && !require_optimal
                ? std::min(budget.max_nodes, pattern_attempt_nodes(goal.shape, fast))
                : budget.max_nodes;
        b.max_nodes = total - std::min(total, used);
        const grid::GridResult r = grid::search(
            o.next, goal, attempt_budget(goal.shape, b, require_optimal, h, fast), d - 1, patterns);
        used += r.nodes;
        if (r.status == fifteen::SearchStatus::kSolved) {
          o.distance = static_cast<int>(r.path.size());
        } else if ((r.status == fifteen::SearchStatus::kBudgetExceeded ||
                    r.status == fifteen::SearchStatus::kDeadlineExceeded) &&
                   r.lower_bound() > d - 1) {
          // Bound d - 1 searched in full, or the search's own heuristic
          // (on a pattern shape, larger than `h`) already past it: not d - 1.
          o.distance = d + 1;
        } else if (require_optimal || r.status == fifteen::SearchStatus::kCancelled) {
          out.report.status = r.status;
          out.report.nodes = used;
          out.report.lower_bound = d;
          return out;
        } else {
          // Not settled within the attempt: this move's path is back, then
          // the board's, and the answer as a whole is not proven (below).
          unsettled = true;
          o.distance = d + 1;
        }
      }
    } else {
      // The path found from here is back, then the board's path: d + 1.
      o.distance = d + 1;
    }
    o.optimal = first.report.optimal() && d > 0 && o.distance == d - 1;
    o.hint = !first.report.optimal() && first_move;
  }
  if (unsettled) {
    // Some move's distance is only a path's length: no move is claimed
    // optimal, and the hint is the first move of the optimal path found.
    out.options.quality = Quality{false, d, search_method(goal.shape)};
    for (MoveOption& o : legal.moves()) {
      o.hint = o.move == path.front();
      o.optimal = false;
    }
  }
  out.options.set_best_first(legal.moves());
  out.report.nodes = used;
  return out;
}

}  // namespace eight
