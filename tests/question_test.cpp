// The core's one question reader (eight/question.h) and its one path check
// (answer.h's check_path()): what the HTTP API, the tool, the C API and the
// bindings all call.
#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "eight/answer.h"
#include "eight/question.h"
#include "support.h"

using namespace eight;

namespace {

ReadQuestion read_ok(const QuestionText& text) {
  auto read = read_question(text);
  REQUIRE(std::holds_alternative<ReadQuestion>(read));
  return std::get<ReadQuestion>(read);
}

QuestionError read_error(const QuestionText& text) {
  auto read = read_question(text);
  REQUIRE(std::holds_alternative<QuestionError>(read));
  return std::get<QuestionError>(read);
}

}  // namespace

TEST_CASE("a question without a goal asks about the standard goal of its board's shape") {
  QuestionText text;
  text.board = "123/405";
  const ReadQuestion q = read_ok(text);
  REQUIRE(q.board);
  CHECK(to_string(*q.board) == "123/405");
  CHECK(to_string(q.goal) == "123/450");
  // The board's shape, not the shape= default (3x3): a 4x4 board's goal.
  text.board = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,0,15";
  CHECK(to_string(read_ok(text).goal) == "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,0");
  // A shape named reads a flat text: 123405 as 3x2.
  text.board = "123405";
  text.shape = Shape{3, 2};
  CHECK(to_string(read_ok(text).goal) == "12/34/50");
}

TEST_CASE("a question about a goal alone takes the named shape's standard goal, else 3x3's") {
  QuestionText text;
  CHECK(read_ok(text).goal == GridBoard(kStandardGoal));
  CHECK_FALSE(read_ok(text).board);
  text.shape = Shape{5, 5};
  CHECK(read_ok(text).goal == standard_goal(Shape{5, 5}));
  text.goal = "123804765";
  text.shape.reset();
  CHECK(to_string(read_ok(text).goal) == "123804765");
}

TEST_CASE("a given goal comes before a goal already read and is read in the shape named") {
  QuestionText text;
  text.board = "123405";
  text.shape = Shape{2, 3};
  text.goal_board = standard_goal(Shape{2, 3});
  CHECK(read_ok(text).goal == standard_goal(Shape{2, 3}));
  text.goal = "123540";
  CHECK(to_string(read_ok(text).goal) == "123/540");
}

TEST_CASE("a question's errors name the board, the goal text or the two shapes, in that order") {
  QuestionText text;
  text.board = "12345678";
  text.goal = "1234";
  QuestionError e = read_error(text);
  CHECK(e.part == QuestionPart::kBoard);
  CHECK(e.error.message == "expected 9 cells, got 8");
  CHECK(part_name(e.part) == "board");

  text.board = "867254301";
  e = read_error(text);
  CHECK(e.part == QuestionPart::kGoal);
  CHECK(part_name(e.part) == "goal");

  text.goal = "123/450";
  e = read_error(text);
  CHECK(e.part == QuestionPart::kShapes);
  CHECK(e.error.code == ErrorCode::kWrongShape);
  CHECK(e.error.message ==
        shape_mismatch(GridBoard(kStandardGoal), standard_goal(Shape{2, 3}))->message);
  CHECK(part_name(e.part) == "goal");

  // A shape that is no board shape has no standard goal: an error, not a stop.
  QuestionText alone;
  alone.shape = Shape{1, 9};
  CHECK(read_error(alone).part == QuestionPart::kGoal);
}

TEST_CASE(
    "a path is checked in the core: a bad letter, a move off the board, a wrong end, "
    "a longer path, an optimal one") {
  const Question q = question_of(test::table(), test::frame(kStandardGoal));
  const GridBoard board = *parse_grid_board("123456708");
  const fifteen::SearchBudget budget;
  const auto check = [&](std::string_view path) {
    auto c = check_path(q, board, path, budget);
    REQUIRE(c.ok());
    return *c;
  };
  PathCheck c = check("rx");
  CHECK_FALSE(c.legal);
  CHECK(c.why == "move 2 is 'x', not one of u d l r");
  c = check("d");
  CHECK_FALSE(c.legal);
  CHECK(c.why == "move 1 (down) would take the blank off the board");
  c = check("l");
  CHECK(c.legal);
  CHECK_FALSE(c.reaches);
  CHECK(c.why == "the path is legal but ends on 123456078, not the goal 123456780");
  c = check("rlr");
  CHECK(c.reaches);
  CHECK(c.optimal == 0);
  CHECK(c.why == "legal, but 3 moves where the distance is 1");
  c = check("r");
  CHECK(c.optimal == 1);
  CHECK(c.why == "optimal: 1 moves");
}
