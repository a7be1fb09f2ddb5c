// include/eight/c.h over the core (answer.h, the one seam from a question
// to its answer) and the JSON the server and the tool write (json/), so an
// answer here is theirs byte for byte. Every entry point catches what the
// C++ below it may throw (std::bad_alloc, mostly) and turns it into an
// error value: no exception crosses into C.
// The tables are opened in tables.cpp, the options set in options.cpp.
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "c_internal.h"
#include "common/text.h"
#include "eight/answer.h"
#include "eight/board.h"
#include "eight/question.h"
#include "eight/random.h"
#include "eight/shape.h"
#include "json/answer_json.h"

struct eight_answer_t {
  eight::Solution solution;
  std::string path;
  std::string board;
  std::string goal;
  bool boards = false;  // the json lists the board after each move
  // Made by the first eight_answer_json(): most callers want the path
  // alone, and the JSON is most of an answer's time (the JavaScript
  // package's solve, js/).
  mutable std::optional<std::string> json;
};

struct eight_moves_t {
  eight::MoveOptions options;
  std::vector<std::string> next;
  std::string json;
};

struct eight_boards_t {
  std::vector<std::string> boards;
  std::size_t next = 0;
};

struct eight_check_t {
  eight::PathCheck check;
};

namespace {

using eight::Error;
using eight::GridBoard;
using eight::Result;
using eight::capi::copy_string;
using eight::capi::guarded;
using eight::capi::set_error;

const eight_options_t kDefaultOptions{};

// The options of a question (the defaults for none), or nothing with
// *errptr set to why they refuse it (a shape eight does not answer).
const eight_options_t* options_or_fail(const eight_options_t* o, char** errptr) {
  if (o == nullptr) return &kDefaultOptions;
  if (!o->refused.empty()) {
    set_error(errptr, o->refused);
    return nullptr;
  }
  return o;
}

eight::fifteen::SearchBudget budget_of(const eight_options_t& o) {
  eight::fifteen::SearchBudget b;
  b.max_nodes = o.budget;
  return b;
}

// A question read by the core's one reader (eight/question.h): the
// options' shape, goal and known path, and `board` when there is one (a
// known path without one is the reader's refusal). A goal text's error
// says "bad goal: " first, as the tool's does (a known path's names it).
Result<eight::ReadQuestion> read(const eight_options_t& o, std::optional<std::string_view> board,
                                 std::optional<eight::Shape> shape = std::nullopt) {
  eight::QuestionText text;
  text.shape = o.shape ? o.shape : shape;
  text.board = board;
  if (o.goal) text.goal = *o.goal;
  if (o.path) text.path = *o.path;
  auto read = eight::read_question(text);
  if (auto* bad = std::get_if<eight::QuestionError>(&read)) {
    if (bad->part != eight::QuestionPart::kGoal) return bad->error;
    return eight::make_error(bad->error.code, "bad goal: " + bad->error.message);
  }
  return std::get<eight::ReadQuestion>(std::move(read));
}

// The goal of a question about boards of `shape` (none: the options'):
// the options' goal, else the default goal.
Result<GridBoard> goal_of(const eight_options_t& o, std::optional<eight::Shape> shape) {
  auto q = read(o, std::nullopt, shape);
  if (!q.ok()) return q.error();
  return q->goal;
}

// The board and its question, or the error to give.
struct Asked {
  GridBoard board;
  eight::Question question;
};
// The question of `goal` in the tables, asked as the options say (fast).
Result<eight::Question> framed(const eight_t* e, const eight_options_t& o, const GridBoard& goal) {
  auto q = eight::frame_question(e->tables, goal);
  if (q.ok()) q->grid_fast = o.fast;
  return q;
}

Result<Asked> ask(const eight_t* e, const eight_options_t& o, std::string_view text) {
  auto read_q = read(o, text);
  if (!read_q.ok()) return read_q.error();
  auto q = framed(e, o, read_q->goal);
  if (!q.ok()) return q.error();
  q->known_path = std::move(read_q->path);
  return Asked{*read_q->board, *q};
}

// The question about the goal alone (random boards, histograms).
Result<eight::Question> ask_goal(const eight_t* e, const eight_options_t& o) {
  auto goal = goal_of(o, std::nullopt);
  if (!goal.ok()) return goal.error();
  return framed(e, o, *goal);
}

// ask() and ask_goal() for an entry point: the answer, or nothing with
// *errptr set to why.
std::optional<Asked> ask_or_fail(const eight_t* e, const eight_options_t& o, const char* text,
                                 char** errptr) {
  if (text == nullptr) {
    set_error(errptr, "no board given");
    return std::nullopt;
  }
  auto asked = ask(e, o, text);
  if (asked.ok()) return std::move(asked).value();
  set_error(errptr, asked.error().message);
  return std::nullopt;
}
std::optional<eight::Question> ask_goal_or_fail(const eight_t* e, const eight_options_t& o,
                                                char** errptr) {
  auto q = ask_goal(e, o);
  if (q.ok()) return std::move(q).value();
  set_error(errptr, q.error().message);
  return std::nullopt;
}

std::string stopped(const eight::SearchReport& report, std::uint64_t budget) {
  return eight::describe_stop(report, budget) + "; a larger budget may solve it";
}

// The distance of `board` for `q`, as eight_answer_distance() gives it (-1:
// the other class), or why there is none.
Result<int> distance_of(const eight::Question& q, const GridBoard& board,
                        const eight_options_t& o) {
  const auto answer = eight::solve_board(q, board, false, budget_of(o), o.require_optimal);
  if (!answer.ok()) return answer.error();
  if (!answer->report.finished()) {
    return eight::make_error(eight::ErrorCode::kBadArgument, stopped(answer->report, o.budget));
  }
  return answer->solution.solvable ? answer->solution.distance : -1;
}

// Move `i` of `m`, or nothing past the last: an index a caller passes is
// checked in every build (issue 41: no caller's number reads past an array).
const eight::MoveOption* move_at(const eight_moves_t* m, std::size_t i) {
  const auto all = m->options.all();
  return i < all.size() ? &all[i] : nullptr;
}

std::string bad_cells(std::size_t index, std::size_t n) {
  return "board " + std::to_string(index) + ": its cells are not the tiles 0 to " +
         std::to_string(n - 1) + ", each once";
}

}  // namespace

