#include <doctest/doctest.h>

#include <algorithm>

#include "eight/board.h"
#include "support.h"

using namespace eight;

namespace {

std::string parse_error(const std::string& text) {
  auto b = parse_board(text);
  REQUIRE_FALSE(b.ok());
  return b.error().message;
}

ErrorCode parse_code(const std::string& text) {
  auto b = parse_board(text);
  REQUIRE_FALSE(b.ok());
  return b.error().code;
}

}  // namespace

TEST_CASE("parses every notation users bring to the same board") {
  const Board expected{{1, 2, 3, 4, 5, 6, 7, 8, 0}};
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
    const Board b{p};
    auto parsed = parse_board(to_string(b));
    REQUIRE(parsed.ok());
    REQUIRE(*parsed == b);
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
  CHECK(parse_error(text) == "board is 10000 characters long; at most 128 are allowed");
}

TEST_CASE("moves are the blank's, with letters u d l r") {
  const Board b = test::board("123456780");
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
  for (int cell = 0; cell < kCells; ++cell) {
    int moves = 0;
    for (Move m : kAllMoves) {
      const int to = neighbor(cell, m);
      if (to < 0) continue;
      ++moves;
      CHECK(neighbor(to, opposite(m)) == cell);
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
  const Board b = test::board("867254301");
  for (Move m : kAllMoves) {
    if (auto n = apply_move(b, m)) CHECK(same_class(*n, b));
  }
}
