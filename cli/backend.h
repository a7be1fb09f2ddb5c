// What answers the questions of `eight solve`, `eight hint` and `eight
// random`: the interface the commands (cli/commands/) are written against
// once, with two implementations that print the same for the same question:
//
//   TableBackend   the local tables (table_backend.h, eight's core library)
//   ServerBackend  an eight-server over HTTP (server_backend.h), built into
//                  the module eight-remote.so that `eight` loads only for a
//                  remote command (remote_module.h)
//
// A command calls open() once, then frame() with the goal asked about, then
// the questions. Every method that can fail returns a Failure: the command
// prints it (`eight: MESSAGE`) and exits with its status.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "eight/board.h"
#include "eight/solver.h"

namespace eight::cli {

// What went wrong, as the tool reports it: `eight: MESSAGE`, exit `status`
// (common/exit_codes.h). kExitUsage also prints the usage text.
struct Failure {
  int status;
  std::string message;
  // The client refused the answer (an encoding, a size past its cap), as
  // opposed to a connection that ended or timed out: a download keeps no
  // byte of a refused answer.
  bool refused = false;
};

// What the backend knows of the goal asked about, once it answers it.
struct Framed {
  // The farthest distance `random --distance` may ask for.
  int max_distance = 0;
  // Answered by a search (4x4 and larger), not a table: random may draw a
  // board without --distance (a uniformly random one).
  bool search = false;
  // Whether distances are exact, so random may draw a board by distance:
  // not for the shapes eight/answer.h's grid engine answers.
  bool exact = true;
};

// One board of `eight solve`, asked about its own goal or the frame's.
struct SolveQuestion {
  GridBoard board;
  // The goal of the board's line (or its shape's standard goal); without
  // it, the goal framed by frame().
  std::optional<GridBoard> goal;
  // Only whether `goal` is answered (board == goal): the line is refused
  // for its shapes either way, but a goal that is not answered first.
  bool frame_only = false;
  // A known path from the board to its goal (--path; Question::known_path),
  // checked where it is answered: a bad one refuses the board.
  std::optional<std::string> known_path;
};

// A board's solution; or why it is refused (its line's message); or a
// Failure that stops every answer from it on (an answer that is not to be
// trusted: nothing after it is printed).
using SolveAnswer = std::variant<Solution, std::string, Failure>;

class Backend {
 public:
  virtual ~Backend() = default;

  // Gets ready to answer: opens the tables, or checks the server's URL and
  // --timeout-ms (a kExitUsage failure). Nothing else before it.
  virtual std::optional<Failure> open() = 0;

  // Whether `goal` is answered, and its facts. `per_board_goal`: every
  // board will be asked about its own shape's standard goal, so a backend
  // that can may answer without the default goal's shape (nothing framed).
  virtual std::variant<std::optional<Framed>, Failure> frame(const GridBoard& goal,
                                                             bool per_board_goal) = 0;

  // The most questions solve() is given at once: the command holds back
  // the lines it reads until it has this many (or its input pauses).
  virtual std::size_t max_batch() const = 0;

  // The answers to `questions`, one each in order (up to the first Failure
  // among them), about `goal` (the framed goal) unless a question names its
  // own; `path`: with the moves (else the distance may be all a solution
  // holds). A Failure instead of the answers: none of them was had.
  virtual std::variant<std::vector<SolveAnswer>, Failure> solve(
      const GridBoard& goal, std::span<const SolveQuestion> questions, bool path) = 0;

  // The moves of `board` towards the framed `goal` (shapes checked), with
  // `known_path` (--path, already checked: a path from `board` to `goal`)
  // as Question::known_path when there is one.
  virtual std::variant<MoveOptions, Failure> hint(const GridBoard& board, const GridBoard& goal,
                                                  const std::optional<std::string>& known_path) = 0;

  // `count` boards `distance` moves from the framed `goal` (any distance
  // when nothing, for a search goal), drawn from `seed` (else at random).
  virtual std::variant<std::vector<GridBoard>, Failure> random(
      const GridBoard& goal, const Framed& framed, std::optional<int> distance, std::uint64_t count,
      std::optional<std::uint64_t> seed) = 0;

  // What `random` asks of its options before anything is opened: the most
  // boards one call may draw (more is a usage error, `count_usage`).
  struct RandomLimits {
    std::uint64_t max_count;
    const char* count_usage;
  };
  virtual RandomLimits random_limits() const = 0;
};

// What an eight-server draws (GET /random): at most its kMaxRandomCount
// (1000) boards a call. The limits of --server, known before the module
// that asks the server is loaded (main.cpp).
inline constexpr Backend::RandomLimits kServerRandomLimits = {
    1000, "with --server, --count takes a whole number from 1 to 1000"};
// The most boards one POST /solve may carry (the server's kMaxBatchBoards):
// the server backend's max_batch().
inline constexpr std::size_t kServerMaxBatch = 10000;

}  // namespace eight::cli