extern "C" {

eight_answer_t* eight_solve(const eight_t* e, const eight_options_t* opts, const char* board,
                            char** errptr) {
  return guarded<eight_answer_t*>(errptr, nullptr, [&]() -> eight_answer_t* {
    const eight_options_t* given = options_or_fail(opts, errptr);
    if (given == nullptr) return nullptr;
    const eight_options_t& o = *given;
    const auto asked = ask_or_fail(e, o, board, errptr);
    if (!asked) return nullptr;
    const auto answer =
        eight::solve_board(asked->question, asked->board, true, budget_of(o), o.require_optimal);
    if (!answer.ok()) {
      set_error(errptr, answer.error().message);
      return nullptr;
    }
    if (!answer->report.finished()) {
      set_error(errptr, stopped(answer->report, o.budget));
      return nullptr;
    }
    auto a = std::make_unique<eight_answer_t>();
    a->solution = answer->solution;
    a->path = eight::path_letters(a->solution.path());
    a->board = eight::to_string(a->solution.board);
    a->goal = eight::to_string(a->solution.goal);
    a->boards = o.boards;
    return a.release();
  });
}

char* eight_solve_lines(const eight_t* e, const eight_options_t* opts, const char* boards,
                        int32_t* distances, char** errptr) {
  return guarded<char*>(errptr, nullptr, [&]() -> char* {
    const eight_options_t* given = options_or_fail(opts, errptr);
    if (given == nullptr) return nullptr;
    const eight_options_t& o = *given;
    if (boards == nullptr) {
      set_error(errptr, "no boards given");
      return nullptr;
    }
    if (o.path) {
      set_error(errptr, "a known path goes from one board: eight_solve_lines asks many");
      return nullptr;
    }
    std::string paths;
    std::size_t i = 0;
    for (std::string_view rest = boards;; ++i) {
      const std::size_t end = rest.find('\n');
      const auto fail = [&](const std::string& why) -> char* {
        set_error(errptr, "board " + std::to_string(i + 1) + ": " + why);
        return nullptr;
      };
      auto asked = ask(e, o, rest.substr(0, end));
      if (!asked.ok()) return fail(asked.error().message);
      const auto answer =
          eight::solve_board(asked->question, asked->board, true, budget_of(o), o.require_optimal);
      if (!answer.ok()) return fail(answer.error().message);
      if (!answer->report.finished()) return fail(stopped(answer->report, o.budget));
      const eight::Solution& s = answer->solution;
      if (s.solvable) paths += eight::path_letters(s.path());
      paths += '\n';
      if (distances != nullptr) distances[i] = s.solvable ? s.distance : -1;
      if (end == std::string_view::npos) break;
      rest.remove_prefix(end + 1);
    }
    return copy_string(paths);
  });
}

int eight_distance(const eight_t* e, const eight_options_t* opts, const char* board,
                   char** errptr) {
  return guarded<int>(errptr, -2, [&]() -> int {
    const eight_options_t* given = options_or_fail(opts, errptr);
    if (given == nullptr) return -2;
    const eight_options_t& o = *given;
    const auto asked = ask_or_fail(e, o, board, errptr);
    if (!asked) return -2;
    auto d = distance_of(asked->question, asked->board, o);
    if (!d.ok()) {
      set_error(errptr, d.error().message);
      return -2;
    }
    return *d;
  });
}

int eight_distances(const eight_t* e, const eight_options_t* opts, const std::uint8_t* cells,
                    size_t cells_per_board, size_t count, std::int32_t* out, char** errptr) {
  return guarded<int>(errptr, -1, [&]() -> int {
    const eight_options_t* given = options_or_fail(opts, errptr);
    if (given == nullptr) return -1;
    const eight_options_t& o = *given;
    const auto fail = [&](const std::string& why) {
      set_error(errptr, why);
      return -1;
    };
    // The boards' shape: named, else the goal's, else the square.
    std::optional<eight::Shape> shape = o.shape;
    if (!shape && o.goal) {
      auto goal = goal_of(o, std::nullopt);
      if (!goal.ok()) return fail(goal.error().message);
      shape = goal->shape;
    }
    for (int side = 2; !shape && side <= eight::kMaxSide; ++side) {
      if (static_cast<size_t>(side * side) == cells_per_board) {
        shape = eight::Shape{static_cast<std::uint8_t>(side), static_cast<std::uint8_t>(side)};
      }
    }
    if (!shape) {
      return fail(std::to_string(cells_per_board) +
                  " cells a board make no square: name the shape (eight_options_set_shape)");
    }
    if (!eight::is_board_shape(*shape)) {
      return fail("eight answers no " + eight::to_string(*shape) + " boards");
    }
    if (static_cast<size_t>(shape->cells()) != cells_per_board) {
      return fail("a " + eight::to_string(*shape) + " board has " + std::to_string(shape->cells()) +
                  " cells, not " + std::to_string(cells_per_board));
    }
    auto goal = goal_of(o, *shape);
    if (!goal.ok()) return fail(goal.error().message);
    if (goal->shape != *shape) {
      return fail("the boards are " + eight::to_string(*shape) + " and the goal " +
                  eight::to_string(goal->shape) + ": a goal has the board's shape");
    }
    auto q = framed(e, o, *goal);
    if (!q.ok()) return fail(q.error().message);
    const auto n = static_cast<std::size_t>(shape->cells());
    const bool lookup = q->engine == eight::Engine::kTable;
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint8_t* at = cells + i * n;
      if (lookup) {  // a table shape: a Board and a lookup
        eight::Board b;
        b.shape = *shape;
        std::memcpy(b.cells.data(), at, n);
        if (!eight::is_valid(b)) return fail(bad_cells(i, n));
        out[i] = q->table->solver().distance(b, *q->frame);
        continue;
      }
      GridBoard b;
      b.shape = *shape;
      std::memcpy(b.cells.data(), at, n);
      if (!eight::is_valid(b)) return fail(bad_cells(i, n));
      auto d = distance_of(*q, b, o);
      if (!d.ok()) return fail("board " + std::to_string(i) + ": " + d.error().message);
      out[i] = *d;
    }
    return 0;
  });
}

