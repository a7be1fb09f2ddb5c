#include "search/last_region.h"

#include <cassert>
#include <cstdint>

#include "line_conflicts.h"
#include "search/ida.h"

namespace eight::reduction {
namespace {

// The region's distance is at most 31 (3x3) or 36 (2x4): IDA* never needs a
// bound past this one, which stops it on a board that breaks the REQUIRES.
constexpr int kMaxLastBound = 80;

// The whole board's heuristic, its moves kept inside the region. With every
// tile outside the region home, the board's Manhattan distance and linear
// conflicts are the region's: the tiles outside add no distance, and on a
// line through the region they stand before and after its tiles in their
// goal order, so they lengthen its longest ordered run by their count and
// leave its conflicts as they are.
class Domain {
 public:
  Domain(const Geometry& g, const grid::Geometry& goal, const std::uint8_t* cells, const Rect& r)
      : g_(g), goal_(goal), board_(goal, cells), r_(r) {}

  int h() const { return board_.h(); }
  bool at_goal() const { return board_.md == 0; }  // every tile home, so the blank too
  int blank() const { return board_.blank; }
  int target(Move m) const {
    const int c = g_.neighbor(board_.blank, static_cast<int>(m));
    return c >= 0 && inside(c) ? c : -1;
  }
  void slide(int to) { board_.slide(goal_, to); }
  search::Visit visit() const { return search::Visit::kExpand; }

 private:
  bool inside(int c) const {
    const int row = g_.row(c), col = g_.col(c);
    return row >= r_.r0 && row < r_.r1 && col >= r_.c0 && col < r_.c1;
  }

  const Geometry& g_;
  const grid::Geometry& goal_;
  grid::MdLcBoard board_;
  Rect r_;
};

}  // namespace

std::vector<Move> solve_last_region(const Geometry& g, const State& s, const Rect& r) {
  // The board in line_conflicts.h's terms, whose blank is tile 0: the tile
  // named 0 (goal cell 0's) and the blank trade names.
  const auto named = [&](int tile) {
    return static_cast<std::uint8_t>(tile == s.blank_tile ? 0 : tile == 0 ? s.blank_tile : tile);
  };
  GridBoard goal;
  goal.shape = Shape{static_cast<std::uint8_t>(g.rows), static_cast<std::uint8_t>(g.cols)};
  std::array<std::uint8_t, kMaxCells> cells{};
  for (int c = 0; c < g.cells; ++c) {
    goal.cells[static_cast<std::size_t>(c)] = named(c);
    cells[static_cast<std::size_t>(c)] = named(s.at[static_cast<std::size_t>(c)]);
  }
  const grid::Geometry heuristic(goal);
  Domain domain(g, heuristic, cells.data(), r);
  search::Ida<Domain> ida(domain);
  if (ida.solve(kMaxLastBound)) return ida.path();
  assert(false && "the last region cannot be solved: the board breaks the REQUIRES");
  return {};
}

}  // namespace eight::reduction
