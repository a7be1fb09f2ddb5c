#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

#include "eight/board.h"
#include "support.h"

using namespace eight;

namespace {

std::string parse_error(const std::string& text, std::optional<Shape> shape = std::nullopt) {
  auto b = parse_board(text, shape);
  REQUIRE_FALSE(b.ok());
  return b.error().message;
}

ErrorCode parse_code(const std::string& text, std::optional<Shape> shape = std::nullopt) {
  auto b = parse_board(text, shape);
  REQUIRE_FALSE(b.ok());
  return b.error().code;
}

}  // namespace

TEST_CASE("parses every notation users bring to the same board") {
  const GridBoard expected{{1, 2, 3, 4, 5, 6, 7, 8, 0}};
  for (const char* text : {"123456780", "12345678x", "12345678X", "12345678_", "1 2 3 4 5 6 7 8 x",
                           "1,2,3,4,5,6,7,8,0", "123/456/780", "1, 2, 3, 4, 5, 6, 7, 8, 0",
                           "123\n456\n780", "123\r\n456\r\n780\r\n", "1\t2\t3\t4\t5\t6\t7\t8\t_",
                           "  123456780  ", "1 2 3/4 5 6/7 8 x"}) {
    auto b = parse_board(text);
    REQUIRE_MESSAGE(b.ok(), text << ": " << (b.ok() ? "" : b.error().message));
    CHECK(*b == expected);
  }
}

TEST_CASE("canonical form is nine digits with 0 for the blank") {
  CHECK(to_string(test::board("2 3 4 1 5 x 7 6 8")) == "234150768");
  CHECK(to_string(test::board("x12/345/678")) == "012345678");
}

TEST_CASE("round-trips all 9! permutations through the canonical form") {
  std::array<std::uint8_t, 9> p{0, 1, 2, 3, 4, 5, 6, 7, 8};
  int count = 0;
  do {
    const GridBoard b = test::board_of_cells(p);
    auto parsed = parse_board(to_string(b));
    REQUIRE(parsed.ok());
    REQUIRE(*parsed == b);
    // The one-pass reading of plain boards and the general one agree: the
    // spaced form takes the first, the rows (and the pair line) the second.
    const std::string digits = to_string(b);
    std::string spaced, rows;
    for (std::size_t i = 0; i < 9; ++i) {
      if (i > 0) spaced.push_back(' ');
      if (i > 0 && i % 3 == 0) rows.push_back('/');
      spaced.push_back(digits[i]);
      rows.push_back(digits[i]);
    }
    REQUIRE(*parse_board(spaced) == b);
    REQUIRE(*parse_board(rows) == b);
    REQUIRE(parse_board_line(digits + " " + digits)->goal == b);
    ++count;
  } while (std::next_permutation(p.begin(), p.end()));
  CHECK(count == 362880);
}

TEST_CASE("rejects an empty board") {
  CHECK(parse_code("") == ErrorCode::kEmptyBoard);
  CHECK(parse_code("  , / ") == ErrorCode::kEmptyBoard);
  CHECK(parse_error("").find("empty") != std::string::npos);
}

TEST_CASE("rejects the wrong number of cells and says how many") {
  CHECK(parse_code("12345678") == ErrorCode::kWrongCellCount);
  CHECK(parse_error("12345678") == "expected 9 cells, got 8");
  CHECK(parse_error("1234567800") == "expected 9 cells, got 10");
}

TEST_CASE("rejects a character that is not allowed and names it and its position") {
  CHECK(parse_code("1234a6780") == ErrorCode::kBadCharacter);
  CHECK(parse_error("1234a6780").rfind("'a' at position 5 is not allowed", 0) == 0);
  CHECK(parse_error("12345678-").rfind("'-' at position 9", 0) == 0);
  CHECK(parse_error(std::string("1234\0"
                                "5678",
                                9))
            .rfind("byte 0x00 at position 5", 0) == 0);
  CHECK(parse_error("12345678\xc3\xa9").rfind("byte 0xC3 at position 9", 0) == 0);
}

TEST_CASE("rejects tile 9 as out of range") {
  CHECK(parse_code("123456789") == ErrorCode::kTileOutOfRange);
  CHECK(parse_error("923456780") == "tile 9 at position 1 is out of range: tiles are 1 to 8");
}

TEST_CASE("rejects a duplicated tile and names it and the missing one") {
  CHECK(parse_code("123456770") == ErrorCode::kDuplicateTile);
  CHECK(parse_error("123456770") == "tile 7 appears twice and tile 8 is missing");
  CHECK(parse_error("111456780") == "tile 1 appears 3 times and tile 2 is missing");
}