void eight_answer_destroy(eight_answer_t* a) {
  delete a;
}
unsigned char eight_answer_solvable(const eight_answer_t* a) {
  return a->solution.solvable;
}
int eight_answer_distance(const eight_answer_t* a) {
  return a->solution.solvable ? a->solution.distance : -1;
}
unsigned char eight_answer_optimal(const eight_answer_t* a) {
  return a->solution.quality.optimal;
}
int eight_answer_lower_bound(const eight_answer_t* a) {
  if (!a->solution.solvable) return -1;
  return a->solution.quality.optimal ? a->solution.distance : a->solution.quality.lower_bound;
}
const char* eight_answer_method(const eight_answer_t* a) {
  // method_name() views a string literal: NUL-terminated.
  return eight::method_name(a->solution.quality.method).data();
}
const char* eight_answer_path(const eight_answer_t* a) {
  return a->path.c_str();
}
const char* eight_answer_board(const eight_answer_t* a) {
  return a->board.c_str();
}
const char* eight_answer_goal(const eight_answer_t* a) {
  return a->goal.c_str();
}
const char* eight_answer_json(const eight_answer_t* a) {
  try {
    if (!a->json) a->json = eight::solution_json(a->solution, eight::SolveFields{true, a->boards});
    return a->json->c_str();
  } catch (...) {
    return nullptr;  // out of memory (c.h)
  }
}

