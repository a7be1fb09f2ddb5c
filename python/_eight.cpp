// eight._eight: the Python extension, a thin layer over the C API
// (include/eight/c.h), so Python's answers are the C API's and so the
// tool's and the server's, byte for byte. It owns each handle in a
// unique_ptr with its destroy function, turns an error message into
// eight.EightError (a ValueError) with that message, and releases the GIL
// while the core works. The Pythonic layer (eight/__init__.py) is above it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
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

// Raises EightError with the message in `err` (the C API's), freeing it.
[[noreturn]] void raise(char* err) {
  std::string message = err != nullptr ? err : "unknown error";
  eight_free(err);
  PyErr_SetString(g_error, message.c_str());
  throw py::error_already_set();
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

// A question's options, from Python's keyword arguments.
struct Options {
  std::optional<std::string> goal;
  std::optional<std::pair<int, int>> shape;
  std::uint64_t budget = 0;
  bool optimal_required = false;
  bool boards = false;

  OptionsPtr make() const {
    OptionsPtr o(eight_options_create());
    if (!o) throw std::bad_alloc();
    if (goal) eight_options_set_goal(o.get(), goal->c_str());
    if (shape) eight_options_set_shape(o.get(), shape->first, shape->second);
    eight_options_set_budget(o.get(), budget);
    eight_options_set_optimal_required(o.get(), optimal_required ? 1 : 0);
    eight_options_set_boards(o.get(), boards ? 1 : 0);
    return o;
  }
};

// A set of tables: eight_t, immutable, so every call may release the GIL.
class Tables {
 public:
  static std::shared_ptr<Tables> open(const std::string& path) {
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
  py::tuple solve(const std::string& board, const Options& opts) const {
    const OptionsPtr o = opts.make();
    char* err = nullptr;
    const auto raw = unlocked([&] { return eight_solve(e_, o.get(), board.c_str(), &err); });
    if (raw == nullptr) raise(err);
    const AnswerPtr a(raw);
    return py::make_tuple(eight_answer_board(raw), eight_answer_goal(raw),
                          eight_answer_solvable(raw) != 0, eight_answer_distance(raw),
                          eight_answer_optimal(raw) != 0, eight_answer_lower_bound(raw),
                          eight_answer_method(raw), eight_answer_path(raw), eight_answer_json(raw));
  }

  int distance(const std::string& board, const Options& opts) const {
    const OptionsPtr o = opts.make();
    char* err = nullptr;
    // A lookup takes nanoseconds: the GIL is kept (releasing it costs more).
    const int d = eight_distance(e_, o.get(), board.c_str(), &err);
    if (d == -2) raise(err);
    return d;
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
  py::tuple hint(const std::string& board, const Options& opts) const {
    const OptionsPtr o = opts.make();
    char* err = nullptr;
    const auto raw = unlocked([&] { return eight_hint(e_, o.get(), board.c_str(), &err); });
    if (raw == nullptr) raise(err);
    const MovesPtr m(raw);
    py::list moves;
    for (std::size_t i = 0; i < eight_moves_count(raw); ++i) {
      moves.append(
          py::make_tuple(std::string(1, eight_moves_letter(raw, i)), eight_moves_tile(raw, i),
                         eight_moves_next_board(raw, i), eight_moves_next_distance(raw, i),
                         eight_moves_is_optimal(raw, i) != 0, eight_moves_is_hint(raw, i) != 0));
    }
    return py::make_tuple(eight_moves_distance(raw), eight_moves_optimal(raw) != 0, moves,
                          eight_moves_json(raw));
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
    const int max = eight_histogram(e_, o.get(), counts.data(), counts.size(), &err);
    if (max < 0) raise(err);
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
  py::tuple check(const std::string& board, const std::string& path, const Options& opts) const {
    const OptionsPtr o = opts.make();
    char* err = nullptr;
    const auto raw =
        unlocked([&] { return eight_check(e_, o.get(), board.c_str(), path.c_str(), &err); });
    if (raw == nullptr) raise(err);
    const CheckPtr c(raw);
    return py::make_tuple(eight_check_legal(raw) != 0, eight_check_reaches(raw) != 0,
                          eight_check_optimal(raw), eight_check_why(raw));
  }

 private:
  explicit Tables(eight_t* e) : e_(e) {}
  eight_t* e_;
};

}  // namespace

PYBIND11_MODULE(_eight, m) {
  m.doc() = "eight's C API for Python; use the eight package, not this module.";
  g_error = PyErr_NewExceptionWithDoc("eight.EightError",
                                      "A question eight refuses, with the message the eight "
                                      "tool prints.",
                                      PyExc_ValueError, nullptr);
  m.attr("EightError") = py::handle(g_error);

  py::class_<Options>(m, "Options")
      .def(py::init<>())
      .def_readwrite("goal", &Options::goal)
      .def_readwrite("shape", &Options::shape)
      .def_readwrite("budget", &Options::budget)
      .def_readwrite("optimal_required", &Options::optimal_required)
      .def_readwrite("boards", &Options::boards);

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