TEST_CASE("rejects a board with no blank or two blanks") {
  CHECK(parse_code("123456781") == ErrorCode::kNoBlank);
  CHECK(parse_code("1234567x0") == ErrorCode::kTwoBlanks);
  CHECK(parse_error("12345670x") == "2 blanks: a board has exactly one blank");
}

TEST_CASE("rejects an over-long text without reading it all") {
  const std::string text(10000, '1');
  CHECK(parse_code(text) == ErrorCode::kBoardTooLong);
  CHECK(parse_error(text) == "board is 10000 characters long; at most 512 are allowed");
}

TEST_CASE("moves are the blank's, with letters u d l r") {
  const GridBoard b = test::board("123456780");
  CHECK_FALSE(apply_move(b, Move::kDown).has_value());
  CHECK_FALSE(apply_move(b, Move::kRight).has_value());
  std::uint8_t slid = 0;
  auto up = apply_move(b, Move::kUp, &slid);
  REQUIRE(up.has_value());
  CHECK(to_string(*up) == "123450786");
  CHECK(slid == 6);
  auto left = apply_move(b, Move::kLeft, &slid);
  REQUIRE(left.has_value());
  CHECK(to_string(*left) == "123456708");
  CHECK(slid == 8);
  CHECK(move_letter(Move::kUp) == 'u');
  CHECK(move_name(Move::kRight) == "right");
  CHECK(move_from_letter('D') == Move::kDown);
  CHECK_FALSE(move_from_letter('q').has_value());
  for (Move m : kAllMoves) CHECK(opposite(opposite(m)) == m);
}

TEST_CASE("the move table keeps the blank on the board") {
  for (int cell = 0; cell < kCells3x3; ++cell) {
    int moves = 0;
    for (Move m : kAllMoves) {
      const int to = neighbor(kShape3x3, cell, m);
      if (to < 0) continue;
      ++moves;
      CHECK(neighbor(kShape3x3, to, opposite(m)) == cell);
      CHECK(std::abs(to / 3 - cell / 3) + std::abs(to % 3 - cell % 3) == 1);
    }
    CHECK(moves == (cell == 4 ? 4 : cell % 2 == 1 ? 3 : 2));
  }
}

TEST_CASE("solvability is decided by tile parity") {
  CHECK(tile_parity(test::board("123456780")) == 0);
  CHECK(tile_parity(test::board("213456780")) == 1);
  CHECK(tile_parity(test::board("123804765")) == 1);
  CHECK_FALSE(same_class(test::board("123456780"), test::board("123456870")));
  // Moves never change the class.
  const GridBoard b = test::board("867254301");
  for (Move m : kAllMoves) {
    if (auto n = apply_move(b, m)) CHECK(same_class(*n, b));
  }
}

// Boards of other shapes.

TEST_CASE("rows give a board its shape") {
  CHECK(test::board("123/450").shape == (Shape{2, 3}));
  CHECK(test::board("12/34/50").shape == (Shape{3, 2}));
  CHECK(test::board("1 2/3 0").shape == (Shape{2, 2}));
  CHECK(test::board("1234/5670").shape == (Shape{2, 4}));
  CHECK(test::board("12345/6789x").shape == (Shape{2, 5}));
  CHECK(test::board("1 2 3 4/5 6 7 8/9 10 11 0").shape == (Shape{3, 4}));
  CHECK(test::board("1,2,3/4,5,6/7,8,9/10,11,0").shape == (Shape{4, 3}));
  CHECK(test::board("1 2 3 4 5 6\n7 8 9 10 11 x").shape == (Shape{2, 6}));
  const GridBoard b = test::board("1 2 3 4/5 6 7 8/9 10 11 0");
  CHECK(b == standard_goal(Shape{3, 4}));
  // Rows of one cell are separators, as they always were.
  CHECK(test::board("1/2/3/4/5/6/7/8/0") == kStandardGoal);
}

