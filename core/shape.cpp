#include "eight/shape.h"

#include <cstddef>
#include <optional>
#include <utility>

namespace eight {
namespace {

// "2x2, 2x3, ..., 6x2", for the errors.
std::string table_shape_list() {
  std::string out;
  for (const Shape s : kTableShapes) {
    if (!out.empty()) out += ", ";
    out += to_string(s);
  }
  return out;
}

Error bad_shape(std::string what) {
  return make_error(ErrorCode::kBadArgument,
                    std::move(what) + "; the shapes are " + table_shape_list());
}

// The decimal number at text[at..], advancing `at`; at most two digits, as
// no side of a table shape is longer than 6 (so no overflow either). Empty
// when there is no digit, or too many.
std::optional<int> side(std::string_view text, std::size_t& at) {
  int value = 0;
  std::size_t digits = 0;
  while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
    if (++digits > 2) return std::nullopt;
    value = value * 10 + (text[at] - '0');
    ++at;
  }
  if (digits == 0) return std::nullopt;
  return value;
}

}  // namespace

std::string to_string(Shape s) {
  return std::to_string(s.rows) + "x" + std::to_string(s.cols);
}

Result<Shape> parse_shape(std::string_view text) {
  // Quoted only when short, so an error never echoes a long input back.
  std::string shown;
  if (text.size() <= 16) {
    shown.append(1, '"').append(text).append(1, '"');
  } else {
    shown.append("a ").append(std::to_string(text.size())).append("-character text");
  }
  std::size_t at = 0;
  const std::optional<int> rows = side(text, at);
  if (!rows || at >= text.size() || (text[at] != 'x' && text[at] != 'X')) {
    return bad_shape(shown + " is not a shape: write rows x columns, like 3x4");
  }
  ++at;
  const std::optional<int> cols = side(text, at);
  if (!cols || at != text.size()) {
    return bad_shape(shown + " is not a shape: write rows x columns, like 3x4");
  }
  const Shape s{static_cast<std::uint8_t>(*rows), static_cast<std::uint8_t>(*cols)};
  if (!is_table_shape(s)) {
    return bad_shape(to_string(s) + " is not a board tables answer (" +
                     std::to_string(*rows * *cols) + " cells)");
  }
  return s;
}

}  // namespace eight
