#include "eight/goal.h"

#include <cassert>
#include <cstdint>
#include <memory>

#include "relabel.h"

namespace eight {
namespace {

// (row, col) -> (row', col') for each symmetry, identity first, about the
// board's middle.
constexpr std::array<std::array<int, 4>, 8> kLinear = {{
    // row' = a*row + b*col, col' = c*row + d*col in centred coordinates;
    // entries are a b c d.
    {1, 0, 0, 1},    // identity
    {0, 1, -1, 0},   // rotate 90 clockwise: (r, c) -> (c, R-1-r)
    {-1, 0, 0, -1},  // rotate 180
    {0, -1, 1, 0},   // rotate 270: (r, c) -> (C-1-c, r)
    {1, 0, 0, -1},   // mirror left-right
    {-1, 0, 0, 1},   // mirror top-bottom
    {0, 1, 1, 0},    // transpose
    {0, -1, -1, 0},  // anti-transpose
}};

bool swaps_axes(const std::array<int, 4>& m) {
  return m[0] == 0;
}

std::array<Symmetry, 8> make_symmetries(Shape from) {
  std::array<Symmetry, 8> all{};
  const int rows = from.rows, cols = from.cols;
  for (std::size_t k = 0; k < 8; ++k) {
    const auto& m = kLinear[k];
    Symmetry& s = all[k];
    s.from = from;
    s.to = swaps_axes(m) ? from.transposed() : from;
    for (int cell = 0; cell < from.cells(); ++cell) {
      // Doubled coordinates centred on the middle, so the map is linear.
      const int r = cell / cols * 2 - (rows - 1);
      const int c = cell % cols * 2 - (cols - 1);
      const int r2 = (m[0] * r + m[1] * c + (s.to.rows - 1)) / 2;
      const int c2 = (m[2] * r + m[3] * c + (s.to.cols - 1)) / 2;
      s.cell_map[static_cast<std::size_t>(cell)] = static_cast<std::uint8_t>(r2 * s.to.cols + c2);
    }
    // A move's step maps by the linear part alone.
    for (Move mv : kAllMoves) {
      const int dr = kMoveRowDelta[static_cast<int>(mv)];
      const int dc = kMoveColDelta[static_cast<int>(mv)];
      const int dr2 = m[0] * dr + m[1] * dc, dc2 = m[2] * dr + m[3] * dc;
      for (Move m2 : kAllMoves) {
        if (kMoveRowDelta[static_cast<int>(m2)] == dr2 &&
            kMoveColDelta[static_cast<int>(m2)] == dc2) {
          s.move_map[static_cast<int>(mv)] = m2;
          s.inverse_move_map[static_cast<int>(m2)] = mv;
        }
      }
    }
  }
  return all;
}

// [rows-1][cols-1]: 81 shapes of 8 symmetries, about 75 KB, built once.
using AllSymmetries = std::array<std::array<std::array<Symmetry, 8>, kMaxSide>, kMaxSide>;

AllSymmetries make_all_symmetries() {
  AllSymmetries all{};
  for (std::uint8_t rows = 2; rows <= kMaxSide; ++rows) {
    for (std::uint8_t cols = 2; cols <= kMaxSide; ++cols) {
      const Shape s{rows, cols};
      if (is_board_shape(s)) all[rows - 1u][cols - 1u] = make_symmetries(s);
    }
  }
  return all;
}

}  // namespace

const std::array<Symmetry, 8>& symmetries(Shape s) {
  assert(is_board_shape(s));
  static const auto kAll = std::make_unique<const AllSymmetries>(make_all_symmetries());
  return (*kAll)[s.rows - 1u][s.cols - 1u];
}

namespace {

// For the asserts: a hand-built Symmetry could map two cells onto one, or
// off the board.
[[maybe_unused]] bool is_symmetry(const Symmetry& s) {
  if (!is_board_shape(s.from)) return false;
  for (const Symmetry& t : symmetries(s.from)) {
    if (s.to == t.to && s.cell_map == t.cell_map && s.move_map == t.move_map &&
        s.inverse_move_map == t.inverse_move_map) {
      return true;
    }
  }
  return false;
}

}  // namespace

template <int kCapacity>
BasicBoard<kCapacity> transform(const BasicBoard<kCapacity>& b, const Symmetry& s) {
  assert(is_symmetry(s) && is_valid(b) && b.shape == s.from);
  BasicBoard<kCapacity> out;
  out.shape = s.to;
  for (int i = 0; i < b.size(); ++i)
    out.cells[s.cell_map[static_cast<std::size_t>(i)]] = b.cells[static_cast<std::size_t>(i)];
  return out;
}
template Board transform(const Board&, const Symmetry&);
template GridBoard transform(const GridBoard&, const Symmetry&);

bool is_canonical_goal(const Board& b) {
  // Only a valid board has a blank_cell() to ask canonical_goal() about.
  return is_valid(b) && b == canonical_goal<Board>(blank_cell(b), b.shape);
}

GoalFrame::GoalFrame(const Board& goal, std::size_t section, const Symmetry& symmetry)
    : goal_(goal), section_(section), class_(eight::board_class(goal)), symmetry_(symmetry) {
  assert(is_valid(goal) && goal.size() <= kMaxSectionCells && is_symmetry(symmetry) &&
         symmetry.from == goal.shape);
  const Board seen = transform(goal, symmetry);
  std::uint8_t next = 1;
  for (int i = 0; i < seen.size(); ++i) {
    const std::uint8_t t = seen.cells[static_cast<std::size_t>(i)];
    if (t != 0) {
      unlabel_[next] = t;
      label_[t] = next++;
    }
  }
  for (int i = 0; i < goal.size(); ++i) {
    source_cell_[symmetry.cell_map[static_cast<std::size_t>(i)]] = static_cast<std::uint8_t>(i);
  }
}

// relabel_head reads 16 bytes of label_, unlabel_ and source_cell_, and its
// 16 lanes hold every section.
static_assert(kMaxSectionCells == 16);

Board GoalFrame::to_section(const Board& b) const {
  // Sections (tables' and pattern databases') have at most 16 cells.
  assert(is_valid(b) && b.shape == goal_.shape && b.size() <= kMaxSectionCells);
  Board out;
  out.shape = symmetry_.to;
  detail::relabel_head(b.cells.data(), source_cell_.data(), label_.data(), b.size(),
                       out.cells.data());
  return out;
}

Board GoalFrame::from_section(const Board& b) const {
  assert(is_valid(b) && b.shape == symmetry_.to);
  Board out;
  out.shape = goal_.shape;
  // Cell i read from the section's cell_map[i], then named back.
  detail::relabel_head(b.cells.data(), symmetry_.cell_map.data(), unlabel_.data(), out.size(),
                       out.cells.data());
  return out;
}

}  // namespace eight