TEST_CASE("a cell count only one shape has gives the shape, the others need it named") {
  CHECK(test::board("1230").shape == (Shape{2, 2}));
  CHECK(test::board("123456780").shape == kShape3x3);
  CHECK(test::board("123450", Shape{3, 2}).shape == (Shape{3, 2}));
  CHECK(test::board("1 2 3 4 5 6 7 8 9 10 11 0", Shape{2, 6}) == standard_goal(Shape{2, 6}));
  CHECK(parse_code("123450") == ErrorCode::kAmbiguousShape);
  CHECK(parse_error("123450") == "6 cells fit 2x3 and 3x2: say which shape, or write the rows");
  CHECK(parse_error("12345670") == "8 cells fit 2x4 and 4x2: say which shape, or write the rows");
  CHECK(parse_error("1234567890") ==
        "10 cells fit 2x5 and 5x2: say which shape, or write the rows");
  CHECK(parse_error("1 2 3 4 5 6 7 8 9 10 11 0") ==
        "12 cells fit 3x4, 4x3, 2x6 and 6x2: say which shape, or write the rows");
}

TEST_CASE("numbers of two digits are tiles only where separators stand between every cell") {
  // Runs that are all numbers 0..15 are cells; otherwise each digit is one.
  CHECK(test::board("1,2,3,4,5,6,7,8,9,10,11,0", Shape{3, 4}) == standard_goal(Shape{3, 4}));
  CHECK(test::board("123 456 780") == kStandardGoal);
  CHECK(test::board("12 34 56 78 0") == kStandardGoal);
  CHECK(parse_error("1234567891011x", Shape{3, 4}) == "expected 12 cells for 3x4, got 14");
}

TEST_CASE("a named shape and the cells must agree, and rows and the shape too") {
  CHECK(parse_code("123456780", Shape{3, 4}) == ErrorCode::kWrongCellCount);
  CHECK(parse_error("123456780", Shape{3, 4}) == "expected 12 cells for 3x4, got 9");
  CHECK(parse_code("123/450", Shape{3, 2}) == ErrorCode::kWrongShape);
  CHECK(parse_error("123/450", Shape{3, 2}) == "the rows make a 2x3 board, not the 3x2 asked for");
  CHECK(parse_error("123/45/670") == "rows of 3, 2 and 3 cells: every row needs the same number");
  CHECK(parse_error("1234567/89abc").rfind("'a' at position 11 is not allowed", 0) == 0);
  CHECK(parse_error("12345678/9 10 11 12 13 14 0 15").rfind("rows of 8 and", 0) == 0);
  CHECK(test::board("1 2 3 4 5 6 7/8 9 10 11 12 13 0").shape == Shape{2, 7});
  CHECK(test::board("1 2 3 4 5/6 7 8 9 10/11 12 13 14 0").shape == Shape{3, 5});
  std::string eleven;
  for (int t = 1; t <= 21; ++t) eleven += std::to_string(t) + (t == 11 ? "/" : " ");
  eleven += "0";
  CHECK(parse_error(eleven) ==
        "the rows make a 2x11 board, which eight does not answer: the shapes have rows and "
        "columns from 2 to 10");
}

TEST_CASE("a bad board of another shape keeps every message's precision") {
  CHECK(parse_error("1 2 3 4 5 6 7 8 9 10 10 0", Shape{3, 4}) ==
        "tile 10 appears twice and tile 11 is missing");
  CHECK(parse_error("1 2 3 4 5 6 7 8 9 10 12 0", Shape{3, 4}) ==
        "tile 12 at position 22 is out of range: tiles are 1 to 11");
  CHECK(parse_error("1 2 3 4 5 6 7 8 9 10 13 0") ==
        "tile 13 at position 22 is out of range: tiles are 1 to 11");
  CHECK(parse_error("12/34/56") == "tile 6 at position 8 is out of range: tiles are 1 to 5");
  CHECK(parse_error("1 2/3 3") == "no blank: write the blank as 0, x, X or _");
  CHECK(parse_error("123/400") == "2 blanks: a board has exactly one blank");
  CHECK(parse_error("1 2 3 4 5 6 7 8 9 10 11", Shape{3, 4}) == "expected 12 cells for 3x4, got 11");
  // Eight cells whose tiles go up to 8 are a 3x3 board a cell short.
  CHECK(parse_error("12345678") == "expected 9 cells, got 8");
  CHECK(parse_error("1 2 3 4 5 6 7 8 9 10 11") == "expected 12 cells, got 11");
}

TEST_CASE("every board of every shape up to 8 cells round-trips through its canonical form") {
  for (const Shape shape : kTableShapes) {
    if (shape.cells() > 8) continue;
    CAPTURE(to_string(shape));
    std::vector<std::uint8_t> p(static_cast<std::size_t>(shape.cells()));
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<std::uint8_t>(i);
    int count = 0;
    do {
      const GridBoard b = test::board_of_cells(p, shape);
      const auto parsed = parse_board(to_string(b));
      REQUIRE_MESSAGE(parsed.ok(), to_string(b));
      REQUIRE(*parsed == b);
      ++count;
    } while (std::next_permutation(p.begin(), p.end()));
    int factorial = 1;
    for (int i = 2; i <= shape.cells(); ++i) factorial *= i;
    CHECK(count == factorial);
  }
}

