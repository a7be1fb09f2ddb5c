// Fuzzes the C API (include/eight/c.h) the way a binding drives it: the
// options' setters with any values (shapes of any int, goals and known
// paths of any bytes, budgets, flags), then every entry point with boards, paths, distances and
// counts from the input, or with a board eight_random() drew for the
// options (so that real searches run). Issue 41's bug was here: a shape past
// 10x10 set in the options wrote past a 10x10 board's cells.
//
// Checked on every call: no crash (ASan, UBSan); an answer comes with no
// error and a refusal with a message; options that eight_options_error()
// says are refused make every question fail with exactly that message;
// eight_options_set_shape() returns -1 exactly for the shapes outside 2 to
// 10 rows and columns.
//
// The input is a list of operations, each a byte and its operands:
//   0 shape: two ints (a byte < 128: the next byte as a signed int, else the
//            next four, little-endian)        1 goal: text (or NULL)
//   2 budget: 8 bytes                         3 optimal required: a byte
//   4 boards: a byte                          5 a question: a byte (which),
//            a board's text, a path's text, an int
//   6 known path: text (or NULL)              7 the same question as 5
//            about a board eight_random() drew
// Texts are a length byte and that many bytes (255: NULL). Searches are
// kept short: a budget the input sets past 20,000 nodes (or 0, the default
// of 50,000,000) is set, then replaced by one of at most 20,000.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "eight/c.h"

namespace {

struct Input {
  const std::uint8_t* data;
  std::size_t size;

  bool empty() const { return size == 0; }
  std::uint8_t byte() {
    if (size == 0) return 0;
    --size;
    return *data++;
  }
  int number() {
    const std::uint8_t kind = byte();
    if (kind < 128) return static_cast<std::int8_t>(byte());
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(byte()) << (8 * i);
    return static_cast<int>(v);
  }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(byte()) << (8 * i);
    return v;
  }
  // A text (NUL-terminated, no NUL inside, as C reads it), or nothing.
  bool text(std::string& out) {
    const std::uint8_t n = byte();
    if (n == 255) return false;
    out.clear();
    for (std::uint8_t i = 0; i < n && size > 0; ++i) {
      const char c = static_cast<char>(byte());
      if (c != '\0') out += c;
    }
    return true;
  }
};

// An answer with no error, or a refusal with a message (freed); with the
// options refused, exactly their message.
void verdict(bool answered, char*& err, const eight_options_t* o) {
  const char* refused = eight_options_error(o);
  if (answered) {
    if (err != nullptr || refused != nullptr) std::abort();
    return;
  }
  if (err == nullptr || *err == '\0') std::abort();
  if (refused != nullptr && std::strcmp(err, refused) != 0) std::abort();
  eight_free(err);
  err = nullptr;
}

