// The one parser for every board notation: parse_board() and
// parse_board_line() of include/eight/board.h.
#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstring>

#include "eight/board.h"

namespace eight {

namespace {

// Describes one byte for an error message: printable ASCII as itself, the
// rest as a hex byte, so messages stay plain ASCII whatever came in.
std::string describe_byte(unsigned char c) {
  char buf[32];
  if (c >= 0x21 && c < 0x7f) {
    std::snprintf(buf, sizeof buf, "'%c'", c);
  } else {
    std::snprintf(buf, sizeof buf, "byte 0x%02X", c);
  }
  return buf;
}

// The cells a text writes, up to kKept of them (the rest only counted), with
// the position of each in the text and the lengths of its rows.
struct Scanned {
  static constexpr int kKept = 2 * kMaxCells;
  // Tiles in a row of their own, zero past `count`, so that a board's cells
  // are one copy of the first kMaxCells.
  std::array<std::uint8_t, kKept> tiles{};
  // The 1-based position of each cell's first character. This and
  // row_lengths are left uninitialised past `count` and `rows`: parse_board
  // is asked on every request.
  std::array<std::uint32_t, kKept> positions;
  int count = 0;
  // Cells per non-empty row; `rows` counts them (up to kKept kept).
  std::array<int, kKept> row_lengths;
  int rows = 0;
};

// What each byte is to the scanner.
enum CharClass : std::uint8_t { kBad, kDigit, kBlankLetter, kSeparator, kRowSeparator };
constexpr std::array<std::uint8_t, 256> make_char_classes() {
  std::array<std::uint8_t, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[static_cast<std::size_t>(c)] = kDigit;
  for (const char c : {'x', 'X', '_'}) t[static_cast<unsigned char>(c)] = kBlankLetter;
  for (const char c : {' ', '\t', ',', '\r'}) t[static_cast<unsigned char>(c)] = kSeparator;
  for (const char c : {'/', '\n'}) t[static_cast<unsigned char>(c)] = kRowSeparator;
  return t;
}
constexpr std::array<std::uint8_t, 256> kCharClasses = make_char_classes();

// Scans `text` into `out`, or says what character is wrong with it.
//
// One pass reads every character as a cell. Runs of characters between
// separators are tiles written as numbers instead when there are two or
// more runs, some run has two characters and every run is a number 0..15
// without a leading zero or a blank letter, or when there are more than 16
// runs (a board past 4x4's cells) and every run is such a number 0..99:
// then a second pass reads each run as one cell. (Where every run is one
// character the two readings are the same cells, so boards of single-digit
// tiles take the one pass.) Between 10 and 16 runs, a number 16..99 is a
// tile out of range; below 10, such runs are digits ("12 34 56 78 0").
std::optional<Error> scan_cells(std::string_view text, std::size_t max_text, Scanned& out) {
  if (text.size() > max_text) {
    return make_error(ErrorCode::kBoardTooLong, "board is " + std::to_string(text.size()) +
                                                    " characters long; at most " +
                                                    std::to_string(max_text) + " are allowed");
  }
  // Counters in locals, stored once at the end: a byte store may alias
  // anything, so counters kept in `out` would be reloaded after every tile.
  int count = 0;
  int rows = 0;
  int row_cells = 0;
  int runs = 0;
  std::size_t run_length = 0;
  bool long_runs = false;        // some run has two characters or more
  bool runs_are_numbers = true;  // every run is a number 0..15 or a blank letter
  // Every run a number of one or two digits (no leading zero) or a blank
  // letter, and the first two-digit one over 15: a tile out of range in a
  // board written as numbers ("... 14 16").
  bool runs_are_short_numbers = true;
  int big_tile = 0;
  std::size_t big_at = 0;
  char run_first = 0;
  char run_second = 0;
  std::size_t run_start = 0;
  const auto end_row = [&] {
    if (row_cells == 0) return;
    if (rows < Scanned::kKept) out.row_lengths[static_cast<std::size_t>(rows)] = row_cells;
    ++rows;
    row_cells = 0;
  };
  const auto keep = [&](int tile, std::size_t position) {
    if (count < Scanned::kKept) {
      out.tiles[static_cast<std::size_t>(count)] = static_cast<std::uint8_t>(tile);
      out.positions[static_cast<std::size_t>(count)] = static_cast<std::uint32_t>(position + 1);
    }
    ++count;
    ++row_cells;
  };
  const auto end_run = [&] {
    if (run_length == 1) return;
    long_runs = true;
    // Two characters, 10..15: a number; anything longer or else: digits.
    if (run_length != 2 || run_first != '1') runs_are_numbers = false;
    if (run_length > 2) runs_are_short_numbers = false;
    const int value = (run_first - '0') * 10 + (run_second - '0');
    if (run_length == 2 && runs_are_short_numbers && value > 15 && big_tile == 0) {
      big_tile = value;
      big_at = run_start;
    }
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const std::uint8_t cls = kCharClasses[static_cast<unsigned char>(c)];
    if (cls == kDigit || cls == kBlankLetter) {
      keep(cls == kDigit ? c - '0' : 0, i);
      if (run_length == 0) {
        run_first = c;
        run_start = i;
      } else {
        if (cls == kBlankLetter || run_first > '9' || c > '5') {
          runs_are_numbers = false;  // "1x", "x1", "16"...
        }
        if (cls == kBlankLetter || run_first > '9' || run_first == '0') {
          runs_are_short_numbers = false;
        }
        if (run_length == 1) run_second = c;
      }
      ++run_length;
      continue;
    }
    if (cls == kBad) {
      return make_error(ErrorCode::kBadCharacter,
                        describe_byte(static_cast<unsigned char>(c)) + " at position " +
                            std::to_string(i + 1) +
                            " is not allowed: use numbers for tiles (1-8 on a 3x3 board), 0, x, "
                            "X or _ for the blank, and spaces, commas or slashes between cells");
    }
    if (run_length != 0) {
      end_run();
      ++runs;
      run_length = 0;
    }
    if (cls == kRowSeparator) end_row();
  }
  if (run_length != 0) {
    end_run();
    ++runs;
  }
  // More runs than 4x4 has cells: a larger board, whose tiles go to 99.
  const bool large = runs > 16;
  if (long_runs && runs_are_short_numbers && big_tile != 0 && runs >= 10 && !large) {
    return make_error(ErrorCode::kTileOutOfRange,
                      "tile " + std::to_string(big_tile) + " at position " +
                          std::to_string(big_at + 1) +
                          " is out of range: a board of 16 cells or fewer has tiles up to 15");
  }
  end_row();
  if (long_runs && runs >= 2 && (runs_are_numbers || (large && runs_are_short_numbers))) {
    // Tiles written as numbers: each run is one cell.
    out.tiles.fill(0);
    count = 0;
    rows = 0;
    row_cells = 0;
    std::size_t i = 0;
    while (i < text.size()) {
      const std::uint8_t cls = kCharClasses[static_cast<unsigned char>(text[i])];
      if (cls == kSeparator || cls == kRowSeparator) {
        if (cls == kRowSeparator) end_row();
        ++i;
        continue;
      }
      const std::size_t start = i;
      int tile = 0;
      for (; i < text.size() && kCharClasses[static_cast<unsigned char>(text[i])] == kDigit; ++i) {
        tile = tile * 10 + (text[i] - '0');
      }
      if (i == start) ++i;  // a blank letter: tile 0
      keep(tile, start);
    }
    end_row();
  }
  out.count = count;
  out.rows = rows;
  return std::nullopt;
}

// How many shapes (kBoardShapes) have n cells, and the one a count alone
// means, for n up to kMaxCells: the square when one has n cells (it comes
// first in kBoardShapes), else the only shape, if one has it alone.
struct ShapesOfSize {
  int count = 0;
  Shape first;
  bool square = false;
};
constexpr std::array<ShapesOfSize, kMaxCells + 1> make_shapes_of_size() {
  std::array<ShapesOfSize, kMaxCells + 1> t{};
  for (const Shape s : kBoardShapes) {
    auto& entry = t[static_cast<std::size_t>(s.cells())];
    if (entry.count++ == 0) entry.first = s;
    entry.square |= s.square();
  }
  return t;
}
constexpr std::array<ShapesOfSize, kMaxCells + 1> kShapesOfSize = make_shapes_of_size();

bool is_board_size(int n) {
  return n >= 0 && n <= kMaxCells && kShapesOfSize[static_cast<std::size_t>(n)].count > 0;
}

std::string shape_list(int cells) {
  std::string out;
  int listed = 0, total = 0;
  for (const Shape s : kBoardShapes) total += s.cells() == cells ? 1 : 0;
  for (const Shape s : kBoardShapes) {
    if (s.cells() != cells) continue;
    if (listed > 0) out += listed + 1 == total ? " and " : ", ";
    out += to_string(s);
    ++listed;
  }
  return out;
}

// The error for `count` cells, a size no board has: the sizes nearest
// below and above it, with their shapes ("no board has 17 cells; the
// nearest sizes are 16 (2x8, 4x4 and 8x2) and 18 (2x9, 3x6, 6x3 and 9x2)").
Error no_board_of(int count) {
  std::string message = "no board has " + std::to_string(count) + " cells; the nearest ";
  int below = count - 1, above = count + 1;
  while (below > 0 && !is_board_size(below)) --below;
  while (above <= kMaxCells && !is_board_size(above)) ++above;
  const auto size = [](int n) { return std::to_string(n) + " (" + shape_list(n) + ")"; };
  if (below > 0 && above <= kMaxCells) {
    message += "sizes are " + size(below) + " and " + size(above);
  } else {
    message += "size is " + size(below > 0 ? below : above);
  }
  return make_error(ErrorCode::kWrongCellCount, std::move(message));
}

// Some of a scan's cells: `size` of them from index `from`.
struct Cells {
  const Scanned* scan;
  int from;
  int size;

