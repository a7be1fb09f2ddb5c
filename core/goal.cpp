#include "eight/goal.h"

#include <cassert>

namespace eight {
namespace {

// (row, col) -> (row', col') for each symmetry of the square, identity first.
constexpr int kSize = kRows - 1;
constexpr std::array<std::array<int, 4>, 8> kLinear = {{
    // row' = a*row + b*col + .., col' = c*row + d*col + ..; entries are a b c d.
    {1, 0, 0, 1},    // identity
    {0, 1, -1, 0},   // rotate 90 clockwise: (r, c) -> (c, 2-r)
    {-1, 0, 0, -1},  // rotate 180
    {0, -1, 1, 0},   // rotate 270: (r, c) -> (2-c, r)
    {1, 0, 0, -1},   // mirror left-right
    {-1, 0, 0, 1},   // mirror top-bottom
    {0, 1, 1, 0},    // transpose
    {0, -1, -1, 0},  // anti-transpose
}};

int map_cell(const std::array<int, 4>& m, int cell) {
  // Centre the coordinates so the linear part acts about the middle cell.
  const int r = cell / kCols * 2 - kSize;
  const int c = cell % kCols * 2 - kSize;
  const int r2 = (m[0] * r + m[1] * c + kSize) / 2;
  const int c2 = (m[2] * r + m[3] * c + kSize) / 2;
  return r2 * kCols + c2;
}

std::array<Symmetry, 8> make_symmetries() {
  constexpr int kCentre = kCells / 2;
  std::array<Symmetry, 8> all{};
  for (int k = 0; k < 8; ++k) {
    Symmetry& s = all[k];
    for (int cell = 0; cell < kCells; ++cell) {
      s.cell_map[cell] = static_cast<std::uint8_t>(map_cell(kLinear[k], cell));
    }
    // A move's direction maps like the step from the centre to its neighbour.
    for (Move m : kAllMoves) {
      const int target = s.cell_map[neighbor(kCentre, m)];
      for (Move m2 : kAllMoves) {
        if (neighbor(kCentre, m2) == target) {
          s.move_map[static_cast<int>(m)] = m2;
          s.inverse_move_map[static_cast<int>(m2)] = m;
        }
      }
    }
  }
  return all;
}

}  // namespace

const std::array<Symmetry, 8>& symmetries() {
  static const std::array<Symmetry, 8> kAll = make_symmetries();
  return kAll;
}

namespace {

// For the asserts: a hand-built Symmetry could map two cells onto one, or
// off the board.
[[maybe_unused]] bool is_symmetry(const Symmetry& s) {
  for (const Symmetry& t : symmetries()) {
    if (s.cell_map == t.cell_map && s.move_map == t.move_map &&
        s.inverse_move_map == t.inverse_move_map) {
      return true;
    }
  }
  return false;
}

}  // namespace

Board transform(const Board& b, const Symmetry& s) {
  assert(is_symmetry(s));
  Board out;
  for (int i = 0; i < kCells; ++i) out.cells[s.cell_map[i]] = b.cells[i];
  return out;
}

Board canonical_goal(int blank) {
  assert(blank >= 0 && blank < kCells);
  Board g;
  std::uint8_t tile = 1;
  for (int i = 0; i < kCells; ++i) g.cells[i] = i == blank ? 0 : tile++;
  return g;
}

bool is_canonical_goal(const Board& b) {
  // Only a valid board has a blank_cell() to ask canonical_goal() about.
  return is_valid(b) && b == canonical_goal(blank_cell(b));
}

GoalFrame::GoalFrame(const Board& goal, std::size_t section, const Symmetry& symmetry)
    : goal_(goal), section_(section), parity_(tile_parity(goal)), symmetry_(symmetry) {
  assert(is_valid(goal) && is_symmetry(symmetry));
  const Board seen = transform(goal, symmetry);
  std::uint8_t next = 1;
  for (std::uint8_t t : seen.cells) {
    if (t != 0) {
      unlabel_[next] = t;
      label_[t] = next++;
    }
  }
}

Board GoalFrame::to_section(const Board& b) const {
  assert(is_valid(b));
  Board out;
  for (int i = 0; i < kCells; ++i) {
    out.cells[symmetry_.cell_map[i]] = label_[b.cells[i]];
  }
  return out;
}

Board GoalFrame::from_section(const Board& b) const {
  assert(is_valid(b));
  Board out;
  for (int i = 0; i < kCells; ++i) {
    out.cells[i] = unlabel_[b.cells[symmetry_.cell_map[i]]];
  }
  return out;
}

}  // namespace eight
