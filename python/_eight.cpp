// eight._eight: the Python extension, a thin layer over the C API
// (include/eight/c.h), so Python's answers are the C API's and so the
// tool's and the server's, byte for byte. It owns each handle in a
// unique_ptr with its destroy function, turns an error message into
// eight.EightError (a ValueError) with that message, and releases the GIL
// for every call into the core. Text goes to the C API as a C string, so a
// string holding a NUL (which C would read only up to) or no UTF-8 is
// refused here, before it (issue 41). The Pythonic layer
// (eight/__init__.py) is above it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "eight/c.h"

namespace py = pybind11;

namespace {

// The exception type eight/__init__.py names EightError.
PyObject* g_error = nullptr;

// Raises EightError with `message`.
[[noreturn]] void refuse(const std::string& message) {
  PyErr_SetString(g_error, message.c_str());
  throw py::error_already_set();
}

// A string from the C API as Python text: UTF-8, any byte that is not shown
// as \xNN (a message may quote a caller's bytes), so reading an answer never
// raises UnicodeDecodeError.
py::str text_of(const char* s) {
  PyObject* o =
      PyUnicode_DecodeUTF8(s, static_cast<py::ssize_t>(std::strlen(s)), "backslashreplace");
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

// Raises EightError with the message in `err` (the C API's), freeing it.
[[noreturn]] void raise(char* err) {
  const py::str message = text_of(err != nullptr ? err : "unknown error");
  eight_free(err);
  PyErr_SetObject(g_error, message.ptr());
  throw py::error_already_set();
}

// A distance as the answer's fields give it everywhere (include/eight/
// answer.h): None where the board cannot reach the goal (the C API's -1).
py::object distance_or_none(int d) {
  if (d < 0) return py::none();
  return py::int_(d);
}

// `value` (a str; anything else is a TypeError) as the UTF-8 of a C string,
// `what` naming it in the EightError for one the C API cannot take whole: a
// NUL inside (C would read up to it: '867254301\0garbage' was answered as
// 867254301), or a lone surrogate, which has no UTF-8.
std::string c_text(const py::object& value, const char* what) {
  if (!PyUnicode_Check(value.ptr())) {
    throw py::type_error(std::string(what) + " is a str, not " +
                         std::string(py::str(py::type::of(value).attr("__name__"))));
  }
  py::ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
  if (utf8 == nullptr) {
    PyErr_Clear();
    refuse(std::string(what) + " is not text that UTF-8 can hold (a lone surrogate)");
  }
  std::string out(utf8, static_cast<std::size_t>(size));
  if (const auto nul = out.find('\0'); nul != std::string::npos) {
    refuse(std::string(what) + " holds a NUL character (at " + std::to_string(nul) +
           "), which ends a C string: eight reads no such text");
  }
  return out;
}

// Runs `call` (a C API call) with the GIL released, so other Python threads
// run while the core works; the C API touches no Python object.
template <typename Call>
auto unlocked(Call call) {
  py::gil_scoped_release released;
  return call();
}

template <typename T, void (*kDestroy)(T*)>
struct Deleter {
  void operator()(T* p) const { kDestroy(p); }
};
using OptionsPtr =
    std::unique_ptr<eight_options_t, Deleter<eight_options_t, eight_options_destroy>>;
using AnswerPtr = std::unique_ptr<eight_answer_t, Deleter<eight_answer_t, eight_answer_destroy>>;
using MovesPtr = std::unique_ptr<eight_moves_t, Deleter<eight_moves_t, eight_moves_destroy>>;
using BoardsPtr = std::unique_ptr<eight_boards_t, Deleter<eight_boards_t, eight_boards_destroy>>;
using CheckPtr = std::unique_ptr<eight_check_t, Deleter<eight_check_t, eight_check_destroy>>;

// Raises EightError with eight_options_error()'s message, if `o` has one.
void check_options(const eight_options_t* o) {
  if (const char* why = eight_options_error(o)) refuse(why);
}

// A question's options, from Python's keyword arguments. The goal and the
// shape are checked where they are set (set_goal, set_shape): a shape by
// the C API itself, against the shapes eight answers.
struct Options {
  std::optional<std::string> goal;
  std::optional<std::pair<int, int>> shape;
  std::uint64_t budget = 0;
  bool optimal_required = false;
  bool boards = false;
  bool fast = false;
  std::optional<std::string> known_path;  // eight_options_set_path

  void set_goal(const py::object& g) {
    if (g.is_none()) {
      goal.reset();
    } else {
      goal = c_text(g, "the goal");
    }
  }
  void set_known_path(const py::object& p) {
    if (p.is_none()) {
      known_path.reset();
    } else {
      known_path = c_text(p, "the known path");
    }
  }
  void set_shape(std::optional<std::pair<int, int>> s) {
    if (s) {
      const OptionsPtr o(eight_options_create());
      if (!o) throw std::bad_alloc();
      eight_options_set_shape(o.get(), s->first, s->second);
      check_options(o.get());
    }
    shape = s;
  }

  OptionsPtr make() const {
    OptionsPtr o(eight_options_create());
    if (!o) throw std::bad_alloc();
    if (goal) eight_options_set_goal(o.get(), goal->c_str());
    if (shape) eight_options_set_shape(o.get(), shape->first, shape->second);
    eight_options_set_budget(o.get(), budget);
    eight_options_set_optimal_required(o.get(), optimal_required ? 1 : 0);
    eight_options_set_boards(o.get(), boards ? 1 : 0);
    eight_options_set_fast(o.get(), fast ? 1 : 0);
    if (known_path) eight_options_set_path(o.get(), known_path->c_str());
    check_options(o.get());
    return o;
  }
};

// A set of tables: eight_t, immutable, so every call may release the GIL.
class Tables {
 public:
  static std::shared_ptr<Tables> open(const py::object& where) {
    const std::string path = c_text(where, "the table path");
    char* err = nullptr;
    const auto e = unlocked([&] { return eight_open(path.c_str(), &err); });
    if (e == nullptr) raise(err);
    return std::shared_ptr<Tables>(new Tables(e));
  }
  static std::shared_ptr<Tables> build() {
    char* err = nullptr;
    const auto e = unlocked([&] { return eight_build(&err); });
    if (e == nullptr) raise(err);
    return std::shared_ptr<Tables>(new Tables(e));
  }
  ~Tables() { eight_close(e_); }
  Tables(const Tables&) = delete;
  Tables& operator=(const Tables&) = delete;

  // (board, goal, solvable, distance, optimal, lower_bound, method, path, json)
  py::tuple solve(const py::object& given, const Options& opts) const {
    const std::string board = c_text(given, "the board");
    const OptionsPtr o = opts.make();
    char* err = nullptr;
    const auto raw = unlocked([&] { return eight_solve(e_, o.get(), board.c_str(), &err); });
    if (raw == nullptr) raise(err);
    const AnswerPtr a(raw);
    return py::make_tuple(
        eight_answer_board(raw), eight_answer_goal(raw), eight_answer_solvable(raw) != 0,
        distance_or_none(eight_answer_distance(raw)), eight_answer_optimal(raw) != 0,
        distance_or_none(eight_answer_lower_bound(raw)), eight_answer_method(raw),
        eight_answer_path(raw), eight_answer_json(raw));
  }

  py::object distance(const py::object& given, const Options& opts) const {
    const std::string board = c_text(given, "the board");
    const OptionsPtr o = opts.make();
    char* err = nullptr;
    // Released, as for every call: a table lookup takes nanoseconds, but a
    // 4x4 or larger board is a search that may take seconds (issue 41: one
    // froze every other thread for 10 s).
    const int d = unlocked([&] { return eight_distance(e_, o.get(), board.c_str(), &err); });
    if (d == -2) raise(err);
    return distance_or_none(d);
  }

  // Boards as rows of cells, an array of shape (count, cells).
  py::array_t<std::int32_t> distances(
      const py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>& cells,
      const Options& opts) const {
    if (cells.ndim() != 2) {
      PyErr_SetString(g_error, "boards are an array of shape (count, cells)");
      throw py::error_already_set();
    }
    const auto count = static_cast<std::size_t>(cells.shape(0));
    const auto n = static_cast<std::size_t>(cells.shape(1));
    py::array_t<std::int32_t> out(static_cast<py::ssize_t>(count));
    const OptionsPtr o = opts.make();
    char* err = nullptr;
    const std::uint8_t* in = cells.data();
    std::int32_t* to = out.mutable_data();
    const int rc = unlocked([&] { return eight_distances(e_, o.get(), in, n, count, to, &err); });
    if (rc != 0) raise(err);
    return out;
  }

  // (distance, optimal, [(letter, tile, next board, distance, optimal, hint)], json)
  py::tuple hint(const py::object& given, const Options& opts) const {
    const std::string board = c_text(given, "the board");
    const OptionsPtr o = opts.make();
    char* err = nullptr;
    const auto raw = unlocked([&] { return eight_hint(e_, o.get(), board.c_str(), &err); });
    if (raw == nullptr) raise(err);
    const MovesPtr m(raw);
    py::list moves;
    for (std::size_t i = 0; i < eight_moves_count(raw); ++i) {
      moves.append(py::make_tuple(
          std::string(1, eight_moves_letter(raw, i)), eight_moves_tile(raw, i),
          eight_moves_next_board(raw, i), distance_or_none(eight_moves_next_distance(raw, i)),
          eight_moves_is_optimal(raw, i) != 0, eight_moves_is_hint(raw, i) != 0));
    }
    return py::make_tuple(distance_or_none(eight_moves_distance(raw)),
                          eight_moves_optimal(raw) != 0, moves, eight_moves_json(raw));
  }

  std::string random(int distance, std::uint64_t seed, const Options& opts) const {
    const OptionsPtr o = opts.make();
    char* err = nullptr;
    const auto board = unlocked([&] { return eight_random(e_, o.get(), distance, seed, &err); });
    if (board == nullptr) raise(err);
    std::string out = board;
    eight_free(board);
    return out;
  }

  std::vector<std::uint64_t> histogram(const Options& opts) const {
    const OptionsPtr o = opts.make();
    std::vector<std::uint64_t> counts(256);
    char* err = nullptr;
    const int max =
        unlocked([&] { return eight_histogram(e_, o.get(), counts.data(), counts.size(), &err); });
    if (max < 0) raise(err);
    // (A farthest distance past the slots would leave zeros: no table
    // shape's is near 255.)
    counts.resize(static_cast<std::size_t>(max) + 1);
    return counts;
  }

  std::vector<std::string> boards_at(int distance, const Options& opts) const {
    const OptionsPtr o = opts.make();
    char* err = nullptr;
    const auto raw = unlocked([&] { return eight_boards_at(e_, o.get(), distance, &err); });
    if (raw == nullptr) raise(err);
    const BoardsPtr b(raw);
    std::vector<std::string> out;
    out.reserve(eight_boards_count(raw));
    for (const char* s; (s = eight_boards_next(raw)) != nullptr;) out.emplace_back(s);
    return out;
  }

  // (legal, reaches, optimal: 1, 0 or -1, why)
  py::tuple check(const py::object& given, const py::object& moves, const Options& opts) const {
    const std::string board = c_text(given, "the board");
    const std::string path = c_text(moves, "the path");
    const OptionsPtr o = opts.make();
    char* err = nullptr;
    const auto raw =
        unlocked([&] { return eight_check(e_, o.get(), board.c_str(), path.c_str(), &err); });
    if (raw == nullptr) raise(err);
    const CheckPtr c(raw);
    return py::make_tuple(eight_check_legal(raw) != 0, eight_check_reaches(raw) != 0,
                          eight_check_optimal(raw), text_of(eight_check_why(raw)));
  }

 private:
  explicit Tables(eight_t* e) : e_(e) {}
  eight_t* e_;
};

}  // namespace

PYBIND11_MODULE(_eight, m) {
  m.doc() = "eight's C API for Python; use the eight package, not this module.";
  // The project's one version (CMake's project(VERSION), python/CMakeLists.txt).
  m.attr("__version__") = EIGHT_VERSION;
  g_error = PyErr_NewExceptionWithDoc("eight.EightError",
                                      "A question eight refuses, with the message the eight "
                                      "tool prints.",
                                      PyExc_ValueError, nullptr);
  m.attr("EightError") = py::handle(g_error);

  py::class_<Options>(m, "Options")
      .def(py::init<>())
      .def_property(
          "goal", [](const Options& o) { return o.goal; }, &Options::set_goal)
      .def_property(
          "shape", [](const Options& o) { return o.shape; }, &Options::set_shape)
      .def_readwrite("budget", &Options::budget)
      .def_readwrite("optimal_required", &Options::optimal_required)
      .def_readwrite("boards", &Options::boards)
      .def_readwrite("fast", &Options::fast)
      .def_property(
          "known_path", [](const Options& o) { return o.known_path; }, &Options::set_known_path);

  py::class_<Tables, std::shared_ptr<Tables>>(m, "Tables")
      .def_static("open", &Tables::open)
      .def_static("build", &Tables::build)
      .def("solve", &Tables::solve)
      .def("distance", &Tables::distance)
      .def("distances", &Tables::distances)
      .def("hint", &Tables::hint)
      .def("random", &Tables::random)
      .def("histogram", &Tables::histogram)
      .def("boards_at", &Tables::boards_at)
      .def("check", &Tables::check);
}
