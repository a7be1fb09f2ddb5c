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

int eight_options_set_shape(eight_options_t* o, int rows, int cols) {
  o->shape.reset();
  o->refused.clear();
  if (rows == 0 && cols == 0) return 0;
  // Checked here, in every build: the shape sizes the goal built from it
  // (issue 41: 16x16 wrote past a 10x10 board's cells).
  auto shape = eight::board_shape(rows, cols);
  if (!shape.ok()) {
    o->refused = shape.error().message;
    return -1;
  }
  o->shape = *shape;
  return 0;
}

const char* eight_options_error(const eight_options_t* o) {
  return o->refused.empty() ? nullptr : o->refused.c_str();
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

void eight_options_set_fast(eight_options_t* o, unsigned char fast) {
  o->fast = fast != 0;
}

void eight_options_set_path(eight_options_t* o, const char* path) {
  if (path == nullptr) {
    o->path.reset();
  } else {
    o->path = path;
  }
}

}  // extern "C"
