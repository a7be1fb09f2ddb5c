// eight solve [BOARD...]: the fewest moves of each board (argument or line
// of standard input), one output line per input line.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commands.h"
#include "common/text.h"
#include "eight/question.h"
#include "json/answer_json.h"

namespace eight::cli {
namespace {

// Where an input came from, for error messages: "line 3", "argument 2".
struct Origin {
  const char* kind;
  long number;
};

// One answer line, or the line that stands in for an input that was refused.
void write_solution(const Solution& s, Format format, SolveFields fields, std::string& out) {
  switch (format) {
    case Format::kMoves:
      if (s.solvable) {
        for (Move m : s.path()) out += move_letter(m);
      } else {
        out += "unsolvable";
      }
      break;
    case Format::kDistance:
      out += std::to_string(s.distance);
      // The length of a path not proven optimal is not the distance: say so.
      if (s.solvable && !s.quality.optimal) {
        out += " (not proven optimal; at least " + std::to_string(s.quality.lower_bound) + ")";
      }
      break;
    case Format::kJson:
      append_solution_json(s, fields, out);
      break;
    case Format::kText:  // not a solve format; refused before solving
      break;
  }
  out += '\n';
}

// The line printed in place of an answer, so output lines stay aligned with
// input lines; the reason goes to standard error.
void write_refusal(Format format, std::string_view text, Origin origin, const std::string& message,
                   std::string& out) {
  std::fprintf(stderr, "eight: %s %ld: %s\n", origin.kind, origin.number, message.c_str());
  out += format == Format::kJson ? input_error_json(std::string(text), message) : "error";
  out += '\n';
}

// Reads and checks each line (or argument) here, holds its board back, and
// asks the backend the boards held back in one batch (flush(): every line
// read at once from standard input, or every argument, up to the backend's
// max_batch()), then prints the answers in order.
class SolveCommand {
 public:
  // `framed`: the backend answers `goal`'s shape (else every board takes
  // its own shape's standard goal). `default_goal`: the goal was not
  // given, so a board of another shape than the goal's is asked about the
  // standard goal of its own shape.
  // `known_path`: --path, every board's known path (solve_command() allows
  // it with one board).
  SolveCommand(Backend& backend, GridBoard goal, bool framed, Format format, bool boards,
               bool default_goal, std::optional<Shape> shape, std::optional<std::string> known_path)
      : backend_(backend),
        goal_(goal),
        framed_(framed),
        format_(format),
        fields_{format != Format::kDistance, boards},
        default_goal_(default_goal),
        shape_(shape),
        known_path_(std::move(known_path)) {}

  void answer(std::string_view text, Origin origin, std::string& out) {
    if (fatal_) return;
    Pending p;
    p.text = std::string(text);
    p.origin = origin;
    auto line = parse_board_line(text, shape_);
    if (!line.ok()) {
      p.refusal = line.error().message;
    } else {
      std::optional<GridBoard> goal = line->goal;
      if (!goal && default_goal_ && (!framed_ || line->board.shape != goal_.shape)) {
        goal = *default_goal(&line->board, shape_);  // the core's rule: the board's shape's
      }
      if (goal) {  // a board and its goal on one line, or its shape's own goal
        if (const auto mismatch = shape_mismatch(line->board, *goal)) {
          // The goal is framed before the shapes are compared: it is asked
          // about alone, and the shapes are refused only if it is answered.
          p.mismatch = mismatch->message;
          questions_.push_back({*goal, goal, true, std::nullopt});
        } else {
          questions_.push_back({line->board, goal, false, known_path_});
        }
        p.asked = true;
      } else if (const auto mismatch = shape_mismatch(line->board, goal_)) {
        p.refusal = mismatch->message;
      } else {
        questions_.push_back({line->board, std::nullopt, false, known_path_});
        p.asked = true;
      }
    }
    pending_.push_back(std::move(p));
    if (questions_.size() == backend_.max_batch()) flush(out);
  }

  // A line refused unread: `head` is its start (what the JSON format shows
  // as its input), `message` why.
  void refuse_line(std::string_view head, Origin origin, std::string message) {
    if (fatal_) return;
    Pending p;
    p.text = std::string(head);
    p.origin = origin;
    p.refusal = std::move(message);
    pending_.push_back(std::move(p));
  }

  // Asks what is held back and prints the answers; false once the backend
  // has failed (reported on standard error, nothing more is asked).
  bool flush(std::string& out) {
    if (fatal_ || pending_.empty()) return !fatal_;
    std::vector<SolveAnswer> answers;
    if (!questions_.empty()) {
      auto got = backend_.solve(goal_, questions_, fields_.path);
      questions_.clear();
      if (auto* f = std::get_if<Failure>(&got)) return fail(*f);
      answers = std::move(std::get<std::vector<SolveAnswer>>(got));
    }
    std::size_t k = 0;
    for (const Pending& p : pending_) {
      if (!p.asked) {
        refuse(p, p.refusal, out);
        continue;
      }
      const SolveAnswer& a = answers[k++];  // a Failure is the last answer
      if (const auto* f = std::get_if<Failure>(&a)) return fail(*f);
      if (const auto* why = std::get_if<std::string>(&a)) {
        refuse(p, *why, out);
        continue;
      }
      if (p.mismatch) {
        refuse(p, *p.mismatch, out);
        continue;
      }
      write_solution(std::get<Solution>(a), format_, fields_, out);
    }
    pending_.clear();
    return true;
  }

