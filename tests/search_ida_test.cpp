// The one IDA* driver (core/search/ida.h) and the one Manhattan distance
// plus linear conflicts (core/line_conflicts.h) on their own: the driver's
// paths are optimal against a breadth-first search that shares no code with
// it, with the child's heuristic asked before the move or after; a domain's
// kStop ends the search and kSkip only the node; the heuristic kept as
// tiles slide is the one counted from scratch on every shape, line by line.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "line_conflicts.h"
#include "search/ida.h"
#include "support.h"

using namespace eight;

namespace {

// A whole board over Manhattan distance plus linear conflicts, with a
// budget of visits: past it, every node is kSkip or kStop as asked.
// `kPrune` adds h_after(), so the driver prunes a child before its move.
template <bool kPrune>
class BoardDomain {
 public:
  BoardDomain(const grid::Geometry& g, const GridBoard& start, int budget, search::Visit past)
      : g_(g), shape_(start.shape), board_(g, start.cells.data()), budget_(budget), past_(past) {}

  int h() const { return board_.h(); }
  bool at_goal() const { return board_.md == 0; }
  int blank() const { return board_.blank; }
  int target(Move m) const { return neighbor(shape_, board_.blank, m); }
  void slide(int to) { board_.slide(g_, to); }
  search::Visit visit() { return ++visits_ > budget_ ? past_ : search::Visit::kExpand; }
  int h_after(int to) const requires kPrune {
    grid::MdLcBoard copy = board_;
    copy.slide(g_, to);
    return copy.h();
  }

  int visits() const { return visits_; }
  const grid::MdLcBoard& board() const { return board_; }

 private:
  const grid::Geometry& g_;
  Shape shape_;
  grid::MdLcBoard board_;
  int budget_;
  search::Visit past_;
  int visits_ = 0;
};

template <bool kPrune>
std::optional<std::vector<Move>> ida_path(const GridBoard& start, const GridBoard& goal) {
  const grid::Geometry g(goal);
  BoardDomain<kPrune> domain(g, start, 1 << 30, search::Visit::kStop);
  search::Ida<BoardDomain<kPrune>> ida(domain);
  if (!ida.solve(100)) return std::nullopt;
  return ida.path();
}

}  // namespace

TEST_CASE(
    "the IDA* driver finds optimal paths, asking a child's heuristic before its move or not") {
  Rng rng(41);
  for (const Shape s : {Shape{2, 3}, Shape{3, 2}, Shape{2, 4}}) {
    const GridBoard goal = canonical_goal(s.cells() - 1, s);
    const test::NaiveDistances exact = test::bfs_distances(goal);
    for (int i = 0; i < 40; ++i) {
      const GridBoard start = test::walk(goal, 5 + static_cast<int>(rng.below(40)), rng);
      const auto d = exact.find(test::cells_key(start));
      REQUIRE(d.has_value());
      const auto after = ida_path<false>(start, goal);
      const auto before = ida_path<true>(start, goal);
      REQUIRE(after.has_value());
      REQUIRE(before.has_value());
      CHECK(static_cast<int>(after->size()) == *d);
      CHECK(*before == *after);  // the same search, pruned earlier
      const auto end = test::replay(start, std::span<const Move>(*after));
      REQUIRE(end.has_value());
      CHECK(*end == goal);
    }
  }
}

TEST_CASE("the IDA* driver stops when its domain says stop, with the board put back") {
  const GridBoard goal = canonical_goal(8, kShape3x3);
  Rng rng(7);
  const GridBoard start = test::walk(goal, 30, rng);
  const grid::Geometry g(goal);
  BoardDomain<false> domain(g, start, 10, search::Visit::kStop);
  search::Ida<BoardDomain<false>> ida(domain);
  CHECK_FALSE(ida.solve(100));
  CHECK(ida.stopped());
  CHECK(domain.visits() == 11);  // the eleventh was refused, and nothing after it asked
  CHECK(ida.path().empty());
  for (int c = 0; c < 9; ++c) {
    CHECK(domain.board().cells[static_cast<std::size_t>(c)] ==
          start.cells[static_cast<std::size_t>(c)]);
  }
}

TEST_CASE("a node the domain skips is not expanded, and a child at the goal is still found") {
  const GridBoard goal = canonical_goal(8, kShape3x3);
  const grid::Geometry g(goal);
  // One move from the goal: the root is expanded (the one visit allowed)
  // and its child at the goal ends the search before any visit of its own.
  const GridBoard one = *apply_move(goal, Move::kUp);
  BoardDomain<false> near(g, one, 1, search::Visit::kSkip);
  search::Ida<BoardDomain<false>> found(near);
  REQUIRE(found.iterate(1));
  CHECK(found.path() == std::vector<Move>{Move::kDown});
  // Two moves away: the children are skipped, the search is not stopped,
  // and the next bound is still the least f past this one.
  const GridBoard two = *apply_move(one, Move::kLeft);
  BoardDomain<false> far(g, two, 1, search::Visit::kSkip);
  search::Ida<BoardDomain<false>> not_found(far);
  CHECK_FALSE(not_found.iterate(2));
  CHECK_FALSE(not_found.stopped());
  CHECK(far.visits() > 1);
}

TEST_CASE(
    "Manhattan plus linear conflicts kept as tiles slide is the sum from scratch on every "
    "shape, and so is each line's conflicts") {
  // slid() recounts only a line the moved tile belongs on: every line's
  // count is checked, not only the sum, so a line it should have recounted
  // and did not shows at once.
  Rng rng(19);
  for (const Shape s : kBoardShapes) {
    const GridBoard goal = test::walk(canonical_goal(0, s), 200, rng);
    const grid::Geometry g(goal);
    GridBoard b = test::walk(goal, 50, rng);
    grid::MdLcBoard kept(g, b.cells.data());
    REQUIRE(kept.h() == grid::manhattan_linear_conflict(g, b.cells.data()));
    for (int i = 0; i < 400; ++i) {
      const Move m = kAllMoves[rng.below(4)];
      const auto next = apply_move(b, m);
      if (!next) continue;
      b = *next;
      kept.slide(g, blank_cell(b));
      REQUIRE(kept.h() == grid::manhattan_linear_conflict(g, b.cells.data()));
      REQUIRE(kept.blank == blank_cell(b));
      grid::LineConflicts counted;
      counted.count(g, b.cells.data());
      REQUIRE(kept.lc.row == counted.row);
      REQUIRE(kept.lc.col == counted.col);
    }
  }
}