TEST_CASE("the canonical form of larger boards is rows, of numbers with commas past 10 cells") {
  CHECK(to_string(standard_goal(Shape{2, 3})) == "123/450");
  CHECK(to_string(standard_goal(Shape{5, 2})) == "12/34/56/78/90");
  CHECK(to_string(standard_goal(Shape{3, 4})) == "1,2,3,4/5,6,7,8/9,10,11,0");
  CHECK(to_string(standard_goal(Shape{6, 2})) == "1,2/3,4/5,6/7,8/9,10/11,0");
  for (const Shape shape : kTableShapes) {
    for (int blank = 0; blank < shape.cells(); ++blank) {
      const GridBoard g = canonical_goal(blank, shape);
      CHECK(test::board(to_string(g)) == g);
    }
  }
}

TEST_CASE("moves on every shape keep the blank on the board and are undone by their opposite") {
  for (const Shape shape : kTableShapes) {
    for (int cell = 0; cell < shape.cells(); ++cell) {
      int moves = 0;
      for (Move m : kAllMoves) {
        const int to = neighbor(shape, cell, m);
        if (to < 0) continue;
        ++moves;
        CHECK(neighbor(shape, to, opposite(m)) == cell);
        CHECK(std::abs(to / shape.cols - cell / shape.cols) +
                  std::abs(to % shape.cols - cell % shape.cols) ==
              1);
      }
      const int r = cell / shape.cols, c = cell % shape.cols;
      const int expected = (r > 0) + (r + 1 < shape.rows) + (c > 0) + (c + 1 < shape.cols);
      CHECK(moves == expected);
    }
  }
}

TEST_CASE("the class of a board on an even-width board includes its blank's row") {
  const GridBoard goal = standard_goal(Shape{2, 4});  // 1234/5670
  CHECK(board_class(goal) == 1);                      // tiles in order, blank on row 1
  const GridBoard up = *apply_move(goal, Move::kUp);  // 1230/5674: three tiles jumped
  CHECK(tile_parity(up) == 1);
  CHECK(board_class(up) == board_class(goal));
  const GridBoard g3 = standard_goal(Shape{3, 3});
  CHECK(board_class(*apply_move(g3, Move::kUp)) == board_class(g3));
}

TEST_CASE("a board line is a pair when the shape named has half its cells") {
  auto line = parse_board_line("123450 123405", Shape{2, 3});
  REQUIRE(line.ok());
  CHECK(line->board == test::board("123/450"));
  REQUIRE(line->goal.has_value());
  CHECK(*line->goal == test::board("123/405"));
  auto three = parse_board_line("867254301 123456780");
  REQUIRE(three.ok());
  CHECK(three->goal.has_value());
  CHECK(parse_board_line("123450 123405").error().message ==
        "6 cells fit 2x3 and 3x2: say which shape, or write the rows");
}

TEST_CASE("a board and a goal of different shapes are refused together") {
  const auto m = shape_mismatch(test::board("123/450"), kStandardGoal);
  REQUIRE(m.has_value());
  CHECK(m->code == ErrorCode::kWrongShape);
  CHECK(m->message == "the board is 2x3 and the goal 3x3: a goal has the board's shape");
  CHECK_FALSE(shape_mismatch(kStandardGoal, test::board("123804765")).has_value());
}

TEST_CASE(
    "a Board holds up to 16 cells in 18 bytes and widens to a GridBoard, which narrows back") {
  static_assert(sizeof(Board) == 18 && Board::kRoom == 16 && GridBoard::kRoom == 100);
  Rng rng(5);
  for (const Shape s : kBoardShapes) {
    CAPTURE(to_string(s));
    const GridBoard wide = shuffled_board(standard_goal(s), rng);
    const auto narrow = to_board(wide);
    if (s.cells() > Board::kRoom) {
      CHECK_FALSE(narrow.has_value());
      continue;
    }
    REQUIRE(narrow.has_value());
    CHECK(is_valid(*narrow));
    CHECK(narrow->shape == s);
    CHECK(std::equal(narrow->used().begin(), narrow->used().end(), wide.used().begin(),
                     wide.used().end()));
    const GridBoard back = *narrow;  // implicit: it always fits
    CHECK(back == wide);
    GridBoard assigned = standard_goal(Shape{10, 10});
    assigned = *narrow;
    CHECK(assigned == wide);
    CHECK(to_string(*narrow) == to_string(wide));
    CHECK(board_class(*narrow) == board_class(wide));
    CHECK(blank_cell(*narrow) == blank_cell(wide));
    for (const Move m : kAllMoves) {
      const auto a = apply_move(*narrow, m);
      const auto b = apply_move(wide, m);
      REQUIRE(a.has_value() == b.has_value());
      if (a) CHECK(GridBoard(*a) == *b);
    }
  }
}