  int status() const {
    if (fatal_) return fatal_->status;
    return failed_ ? kExitBadInput : kExitOk;
  }

 private:
  struct Pending {
    std::string text;
    Origin origin{"line", 0};
    bool asked = false;                   // one of the questions
    std::string refusal;                  // refused here, when not asked
    std::optional<std::string> mismatch;  // asked only to frame the goal
  };

  void refuse(const Pending& p, const std::string& message, std::string& out) {
    failed_ = true;
    write_refusal(format_, p.text, p.origin, message, out);
  }

  bool fail(const Failure& f) {
    report(f);
    fatal_ = f;
    pending_.clear();
    questions_.clear();
    return false;
  }

  Backend& backend_;
  GridBoard goal_;
  bool framed_;
  Format format_;
  SolveFields fields_;
  bool default_goal_;
  std::optional<Shape> shape_;
  std::optional<std::string> known_path_;
  std::vector<Pending> pending_;
  std::vector<SolveQuestion> questions_;
  bool failed_ = false;
  std::optional<Failure> fatal_;
};

// The longest line read whole: a board and its goal, each at most
// kMaxBoardText characters (parse_board_line's own bound). A longer line is
// never kept whole: its first kMaxLine + 1 bytes are, the rest is counted
// and dropped, and the line is refused.
constexpr std::size_t kMaxLine = 2 * kMaxBoardText;
// What the JSON format shows of a line refused for its length.
constexpr std::size_t kShownOfLongLine = 64;

// Feeds each line of standard input to `cmd`. Reads what is there in large
// blocks, and writes the answers before it waits for more: piped bulk input
// is one read and one write per 64 KiB, and a program feeding one board at
// a time gets each answer at once. Each byte is looked at once (memchr for
// the newline from where the last block ended): linear in the input, with
// at most kMaxLine + 1 bytes of a line held, however long the line.
// `cmd` answers a line into `out` (or holds it back) and flush() writes what
// it held back; false from flush() stops the reading (the backend failed).
void solve_stdin(SolveCommand& cmd) {
  std::string line;        // the line so far, at most kMaxLine + 1 bytes of it
  std::size_t length = 0;  // the line's length so far, kept or not
  std::string out;
  char buf[1 << 16];
  long n = 0;
  const auto finish_line = [&] {
    std::string_view text(line);
    if (length <= text.size()) {  // kept whole
      if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
      cmd.answer(text, {"line", ++n}, out);
    } else {
      cmd.refuse_line(text.substr(0, kShownOfLongLine), {"line", ++n},
                      "line is " + std::to_string(length) + " characters long; at most " +
                          std::to_string(kMaxLine) +
                          " are read (a board and its goal, each at most " +
                          std::to_string(kMaxBoardText) + ")");
    }
    line.clear();
    length = 0;
  };
  for (;;) {
    const ssize_t got = ::read(STDIN_FILENO, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    const char* p = buf;
    const char* const end = buf + got;
    while (p < end) {
      const auto* nl =
          static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      const std::size_t piece = static_cast<std::size_t>((nl != nullptr ? nl : end) - p);
      // Kept up to kMaxLine + 1 bytes: a line of kMaxLine characters and
      // its '\r' is kept whole.
      line.append(p, std::min(piece, kMaxLine + 1 - std::min(line.size(), kMaxLine + 1)));
      length += piece;
      if (nl == nullptr) break;
      finish_line();
      p = nl + 1;
    }
    const bool go_on = cmd.flush(out);
    emit(out);
    std::fflush(stdout);
    if (!go_on) return;
  }
  if (length > 0) finish_line();  // a last line without its newline
  cmd.flush(out);
  emit(out);
}

}  // namespace

// Answers the BOARD arguments, or standard input without them.
int solve_command(const Options& opt, Backend& backend) {
  const Format format = opt.format.value_or(Format::kMoves);
  if (format == Format::kText) return usage_error("solve formats are moves, distance and json");
  if (opt.boards && format != Format::kJson) return usage_error("--boards needs --format json");
  // A known path goes from one board: the one argument.
  if (opt.path && opt.args.size() != 1) return usage_error("--path goes with one BOARD argument");
  const auto goal = goal_of(opt);
  if (goal.index() == 1) return std::get<1>(goal);
  if (auto f = backend.open()) return report(*f);
  const auto framed = backend.frame(std::get<0>(goal), !opt.goal && !opt.shape);
  if (const auto* f = std::get_if<Failure>(&framed)) return report(*f);
  SolveCommand cmd(backend, std::get<0>(goal), std::get<0>(framed).has_value(), format, opt.boards,
                   !opt.goal, opt.shape, opt.path);
  if (!opt.args.empty()) {
    std::string out;
    for (std::size_t i = 0; i < opt.args.size(); ++i) {
      cmd.answer(opt.args[i], {"argument", static_cast<long>(i + 1)}, out);
    }
    cmd.flush(out);
    emit(out);
  } else {
    solve_stdin(cmd);
  }
  std::fflush(stdout);
  return cmd.status();
}

}  // namespace eight::cli