eight_moves_t* eight_hint(const eight_t* e, const eight_options_t* opts, const char* board,
                          char** errptr) {
  return guarded<eight_moves_t*>(errptr, nullptr, [&]() -> eight_moves_t* {
    const eight_options_t* given = options_or_fail(opts, errptr);
    if (given == nullptr) return nullptr;
    const eight_options_t& o = *given;
    const auto asked = ask_or_fail(e, o, board, errptr);
    if (!asked) return nullptr;
    const auto searched =
        eight::board_moves(asked->question, asked->board, budget_of(o), o.require_optimal);
    if (!searched.report.finished()) {
      set_error(errptr, stopped(searched.report, o.budget));
      return nullptr;
    }
    auto m = std::make_unique<eight_moves_t>();
    m->options = searched.options;
    for (const eight::MoveOption& option : m->options.all()) {
      m->next.push_back(eight::to_string(option.next));
    }
    m->json = eight::hints_json(asked->board, asked->question.goal(), m->options);
    return m.release();
  });
}

void eight_moves_destroy(eight_moves_t* m) {
  delete m;
}
int eight_moves_distance(const eight_moves_t* m) {
  return m->options.distance;
}
unsigned char eight_moves_optimal(const eight_moves_t* m) {
  return m->options.quality.optimal;
}
size_t eight_moves_count(const eight_moves_t* m) {
  return m->options.all().size();
}
char eight_moves_letter(const eight_moves_t* m, size_t i) {
  const eight::MoveOption* move = move_at(m, i);
  return move != nullptr ? eight::move_letter(move->move) : '\0';
}
int eight_moves_tile(const eight_moves_t* m, size_t i) {
  const eight::MoveOption* move = move_at(m, i);
  return move != nullptr ? move->tile : -1;
}
int eight_moves_next_distance(const eight_moves_t* m, size_t i) {
  const eight::MoveOption* move = move_at(m, i);
  return move != nullptr ? move->distance : -1;
}
unsigned char eight_moves_is_optimal(const eight_moves_t* m, size_t i) {
  const eight::MoveOption* move = move_at(m, i);
  return move != nullptr && move->optimal;
}
unsigned char eight_moves_is_hint(const eight_moves_t* m, size_t i) {
  const eight::MoveOption* move = move_at(m, i);
  return move != nullptr && move->hint;
}
const char* eight_moves_next_board(const eight_moves_t* m, size_t i) {
  return i < m->next.size() ? m->next[i].c_str() : nullptr;
}
const char* eight_moves_json(const eight_moves_t* m) {
  return m->json.c_str();
}

char* eight_random(const eight_t* e, const eight_options_t* opts, int distance, std::uint64_t seed,
                   char** errptr) {
  return guarded<char*>(errptr, nullptr, [&]() -> char* {
    const eight_options_t* given = options_or_fail(opts, errptr);
    if (given == nullptr) return nullptr;
    const eight_options_t& o = *given;
    const auto q = ask_goal_or_fail(e, o, errptr);
    if (!q) return nullptr;
    eight::Rng rng(seed);
    if (distance < 0 && !q->by_search()) {
      // A table's goal, no distance: uniformly random among all its boards,
      // as draw_board() draws a searched shape's (a shuffle of the goal's
      // cells, kept in its class).
      return copy_string(eight::to_string(eight::shuffled_board(q->goal(), rng)));
    }
    const auto drawn = eight::draw_board(
        *q, distance < 0 ? std::nullopt : std::optional<int>(distance), rng, budget_of(o));
    if (!drawn.ok()) {
      set_error(errptr, drawn.error().message);
      return nullptr;
    }
    if (distance >= 0 && !drawn->report.finished()) {
      set_error(errptr,
                eight::describe_stop(drawn->report, o.budget) + "; a larger budget may find one");
      return nullptr;
    }
    return copy_string(eight::to_string(drawn->board));
  });
}