void ask(const eight_t* e, const eight_options_t* o, int which, const char* board,
         const char* path, int number) {
  char* err = nullptr;
  switch (which % 10) {
    case 0: {
      eight_answer_t* a = eight_solve(e, o, board, &err);
      if (a != nullptr && eight_answer_json(a) == nullptr) std::abort();
      verdict(a != nullptr, err, o);
      eight_answer_destroy(a);
      break;
    }
    case 1: {
      std::vector<std::int32_t> distances(64);
      char* paths = nullptr;
      std::string lines = board != nullptr ? board : "";
      // At most 64 lines, the room of `distances`.
      std::size_t count = 1;
      for (char& c : lines) {
        if (c == '\n' && ++count > 64) c = ' ';
      }
      paths = eight_solve_lines(e, o, board != nullptr ? lines.c_str() : nullptr, distances.data(),
                                &err);
      verdict(paths != nullptr, err, o);
      eight_free(paths);
      break;
    }
    case 2:
      verdict(eight_distance(e, o, board, &err) != -2, err, o);
      break;
    case 3: {
      // Each board's cells as bytes, `number` cells a board (at most 100).
      const std::size_t n = static_cast<std::size_t>(number) % 101;
      const std::string cells = board != nullptr ? board : "";
      const std::size_t count = n == 0 ? 0 : std::min<std::size_t>(cells.size() / n, 4);
      std::vector<std::int32_t> out(4);
      verdict(eight_distances(e, o, reinterpret_cast<const std::uint8_t*>(cells.data()),
                              n == 0 ? 9 : n, count, out.data(), &err) == 0,
              err, o);
      break;
    }
    case 4: {
      eight_moves_t* m = eight_hint(e, o, board, &err);
      verdict(m != nullptr, err, o);
      eight_moves_destroy(m);
      break;
    }
    case 5: {
      char* drawn = eight_random(e, o, number % 40, static_cast<std::uint64_t>(number), &err);
      verdict(drawn != nullptr, err, o);
      eight_free(drawn);
      break;
    }
    case 6: {
      // counts[d] for d < n: room for exactly n.
      const std::size_t n = static_cast<std::size_t>(number) % 80;
      std::vector<std::uint64_t> counts(n);
      verdict(eight_histogram(e, o, counts.data(), n, &err) >= 0, err, o);
      break;
    }
    case 7: {
      eight_boards_t* b = eight_boards_at(e, o, number % 40, &err);
      verdict(b != nullptr, err, o);
      for (int i = 0; b != nullptr && i < 100 && eight_boards_next(b) != nullptr; ++i) {
      }
      eight_boards_destroy(b);
      break;
    }
    default: {
      eight_check_t* c = eight_check(e, o, board, path, &err);
      if (c != nullptr && eight_check_why(c) == nullptr) std::abort();
      verdict(c != nullptr, err, o);
      eight_check_destroy(c);
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static eight_t* const tables = [] {
    char* err = nullptr;
    eight_t* e = eight_build(&err);
    if (e == nullptr) std::abort();
    return e;
  }();
  eight_options_t* o = eight_options_create();
  if (o == nullptr) std::abort();
  eight_options_set_budget(o, 20000);
  Input in{data, size};
  std::string goal;
  std::string board;
  std::string path;
  std::string known;  // a known path (eight_options_set_path)
  for (int ops = 0; !in.empty() && ops < 16; ++ops) {
    switch (in.byte() % 8) {
      case 0: {
        const int rows = in.number();
        const int cols = in.number();
        const bool good = rows >= 2 && rows <= 10 && cols >= 2 && cols <= 10;
        const int set = eight_options_set_shape(o, rows, cols);
        if (set != (good || (rows == 0 && cols == 0) ? 0 : -1)) std::abort();
        if ((eight_options_error(o) == nullptr) != (set == 0)) std::abort();
        break;
      }
      case 1:
        eight_options_set_goal(o, in.text(goal) ? goal.c_str() : nullptr);
        break;
      case 2: {
        const std::uint64_t nodes = in.u64();
        eight_options_set_budget(o, nodes);
        if (nodes == 0 || nodes > 20000) eight_options_set_budget(o, nodes % 20000 + 1);
        break;
      }
      case 3:
        eight_options_set_optimal_required(o, in.byte());
        break;
      case 4:
        eight_options_set_boards(o, in.byte());
        break;
      case 6:
        eight_options_set_path(o, in.text(known) ? known.c_str() : nullptr);
        break;
      case 5: {
        const int which = in.byte();
        const bool has_board = in.text(board);
        const bool has_path = in.text(path);
        ask(tables, o, which, has_board ? board.c_str() : nullptr,
            has_path ? path.c_str() : nullptr, in.number());
        break;
      }
      default: {
        const int which = in.byte();
        const std::uint64_t seed = in.byte();
        const bool has_path = in.text(path);
        char* err = nullptr;
        char* drawn = eight_random(tables, o, -1, seed, &err);
        verdict(drawn != nullptr, err, o);
        if (drawn != nullptr) {
          ask(tables, o, which, drawn, has_path ? path.c_str() : nullptr, in.number());
        }
        eight_free(drawn);
        break;
      }
    }
  }
  eight_options_destroy(o);
  return 0;
}
