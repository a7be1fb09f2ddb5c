#include "eight/solver.h"

#include <cassert>

#include "eight/any_rank.h"
#include "eight/descent.h"
#include "eight/rank.h"
#include "frame_check.h"
#include "legal_moves.h"

namespace eight {
namespace {

Error inconsistent(const GoalFrame& goal, std::uint32_t r, const char* what) {
  return make_error(ErrorCode::kBadEntry,
                    "the table contradicts itself at section " + std::to_string(goal.section()) +
                        ", entry " + std::to_string(r) + " (" + what +
                        "): it is corrupt; `eight verify` says more, `eight-tablegen` rebuilds it");
}

}  // namespace

namespace {

// Where a board sits in its frame's section: its rank, or nothing when it
// is of the other class. (The 3x3 full sections take rank.h's path inline in
// the callers; a 3x3 mod-3 section takes it here.)
struct Seen {
  bool same_class = false;
  std::uint32_t rank = 0;
  Board board;  // as the section sees it
};

Seen see(const SectionInfo& section, const GoalFrame& goal, const Board& board) {
  Seen out;
  out.board = goal.to_section(board);
  if (section.shape == kShape3x3) {
    const Ranked r = rank_3x3_with_parity(out.board);
    out.same_class = r.parity == 0;
    out.rank = r.rank;
    return out;
  }
  const auto cells = std::span<const std::uint8_t>(out.board.cells)
                         .first(static_cast<std::size_t>(out.board.size()));
  out.same_class = board_class(out.board) == section.cls;
  if (out.same_class) out.rank = rank_cells(section.shape, cells);
  return out;
}

}  // namespace

int Solver::distance(const Board& board, const GoalFrame& goal) const {
  assert(is_valid(board) && is_frame_of(*table_, goal) && board.shape == goal.goal().shape);
  // (Checked in release builds too: a board of another shape would rank
  // outside the section.)
  if (board.shape != goal.goal().shape) return -1;
  const SectionInfo& section = table_->section(goal.section());
  // The 3x3 full sections first, as before there were others: most
  // questions are theirs, and this is the path the benchmarks hold to.
  if (section.shape == kShape3x3 && section.encoding == format::Encoding::kFull) [[likely]] {
    const Ranked seen = rank_3x3_with_parity(goal.to_section(board));
    if (seen.parity != 0) return -1;
    return table_->entry(goal.section(), seen.rank).distance;
  }
  if (section.encoding == format::Encoding::kPatternDb) return -1;  // answer.h answers these
  if (section.encoding == format::Encoding::kFull) {
    const Seen seen = see(section, goal, board);
    if (!seen.same_class) return -1;
    return table_->entry(goal.section(), seen.rank).distance;
  }
  // A mod-3 section's distance is the length of its descent; a table that
  // leads nowhere answers -1 here (solve() says what is wrong).
  auto s = solve(board, goal, false);
  return s.ok() ? s->distance : -1;
}

Result<Solution> Solver::solve(const Board& board, const GoalFrame& goal, bool with_path) const {
  assert(is_valid(board) && is_frame_of(*table_, goal));
  // The answer made where it is returned, one return of it: a Solution is
  // some 600 bytes, which a copy into the Result cost a 3x3 solve (11%).
  Result<Solution> out{std::in_place};
  if (auto error = fill(board, goal, with_path, *out)) out = *std::move(error);
  return out;
}

std::optional<Error> Solver::fill(const Board& board, const GoalFrame& goal, bool with_path,
                                  Solution& s) const {
  if (const auto mismatch = shape_mismatch(board, goal.goal())) return *mismatch;
  s.board = board;
  s.goal = goal.goal();
  const SectionInfo& section = table_->section(goal.section());
  std::uint32_t r = 0;
  if (section.shape == kShape3x3 && section.encoding == format::Encoding::kFull) [[likely]] {
    const Ranked seen = rank_3x3_with_parity(goal.to_section(board));
    if (seen.parity != 0) return std::nullopt;
    r = seen.rank;
  } else {
    if (section.encoding == format::Encoding::kPatternDb) {
      // (A precondition the server and CLI keep: they ask answer.h.)
      return make_error(ErrorCode::kBadArgument,
                        "4x4 boards are answered by a search (eight/answer.h), not from a table");
    }
    const Seen seen = see(section, goal, board);
    if (!seen.same_class) return std::nullopt;
    if (section.encoding == format::Encoding::kMod3) {
      s.solvable = true;
      return solve_mod3(section, goal, seen.board, s);
    }
    r = seen.rank;
  }
  s.solvable = true;
  auto e = table_->entry(goal.section(), r);
  if (e.distance > section.max_distance) {
    return inconsistent(goal, r, "its distance is over the section's max");
  }
  s.distance = e.distance;
  if (!with_path) return std::nullopt;
  // Each step is checked rather than trusted: the move must stay on the
  // board, the parent must be in range and one move closer. Distances fall
  // by one a step from at most the section's max distance (at most
  // kMaxDistance, the room in Solution), so the walk always ends.
  //
  // What the walk reads from `section`, `goal` and `board` is held in
  // locals first: its byte stores into `s` (the caller's) may alias anything
  // a pointer reaches, so each step would load those again (8 instructions
  // a step, a quarter of a 3x3 solve's instructions, by callgrind).
  const std::uint8_t* const entries = section.entries;
  const std::uint32_t positions = section.positions;
  const Shape shape = board.shape;
  std::array<Move, 4> to_board_move{};
  for (const Move m : kAllMoves) to_board_move[static_cast<std::size_t>(m)] = goal.from_section(m);
  Board cur = board;
  int blank = blank_cell(board);
  for (int i = 0; i < s.distance; ++i) {
    const Move m = to_board_move[static_cast<std::size_t>(e.move)];
    const int to = neighbor(shape, blank, m);
    if (to < 0) return inconsistent(goal, r, "its move leaves the board");
    if (e.parent >= positions) return inconsistent(goal, r, "its parent is out of range");
    const auto next = format::entry_at(entries, e.parent);
    if (next.distance + 1 != e.distance) {
      return inconsistent(goal, r, "its parent is not one move closer");
    }
    s.moves[static_cast<std::size_t>(i)] = m;
    s.tiles[static_cast<std::size_t>(i)] = cur.cells[static_cast<std::size_t>(to)];
    cur.cells[static_cast<std::size_t>(blank)] = cur.cells[static_cast<std::size_t>(to)];
    cur.cells[static_cast<std::size_t>(to)] = 0;
    blank = to;
    r = e.parent;
    e = next;
  }
  if (cur != s.goal) return inconsistent(goal, r, "its path does not end at the goal");
  s.length = s.distance;
  return std::nullopt;
}

std::optional<Error> Solver::solve_mod3(const SectionInfo& section, const GoalFrame& goal,
                                        const Board& seen, Solution& s) const {
  const auto cells =
      std::span<const std::uint8_t>(seen.cells).first(static_cast<std::size_t>(seen.size()));
  // descend() checks every read against the section's bytes and bounds the
  // walk by its max distance (at most kMaxDistance, the room in Solution).
  auto path =
      descend(section.shape, section.mod3(), section.max_distance, section.goal_rank, cells);
  if (!path.ok()) {
    return make_error(ErrorCode::kBadEntry,
                      "section " + std::to_string(goal.section()) + ": " + path.error().message +
                          "; `eight verify` says more, `eight-tablegen` rebuilds it");
  }
  assert(path->distance <= format::kMaxDistance);
  s.distance = path->distance;
  GridBoard cur = s.board;
  int blank = blank_cell(cur);
  for (int i = 0; i < s.distance; ++i) {
    const Move m = goal.from_section(path->moves[static_cast<std::size_t>(i)]);
    const int to = neighbor(cur.shape, blank, m);
    // descend() made only legal moves; their images are legal too.
    assert(to >= 0);
    s.moves[static_cast<std::size_t>(i)] = m;
    s.tiles[static_cast<std::size_t>(i)] = cur.cells[static_cast<std::size_t>(to)];
    cur.cells[static_cast<std::size_t>(blank)] = cur.cells[static_cast<std::size_t>(to)];
    cur.cells[static_cast<std::size_t>(to)] = 0;
    blank = to;
  }
  s.length = s.distance;
  return std::nullopt;
}

MoveOptions Solver::moves(const Board& board, const GoalFrame& goal) const {
  assert(is_valid(board) && is_frame_of(*table_, goal) && board.shape == goal.goal().shape);
  MoveOptions out;
  out.distance = distance(board, goal);
  LegalMoves legal = legal_moves(board);
  for (MoveOption& o : legal.moves()) {
    o.distance = distance(*to_board(o.next), goal);
    o.optimal = out.distance > 0 && o.distance == out.distance - 1;
  }
  out.set_best_first(legal.moves());
  return out;
}

void MoveOptions::set_best_first(std::span<const MoveOption> legal) {
  assert(legal.size() <= moves.size());
  count = 0;
  for (const bool best : {true, false}) {
    for (const MoveOption& o : legal) {
      if ((o.optimal || o.hint) == best) moves[static_cast<std::size_t>(count++)] = o;
    }
  }
}

std::string_view method_name(Method m) {
  switch (m) {
    case Method::kTable:
      return "table";
    case Method::kPatternSearch:
      return "pattern-search";
    case Method::kManhattanSearch:
      return "manhattan-search";
    case Method::kReduction:
      return "reduction";
    case Method::kBeamSearch:
      return "beam-search";
  }
  assert(false);
  return "table";
}

std::optional<Method> method_from_name(std::string_view name) {
  for (const Method m : {Method::kTable, Method::kPatternSearch, Method::kManhattanSearch,
                         Method::kReduction, Method::kBeamSearch}) {
    if (method_name(m) == name) return m;
  }
  return std::nullopt;
}

}  // namespace eight
