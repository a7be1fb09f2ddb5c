#include "eight/shape.h"

#include "common/text.h"

namespace eight {

std::string to_string(Shape s) {
  return std::to_string(s.rows) + "x" + std::to_string(s.cols);
}

std::string shape_list(std::span<const Shape> shapes) {
  std::string out;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (i > 0) out += i + 1 == shapes.size() ? " and " : ", ";
    out += to_string(shapes[i]);
  }
  return out;
}

Result<Shape> parse_shape(std::string_view text) {
  const std::string list = "rows and columns from 2 to " + std::to_string(kMaxSide);
  const auto x = text.find_first_of("xX");
  const auto rows = x == std::string_view::npos ? std::nullopt : parse_decimal(text.substr(0, x));
  const auto cols = x == std::string_view::npos ? std::nullopt : parse_decimal(text.substr(x + 1));
  if (!rows || !cols) {
    return make_error(ErrorCode::kBadArgument,
                      "shape '" + escape_bytes(text, 16) +
                          "' is not rows x columns such as 3x4; the shapes have " + list);
  }
  const Shape s{static_cast<std::uint8_t>(*rows > 255 ? 0 : *rows),
                static_cast<std::uint8_t>(*cols > 255 ? 0 : *cols)};
  if (!is_board_shape(s)) {
    return make_error(ErrorCode::kBadArgument, "eight answers no " + escape_bytes(text, 16) +
                                                   " boards; the shapes have " + list);
  }
  return s;
}

Error unanswered_shape(std::string_view shape) {
  return make_error(ErrorCode::kWrongShape,
                    "eight answers no " + std::string(shape) +
                        " boards: the shapes have rows and columns from 2 to " +
                        std::to_string(kMaxSide));
}

Result<Shape> board_shape(long long rows, long long cols) {
  if (rows < 2 || cols < 2 || rows > kMaxSide || cols > kMaxSide) {
    return unanswered_shape(std::to_string(rows) + "x" + std::to_string(cols));
  }
  return Shape{static_cast<std::uint8_t>(rows), static_cast<std::uint8_t>(cols)};
}

}  // namespace eight
