// eight: the offline tool for a downloaded table.
//
//   eight solve  [--table PATH] [--goal BOARD] [--format moves|distance|json] [BOARD...]
//   eight verify [PATH]
//   eight info   [PATH]
//   eight hint   [--table PATH] [--goal BOARD] [--format text|json] BOARD
//   eight random --distance D [--table PATH] [--goal BOARD] [--seed S] [--count N]
//   eight probe  [--host H] [--port P] [--path /readyz] [--timeout-ms N]   (see probe.cpp)
//
// Exit status: 0 all answered; 1 some input line or argument was bad (the
// others were still answered); 2 usage error; 3 the table cannot be used.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <variant>
#include <string>
#include <string_view>
#include <vector>

#include "eight/json.h"
#include "eight/random.h"
#include "eight/solver.h"
#include "eight/table.h"
#include "eight/text.h"
#include "probe.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;
constexpr int kExitBadTable = 3;

constexpr const char* kUsage =
    "usage:\n"
    "  eight solve  [--table PATH] [--goal BOARD] [--format moves|distance|json] [BOARD...]\n"
    "  eight verify [PATH]\n"
    "  eight info   [PATH]\n"
    "  eight hint   [--table PATH] [--goal BOARD] [--format text|json] BOARD\n"
    "  eight random --distance D [--table PATH] [--goal BOARD] [--seed S] [--count N]\n"
    "  eight probe  [--host H] [--port P] [--path /readyz] [--timeout-ms N]\n"
    "\n"
    "Boards: 123456780, 12345678x, \"1 2 3 4 5 6 7 8 x\", 1,2,3,4,5,6,7,8,0, 123/456/780\n"
    "(blank as 0, x, X or _). Without BOARD arguments, solve reads one board per line\n"
    "from stdin and writes one line per input line. Moves are the blank's: u d l r.\n"
    "The table defaults to $EIGHT_TABLE, else data/eight.tbl.\n";

enum class Format { kMoves, kDistance, kJson, kText };

struct Options {
  std::string table;
  std::string goal = "123456780";
  std::optional<Format> format;
  std::optional<std::string> distance;
  std::optional<std::string> seed;
  std::string count = "1";
  std::vector<std::string> boards;
};

std::string default_table() {
  const char* env = std::getenv("EIGHT_TABLE");
  return env != nullptr && *env != '\0' ? env : "data/eight.tbl";
}

int usage_error(const std::string& what) {
  std::fprintf(stderr, "eight: %s\n%s", what.c_str(), kUsage);
  return kExitUsage;
}

std::optional<eight::MappedTable> open_table(const std::string& path) {
  auto table = eight::MappedTable::open(path);
  if (!table.ok()) {
    std::fprintf(stderr, "eight: %s\n", table.error().message.c_str());
    return std::nullopt;
  }
  return std::move(table).value();
}

// One answer line in the chosen format.
std::string answer_line(const eight::Solution& s, Format format) {
  switch (format) {
    case Format::kMoves:
      return s.solvable ? eight::path_letters(s.path()) : "unsolvable";
    case Format::kDistance:
      return std::to_string(s.distance);
    case Format::kJson:
      return eight::solution_json(s, true);
    case Format::kText:  // not a solve format; rejected before solving
      break;
  }
  return {};
}

