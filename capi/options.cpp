// include/eight/c.h's options: how a question is asked, set field by field.
#include <algorithm>

#include "c_internal.h"

extern "C" {

eight_options_t* eight_options_create(void) {
  return new (std::nothrow) eight_options_t{};
}
void eight_options_destroy(eight_options_t* o) {
  delete o;
}

void eight_options_set_goal(eight_options_t* o, const char* goal) {
  if (goal == nullptr) {
    o->goal.reset();
  } else {
    o->goal = goal;
  }
}

void eight_options_set_shape(eight_options_t* o, int rows, int cols) {
  if (rows == 0 && cols == 0) {
    o->shape.reset();
  } else if (rows < 0 || cols < 0 || rows > 255 || cols > 255) {
    o->shape = eight::Shape{0, 0};  // no board shape: every question says so
  } else {
    o->shape = eight::Shape{static_cast<std::uint8_t>(rows), static_cast<std::uint8_t>(cols)};
  }
}

void eight_options_set_budget(eight_options_t* o, std::uint64_t nodes) {
  o->budget = nodes == 0 ? eight::kDefaultSearchNodes : std::min(nodes, eight::kMaxSearchNodes);
}

void eight_options_set_optimal_required(eight_options_t* o, unsigned char required) {
  o->require_optimal = required != 0;
}

void eight_options_set_boards(eight_options_t* o, unsigned char boards) {
  o->boards = boards != 0;
}

}  // extern "C"
