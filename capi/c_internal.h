// What the C API's files (c.cpp: the questions; tables.cpp: opening
// tables; options.cpp: a question's options) share: the two handles they
// all read, and the C boundary's error and string helpers. Not installed:
// include/eight/c.h is the API.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <string>

#include "eight/answer.h"
#include "eight/c.h"
#include "eight/shape.h"
#include "eight/table_set.h"

struct eight_t {
  eight::TableSet tables;
};

struct eight_options_t {
  std::optional<std::string> goal;
  std::optional<eight::Shape> shape;
  // Why the options refuse every question (a shape eight does not answer,
  // eight_options_set_shape), or empty: eight_options_error().
  std::string refused;
  std::uint64_t budget = eight::kDefaultSearchNodes;
  bool require_optimal = false;
  bool boards = false;
  bool fast = false;  // every question's eight::Question::grid_fast
  // A known path (eight::Question::known_path), read with the board by
  // eight/question.h's reader: only questions about one board take one.
  std::optional<std::string> path;
};

namespace eight::capi {

// Sets *errptr to a malloc'd copy of `message` (freeing what was there).
inline void set_error(char** errptr, const std::string& message) {
  std::free(*errptr);
  *errptr = static_cast<char*>(std::malloc(message.size() + 1));
  if (*errptr != nullptr) std::memcpy(*errptr, message.c_str(), message.size() + 1);
}

inline char* copy_string(const std::string& s) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (out == nullptr) throw std::bad_alloc();
  std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

// Runs `body`, turning an exception into an error: the C boundary.
template <typename T, typename Body>
T guarded(char** errptr, T failed, Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    set_error(errptr, "out of memory");
  } catch (const std::exception& e) {
    set_error(errptr, std::string("internal error: ") + e.what());
  } catch (...) {
    set_error(errptr, "internal error");
  }
  return failed;
}

}  // namespace eight::capi