TEST_CASE("a Board with a shape past its room is not valid") {
  Board b;
  b.shape = Shape{5, 5};
  CHECK_FALSE(is_valid(b));
  b.shape = Shape{4, 4};
  for (int i = 0; i < 16; ++i) b.cells[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
  CHECK(is_valid(b));
}

TEST_CASE(
    "parse_board reads what parse_grid_board reads up to 16 cells, and refuses more by name") {
  for (const char* text : {"867254301", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", "123/450",
                           "1,2,3,4,5,6,7/8,9,10,11,12,13,0"}) {
    CAPTURE(text);
    const auto small = parse_board(text);
    const auto wide = parse_grid_board(text);
    REQUIRE(small.ok());
    REQUIRE(wide.ok());
    CHECK(GridBoard(*small) == *wide);
  }
  const std::string five = to_string(standard_goal(Shape{5, 5}));
  REQUIRE(parse_grid_board(five).ok());
  const auto refused = parse_board(five);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == ErrorCode::kWrongShape);
  CHECK(refused.error().message ==
        "a 5x5 board has 25 cells, more than a Board holds (16): parse_grid_board reads every "
        "shape");
  // A board that is wrong in itself gets the same refusal from both.
  for (const char* text : {"", "12345678",
                           "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 "
                           "21 22 23 24 24"}) {
    CAPTURE(text);
    const auto small = parse_board(text);
    const auto wide = parse_grid_board(text);
    REQUIRE_FALSE(small.ok());
    REQUIRE_FALSE(wide.ok());
    CHECK(small.error().message == wide.error().message);
  }
}

TEST_CASE("a line that is no board and whose first half is none either is read as one board") {
  // Eight cells: twice a 2x2 board's, but "1234" is no 2x2 board (tiles 1 to
  // 4): the line is a 3x3 board a tile short, and says so.
  const auto line = parse_board_line("12345678");
  REQUIRE_FALSE(line.ok());
  CHECK(line.error().message == "expected 9 cells, got 8");
  // A real pair still reads as one, and a bad goal in it is named as such.
  const auto pair = parse_board_line("1230 1203");
  REQUIRE(pair.ok());
  CHECK(pair->goal.has_value());
  const auto bad_goal = parse_board_line("867254301 123456788");
  REQUIRE_FALSE(bad_goal.ok());
  CHECK(bad_goal.error().message.rfind("goal: ", 0) == 0);
  // With the shape named, the pair is what was asked for.
  const auto named = parse_board_line("12345678", Shape{2, 2});
  REQUIRE_FALSE(named.ok());
  CHECK(named.error().message != "expected 9 cells, got 8");
}

TEST_CASE("a count of cells no board has is said to be one, with the sizes nearest it") {
  // 17 numbers 0 to 16: no board has 17 cells; the tiles do not say which
  // of the sizes around it was meant, so the message names both.
  const auto seventeen = eight::parse_grid_board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 0");
  REQUIRE_FALSE(seventeen.ok());
  CHECK(seventeen.error().code == eight::ErrorCode::kWrongCellCount);
  CHECK(seventeen.error().message ==
        "no board has 17 cells; the nearest sizes are 16 (4x4, 2x8 and 8x2) and 18 (3x6, 6x3, 2x9 "
        "and 9x2)");
  // 23 numbers 0 to 22: between 21 (3x7, 7x3) and 24 (22 cells is no board either).
  std::string twenty_three;
  for (int t = 1; t <= 22; ++t) twenty_three += std::to_string(t) + " ";
  twenty_three += "0";
  const auto message = eight::parse_grid_board(twenty_three).error().message;
  CHECK(message.find("no board has 23 cells; the nearest sizes are 21 (3x7 and 7x3) and 24 (") ==
        0);
  CHECK(message.find(") and 24 (") != std::string::npos);
  // A board of a size that has shapes keeps the count it was measured against.
  CHECK(eight::parse_grid_board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 14").error().message ==
        "expected 16 cells, got 17");
}