  std::uint8_t tile(int i) const { return scan->tiles[static_cast<std::size_t>(from + i)]; }
  std::uint32_t position(int i) const {
    return scan->positions[static_cast<std::size_t>(from + i)];
  }
  // The first n. REQUIRES: n <= size.
  Cells first(int n) const { return {scan, from, n}; }
};

// What is wrong with cells as the n cells of a board, found without
// building a message (parsing is on every request's path; the message only
// on a refusal's): a tile out of range, no blank or several, a tile twice.
struct TileCheck {
  enum Kind : std::uint8_t { kOk, kOutOfRange, kNoBlank, kTwoBlanks, kDuplicate } kind = kOk;
  int tile = 0;     // out of range, or duplicated
  int where = 0;    // its position, or how many times it appears (blanks too)
  int missing = 0;  // for a duplicate: the smallest tile missing
};

// Inlined: returned through the stack, its fields would be stored piecewise
// and loaded whole, a store-forwarding stall on every parse.
[[gnu::always_inline]] inline TileCheck check_tiles(Cells cells) {
  const int n = cells.size;
  int times[kMaxCells] = {};
  for (int i = 0; i < n; ++i) {
    const int tile = cells.tile(i);
    if (tile >= n) return {TileCheck::kOutOfRange, tile, static_cast<int>(cells.position(i))};
    ++times[tile];
  }
  if (times[0] == 0) return {TileCheck::kNoBlank};
  if (times[0] > 1) return {TileCheck::kTwoBlanks, 0, times[0]};
  for (int t = 1; t < n; ++t) {
    if (times[t] > 1) {
      int missing = 1;
      while (times[missing] != 0) ++missing;
      return {TileCheck::kDuplicate, t, times[t], missing};
    }
  }
  return {};  // n cells in range, one blank, no duplicate: every tile once
}

// REQUIRES: c.kind != kOk; n is the cell count checked.
Error tile_error(const TileCheck& c, int n) {
  switch (c.kind) {
    case TileCheck::kOutOfRange:
      return make_error(ErrorCode::kTileOutOfRange, "tile " + std::to_string(c.tile) +
                                                        " at position " + std::to_string(c.where) +
                                                        " is out of range: tiles are 1 to " +
                                                        std::to_string(n - 1));
    case TileCheck::kNoBlank:
      return make_error(ErrorCode::kNoBlank, "no blank: write the blank as 0, x, X or _");
    case TileCheck::kTwoBlanks:
      return make_error(ErrorCode::kTwoBlanks,
                        std::to_string(c.where) + " blanks: a board has exactly one blank");
    case TileCheck::kDuplicate:
    case TileCheck::kOk:
      break;
  }
  assert(c.kind == TileCheck::kDuplicate);
  return make_error(ErrorCode::kDuplicateTile,
                    "tile " + std::to_string(c.tile) + " appears " +
                        (c.where == 2 ? std::string("twice") : std::to_string(c.where) + " times") +
                        " and tile " + std::to_string(c.missing) + " is missing");
}

// What a text's rows say of its shape: nothing (one row, or rows of one
// cell, which are plain separators: "1/2/3/..."), a shape (two or more rows
// of two or more cells, all the same length), or a mistake.
struct RowsReading {
  enum Kind : int { kNone, kShape, kUneven, kTooLarge } kind = kNone;
  int rows = 0;
  int cols = 0;