// The line printed in place of an answer for input that is not a board, so
// output lines stay aligned with input lines.
std::string error_line(std::string_view input, const std::string& message, Format format) {
  if (format == Format::kJson) {
    return nlohmann::ordered_json{{"input", std::string(input)}, {"error", message}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return "error";
}

class SolveCommand {
 public:
  SolveCommand(const eight::Solver& solver, const eight::GoalFrame& goal, Format format)
      : solver_(solver), goal_(goal), format_(format) {}

  // Answers one board text; `where` names it in error messages.
  void answer(std::string_view text, const std::string& where, std::string& out) {
    auto board = eight::parse_board(text);
    if (!board.ok()) {
      std::fprintf(stderr, "eight: %s: %s\n", where.c_str(), board.error().message.c_str());
      failed_ = true;
      out += error_line(text, board.error().message, format_);
    } else {
      out += answer_line(solver_.solve(*board, goal_, format_ != Format::kDistance), format_);
    }
    out += '\n';
  }

  bool failed() const { return failed_; }

 private:
  const eight::Solver& solver_;
  const eight::GoalFrame& goal_;
  Format format_;
  bool failed_ = false;
};

// What every question needs: the table, a solver over it, and the goal's
// frame. The solver points into the table's view, so a Context is built in
// place on the heap and never moves.
struct Context {
  explicit Context(eight::MappedTable t) : table(std::move(t)), solver(table.view()) {}
  eight::MappedTable table;
  eight::Solver solver;
  std::optional<eight::GoalFrame> frame;
};

// The loaded context, or the exit status to return.
std::variant<std::unique_ptr<Context>, int> load(const Options& opt) {
  auto goal = eight::parse_board(opt.goal);
  if (!goal.ok()) return usage_error("bad goal: " + goal.error().message);
  auto table = open_table(opt.table);
  if (!table) return kExitBadTable;
  auto ctx = std::make_unique<Context>(std::move(*table));
  auto frame = ctx->solver.frame(*goal);
  if (!frame.ok()) {
    std::fprintf(stderr, "eight: %s\n", frame.error().message.c_str());
    return kExitBadTable;
  }
  ctx->frame = *frame;
  return ctx;
}

int run_solve(const Options& opt) {
  const Format format = opt.format.value_or(Format::kMoves);
  if (format == Format::kText) return usage_error("solve formats are moves, distance and json");
  auto loaded = load(opt);
  if (loaded.index() == 1) return std::get<1>(loaded);
  const auto& ctx = *std::get<0>(loaded);
  SolveCommand cmd(ctx.solver, *ctx.frame, format);
  std::string out;
  if (!opt.boards.empty()) {
    for (std::size_t i = 0; i < opt.boards.size(); ++i) {
      cmd.answer(opt.boards[i], "argument " + std::to_string(i + 1), out);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
  } else {
    std::ios::sync_with_stdio(false);
    std::string line;
    for (long n = 1;; ++n) {
      // Flush before we might block, so a program feeding us one board at a
      // time gets each answer, while piped bulk input stays fully buffered.
      if (std::cin.rdbuf()->in_avail() <= 0 || out.size() > (1 << 16)) {
        std::fwrite(out.data(), 1, out.size(), stdout);
        std::fflush(stdout);
        out.clear();
      }
      if (!std::getline(std::cin, line)) break;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      cmd.answer(line, "line " + std::to_string(n), out);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  std::fflush(stdout);
  return cmd.failed() ? kExitBadInput : kExitOk;
}

int run_verify(const std::string& path) {
  auto table = open_table(path);
  if (!table) return kExitBadTable;
  const auto& v = table->view();
  std::printf("%s: ok, %zu sections, %zu bytes, checksum %016llx\n", path.c_str(),
              v.section_count(), v.bytes().size(), static_cast<unsigned long long>(v.checksum()));
  return kExitOk;
}

int run_hint(const Options& opt) {
  const Format format = opt.format.value_or(Format::kText);
  if (format != Format::kText && format != Format::kJson) {
    return usage_error("hint formats are text and json");
  }
  if (opt.boards.size() != 1) return usage_error("hint takes exactly one board");
  auto board = eight::parse_board(opt.boards[0]);
  if (!board.ok()) {
    std::fprintf(stderr, "eight: %s\n", board.error().message.c_str());
    return kExitBadInput;
  }
  auto loaded = load(opt);
  if (loaded.index() == 1) return std::get<1>(loaded);
  const auto& ctx = *std::get<0>(loaded);
  std::array<eight::Hint, 4> hints;
  const int n = ctx.solver.hints(*board, *ctx.frame, hints);
  const int distance = ctx.solver.distance(*board, *ctx.frame);
  if (format == Format::kJson) {
    std::printf("%s\n", eight::hints_json(*board, ctx.frame->goal(), distance,
                                          {hints.data(), static_cast<std::size_t>(n)})
                            .dump()
                            .c_str());
  } else if (distance < 0) {
    std::printf("unsolvable\n");
  } else if (distance == 0) {
    std::printf("solved\n");
  } else {
    // One optimal move per line: the blank's move, the tile it slides, the
    // board it leads to and that board's distance.
    for (int i = 0; i < n; ++i) {
      std::printf("%s %c tile %u -> %s (%d moves left)\n",
                  std::string(eight::move_name(hints[i].move)).c_str(),
                  eight::move_letter(hints[i].move), hints[i].tile,
                  eight::to_string(hints[i].next).c_str(), hints[i].distance);
    }
  }
  return kExitOk;
}

int run_random(const Options& opt) {
  if (!opt.distance) return usage_error("random needs --distance D");
  const auto distance = eight::parse_decimal(*opt.distance);
  const auto count = eight::parse_decimal(opt.count);
  std::optional<std::uint64_t> seed;
  if (opt.seed) {
    seed = eight::parse_decimal(*opt.seed);
    if (!seed) return usage_error("--seed takes a whole number from 0 to 2^64-1");
  }
  if (!count || *count < 1 || *count > 1000000) {
    return usage_error("--count takes a whole number from 1 to 1000000");
  }
  auto loaded = load(opt);
  if (loaded.index() == 1) return std::get<1>(loaded);
  const auto& ctx = *std::get<0>(loaded);
  const int max = ctx.table.view().section(ctx.frame->section()).max_distance;
  if (!distance || *distance > static_cast<std::uint64_t>(max)) {
    return usage_error("--distance must be a whole number from 0 to " + std::to_string(max) +
                       " for goal " + eight::to_string(ctx.frame->goal()));
  }
  const eight::DistanceIndex index(ctx.table.view());
  eight::Rng rng(seed ? *seed : std::random_device{}() * 0x100000001ull ^ std::random_device{}());
  std::string out;
  for (std::uint64_t i = 0; i < *count; ++i) {
    out += eight::to_string(
        eight::random_board(index, *ctx.frame, static_cast<int>(*distance), rng));
    out += '\n';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

int run_info(const std::string& path) {
  auto table = open_table(path);
  if (!table) return kExitBadTable;
  const auto& v = table->view();
  const auto& h = v.header();
  std::printf("file       %s\n", path.c_str());
  std::printf("version    %u\n", h.version);
  std::printf("board      %ux%u\n", h.rows, h.cols);
  std::printf("sections   %u\n", h.section_count);
  std::printf("entry size %u bytes\n", h.entry_size);
  std::printf("file size  %llu bytes\n", static_cast<unsigned long long>(h.file_size));
  std::printf("checksum   %016llx (XXH3-64, verified)\n", static_cast<unsigned long long>(h.checksum));
  constexpr std::size_t kShown = 8;
  const eight::DistanceIndex index(v);
  for (std::size_t i = 0; i < v.section_count(); ++i) {
    const auto& s = v.section(i);
    std::printf("\nsection %zu: goal %s, blank on cell %d, %u positions, max distance %d\n", i,
                eight::to_string(s.goal).c_str(), s.blank, eight::kPositions, s.max_distance);
    std::printf("  distance  positions\n");
    for (int d = 0; d <= s.max_distance; ++d) std::printf("  %8d  %9u\n", d, s.histogram[d]);
    const eight::Solver solver(v);
    const auto boards = eight::hardest_boards(index, v, *solver.frame(s.goal));
    std::printf("  hardest (%d moves, %zu in all):", s.max_distance, boards.size());
    for (std::size_t k = 0; k < std::min(kShown, boards.size()); ++k) {
      std::printf(" %s", eight::to_string(boards[k]).c_str());
    }
    std::printf("%s\n", boards.size() > kShown ? " ..." : "");
  }
  return kExitOk;
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
  if (argc < 2) return usage_error("missing command");
  const std::string_view command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage, stdout);
    return kExitOk;
  }
  if (command == "probe") return eight::cli::run_probe(argc - 2, argv + 2);
  Options opt;
  opt.table = default_table();
  std::vector<std::string> positional;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--table" && has_value) {
      opt.table = argv[++i];
    } else if (arg == "--goal" && has_value) {
      opt.goal = argv[++i];
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
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return kExitOk;
    } else if (arg.size() > 2 && arg.substr(0, 2) == "--") {
      return usage_error("unknown or incomplete option '" + std::string(arg) + "'");
    } else {
      positional.emplace_back(arg);
    }
  }
  if (command == "solve") {
    opt.boards = std::move(positional);
    return run_solve(opt);
  }
  if (command == "hint") {
    opt.boards = std::move(positional);
    return run_hint(opt);
  }
  if (command == "random") {
    if (!positional.empty()) return usage_error("random takes no board arguments");
    return run_random(opt);
  }
  if (command == "verify" || command == "info") {
    if (positional.size() > 1) return usage_error(std::string(command) + " takes one table path");
    const std::string path = positional.empty() ? opt.table : positional[0];
    return command == "verify" ? run_verify(path) : run_info(path);
  }
  return usage_error("unknown command '" + std::string(command) + "'");
}
