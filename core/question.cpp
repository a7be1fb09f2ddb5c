#include "eight/question.h"

#include "eight/answer.h"

namespace eight {

std::string_view part_name(QuestionPart part) {
  switch (part) {
    case QuestionPart::kBoard:
      return "board";
    case QuestionPart::kPath:
      return "path";
    case QuestionPart::kGoal:
    case QuestionPart::kShapes:
      break;
  }
  return "goal";
}

Result<GridBoard> default_goal(const GridBoard* board, std::optional<Shape> shape) {
  if (board != nullptr) return checked_standard_goal(board->shape);
  return checked_standard_goal(shape.value_or(kShape3x3));
}

std::variant<ReadQuestion, QuestionError> read_question(const QuestionText& text) {
  ReadQuestion q;
  if (text.board) {
    auto board = parse_grid_board(*text.board, text.shape);
    if (!board.ok()) return QuestionError{QuestionPart::kBoard, board.error()};
    q.board = *board;
  }
  auto goal = text.goal         ? parse_grid_board(*text.goal, text.shape)
              : text.goal_board ? Result<GridBoard>(*text.goal_board)
                                : default_goal(q.board ? &*q.board : nullptr, text.shape);
  if (!goal.ok()) return QuestionError{QuestionPart::kGoal, goal.error()};
  q.goal = *goal;
  if (q.board) {
    if (auto mismatch = shape_mismatch(*q.board, q.goal)) {
      return QuestionError{QuestionPart::kShapes, std::move(*mismatch)};
    }
  }
  if (text.path) {
    if (!q.board) {
      return QuestionError{QuestionPart::kPath,
                           make_error(ErrorCode::kBadArgument,
                                      "a known path goes from a board: this question has none")};
    }
    // Checked now, so that every interface refuses a bad one before any
    // search, naming the path; solve_board() checks it again.
    auto moves = read_known_path(*q.board, q.goal, *text.path);
    if (!moves.ok()) return QuestionError{QuestionPart::kPath, moves.error()};
    q.path = std::string(*text.path);
  }
  return q;
}

}  // namespace eight
