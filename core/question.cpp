#include "eight/question.h"

namespace eight {

std::string_view part_name(QuestionPart part) {
  return part == QuestionPart::kBoard ? "board" : "goal";
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
  return q;
}

}  // namespace eight
