// eight: the offline tool for a downloaded table.
//
//   eight solve  [--table PATH | --tables DIR] [--goal BOARD] [--format moves|distance|json]
//                [--boards] [BOARD...]
//   eight verify [PATH | --tables DIR]
//   eight info   [PATH | --tables DIR]
//   eight hint   [--table PATH | --tables DIR] [--goal BOARD] [--format text|json] BOARD
//   eight random --distance D [--table PATH | --tables DIR] [--goal BOARD] [--seed S] [--count N]
//   eight info   [PATH | --tables DIR] [--goal BOARD] [--shape RxC] [--svg FILE]
//   eight fetch  [URL] [--tables DIR | --table PATH] [--timeout-ms N]    (see fetch.h)
//   eight --server URL solve|hint|random ...
//
// With --server URL, solve, hint and random ask that eight-server instead of
// a table (server_client.h) and print exactly what they print offline: the
// answer's JSON becomes the same values (Solution, MoveOptions, boards) the
// offline path computes, checked as it is read (json/answer_json.h), and
// goes through the same printers.
//
// --tables DIR answers from every *.tbl file in DIR (eight/table_set.h), as
// eight-server --tables does: each goal from the first file, by name, that
// answers its shape.
//   eight probe  [--host H] [--port P] [--path /readyz] [--timeout-ms N]   (see probe.cpp)
//
// Answering opens the table with its checksum checked (Check::kChecksum,
// about 0.1 ms): nothing proportional to its entries, so one question costs
// well under a millisecond; `eight verify` proves every entry.
//
// Exit status (eight/exit_codes.h): 0 all answered; 1 some input line or
// argument was bad (the others were still answered); 2 usage error; 3 the
// table cannot be used; 5 the server cannot be reached, 6 it did not answer
// in time, 7 its answer is not an eight server's.
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "eight/defaults.h"
#include "eight/exit_codes.h"
#include "eight/pattern_db.h"
#include "eight/random.h"
#include "eight/answer.h"
#include "eight/solver.h"
#include "eight/table.h"
#include "eight/table_set.h"
#include "eight/text.h"
#include "fetch.h"
#include "histogram_svg.h"
#include "json/answer_json.h"
#include "probe.h"
#include "server_client.h"