  Shape shape() const {
    return Shape{static_cast<std::uint8_t>(rows), static_cast<std::uint8_t>(cols)};
  }
};

[[gnu::always_inline]] inline RowsReading read_rows(const Scanned& s) {  // (as check_tiles)
  if (s.rows < 2 || s.rows > Scanned::kKept) return {};
  const int cols = s.row_lengths[0];
  bool uneven = false;
  for (int r = 0; r < s.rows; ++r) {
    const int n = s.row_lengths[static_cast<std::size_t>(r)];
    if (n < 2) return {};
    uneven |= n != cols;
  }
  if (uneven) return {RowsReading::kUneven, 0, 0};
  if (s.rows > kMaxSide || cols > kMaxSide) return {RowsReading::kTooLarge, 0, 0};
  return {RowsReading::kShape, s.rows, cols};
}

const char kShapesAnswered[] = "the shapes have rows and columns from 2 to 10";

// REQUIRES: r.kind is kUneven or kTooLarge.
Error rows_error(const Scanned& s, const RowsReading& r) {
  if (r.kind == RowsReading::kUneven) {
    std::string lengths;
    for (int i = 0; i < s.rows; ++i) {
      if (i > 0) lengths += i + 1 == s.rows ? " and " : ", ";
      lengths += std::to_string(s.row_lengths[static_cast<std::size_t>(i)]);
    }
    return make_error(ErrorCode::kWrongShape,
                      "rows of " + lengths + " cells: every row needs the same number");
  }
  return make_error(ErrorCode::kWrongShape,
                    "the rows make a " + std::to_string(s.rows) + "x" +
                        std::to_string(s.row_lengths[0]) +
                        " board, which eight does not answer: " + kShapesAnswered);
}

// Makes `board` of `cells` (`count` of them, of which up to Scanned::kKept
// are kept), given the shape its rows give (if any) and the shape asked for
// (if any), or says what is wrong. Into the caller's board: parse_board
// builds it in its own result, so that no copy of it waits on the bytes just
// written (store forwarding).
template <int kCapacity>
std::optional<Error> board_of(Cells cells, int count, const std::optional<Shape>& rows_shape,
                              const std::optional<Shape>& shape, BasicBoard<kCapacity>& board) {
  if (count == 0) {
    return make_error(ErrorCode::kEmptyBoard, "board is empty: expected 9 cells such as 123456780");
  }
  // What is wrong with the tiles as a board of their own count (kept for
  // when that is the count meant).
  TileCheck own;
  if (count <= kMaxCells) own = check_tiles(cells.first(count));
  const bool fits = count <= kMaxCells && is_board_size(count) && own.kind == TileCheck::kOk;
  // The size the question means: the shape it names, else its rows, else its
  // own count when the tiles make a board of it, else what its largest tile
  // implies (3x3 for tiles up to 8).
  int intended = count;
  if (shape) {
    intended = shape->cells();
  } else if (rows_shape) {
    intended = rows_shape->cells();
  } else if (!fits && count != 9) {  // (nine cells are a 3x3 board with something wrong)
    const int kept = std::min(count, cells.size);
    int largest = 0;
    for (int i = 0; i < kept; ++i) largest = std::max<int>(largest, cells.tile(i));
    intended = 0;
    for (const int n : {9, 10, 12, 16}) {
      // (16 only past 12 cells: 12 numbers with a 13 are a 12-cell board
      // with a tile out of range, not a 4x4 one short of cells.)
      if (intended == 0 && largest < n && (n != 16 || count > 12)) intended = n;
    }
    // Tiles past 15 imply a larger board: the smallest size with room.
    for (int n = largest + 1; intended == 0 && largest >= 16 && n <= kMaxCells; ++n) {
      if (is_board_size(n)) intended = n;
    }
    if (intended == 0) intended = count;  // no size fits its tiles: say what is wrong with them
    // Past 16 cells no tile set says which board was meant, and a count no
    // shape has is better named as that than measured against the next size
    // up ("expected 18 cells, got 17" read as a miscount).
    if (largest >= 16 && intended != count && !is_board_size(count)) return no_board_of(count);
  }
  if (intended != count) {
    return make_error(ErrorCode::kWrongCellCount,
                      "expected " + std::to_string(intended) + " cells" +
                          (shape ? " for " + to_string(*shape) : std::string()) + ", got " +
                          std::to_string(count));
  }
  if (count > kMaxCells) {  // (only reachable with a count no board has: say so)
    return make_error(ErrorCode::kWrongCellCount, "expected at most " + std::to_string(kMaxCells) +
                                                      " cells, got " + std::to_string(count));
  }
  if (own.kind != TileCheck::kOk) return tile_error(own, count);
  Shape resolved;
  if (shape) {
    if (!is_board_shape(*shape)) {
      return unanswered_shape(to_string(*shape));
    }
    if (rows_shape && *rows_shape != *shape) {
      return make_error(ErrorCode::kWrongShape, "the rows make a " + to_string(*rows_shape) +
                                                    " board, not the " + to_string(*shape) +
                                                    " asked for");
    }
    resolved = *shape;
  } else if (rows_shape) {
    if (!is_board_shape(*rows_shape)) {
      return make_error(ErrorCode::kWrongShape,
                        "the rows make a " + to_string(*rows_shape) +
                            " board, which eight does not answer: " + kShapesAnswered);
    }
    resolved = *rows_shape;
  } else {
    const ShapesOfSize& fitting = kShapesOfSize[static_cast<std::size_t>(count)];
    if (fitting.count == 0) return no_board_of(count);  // (a size no shape has: 7, 11, 13, 22 ...)
    if (fitting.count > 1 && !fitting.square) {
      return make_error(ErrorCode::kAmbiguousShape, std::to_string(count) + " cells fit " +
                                                        shape_list(count) +
                                                        ": say which shape, or write the rows");
    }
    resolved = fitting.first;
  }
  if (resolved.cells() > kCapacity) {
    return make_error(ErrorCode::kWrongShape,
                      "a " + to_string(resolved) + " board has " + std::to_string(count) +
                          " cells, more than a Board holds (" + std::to_string(kCapacity) +
                          "): parse_grid_board reads every shape");
  }
  board.shape = resolved;
  // One copy of the board's room from the scan, zero past the count (but for
  // the first board of a pair line): cell by cell, the copy of the board
  // into the result would wait on the bytes just written (store forwarding).
  std::memcpy(board.cells.data(), &cells.scan->tiles[static_cast<std::size_t>(cells.from)],
              kCapacity);
  if (cells.from == 0 && count == cells.scan->count) return std::nullopt;  // zero past the count
  for (int i = count; i < kCapacity; ++i) board.cells[static_cast<std::size_t>(i)] = 0;
  return std::nullopt;
}

// The shape the rows of `s` give, or the error about them.
Result<std::optional<Shape>> rows_shape_of(const Scanned& s) {
  const RowsReading r = read_rows(s);
  if (r.kind == RowsReading::kNone) return std::optional<Shape>{};
  if (r.kind == RowsReading::kShape) return std::optional<Shape>{r.shape()};
  return rows_error(s, r);
}

// The questions asked most, a sound 3x3 board as nine characters or as nine
// cells with one separator between each ("867254301", "8 6 7 2 5 4 3 x 1"),
// read in one pass into `board` (a 3x3 board of zeros); false for anything
// else, and for anything wrong with these, which then go the general way,
// which reads them the same (tests/board_test.cpp checks that they agree).
template <int kCapacity>
bool read_plain_3x3(std::string_view text, BasicBoard<kCapacity>& board) {
  if (text.size() != kCells3x3 && text.size() != 2 * kCells3x3 - 1) return false;
  const std::size_t step = text.size() == kCells3x3 ? 1 : 2;
  std::uint8_t cells[kCells3x3];
  unsigned seen = 0;
  bool plain = true;
  for (std::size_t k = 0; k < kCells3x3; ++k) {
    const char c = text[k * step];
    const std::uint8_t cls = kCharClasses[static_cast<unsigned char>(c)];
    const unsigned tile = cls == kDigit ? static_cast<unsigned>(c - '0') : 0u;
    plain &= cls == kDigit || cls == kBlankLetter;
    if (step == 2 && k + 1 < kCells3x3) {
      plain &= kCharClasses[static_cast<unsigned char>(text[k * 2 + 1])] == kSeparator;
    }
    cells[k] = static_cast<std::uint8_t>(tile);
    seen |= 1u << tile;
  }
  if (!plain || seen != (1u << kCells3x3) - 1) return false;
  std::memcpy(board.cells.data(), cells, kCells3x3);
  return true;
}

// parse_board() and parse_grid_board(), for a board of either type. Inlined
// into each: as a call of its own it cost a 3x3 parse 18 instructions of
// 273 (bench/count_core.sh).
template <class B>
[[gnu::always_inline]] inline Result<B> parse_into(std::string_view text,
                                                   std::optional<Shape> shape) {
  // One result, returned by name whatever happens: the board is written
  // into it where it will be read, never copied (a copy of bytes just
  // written, loaded whole, would wait on them: store forwarding).
  Result<B> out{std::in_place};
  if (!shape && read_plain_3x3(text, out.value())) return out;
  Scanned scanned;
  if (auto error = scan_cells(text, kMaxBoardText, scanned)) {
    out = *std::move(error);
    return out;
  }
  const RowsReading rows = read_rows(scanned);
  if (rows.kind == RowsReading::kUneven || rows.kind == RowsReading::kTooLarge) {
    out = rows_error(scanned, rows);
    return out;
  }
  if (auto error = board_of(
          Cells{&scanned, 0, std::min(scanned.count, Scanned::kKept)}, scanned.count,
          rows.kind == RowsReading::kShape ? std::optional<Shape>{rows.shape()} : std::nullopt,
          shape, out.value())) {
    out = *std::move(error);
  }
  return out;
}

}  // namespace

Result<Board> parse_board(std::string_view text, std::optional<Shape> shape) {
  return parse_into<Board>(text, shape);
}

Result<GridBoard> parse_grid_board(std::string_view text, std::optional<Shape> shape) {
  return parse_into<GridBoard>(text, shape);
}

Result<BoardLine> parse_board_line(std::string_view text, std::optional<Shape> shape) {
  if (!shape) {
    Result<BoardLine> out{BoardLine{}};
    if (read_plain_3x3(text, out.value().board)) return out;
  }
  Scanned scanned;
  if (auto error = scan_cells(text, 2 * kMaxBoardText, scanned)) return *std::move(error);
  const int count = scanned.count;
  const Cells cells{&scanned, 0, std::min(count, Scanned::kKept)};
  // A pair when the shape asked for has half the cells, or, with none asked
  // for, when the cells make no board but each half has a board's count.
  bool pair;
  if (shape) {
    pair = count == 2 * shape->cells();
  } else {
    const bool one = count <= kMaxCells && is_board_size(count) &&
                     check_tiles(cells.first(count)).kind == TileCheck::kOk;
    pair = !one && count % 2 == 0 && count / 2 <= kMaxCells && is_board_size(count / 2);
  }
  if (!pair) {
    auto rows = rows_shape_of(scanned);
    if (!rows.ok()) return rows.error();
    BoardLine line;
    if (auto error = board_of(cells, count, *rows, shape, line.board)) return *std::move(error);
    return line;
  }
  const int half = count / 2;
  BoardLine line;
  if (auto error = board_of(Cells{&scanned, 0, half}, half, std::nullopt, shape, line.board)) {
    // Without a shape named, a line whose first half's tiles are no board's
    // either (a tile out of range, twice, or missing) was meant as one board:
    // "12345678" is a 3x3 board a tile short ("expected 9 cells, got 8"), not
    // a pair of 2x2 boards. Say what is wrong with it as one. (Halves whose
    // tiles are sound keep the pair's error: "123450 123405" needs a shape.)
    const Cells first{&scanned, 0, half};
    if (!shape && check_tiles(first.first(half)).kind != TileCheck::kOk) {
      auto rows = rows_shape_of(scanned);
      if (!rows.ok()) return rows.error();
      if (auto single = board_of(cells, count, *rows, shape, line.board)) return *single;
    }
    return *std::move(error);
  }
  line.goal.emplace();
  if (auto error = board_of(Cells{&scanned, half, half}, half, std::nullopt, shape, *line.goal)) {
    return make_error(error->code, "goal: " + error->message);
  }
  return line;
}

}  // namespace eight