int eight_histogram(const eight_t* e, const eight_options_t* opts, std::uint64_t* counts, size_t n,
                    char** errptr) {
  return guarded<int>(errptr, -1, [&]() -> int {
    const eight_options_t* given = options_or_fail(opts, errptr);
    if (given == nullptr) return -1;
    const eight_options_t& o = *given;
    const auto q = ask_goal_or_fail(e, o, errptr);
    if (!q) return -1;
    if (q->by_search()) {
      set_error(errptr, "distances of " + eight::to_string(q->goal().shape) +
                            " boards are found by search, not tabulated: no histogram");
      return -1;
    }
    const auto& hist = q->table->index().histogram(q->frame->section());
    int max = 0;
    for (std::size_t d = 0; d < hist.size(); ++d) {
      if (d < n) counts[d] = hist[d];
      if (hist[d] != 0) max = static_cast<int>(d);
    }
    return max;
  });
}

eight_boards_t* eight_boards_at(const eight_t* e, const eight_options_t* opts, int distance,
                                char** errptr) {
  return guarded<eight_boards_t*>(errptr, nullptr, [&]() -> eight_boards_t* {
    const eight_options_t* given = options_or_fail(opts, errptr);
    if (given == nullptr) return nullptr;
    const eight_options_t& o = *given;
    const auto q = ask_goal_or_fail(e, o, errptr);
    if (!q) return nullptr;
    const auto fail = [&](const std::string& why) -> eight_boards_t* {
      set_error(errptr, why);
      return nullptr;
    };
    if (q->by_search()) {
      return fail("distances of " + eight::to_string(q->goal().shape) +
                  " boards are found by search: their boards are not listed by distance");
    }
    const eight::DistanceIndex& index = q->table->index();
    const std::size_t section = q->frame->section();
    const auto& hist = index.histogram(section);
    if (distance < 0 || static_cast<std::size_t>(distance) >= hist.size() ||
        hist[static_cast<std::size_t>(distance)] == 0) {
      return fail("no board is " + std::to_string(distance) + " moves from goal " +
                  eight::to_string(q->goal()));
    }
    const auto ranks = index.at(section, distance);
    if (ranks.size() != hist[static_cast<std::size_t>(distance)]) {
      return fail("the boards of " + eight::to_string(q->goal().shape) +
                  " are listed at their farthest distance only (the table holds no other "
                  "distance per board)");
    }
    auto b = std::make_unique<eight_boards_t>();
    b->boards.reserve(ranks.size());
    for (const std::uint32_t r : ranks) {
      b->boards.push_back(eight::to_string(q->frame->from_section(index.board(section, r))));
    }
    return b.release();
  });
}

void eight_boards_destroy(eight_boards_t* b) {
  delete b;
}
size_t eight_boards_count(const eight_boards_t* b) {
  return b->boards.size();
}
const char* eight_boards_next(eight_boards_t* b) {
  if (b->next >= b->boards.size()) return nullptr;
  return b->boards[b->next++].c_str();
}

eight_check_t* eight_check(const eight_t* e, const eight_options_t* opts, const char* board,
                           const char* path, char** errptr) {
  return guarded<eight_check_t*>(errptr, nullptr, [&]() -> eight_check_t* {
    const eight_options_t* given = options_or_fail(opts, errptr);
    if (given == nullptr) return nullptr;
    const eight_options_t& o = *given;
    const auto asked = ask_or_fail(e, o, board, errptr);
    if (!asked) return nullptr;
    if (path == nullptr) path = "";
    // The core's one path check (answer.h), beside the answer.
    auto checked = eight::check_path(asked->question, asked->board, path, budget_of(o));
    if (!checked.ok()) {
      set_error(errptr, checked.error().message);
      return nullptr;
    }
    return new eight_check_t{std::move(checked).value()};
  });
}

void eight_check_destroy(eight_check_t* c) {
  delete c;
}
unsigned char eight_check_legal(const eight_check_t* c) {
  return c->check.legal;
}
unsigned char eight_check_reaches(const eight_check_t* c) {
  return c->check.reaches;
}
int eight_check_optimal(const eight_check_t* c) {
  return c->check.optimal;
}
const char* eight_check_why(const eight_check_t* c) {
  return c->check.why.c_str();
}

}  // extern "C"
