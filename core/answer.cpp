#include "eight/answer.h"

#include <cassert>

#include "beam_search.h"
#include "frame_check.h"
#include "grid_search.h"
#include "legal_moves.h"
#include "path_shortener.h"
#include "search/reduction_solver.h"
#include "search/region_beam.h"

namespace eight {
namespace {

const fifteen::IdaSearch& ida_search_of(const Table& table, const GoalFrame& frame) {
  const fifteen::IdaSearch* s = table.ida_search(frame.section());
  assert(s != nullptr);
  return *s;
}

// The board as the frame's section sees it, searched within `budget`;
// `nodes_left` is what the budget still allows and is charged.
fifteen::SearchResult search(const fifteen::IdaSearch& solver, const GoalFrame& frame,
                             const Board& board, const fifteen::SearchBudget& budget,
                             std::uint64_t& nodes_left) {
  fifteen::SearchBudget b = budget;
  b.max_nodes = nodes_left;
  auto r = solver.solve(frame.to_section(board), b);
  nodes_left -= std::min(nodes_left, r.nodes);
  return r;
}

SearchReport report_of(const fifteen::SearchResult& r, std::uint64_t nodes) {
  SearchReport out;
  out.status = r.status;
  out.nodes = nodes;
  out.lower_bound = r.lower_bound();
  out.bound = r.status == fifteen::SearchStatus::kSolved ? r.length : r.bound;
  return out;
}

}  // namespace

bool is_search_frame(const Table& table, const GoalFrame& frame) {
  return table.ida_search(frame.section()) != nullptr;
}

SearchedSolution search_solve(const Table& table, const GoalFrame& frame, const Board& board,
                              const fifteen::SearchBudget& budget) {
  assert(is_valid(board) && board.shape == frame.goal().shape && is_search_frame(table, frame));
  std::uint64_t left = budget.max_nodes;
  const auto r = search(ida_search_of(table, frame), frame, board, budget, left);
  SearchedSolution out;
  out.report = report_of(r, budget.max_nodes - left);
  out.solution.board = board;
  out.solution.goal = frame.goal();
  out.solution.quality.method = Method::kPatternSearch;
  if (r.status == fifteen::SearchStatus::kUnsolvable) return out;
  if (r.status != fifteen::SearchStatus::kSolved) return out;
  Solution& s = out.solution;
  s.solvable = true;
  s.distance = r.length;
  Board cur = board;
  for (int i = 0; i < r.length; ++i) {
    const Move m = frame.from_section(r.moves[static_cast<std::size_t>(i)]);
    std::uint8_t tile = 0;
    const auto next = apply_move(cur, m, &tile);
    // The search made only legal moves on the section's board; their images
    // under the frame's symmetry are legal here.
    assert(next.has_value());
    s.moves[static_cast<std::size_t>(i)] = m;
    s.tiles[static_cast<std::size_t>(i)] = tile;
    cur = *next;
  }
  assert(cur == frame.goal());
  s.length = r.length;
  return out;
}

SearchedMoves search_moves(const Table& table, const GoalFrame& frame, const Board& board,
                           const fifteen::SearchBudget& budget) {
  assert(is_valid(board) && board.shape == frame.goal().shape && is_search_frame(table, frame));
  const fifteen::IdaSearch& solver = ida_search_of(table, frame);
  std::uint64_t left = budget.max_nodes;
  const auto first = search(solver, frame, board, budget, left);
  SearchedMoves out;
  out.report = report_of(first, budget.max_nodes - left);
  if (!out.report.finished()) return out;
  const int d = first.status == fifteen::SearchStatus::kSolved ? first.length : -1;
  out.options.distance = d;
  out.options.quality.method = Method::kPatternSearch;
  LegalMoves legal = legal_moves(board);
  for (MoveOption& o : legal.moves()) {
    const Board next = *to_board(o.next);  // a 4x4 board
    if (d < 0) {
      // The other class: so is every next board.
    } else if (d > 0 && frame.from_section(first.moves[0]) == o.move) {
      o.distance = d - 1;
    } else if (d == 0 || solver.heuristic(frame.to_section(next)) > d - 1) {
      // Every move changes the distance by one (solver.h): not d - 1, so d + 1.
      o.distance = d + 1;
    } else {
      const auto r = search(solver, frame, next, budget, left);
      if (r.status != fifteen::SearchStatus::kSolved) {
        // The board's own distance is known; a next board's was not found.
        out.report = report_of(r, budget.max_nodes - left);
        out.report.lower_bound = d;
        return out;
      }
      o.distance = r.length;
    }
    o.optimal = d > 0 && o.distance == d - 1;
  }
  out.options.set_best_first(legal.moves());
  out.report.nodes = budget.max_nodes - left;
  return out;
}

SearchedBoard random_search_board(const Table& table, const GoalFrame& frame,
                                  std::optional<int> distance, Rng& rng,
                                  const fifteen::SearchBudget& budget) {
  assert(is_search_frame(table, frame));
  const fifteen::IdaSearch& solver = ida_search_of(table, frame);
  const Board& goal = frame.goal();
  SearchedBoard out;
  std::uint64_t left = budget.max_nodes;
  const auto charge = [&](const fifteen::SearchResult& r) {
    out.report = report_of(r, budget.max_nodes - left);
  };
  if (!distance || *distance > kOutwardWalkDistances) {
    for (;;) {
      const Board b = shuffled_board(goal, rng);
      const auto r = search(solver, frame, b, budget, left);
      ++out.draws;
      charge(r);
      if (!distance) {
        out.board = b;
        if (r.status == fifteen::SearchStatus::kSolved) out.distance = r.length;
        return out;
      }
      if (r.status != fifteen::SearchStatus::kSolved) return out;
      if (r.length == *distance) {
        out.board = b;
        out.distance = r.length;
        return out;
      }
      if (left == 0) {
        out.report.status = fifteen::SearchStatus::kBudgetExceeded;
        return out;
      }
    }
  }
  // An outward walk: from the goal, each step to a random neighbour one move
  // farther (a neighbour is one nearer or one farther; the heuristic rules
  // most out, a search settles the rest), so the walk's end is exactly
  // `distance` away. A board with no farther neighbour starts it again.
  for (;;) {
    ++out.draws;
    Board b = goal;
    int k = 0;
    while (k < *distance) {
      std::array<Board, 4> farther;
      int n = 0;
      for (const Move m : kAllMoves) {
        const auto next = apply_move(b, m);
        if (!next) continue;
        if (k == 0 || solver.heuristic(frame.to_section(*next)) > k - 1) {
          farther[static_cast<std::size_t>(n++)] = *next;
          continue;
        }
        const auto r = search(solver, frame, *next, budget, left);
        charge(r);
        if (r.status != fifteen::SearchStatus::kSolved) return out;
        if (r.length == k + 1) farther[static_cast<std::size_t>(n++)] = *next;
      }
      if (n == 0) break;
      b = farther[rng.below(static_cast<std::uint64_t>(n))];
      ++k;
    }
    if (k == *distance) {
      out.report.status = fifteen::SearchStatus::kSolved;
      out.report.nodes = budget.max_nodes - left;
      out.report.lower_bound = out.report.bound = k;
      out.board = b;
      out.distance = k;
      return out;
    }
  }
}

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

SearchedSolution grid_solve(const GridBoard& goal,
                            std::span<const fifteen::PatternSetView> patterns,
                            const grid::Pdb5x5View* pdb5x5, const GridBoard& board, bool with_path,
                            const fifteen::SearchBudget& budget, bool require_optimal,
                            bool fast = false) {
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
    // Not proven within the attempt: a beam search's path (the beam's
    // alone up to kMaxBeamCells, past them the reduction's with the beam's
    // last region), else (the beam finds none within what is left of the
    // budget) the reduction's.
    bool found = false;
    const bool big = board.size() > grid::kMaxBeamCells;
    if (!(fast && big)) {
      fifteen::SearchBudget b = budget;
      b.max_nodes = std::min(kBeamNodes, budget.max_nodes - std::min(budget.max_nodes, r.nodes));
      // On 5x5 over the pattern databases too (beam_search.h), whose value
      // at the start is a lower bound when larger than the attempt's.
      // (Question::grid_fast: MD+LC alone.) Past 25 cells the reduction's
      // path with its last region's moves the beam's (search/region_beam.h;
      // Question::grid_fast: the reduction's alone).
      grid::BeamResult beam;
      bool used_beam = true;
      grid::BeamHeuristic h;  // MD+LC alone, unless the 5x5 databases below
      if (big) {
        grid::RegionBeamResult rb = grid::region_beam(board, goal, kBeamWidth, b, pdb5x5);
        beam = std::move(rb.beam);
        used_beam = rb.used_beam;
      } else {
        if (!fast) h = grid::beam_heuristic(goal, pdb5x5);
        beam = grid::beam_search(board, goal, kBeamWidth, b, h);
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

// The known path (Question::known_path's moves) in place of the answer's
// own path when no longer: the known one wins a tie, so a client following
// hints keeps the one path it holds. A path no longer than the proven lower
// bound is optimal. A search that did not finish keeps its report.
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
                         const grid::Pdb5x5View* pdb5x5, const GridBoard& board, const fifteen::SearchBudget& budget,
                         bool require_optimal, bool fast, const std::vector<Move>* known) {
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

}  // namespace

int Question::max_distance() const {
  assert(table != nullptr && frame && engine != Engine::kGrid);
  return engine == Engine::kPatternSearch ? fifteen::kMaxSolutionLength
                                          : table->view().section(frame->section()).max_distance;
}

Question question_of(const Table& table, const GoalFrame& frame) {
  assert(is_frame_of(table.view(), frame));
  Question q;
  q.table = &table;
  q.frame = frame;
  q.engine = is_search_frame(table, frame) ? Engine::kPatternSearch : Engine::kTable;
  return q;
}

Question grid_question(const GridBoard& goal, const TableSet* tables) {
  assert(is_valid(goal) && is_grid_shape(goal.shape));
  Question q;
  q.engine = Engine::kGrid;
  q.grid_goal = goal;
  if (tables != nullptr && fifteen::is_pattern_shape(goal.shape)) {
    const grid::PatternKey key = grid::pattern_key(goal);
    q.grid_patterns = tables->pattern_sets(key.shape, key.goal_blank);
  }
  if (tables != nullptr && goal.shape == grid::kShape5x5) {
    q.grid_pdb5x5 = tables->pdb5x5_set(grid::pdb5x5_class_blank(blank_cell(goal)));
  } else if (tables != nullptr && goal.size() > grid::kMaxBeamCells) {
    // Past 25 cells the beam runs over the last 5x5 region, whose goal is
    // the standard 5x5 goal on standard goals (search/region_beam.h).
    const GridBoard region_goal = standard_goal(grid::kShape5x5);
    q.grid_pdb5x5 = tables->pdb5x5_set(grid::pdb5x5_class_blank(blank_cell(region_goal)));
  }
  return q;
}

Result<Question> frame_question(const TableSet& tables, const GridBoard& goal) {
  if (is_grid_shape(goal.shape)) return grid_question(goal, &tables);
  auto found = tables.frame(goal);
  if (!found.ok()) return found.error();
  return question_of(*found->table, found->frame);
}

Result<SearchedSolution> solve_board(const Question& q, const GridBoard& board, bool with_path,
                                     const fifteen::SearchBudget& budget, bool require_optimal) {
  assert(is_valid(board));
  if (const auto mismatch = shape_mismatch(board, q.goal())) return *mismatch;
  // A known path is checked here too, in every build: it sizes the path
  // set below (read_question() refused a bad one with the same message).
  std::vector<Move> known;
  if (q.known_path) {
    auto read = read_known_path(board, q.goal(), *q.known_path);
    if (!read.ok()) return read.error();
    known = std::move(read).value();
  }
  SearchedSolution out;
  if (q.engine == Engine::kGrid) {
    out = grid_solve(q.goal(), q.grid_patterns, q.grid_pdb5x5, board, with_path, budget,
                     require_optimal, q.grid_fast);
  } else {
    assert(q.table != nullptr && q.frame && is_frame_of(q.table->view(), *q.frame));
    // A table's or the 4x4 search's: a board of the goal's shape is a Board.
    const Board small = *to_board(board);
    if (q.engine == Engine::kPatternSearch) {
      out = search_solve(*q.table, *q.frame, small, budget);
    } else {
      auto s = q.table->solver().solve(small, *q.frame, with_path);
      if (!s.ok()) return s.error();
      out.solution = *s;
      out.report.status =
          s->solvable ? fifteen::SearchStatus::kSolved : fifteen::SearchStatus::kUnsolvable;
      out.report.lower_bound = out.report.bound = s->solvable ? s->distance : 0;
    }
  }
  if (q.known_path) prefer_known(known, board, with_path, out);
  return out;
}

SearchedMoves board_moves(const Question& q, const GridBoard& board,
                          const fifteen::SearchBudget& budget, bool require_optimal) {
  assert(is_valid(board) && board.shape == q.goal().shape);
  if (q.engine == Engine::kGrid) {
    // A known path that is not a path from here is ignored: read_question()
    // refuses one first, and this answer has no error to give.
    std::optional<std::vector<Move>> known;
    if (q.known_path) {
      auto read = read_known_path(board, q.goal(), *q.known_path);
      assert(read.ok());
      if (read.ok()) known = std::move(read).value();
    }
    return grid_moves(q.goal(), q.grid_patterns, q.grid_pdb5x5, board, budget, require_optimal,
                      q.grid_fast, known ? &*known : nullptr);
  }
  assert(q.table != nullptr && q.frame && is_frame_of(q.table->view(), *q.frame));
  const Board small = *to_board(board);  // the goal's shape, a table's or 4x4
  if (q.engine == Engine::kPatternSearch) return search_moves(*q.table, *q.frame, small, budget);
  SearchedMoves out;
  out.options = q.table->solver().moves(small, *q.frame);
  out.report.status = out.options.distance >= 0 ? fifteen::SearchStatus::kSolved
                                                : fifteen::SearchStatus::kUnsolvable;
  out.report.lower_bound = out.report.bound = std::max(out.options.distance, 0);
  return out;
}

Result<SearchedBoard> draw_board(const Question& q, std::optional<int> distance, Rng& rng,
                                 const fifteen::SearchBudget& budget) {
  assert(q.by_search() || distance.has_value());
  if (q.engine == Engine::kGrid) {
    if (distance) {
      return make_error(ErrorCode::kBadArgument,
                        "distances of " + to_string(q.goal().shape) +
                            " boards are not exact, so none is drawn by distance: ask for a "
                            "random board without one");
    }
    SearchedBoard out;
    out.report.status = fifteen::SearchStatus::kBounded;
    out.board = shuffled_board(q.goal(), rng);
    out.draws = 1;
    return out;
  }
  assert(q.table != nullptr && q.frame && is_frame_of(q.table->view(), *q.frame));
  if (q.engine == Engine::kPatternSearch) {
    return random_search_board(*q.table, *q.frame, distance, rng, budget);
  }
  auto board = random_board(*q.table, *q.frame, *distance, rng, budget.cancel, budget.deadline);
  if (!board.ok()) return board.error();
  SearchedBoard out;
  out.report.lower_bound = out.report.bound = *distance;
  out.board = *board;
  out.distance = *distance;
  out.draws = 1;
  return out;
}

std::string describe_seconds(std::chrono::milliseconds time) {
  const auto ms = time.count();
  std::string out = std::to_string(ms / 1000);
  if (const auto frac = ms % 1000; frac != 0) {
    std::string digits = std::to_string(1000 + frac).substr(1);  // three digits
    while (digits.back() == '0') digits.pop_back();
    out += "." + digits;
  }
  return out + " s";
}

std::string describe_stop(const SearchReport& report, std::uint64_t budget_nodes,
                          std::chrono::milliseconds time_limit) {
  assert(!report.finished());
  std::string why;
  if (report.status == fifteen::SearchStatus::kCancelled) {
    why = "the search was cancelled";
  } else if (report.status == fifteen::SearchStatus::kDeadlineExceeded) {
    why = time_limit.count() > 0
              ? "the search stopped at its deadline of " + describe_seconds(time_limit)
              : "the search stopped at its deadline";
    why += " before its budget of " + std::to_string(budget_nodes) + " nodes";
  } else {
    why = "the search stopped at its budget of " + std::to_string(budget_nodes) + " nodes";
  }
  return why + ": it searched " + std::to_string(report.nodes) +
         " nodes and the distance is at least " + std::to_string(report.lower_bound) + " (bound " +
         std::to_string(report.bound) + " was being searched)";
}

}  // namespace eight