namespace {

using eight::kExitBadTable;
using eight::kExitOk;
using eight::kExitUsage;
using eight::cli::Failure;
using eight::cli::JsonType;
using eight::cli::ServerClient;
constexpr int kExitBadInput = eight::kExitFailed;

constexpr const char* kUsage =
    "usage:\n"
    "  eight solve  [--table PATH | --tables DIR] [--goal BOARD] [--shape RxC]\n"
    "               [--format moves|distance|json] [--boards] [--budget NODES] [BOARD...]\n"
    "  eight verify [PATH | --tables DIR]\n"
    "  eight info   [PATH | --tables DIR] [--goal BOARD] [--shape RxC] [--svg FILE]\n"
    "  eight hint   [--table PATH | --tables DIR] [--goal BOARD] [--shape RxC]\n"
    "               [--format text|json] [--budget NODES] BOARD\n"
    "  eight random --distance D [--table PATH | --tables DIR] [--goal BOARD] [--shape RxC]\n"
    "               [--seed S] [--count N] [--budget NODES]\n"
    "  eight fetch  [URL] [--tables DIR | --table PATH] [--timeout-ms N]\n"
    "  eight --server URL [--timeout-ms N] solve|hint|random ...\n"
    "  eight probe  [--host H] [--port P] [--path /readyz] [--timeout-ms N]\n"
    "  eight --version\n"
    "\n"
    "Boards: 123456780, 12345678x, \"1 2 3 4 5 6 7 8 x\", 1,2,3,4,5,6,7,8,0, 123/456/780\n"
    "(blank as 0, x, X or _). Without BOARD arguments, solve reads one board per line\n"
    "from stdin and writes one line per input line; a line of two boards (18 cells)\n"
    "is a board and its goal. Moves are the blank's: u d l r. --boards adds the board\n"
    "after every move to the json format. Boards of other shapes (4 to 12 cells) are\n"
    "written in rows (123/450) or named by --shape RxC (2x3); the default goal is the\n"
    "standard goal of the board's shape. The table defaults to $EIGHT_TABLE, else\n"
    "data/eight.tbl; --tables DIR answers from every *.tbl file in DIR instead, each\n"
    "goal from the first file (by name) that answers its shape. 4x4 boards (16\n"
    "cells, tiles 10 to 15 written with separators) are solved by a search over the\n"
    "table's pattern databases, expanding at most --budget nodes (default 50000000,\n"
    "about 1.5 s); a board that needs more is refused with how far the search got.\n"
    "--server URL (http://HOST:PORT) asks that eight-server instead and prints the\n"
    "same; fetch downloads every table it serves into data/ (or DIR; into PATH, or\n"
    "$EIGHT_TABLE, its default table), resuming, skipping unchanged ones and checking\n"
    "each before it replaces anything. --timeout-ms bounds each exchange with the\n"
    "server, connecting and the whole answer (10000). --version prints the version.\n"
    "info --svg FILE writes the distance histogram of the goal as an SVG picture.\n"
    "Exit: 0 ok, 1 a bad board, 2 usage, 3 bad table, 5 server unreachable,\n"
    "6 server timed out, 7 not an eight server.\n";

enum class Format { kMoves, kDistance, kJson, kText };

struct Options {
  std::string table;
  std::optional<std::string> tables;  // --tables DIR
  std::optional<std::string> goal;    // default: the standard goal of the shape
  std::optional<eight::Shape> shape;
  std::optional<Format> format;
  std::optional<std::string> distance;
  std::optional<std::string> seed;
  std::string count = "1";
  std::uint64_t budget = eight::kDefaultSearchNodes;  // nodes per 4x4 question
  bool boards = false;
  std::optional<std::string> server;  // --server URL
  std::string timeout_ms = "10000";   // --timeout-ms, for --server and fetch
  std::optional<std::string> svg;     // info --svg FILE
  bool table_given = false;
  std::vector<std::string> args;
};

int usage_error(const std::string& what) {
  std::fprintf(stderr, "eight: %s\n%s", what.c_str(), kUsage);
  return kExitUsage;
}

// The tables asked for: --tables DIR, else the one file of --table (or its
// default). Each file is opened once, at `check`.
eight::TableSource source_of(const Options& opt) {
  return opt.tables ? eight::TableSource{*opt.tables, true} : eight::TableSource{opt.table, false};
}

std::optional<eight::TableSet> open_tables(const eight::TableSource& source, eight::Check check) {
  auto tables = eight::TableSet::open(source, check);
  if (!tables.ok()) {
    std::fprintf(stderr, "eight: %s\n", tables.error().message.c_str());
    return std::nullopt;
  }
  return std::move(tables).value();
}

// Writes all of `out` to standard output.
void emit(std::string& out) {
  std::fwrite(out.data(), 1, out.size(), stdout);
  out.clear();
}

// The tables and the frame of the goal asked for: what every question needs.
struct Asked {
  std::optional<eight::TableSet> tables;
  std::optional<eight::TableSet::Frame> frame;
};

// The table and the goal's frame, or the exit status to return. Without
// --goal the goal is the standard goal of `shape`.
// The goal asked about, offline and remote alike: --goal (read with
// --shape), else the standard goal of `shape`; or the usage error's status.
std::variant<eight::Board, int> goal_of(const Options& opt, eight::Shape shape) {
  eight::Result<eight::Board> goal = eight::standard_goal(shape);
  if (opt.goal) goal = eight::parse_board(*opt.goal, opt.shape);
  if (!goal.ok()) return usage_error("bad goal: " + goal.error().message);
  return *goal;
}

std::variant<Asked, int> ask(const Options& opt, eight::Shape shape, bool per_board_goal = false) {
  const auto goal = goal_of(opt, shape);
  if (goal.index() == 1) return std::get<1>(goal);
  Asked a;
  a.tables = open_tables(source_of(opt), eight::Check::kChecksum);
  if (!a.tables) return kExitBadTable;
  auto frame = a.tables->frame(std::get<0>(goal));
  // Boards that each take their own shape's standard goal need no frame of
  // the default one: tables without 3x3 still answer them.
  if (!frame.ok() && per_board_goal && frame.error().code == eight::ErrorCode::kNoShape) return a;
  if (!frame.ok()) {
    std::fprintf(stderr, "eight: %s\n", frame.error().message.c_str());
    return kExitBadTable;
  }
  a.frame = *frame;
  return a;
}

// Where an input came from, for error messages: "line 3", "argument 2".
struct Origin {
  const char* kind;
  long number;
};

// The printers of `eight solve`, offline and remote alike: one answer line,
// or the line that stands in for an input that was refused.
void write_solution(const eight::Solution& s, Format format, eight::SolveFields fields,
                    std::string& out) {
  switch (format) {
    case Format::kMoves:
      if (s.solvable) {
        for (eight::Move m : s.path()) out += eight::move_letter(m);
      } else {
        out += "unsolvable";
      }
      break;
    case Format::kDistance:
      out += std::to_string(s.distance);
      break;
    case Format::kJson:
      eight::append_solution_json(s, fields, out);
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
  out += format == Format::kJson ? eight::input_error_json(std::string(text), message) : "error";
  out += '\n';
}

// Answers one line (or argument) of `eight solve`, appending exactly one
// output line. Cheap per line: bulk input is 10,000 lines in a few
// milliseconds, so nothing is allocated for a line that is answered.
class SolveCommand {
 public:
  // `default_goal`: the goal was not given, so a board of another shape
  // than its frame's is asked about the standard goal of its own shape.
  SolveCommand(const Asked& asked, Format format, bool boards, bool default_goal,
               std::optional<eight::Shape> shape, std::uint64_t budget)
      : asked_(asked),
        format_(format),
        fields_{format != Format::kDistance, boards},
        default_goal_(default_goal),
        shape_(shape) {
    budget_.max_nodes = budget;
  }

  void answer(std::string_view text, Origin origin, std::string& out) {
    auto line = eight::parse_board_line(text, shape_);
    if (!line.ok()) return refuse(text, origin, line.error().message, out);
    // (No frame: the tables hold no board of the default goal's shape, and
    // each board takes its own shape's standard goal.)
    const eight::TableSet::Frame* frame = asked_.frame ? &*asked_.frame : nullptr;
    std::optional<eight::TableSet::Frame> own;
    std::optional<eight::Board> goal = line->goal;
    if (!goal && default_goal_ &&
        (frame == nullptr || line->board.shape != frame->frame.goal().shape)) {
      goal = eight::standard_goal(line->board.shape);
    }
    if (goal) {  // a board and its goal on one line, or its shape's own goal
      auto f = asked_.tables->frame(*goal);
      if (!f.ok()) return refuse(text, origin, "goal: " + f.error().message, out);
      own = *f;
      frame = &*own;
    }
    if (const auto mismatch = eight::shape_mismatch(line->board, frame->frame.goal())) {
      return refuse(text, origin, mismatch->message, out);
    }
    const auto answer =
        eight::solve_board(*frame->table, frame->frame, line->board, fields_.path, budget_);
    if (!answer.ok()) return refuse(text, origin, answer.error().message, out);
    if (!answer->report.finished()) {
      return refuse(text, origin,
                    eight::describe_stop(answer->report, budget_.max_nodes) +
                        "; a larger --budget may solve it",
                    out);
    }
    write_solution(answer->solution, format_, fields_, out);
  }

  // Nothing is held back offline: every line is answered as it comes.
  bool flush(std::string&) { return true; }
  bool failed() const { return failed_; }
  int status() const { return failed_ ? kExitBadInput : kExitOk; }

 private:
  void refuse(std::string_view text, Origin origin, const std::string& message, std::string& out) {
    failed_ = true;
    write_refusal(format_, text, origin, message, out);
  }

  const Asked& asked_;
  Format format_;
  eight::SolveFields fields_;
  bool default_goal_;
  std::optional<eight::Shape> shape_;
  eight::fifteen::SearchBudget budget_;
  bool failed_ = false;
};

// Feeds each line of standard input to `cmd`. Reads what is there in large
// blocks, and writes the answers before it waits for more: piped bulk input
// is one read and one write per 64 KiB, and a program feeding one board at
// a time gets each answer at once.
// `cmd` answers a line into `out` (or holds it back) and flush() writes what
// it held back; false from flush() stops the reading (the server failed).
template <typename Command>
void solve_stdin(Command& cmd) {
  std::string pending;  // the start of a line not yet complete
  std::string out;
  char buf[1 << 16];
  long n = 0;
  for (;;) {
    const ssize_t got = ::read(STDIN_FILENO, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    pending.append(buf, static_cast<std::size_t>(got));
    std::size_t start = 0;
    for (std::size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
      std::string_view line(pending.data() + start, nl - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      cmd.answer(line, {"line", ++n}, out);
    }
    pending.erase(0, start);
    const bool go_on = cmd.flush(out);
    emit(out);
    std::fflush(stdout);
    if (!go_on) return;
  }
  if (!pending.empty()) {  // a last line without its newline
    if (pending.back() == '\r') pending.pop_back();
    cmd.answer(pending, {"line", ++n}, out);
  }
  cmd.flush(out);
  emit(out);
}

// Answers the BOARD arguments, or standard input without them.
template <typename Command>
int solve_all(Command& cmd, const Options& opt) {
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

// ---- Remote mode: --server URL ----

int report(const Failure& f) {
  std::fprintf(stderr, "eight: %s\n", f.message.c_str());
  return f.status;
}

// The client of --server URL (or fetch's URL), or the usage error's status.
std::variant<std::unique_ptr<ServerClient>, int> connect(const std::string& url,
                                                         const Options& opt) {
  auto parsed = eight::cli::parse_server_url(url);
  if (auto* why = std::get_if<std::string>(&parsed)) return usage_error(*why);
  const auto ms = eight::parse_decimal(opt.timeout_ms);
  if (!ms || *ms < 1 || *ms > 600000) {
    return usage_error("--timeout-ms takes a whole number of milliseconds from 1 to 600000");
  }
  return std::make_unique<ServerClient>(std::get<eight::cli::ServerUrl>(std::move(parsed)),
                                        std::chrono::milliseconds(*ms));
}

// GET `target` and its JSON object, or the failure.
std::variant<nlohmann::json, Failure> get_json(ServerClient& server, const std::string& target) {
  auto r = server.get(target);
  if (auto* f = std::get_if<Failure>(&r)) return *f;
  return server.answer_json(std::get<httplib::Response>(r), target);
}

// A board in a query: its canonical text, which needs no escaping but for
// the separators the query takes as they are ('/' and ',').
std::string query_board(const eight::Board& b) {
  return eight::to_string(b);
}

// What offline is ask(): whether the server's tables answer `goal` (GET
// /stats frames it as every question does, with the same message when they
// do not), and the goal's maximum distance.
std::variant<int, Failure> remote_max_distance(ServerClient& server, const eight::Board& goal) {
  const std::string target = "/stats?goal=" + query_board(goal);
  auto j = get_json(server, target);
  if (auto* f = std::get_if<Failure>(&j)) return *f;
  const auto& stats = std::get<nlohmann::json>(j);
  if (auto f = server.check_field(target, stats, "goal", JsonType::kString)) return *f;
  if (auto f = server.check_field(target, stats, "max_distance", JsonType::kUnsigned)) return *f;
  if (stats["goal"] != eight::to_string(goal)) {
    return server.not_eight(target,
                            "field 'goal' names another goal than " + eight::to_string(goal));
  }
  const auto max = stats["max_distance"].get<std::uint64_t>();
  if (max > eight::format::kMaxDistance) {
    return server.not_eight(target, "field 'max_distance' is " + std::to_string(max) +
                                        ", expected at most " +
                                        std::to_string(eight::format::kMaxDistance));
  }
  return static_cast<int>(max);
}

// `eight solve` against a server: each line read and checked here, as
// offline, and the boards sent in batches (POST /solve, up to the server's
// 10,000 a request: everything read at once from standard input, or every
// argument), the answers printed in order by the offline printers.
class RemoteSolveCommand {
 public:
  static constexpr std::size_t kBatch = 10000;  // the server's kMaxBatchBoards

  RemoteSolveCommand(ServerClient& server, eight::Board goal, Format format, bool boards,
                     bool default_goal, std::optional<eight::Shape> shape)
      : server_(server),
        goal_(goal),
        format_(format),
        fields_{format != Format::kDistance, boards},
        default_goal_(default_goal),
        shape_(shape) {}

  void answer(std::string_view text, Origin origin, std::string& out) {
    if (fatal_) return;
    Pending p;
    p.text = std::string(text);
    p.origin = origin;
    auto line = eight::parse_board_line(text, shape_);
    if (!line.ok()) {
      p.refusal = line.error().message;
    } else {
      std::optional<eight::Board> goal = line->goal;
      if (!goal && default_goal_ && line->board.shape != goal_.shape) {
        goal = eight::standard_goal(line->board.shape);
      }
      p.board = line->board;
      p.goal = goal.value_or(goal_);
      if (goal) {
        const std::string g = eight::to_string(*goal);
        if (const auto mismatch = eight::shape_mismatch(line->board, *goal)) {
          // Offline frames a line's goal before it compares shapes: the
          // goal is asked about alone (solved to itself), and the shapes
          // are refused only if the server's tables answer it.
          p.mismatch = mismatch->message;
          items_.push_back({{"board", g}, {"goal", g}});
        } else {
          items_.push_back({{"board", eight::to_string(line->board)}, {"goal", g}});
        }
        p.asked = true;
      } else if (const auto mismatch = eight::shape_mismatch(line->board, goal_)) {
        p.refusal = mismatch->message;
      } else {
        items_.push_back(eight::to_string(line->board));
        p.asked = true;
      }
    }
    pending_.push_back(std::move(p));
    if (items_.size() == kBatch) flush(out);
  }

  // Sends what is held back and prints the answers; false once the server
  // has failed (reported on standard error, nothing more is asked).
  bool flush(std::string& out) {
    if (fatal_ || pending_.empty()) return !fatal_;
    nlohmann::json answers = nlohmann::json::array();
    if (!items_.empty()) {
      const std::string target = "/solve";
      nlohmann::json body = {{"goal", eight::to_string(goal_)}, {"boards", std::move(items_)}};
      items_ = nlohmann::json::array();
      auto r = server_.post_json(target, body.dump());
      if (auto* f = std::get_if<Failure>(&r)) return fail(*f);
      auto j = server_.answer_json(std::get<httplib::Response>(r), target);
      if (auto* f = std::get_if<Failure>(&j)) return fail(*f);
      auto& batch = std::get<nlohmann::json>(j);
      if (auto f = server_.check_field(target, batch, "answers", JsonType::kArray)) return fail(*f);
      if (batch["answers"].size() != body["boards"].size()) {
        return fail(server_.not_eight(target, "not one answer per board"));
      }
      answers = std::move(batch["answers"]);
    }
    std::size_t k = 0;
    for (const Pending& p : pending_) {
      if (!p.asked) {
        refuse(p, p.refusal, out);
        continue;
      }
      const nlohmann::json& a = answers[k++];
      if (a.is_object() && a.contains("error")) {
        if (auto f = server_.check_field("/solve", a, "error", JsonType::kString)) return fail(*f);
        refuse(p, a["error"].get<std::string>(), out);
        continue;
      }
      if (p.mismatch) {
        refuse(p, *p.mismatch, out);
        continue;
      }
      const auto s = eight::parse_solution_json(a);
      if (!s.ok()) return fail(server_.not_eight("/solve", s.error().message));
      if (s->board != p.board || s->goal != p.goal) {
        return fail(server_.not_eight("/solve", "an answer about another board or goal"));
      }
      write_solution(*s, format_, fields_, out);
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
    bool asked = false;   // an item of the batch
    std::string refusal;  // refused here, when not asked
    eight::Board board;   // asked: the board and the goal the answer must name
    eight::Board goal;
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
    items_ = nlohmann::json::array();
    return false;
  }

  ServerClient& server_;
  eight::Board goal_;
  Format format_;
  eight::SolveFields fields_;
  bool default_goal_;
  std::optional<eight::Shape> shape_;
  std::vector<Pending> pending_;
  nlohmann::json items_ = nlohmann::json::array();
  bool failed_ = false;
  std::optional<Failure> fatal_;
};

int run_remote_solve(const Options& opt, Format format) {
  const auto goal = goal_of(opt, opt.shape.value_or(eight::kShape3x3));
  if (goal.index() == 1) return std::get<1>(goal);
  auto client = connect(*opt.server, opt);
  if (client.index() == 1) return std::get<1>(client);
  ServerClient& server = *std::get<0>(client);
  const auto max = remote_max_distance(server, std::get<0>(goal));
  if (const auto* f = std::get_if<Failure>(&max)) return report(*f);
  RemoteSolveCommand cmd(server, std::get<0>(goal), format, opt.boards, !opt.goal, opt.shape);
  return solve_all(cmd, opt);
}

int run_solve(const Options& opt) {
  const Format format = opt.format.value_or(Format::kMoves);
  if (format == Format::kText) return usage_error("solve formats are moves, distance and json");
  if (opt.boards && format != Format::kJson) return usage_error("--boards needs --format json");
  if (opt.server) return run_remote_solve(opt, format);
  auto asked = ask(opt, opt.shape.value_or(eight::kShape3x3), !opt.goal && !opt.shape);
  if (asked.index() == 1) return std::get<1>(asked);
  SolveCommand cmd(std::get<0>(asked), format, opt.boards, !opt.goal, opt.shape, opt.budget);
  return solve_all(cmd, opt);
}

int run_verify(const eight::TableSource& source) {
  const auto tables = open_tables(source, eight::Check::kExhaustive);
  if (!tables) return kExitBadTable;
  for (const auto& table : tables->tables()) {
    const auto& v = table->view();
    std::printf("%s: ok, %zu sections, %zu bytes, checksum %s, every entry proven\n",
                table->path().c_str(), v.section_count(), v.bytes().size(),
                table->checksum_hex().c_str());
  }
  return kExitOk;
}

int print_hints(Format format, const eight::Board& board, const eight::Board& goal,
                const eight::MoveOptions& options);
int run_remote_hint(const Options& opt, Format format, const eight::Board& board);

int run_hint(const Options& opt) {
  const Format format = opt.format.value_or(Format::kText);
  if (format != Format::kText && format != Format::kJson) {
    return usage_error("hint formats are text and json");
  }
  if (opt.args.size() != 1) return usage_error("hint takes exactly one board");
  auto board = eight::parse_board(opt.args[0], opt.shape);
  if (!board.ok()) {
    std::fprintf(stderr, "eight: %s\n", board.error().message.c_str());
    return kExitBadInput;
  }
  if (opt.server) return run_remote_hint(opt, format, *board);
  auto asked = ask(opt, board->shape);
  if (asked.index() == 1) return std::get<1>(asked);
  const eight::TableSet::Frame& f = *std::get<0>(asked).frame;
  if (const auto mismatch = eight::shape_mismatch(*board, f.frame.goal())) {
    std::fprintf(stderr, "eight: %s\n", mismatch->message.c_str());
    return kExitBadInput;
  }
  eight::fifteen::SearchBudget budget;
  budget.max_nodes = opt.budget;
  const eight::SearchedMoves searched = eight::board_moves(*f.table, f.frame, *board, budget);
  if (!searched.report.finished()) {
    std::fprintf(stderr, "eight: %s; a larger --budget may solve it\n",
                 eight::describe_stop(searched.report, opt.budget).c_str());
    return kExitBadInput;
  }

  return print_hints(format, *board, f.frame.goal(), searched.options);
}

int run_remote_hint(const Options& opt, Format format, const eight::Board& board) {
  const auto goal = goal_of(opt, board.shape);
  if (goal.index() == 1) return std::get<1>(goal);
  auto client = connect(*opt.server, opt);
  if (client.index() == 1) return std::get<1>(client);
  ServerClient& server = *std::get<0>(client);
  const eight::Board& g = std::get<0>(goal);
  const auto framed = remote_max_distance(server, g);
  if (const auto* f = std::get_if<Failure>(&framed)) return report(*f);
  if (const auto mismatch = eight::shape_mismatch(board, g)) {
    std::fprintf(stderr, "eight: %s\n", mismatch->message.c_str());
    return kExitBadInput;
  }
  const std::string target = "/hint?board=" + query_board(board) + "&goal=" + query_board(g);
  auto j = get_json(server, target);
  if (const auto* f = std::get_if<Failure>(&j)) return report(*f);
  const auto& answer = std::get<nlohmann::json>(j);
  // parse_hints_json reads each move's name and tile with a default (which
  // throws on another type): their types are checked here first.
  if (auto f = server.check_field(target, answer, "moves", JsonType::kArray)) return report(*f);
  for (std::size_t i = 0; i < answer["moves"].size(); ++i) {
    const auto& m = answer["moves"][i];
    const std::string at = "moves[" + std::to_string(i) + "]";
    if (!m.is_object()) return report(server.not_eight(target, at + " is not an object"));
    for (const auto& [field, type] :
         {std::pair{"move", JsonType::kString}, std::pair{"tile", JsonType::kUnsigned}}) {
      if (auto why = eight::cli::field_problem(m, field, type)) {
        return report(server.not_eight(target, at + ": " + *why));
      }
    }
  }
  const auto h = eight::parse_hints_json(answer);
  if (!h.ok()) return report(server.not_eight(target, h.error().message));
  if (h->board != board || h->goal != g) {
    return report(server.not_eight(target, "an answer about another board or goal"));
  }
  return print_hints(format, board, g, h->options);
}

// `eight hint`'s printer, offline and remote alike.
int print_hints(Format format, const eight::Board& board, const eight::Board& goal,
                const eight::MoveOptions& options) {
  if (format == Format::kJson) {
    std::printf("%s\n", eight::hints_json(board, goal, options).c_str());
  } else if (options.distance < 0) {
    std::printf("unsolvable\n");
  } else if (options.distance == 0) {
    std::printf("solved\n");
  } else {
    // One optimal move per line: the blank's move, the tile it slides, the
    // board it leads to and that board's distance.
    for (const eight::MoveOption& o : options.all()) {
      if (!o.optimal) continue;
      std::printf("%s %c tile %u -> %s (%d moves left)\n",
                  std::string(eight::move_name(o.move)).c_str(), eight::move_letter(o.move), o.tile,
                  eight::to_string(o.next).c_str(), o.distance);
    }
  }
  return kExitOk;
}

// `eight random` against a server: GET /random with count= draws the
// boards from one generator, as here, so a seed gives the same boards.
int run_remote_random(const Options& opt, std::optional<std::uint64_t> distance,
                      std::uint64_t count, std::optional<std::uint64_t> seed) {
  constexpr std::uint64_t kMaxCount = 1000;  // the server's kMaxRandomCount
  if (count > kMaxCount) {
    return usage_error("with --server, --count takes a whole number from 1 to 1000");
  }
  const auto goal = goal_of(opt, opt.shape.value_or(eight::kShape3x3));
  if (goal.index() == 1) return std::get<1>(goal);
  auto client = connect(*opt.server, opt);
  if (client.index() == 1) return std::get<1>(client);
  ServerClient& server = *std::get<0>(client);
  const eight::Board& g = std::get<0>(goal);
  const auto max = remote_max_distance(server, g);
  if (const auto* f = std::get_if<Failure>(&max)) return report(*f);
  if (!distance || *distance > static_cast<std::uint64_t>(std::get<int>(max))) {
    return usage_error("--distance must be a whole number from 0 to " +
                       std::to_string(std::get<int>(max)) + " for goal " + eight::to_string(g));
  }
  std::string target = "/random?distance=" + std::to_string(*distance) + "&goal=" + query_board(g) +
                       "&count=" + std::to_string(count);
  if (seed) target += "&seed=" + std::to_string(*seed);
  auto j = get_json(server, target);
  if (const auto* f = std::get_if<Failure>(&j)) return report(*f);
  const auto& answer = std::get<nlohmann::json>(j);
  if (auto f = server.check_field(target, answer, "boards", JsonType::kArray)) return report(*f);
  const auto boards = answer.find("boards");
  if (boards->size() != count) {
    return report(server.not_eight(target, "field 'boards' has " + std::to_string(boards->size()) +
                                               " boards, expected " + std::to_string(count)));
  }
  std::string out;
  for (const auto& text : *boards) {
    auto b = text.is_string() ? eight::parse_board(text.get_ref<const std::string&>())
                              : eight::parse_board("");
    if (!b.ok() || b->shape != g.shape) {
      return report(server.not_eight(target, "a board that is not one of the goal's shape"));
    }
    out += eight::to_string(*b);
    out += '\n';
  }
  emit(out);
  return kExitOk;
}

int run_random(const Options& opt) {
  const auto count = eight::parse_decimal(opt.count);
  std::optional<std::uint64_t> seed;
  if (opt.seed) {
    seed = eight::parse_decimal(*opt.seed);
    if (!seed) return usage_error("--seed takes a whole number from 0 to 2^64-1");
  }
  if (!count || *count < 1 || *count > 1000000) {
    return usage_error("--count takes a whole number from 1 to 1000000");
  }
  if (opt.server) {
    if (!opt.distance) return usage_error("random needs --distance D");
    return run_remote_random(opt, eight::parse_decimal(*opt.distance), *count, seed);
  }
  auto asked = ask(opt, opt.shape.value_or(eight::kShape3x3));
  if (asked.index() == 1) return std::get<1>(asked);
  const eight::TableSet::Frame& f = *std::get<0>(asked).frame;
  const bool search = eight::is_search_frame(*f.table, f.frame);
  // 4x4: drawn by search, distance optional (a uniformly random board).
  if (!opt.distance && !search) return usage_error("random needs --distance D");
  const int max = search ? eight::fifteen::kMaxSolutionLength
                         : f.table->view().section(f.frame.section()).max_distance;
  std::optional<int> distance;
  if (opt.distance) {
    const auto d = eight::parse_decimal(*opt.distance);
    if (!d || *d > static_cast<std::uint64_t>(max)) {
      return usage_error("--distance must be a whole number from 0 to " + std::to_string(max) +
                         " for goal " + eight::to_string(f.frame.goal()));
    }
    distance = static_cast<int>(*d);
  }
  eight::Rng rng(seed ? *seed : std::random_device{}() * 0x100000001ull ^ std::random_device{}());
  eight::fifteen::SearchBudget budget;
  budget.max_nodes = opt.budget;
  std::string out;
  for (std::uint64_t i = 0; i < *count; ++i) {
    if (search) {
      const auto drawn = eight::random_search_board(*f.table, f.frame, distance, rng, budget);
      if (distance && !drawn.report.finished()) {
        std::fprintf(stderr, "eight: %s; a larger --budget may find one\n",
                     eight::describe_stop(drawn.report, opt.budget).c_str());
        return kExitBadInput;
      }
      out += eight::to_string(drawn.board);
    } else {
      const auto b = eight::random_board(*f.table, f.frame, *distance, rng);
      if (!b.ok()) {
        std::fprintf(stderr, "eight: %s\n", b.error().message.c_str());
        return kExitBadTable;
      }
      out += eight::to_string(*b);
    }
    out += '\n';
  }
  emit(out);
  return kExitOk;
}

// One file's header, sections and histograms.
void print_info(const eight::Table& table) {
  const auto& v = table.view();
  const auto& h = v.header();
  std::printf("file       %s\n", table.path().c_str());
  std::printf("version    %u\n", h.version);
  std::string shapes;
  for (const eight::Shape s : v.shapes()) {
    if (!shapes.empty()) shapes += ' ';
    shapes += eight::to_string(s);
  }
  std::printf("shapes     %s\n", shapes.c_str());
  std::printf("sections   %u\n", h.section_count);
  std::printf("file size  %llu bytes\n", static_cast<unsigned long long>(h.file_size));
  std::printf("checksum   %s (XXH3-64, checked; `eight verify` proves every entry)\n",
              table.checksum_hex().c_str());
  constexpr std::size_t kShown = 8;
  for (std::size_t i = 0; i < v.section_count(); ++i) {
    const auto& s = v.section(i);
    if (s.encoding == eight::format::Encoding::kPdb4) {
      std::printf(
          "\nsection %zu: %s goal %s, blank on cell %d, pattern database of tiles %s, %u "
          "placements, max entry %d\n",
          i, eight::to_string(s.shape).c_str(), eight::to_string(s.goal).c_str(), s.blank,
          eight::fifteen::describe_group(s.group).c_str(), s.positions, s.max_distance);
      std::printf("  entry  placements\n");
      const auto histogram = v.histogram(i);
      for (int d = 0; d <= s.max_distance; ++d) std::printf("  %5d  %10u\n", d, histogram[d]);
      continue;
    }
    std::printf("\nsection %zu: %s goal %s, blank on cell %d, %s, %u positions, max distance %d\n",
                i, eight::to_string(s.shape).c_str(), eight::to_string(s.goal).c_str(), s.blank,
                s.encoding == eight::format::Encoding::kFull ? "full" : "mod-3", s.positions,
                s.max_distance);
    std::printf("  distance  positions\n");
    const auto histogram = v.histogram(i);
    for (int d = 0; d <= s.max_distance; ++d) std::printf("  %8d  %9u\n", d, histogram[d]);
    const auto boards = eight::hardest_boards(table.index(), *table.frame(s.goal));
    std::printf("  hardest (%d moves, %zu in all):", s.max_distance, boards.size());
    for (std::size_t k = 0; k < std::min(kShown, boards.size()); ++k) {
      std::printf(" %s", eight::to_string(boards[k]).c_str());
    }
    std::printf("%s\n", boards.size() > kShown ? " ..." : "");
  }
}

int run_info(const eight::TableSource& source) {
  const auto tables = open_tables(source, eight::Check::kChecksum);
  if (!tables) return kExitBadTable;
  for (std::size_t i = 0; i < tables->size(); ++i) {
    if (i > 0) std::printf("\n");
    print_info(*tables->table(i));
  }
  return kExitOk;
}

// `eight info --svg FILE`: the histogram of the goal asked (as solve asks
// it: --goal, else the standard goal of --shape or 3x3) as a picture.
int run_info_svg(const eight::TableSource& source, const Options& opt) {
  const auto goal = goal_of(opt, opt.shape.value_or(eight::kShape3x3));
  if (goal.index() == 1) return std::get<1>(goal);
  const auto tables = open_tables(source, eight::Check::kChecksum);
  if (!tables) return kExitBadTable;
  const auto f = tables->frame(std::get<0>(goal));
  if (!f.ok()) {
    std::fprintf(stderr, "eight: %s\n", f.error().message.c_str());
    return kExitBadTable;
  }
  if (eight::is_search_frame(*f->table, f->frame)) {
    std::fprintf(stderr,
                 "eight: 4x4 positions are not tabulated (a search answers each question), so "
                 "there is no distance histogram for goal %s\n",
                 eight::to_string(f->frame.goal()).c_str());
    return kExitBadTable;
  }
  // The section's stats, as GET /stats sends them: relabelling and symmetry
  // keep every distance, so the goal's histogram is its section's.
  const auto& view = f->table->view();
  const int max = view.section(f->frame.section()).max_distance;
  const auto histogram = view.histogram(f->frame.section());
  const std::string svg = eight::cli::histogram_svg(
      std::span<const std::uint32_t>(histogram.data(), static_cast<std::size_t>(max) + 1),
      std::get<0>(goal));
  std::ofstream file(*opt.svg, std::ios::binary | std::ios::trunc);
  file << svg;
  file.close();
  if (!file) {
    std::fprintf(stderr, "eight: %s: cannot write: %s\n", opt.svg->c_str(), std::strerror(errno));
    return kExitBadInput;
  }
  std::printf("%s: distance histogram of goal %s, %d bars (0 to %d moves)\n", opt.svg->c_str(),
              eight::to_string(std::get<0>(goal)).c_str(), max + 1, max);
  return kExitOk;
}

int run_fetch(const Options& opt) {
  if (opt.args.size() > 1) return usage_error("fetch takes one server URL");
  if (!opt.args.empty() && opt.server) return usage_error("fetch takes its URL once");
  const std::string url = !opt.args.empty() ? opt.args[0]
                          : opt.server      ? *opt.server
                                            : std::string("http://127.0.0.1:8080");
  auto client = connect(url, opt);
  if (client.index() == 1) return std::get<1>(client);
  // Where the tables go: where the tool reads them.
  eight::cli::FetchInto into;
  const char* env = std::getenv(eight::kTableEnvironment);
  if (opt.tables) {
    into.folder = *opt.tables;
  } else if (opt.table_given) {
    into.file = opt.table;
  } else if (env != nullptr && *env != '\0') {
    into.file = env;
  } else {
    into.folder = std::filesystem::path(eight::kDefaultTablePath).parent_path().string();
  }
  return eight::cli::run_fetch(*std::get<0>(client), into);
}

std::optional<Format> parse_format(std::string_view s) {
  if (s == "moves") return Format::kMoves;
  if (s == "distance") return Format::kDistance;
  if (s == "json") return Format::kJson;
  if (s == "text") return Format::kText;
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  // Options of the client before the command: eight --server URL solve ...
  int first = 1;
  while (first + 1 < argc) {
    const std::string_view arg = argv[first];
    if (arg == "--server") {
      opt.server = argv[first + 1];
    } else if (arg == "--timeout-ms") {
      opt.timeout_ms = argv[first + 1];
    } else {
      break;
    }
    first += 2;
  }
  if (argc <= first) return usage_error("missing command");
  const std::string_view command = argv[first];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage, stdout);
    return kExitOk;
  }
  if (command == "--version") {
    // PROGRAM VERSION, as every eight program prints it (CMake's
    // PROJECT_VERSION, cli/CMakeLists.txt).
    std::printf("eight %s\n", EIGHT_VERSION);
    return kExitOk;
  }
  if (command == "probe") return eight::cli::run_probe(argc - first - 1, argv + first + 1);
  opt.table = eight::default_table_path();
  bool& table_given = opt.table_given;
  for (int i = first + 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--table" && has_value) {
      opt.table = argv[++i];
      table_given = true;
    } else if (arg == "--tables" && has_value) {
      opt.tables = argv[++i];
    } else if (arg == "--goal" && has_value) {
      opt.goal = argv[++i];
    } else if (arg == "--shape" && has_value) {
      const auto shape = eight::parse_shape(argv[++i]);
      if (!shape.ok()) return usage_error(shape.error().message);
      opt.shape = *shape;
    } else if (arg == "--format" && has_value) {
      auto f = parse_format(argv[++i]);
      if (!f) return usage_error("unknown format '" + std::string(argv[i]) + "'");
      opt.format = *f;
    } else if (arg == "--distance" && has_value) {
      opt.distance = argv[++i];
    } else if (arg == "--seed" && has_value) {
      opt.seed = argv[++i];
    } else if (arg == "--count" && has_value) {
      opt.count = argv[++i];
    } else if (arg == "--budget" && has_value) {
      const auto nodes = eight::parse_decimal(argv[++i]);
      if (!nodes || *nodes < 1) {
        return usage_error("--budget takes a whole number of search nodes, at least 1");
      }
      opt.budget = *nodes;
    } else if (arg == "--server" && has_value) {
      opt.server = argv[++i];
    } else if (arg == "--timeout-ms" && has_value) {
      opt.timeout_ms = argv[++i];
    } else if (arg == "--svg" && has_value) {
      opt.svg = argv[++i];
    } else if (arg == "--boards") {
      opt.boards = true;
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return kExitOk;
    } else if (arg.size() > 2 && arg.substr(0, 2) == "--") {
      return usage_error("unknown or incomplete option '" + std::string(arg) + "'");
    } else {
      opt.args.emplace_back(arg);
    }
  }
  if (table_given && opt.tables) {
    return usage_error("--table and --tables are both given: give one file or one folder");
  }
  if (command == "fetch") return run_fetch(opt);
  if (opt.server && (table_given || opt.tables)) {
    return usage_error(
        "--server answers from the server's tables: --table and --tables do not "
        "apply (eight fetch downloads them)");
  }
  if (opt.server && command != "solve" && command != "hint" && command != "random") {
    return usage_error("--server asks solve, hint and random; " + std::string(command) +
                       " reads a table here (eight fetch downloads them)");
  }
  if (opt.svg && command != "info") return usage_error("--svg is an option of info");
  if (command == "solve") return run_solve(opt);
  if (command == "hint") return run_hint(opt);
  if (command == "random") {
    if (!opt.args.empty()) return usage_error("random takes no board arguments");
    return run_random(opt);
  }
  if (command == "verify" || command == "info") {
    if (opt.args.size() > 1) return usage_error(std::string(command) + " takes one table path");
    if (!opt.args.empty() && opt.tables) {
      return usage_error(std::string(command) + " takes a table path or --tables DIR, not both");
    }
    const eight::TableSource source =
        opt.args.empty() ? source_of(opt) : eight::TableSource{opt.args[0], false};
    if (command == "info" && opt.svg) return run_info_svg(source, opt);
    return command == "verify" ? run_verify(source) : run_info(source);
  }
  return usage_error("unknown command '" + std::string(command) + "'");
}
