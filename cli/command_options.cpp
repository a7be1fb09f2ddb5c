#include "command_options.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

#include "common/option_reader.h"
#include "common/text.h"

namespace eight::cli {

namespace {

// One command: its name, the options it takes (each as --help names it) and
// its --help.
struct Command {
  std::string_view name;
  std::vector<std::string_view> options;  // "name" takes a value, "name!" none
  const char* usage;
};

constexpr const char* kSolveUsage =
    "usage: eight solve [--table PATH | --tables DIR] [--goal BOARD] [--shape RxC]\n"
    "                   [--format moves|distance|json] [--boards] [--budget NODES]\n"
    "                   [--optimal required|preferred] [--fast] [--path P] [BOARD...]\n"
    "       eight --server URL [--timeout-ms N] solve ...\n"
    "\n"
    "Solves each BOARD, or without BOARD arguments each line of stdin (one line\n"
    "out per line in; a line of two boards is a board and its goal).\n"
    "\n"
    "  --table PATH       the table file ($EIGHT_TABLE, else data/eight.tbl)\n"
    "  --tables DIR       every *.tbl file in DIR, each goal from the first that answers it\n"
    "  --goal BOARD       the goal (default: the standard goal of each board's shape)\n"
    "  --shape RxC        the shape of every board and of the goal (2x3, 4x4 ...)\n"
    "  --format F         moves (the blank's: u d l r), distance or json\n"
    "  --boards           the board after every move, in the json format\n"
    "  --budget NODES     search nodes per searched board (default 50000000)\n"
    "  --optimal O        required: refuse what cannot be proven optimal; preferred (default)\n"
    "  --fast             quicker, longer paths where none is proven optimal (5x5 and up)\n"
    "  --path P           a path held from the one BOARD to the goal (u d l r): no longer answer\n"
    "  --server URL       ask that eight-server instead (--timeout-ms N per exchange)\n"
    "Exit: 0 ok, 1 a bad board, 2 usage, 3 bad table, 5-7 server (eight --help).\n";

constexpr const char* kHintUsage =
    "usage: eight hint [--table PATH | --tables DIR] [--goal BOARD] [--shape RxC]\n"
    "                  [--format text|json] [--budget NODES] [--optimal required|preferred]\n"
    "                  [--fast] [--path P] BOARD\n"
    "       eight --server URL [--timeout-ms N] hint ...\n"
    "\n"
    "Lists the moves of BOARD and the distance each leaves, the best first.\n"
    "\n"
    "  --table PATH       the table file ($EIGHT_TABLE, else data/eight.tbl)\n"
    "  --tables DIR       every *.tbl file in DIR, each goal from the first that answers it\n"
    "  --goal BOARD       the goal (default: the standard goal of the board's shape)\n"
    "  --shape RxC        the shape of the board and of the goal (2x3, 4x4 ...)\n"
    "  --format F         text or json\n"
    "  --budget NODES     search nodes for a searched board (default 50000000)\n"
    "  --optimal O        required: refuse what cannot be proven optimal; preferred (default)\n"
    "  --fast             the first move of solve --fast's path where none is proven optimal\n"
    "  --path P           a path held from BOARD to the goal (u d l r): its first move on a tie\n"
    "  --server URL       ask that eight-server instead (--timeout-ms N per exchange)\n"
    "Exit: 0 ok, 1 a bad board, 2 usage, 3 bad table, 5-7 server (eight --help).\n";

constexpr const char* kRandomUsage =
    "usage: eight random [--distance D] [--table PATH | --tables DIR] [--goal BOARD]\n"
    "                    [--shape RxC] [--seed S] [--count N] [--budget NODES]\n"
    "       eight --server URL [--timeout-ms N] random ...\n"
    "\n"
    "Draws boards, uniformly among those D moves from the goal.\n"
    "\n"
    "  --distance D       the distance (left out for shapes whose distances are not exact)\n"
    "  --table PATH       the table file ($EIGHT_TABLE, else data/eight.tbl)\n"
    "  --tables DIR       every *.tbl file in DIR, each goal from the first that answers it\n"
    "  --goal BOARD       the goal (default: the standard goal of the shape)\n"
    "  --shape RxC        the shape (default: the goal's, else 3x3)\n"
    "  --seed S           the same boards for the same seed (0 to 2^64-1)\n"
    "  --count N          how many boards (default 1)\n"
    "  --budget NODES     search nodes for a searched board (default 50000000)\n"
    "  --server URL       ask that eight-server instead (--timeout-ms N per exchange)\n"
    "Exit: 0 ok, 2 usage, 3 bad table, 5-7 server (eight --help).\n";

constexpr const char* kVerifyUsage =
    "usage: eight verify [PATH | --table PATH | --tables DIR]\n"
    "\n"
    "Proves a table file (or every *.tbl file of DIR) entry by entry.\n"
    "\n"
    "  --table PATH       the table file ($EIGHT_TABLE, else data/eight.tbl)\n"
    "  --tables DIR       every *.tbl file in DIR\n"
    "Exit: 0 sound, 2 usage, 3 bad table.\n";

constexpr const char* kInfoUsage =
    "usage: eight info [PATH | --table PATH | --tables DIR] [--goal BOARD] [--shape RxC]\n"
    "                  [--svg FILE]\n"
    "\n"
    "Prints a table's header, its distance histograms and hardest positions.\n"
    "\n"
    "  --table PATH       the table file ($EIGHT_TABLE, else data/eight.tbl)\n"
    "  --tables DIR       every *.tbl file in DIR\n"
    "  --goal BOARD       with --svg: the goal whose histogram to draw\n"
    "  --shape RxC        the shape of the goal\n"
    "  --svg FILE         write the goal's distance histogram as an SVG picture\n"
    "Exit: 0 ok, 2 usage, 3 bad table.\n";

constexpr const char* kFetchUsage =
    "usage: eight fetch [URL] [--tables DIR | --table PATH] [--timeout-ms N]\n"
    "\n"
    "Downloads every table a server serves (URL, default http://127.0.0.1:8080) into\n"
    "data/ (or DIR; or its default table into PATH), resuming, skipping unchanged\n"
    "ones and checking each before it replaces anything.\n"
    "\n"
    "  --tables DIR       the folder to write into\n"
    "  --table PATH       the file to write the server's default table to\n"
    "  --timeout-ms N     the bound on each exchange with the server (default 10000)\n"
    "Exit: 0 ok, 2 usage, 3 bad table, 5 unreachable, 6 timed out, 7 not an eight server.\n";

const std::array<Command, 6> kCommands = {{
    {"solve",
     {"table", "tables", "goal", "shape", "format", "boards!", "budget", "optimal", "fast!", "path",
      "server", "timeout-ms"},
     kSolveUsage},
    {"hint",
     {"table", "tables", "goal", "shape", "format", "budget", "optimal", "fast!", "path", "server",
      "timeout-ms"},
     kHintUsage},
    {"random",
     {"distance", "table", "tables", "goal", "shape", "seed", "count", "budget", "server",
      "timeout-ms"},
     kRandomUsage},
    {"verify", {"table", "tables"}, kVerifyUsage},
    {"info", {"table", "tables", "goal", "shape", "svg"}, kInfoUsage},
    {"fetch", {"table", "tables", "timeout-ms", "server"}, kFetchUsage},
}};

// The command names `eight` answers, for a suggestion.
constexpr std::string_view kCommandNames[] = {"solve", "hint",  "random", "verify",
                                              "info",  "fetch", "probe"};

po::options_description described(const Command& c) {
  po::options_description d;
  for (std::string_view option : c.options) {
    const std::string name(option.substr(0, option.find('!')));
    if (option.ends_with('!')) {
      d.add_options()(name.c_str(), "");
    } else {
      d.add_options()(name.c_str(), po::value<std::string>());
    }
  }
  d.add_options()("help,h", "");
  return d;
}

const Command* find_command(std::string_view name) {
  for (const Command& c : kCommands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// The client's options, before the command; and --help, --version.
const po::options_description& global_options() {
  static const po::options_description d = [] {
    po::options_description o;
    o.add_options()("server", po::value<std::string>())("timeout-ms", po::value<std::string>())(
        "help,h", "")("version", "");
    return o;
  }();
  return d;
}

Exit refuse(const UsageError& e, std::string_view help) {
  return Exit{print_usage_error("eight", e, help)};
}

Exit print_help(const char* text) {
  std::fputs(text, stdout);
  return Exit{kExitOk};
}

// Sets the option `name` of `opt` to `value`; or what is wrong with it.
std::optional<std::string> apply(Options& opt, const std::string& name, const std::string& value) {
  if (name == "table") {
    opt.table = value;
    opt.table_given = true;
  } else if (name == "tables") {
    opt.tables = value;
  } else if (name == "goal") {
    opt.goal = value;
  } else if (name == "shape") {
    const auto shape = parse_shape(value);
    if (!shape.ok()) return shape.error().message;
    opt.shape = *shape;
  } else if (name == "format") {
    const auto f = parse_format(value);
    if (!f) return "unknown format '" + value + "'";
    opt.format = *f;
  } else if (name == "distance") {
    opt.distance = value;
  } else if (name == "seed") {
    opt.seed = value;
  } else if (name == "count") {
    opt.count = value;
  } else if (name == "budget") {
    const auto nodes = parse_decimal(value);
    if (!nodes || *nodes < 1) return "--budget takes a whole number of search nodes, at least 1";
    opt.budget = *nodes;
  } else if (name == "optimal") {
    if (value != "required" && value != "preferred") return "--optimal takes required or preferred";
    opt.require_optimal = value == "required";
  } else if (name == "server") {
    opt.server = value;
  } else if (name == "timeout-ms") {
    opt.timeout_ms = value;
  } else if (name == "svg") {
    opt.svg = value;
  } else if (name == "boards") {
    opt.boards = true;
  } else if (name == "fast") {
    opt.fast = true;
  } else if (name == "path") {
    opt.path = value;  // read with the board (eight/question.h)
  }
  return std::nullopt;
}

}  // namespace

const char* command_usage(std::string_view command) {
  const Command* c = find_command(command);
  return c == nullptr ? nullptr : c->usage;
}

std::variant<Parsed, Exit> parse_command_line(std::span<const std::string> args) {
  Parsed parsed;
  Options& opt = parsed.options;
  // The client's options come before the command (eight --server URL solve
  // ...): the command is the first word that is neither one nor its value.
  std::size_t first = 0;
  while (first < args.size()) {
    const std::string_view arg = args[first];
    if (arg == "--server" || arg == "--timeout-ms") {
      first += 2;
    } else if (arg.starts_with("--server=") || arg.starts_with("--timeout-ms=")) {
      first += 1;
    } else {
      break;
    }
  }
  first = std::min(first, args.size());
  // An option where the command goes (--help, --version, a misspelt
  // --server) is read with them.
  const bool option_first = first < args.size() && args[first].starts_with("-");
  auto globals = read_options(args.first(first + (option_first ? 1 : 0)), global_options(), false);
  if (const auto* e = std::get_if<UsageError>(&globals)) return refuse(*e, "eight --help");
  for (const GivenOption& given : std::get<std::vector<GivenOption>>(globals)) {
    if (given.name == "help") return print_help(kUsage);
    if (given.name == "version") {
      // PROGRAM VERSION, as every eight program prints it (CMake's
      // PROJECT_VERSION, cli/CMakeLists.txt).
      std::printf("eight %s\n", EIGHT_VERSION);
      return Exit{kExitOk};
    }
    (void)apply(opt, given.name, given.value.value_or(""));
  }
  if (first >= args.size()) return refuse({"missing command", {}, {}}, "eight --help");
  parsed.command = args[first];
  const std::span<const std::string> rest = args.subspan(first + 1);
  if (parsed.command == "help") {
    const char* text = rest.empty() ? nullptr : command_usage(rest[0]);
    return print_help(text != nullptr ? text : kUsage);
  }
  if (parsed.command == "probe") {  // read by probe.cpp
    opt.args.assign(rest.begin(), rest.end());
    return parsed;
  }
  const Command* command = find_command(parsed.command);
  if (command == nullptr) {
    return refuse({"unknown command '" + parsed.command + "'",
                   nearest_name(parsed.command, kCommandNames),
                   {}},
                  "eight --help");
  }
  const std::string help = "eight " + parsed.command + " --help";
  const po::options_description own = described(*command);
  auto read = read_options(rest, own, true);
  if (auto* e = std::get_if<UsageError>(&read)) {
    // An option of other commands: say whose it is ("--svg is an option of
    // info, not of solve").
    std::vector<std::string_view> owners;
    for (const Command& other : kCommands) {
      if (e->unknown.starts_with("--") &&
          described(other).find_nothrow(e->unknown.substr(2), false) != nullptr) {
        owners.push_back(other.name);
      }
    }
    if (!owners.empty()) {
      e->message = e->unknown + " is an option of ";
      for (std::size_t i = 0; i < owners.size(); ++i) {
        if (i > 0) e->message += i + 1 == owners.size() ? " and " : ", ";
        e->message += owners[i];
      }
      e->message += ", not of " + parsed.command;
      e->suggestion.clear();
    }
    return refuse(*e, help);
  }
  opt.table = default_table_path();
  const auto& given = std::get<std::vector<GivenOption>>(read);
  for (const GivenOption& g : given) {
    if (g.name == "help") return print_help(command->usage);
  }
  for (const GivenOption& g : given) {
    if (g.name.empty()) {
      opt.args.push_back(*g.value);
    } else if (auto why = apply(opt, g.name, g.value.value_or(""))) {
      return refuse({*why, {}, {}}, help);
    }
  }
  return parsed;
}

}  // namespace eight::cli
