#include "command_line.h"

#include <cstdio>

#include "common/option_reader.h"
#include "common/text.h"
#include "eight/question.h"

namespace eight::cli {

const char* const kUsage =
    "usage:\n"
    "  eight solve  [--table PATH | --tables DIR] [--goal BOARD] [--shape RxC]\n"
    "               [--format moves|distance|json] [--boards] [--budget NODES]\n"
    "               [--optimal required|preferred] [--fast] [BOARD...]\n"
    "  eight verify [PATH | --tables DIR]\n"
    "  eight info   [PATH | --tables DIR] [--goal BOARD] [--shape RxC] [--svg FILE]\n"
    "  eight hint   [--table PATH | --tables DIR] [--goal BOARD] [--shape RxC]\n"
    "               [--format text|json] [--budget NODES] [--optimal required|preferred]\n"
    "               [--fast] BOARD\n"
    "  eight random [--distance D] [--table PATH | --tables DIR] [--goal BOARD] [--shape RxC]\n"
    "               [--seed S] [--count N] [--budget NODES]\n"
    "  eight fetch  [URL] [--tables DIR | --table PATH] [--timeout-ms N]\n"
    "  eight --server URL [--timeout-ms N] solve|hint|random ...\n"
    "  eight probe  [--host H] [--port P] [--path /readyz] [--timeout-ms N]\n"
    "  eight [COMMAND] --help\n"
    "  eight --version\n"
    "\n"
    "Boards: 123456780, 12345678x, \"1 2 3 4 5 6 7 8 x\", 1,2,3,4,5,6,7,8,0, 123/456/780\n"
    "(blank as 0, x, X or _). Without BOARD arguments, solve reads one board per line\n"
    "from stdin and writes one line per input line; a line of two boards (18 cells)\n"
    "is a board and its goal. Moves are the blank's: u d l r. --boards adds the board\n"
    "after every move to the json format. Boards of other shapes (2x2 to 10x10) are\n"
    "written in rows (123/450) or named by --shape RxC (2x3); the default goal is the\n"
    "standard goal of the board's shape. The table defaults to $EIGHT_TABLE, else\n"
    "data/eight.tbl; --tables DIR answers from every *.tbl file in DIR instead, each\n"
    "goal from the first file (by name) that answers its shape. 4x4 boards (16\n"
    "cells, tiles 10 to 15 written with separators) are solved by a search over the\n"
    "table's pattern databases, expanding at most --budget nodes (default 50000000,\n"
    "about 1.5 s); a board that needs more is refused with how far the search got.\n"
    "Shapes no table holds (2x7, 3x5, 5x5 ... 10x10) are searched optimally for a\n"
    "few milliseconds, then by a beam search (past 64 cells over the last region\n"
    "of a reduction) or by reduction, a path not proven optimal (the distance\n"
    "format says so, with a proven lower bound); a hint is the first move of that\n"
    "path; --optimal required gives them the whole budget instead, and refuses\n"
    "what it cannot prove; --fast gives the quicker, longer paths there (on 5x5\n"
    "without its pattern databases, past 25 cells the reduction's alone).\n"
    "--server URL (http://HOST:PORT) asks that eight-server instead and prints the\n"
    "same; fetch downloads every table it serves into data/ (or DIR; into PATH, or\n"
    "$EIGHT_TABLE, its default table), resuming, skipping unchanged ones and checking\n"
    "each before it replaces anything. --timeout-ms bounds each exchange with the\n"
    "server, connecting and the whole answer (10000). --version prints the version.\n"
    "info --svg FILE writes the distance histogram of the goal as an SVG picture.\n"
    "Exit: 0 ok, 1 a bad board, 2 usage, 3 bad table, 5 server unreachable,\n"
    "6 server timed out, 7 not an eight server.\n";

std::optional<Format> parse_format(std::string_view s) {
  if (s == "moves") return Format::kMoves;
  if (s == "distance") return Format::kDistance;
  if (s == "json") return Format::kJson;
  if (s == "text") return Format::kText;
  return std::nullopt;
}

int usage_error(const std::string& what) {
  return print_usage_error("eight", UsageError{what, {}, {}}, "eight --help");
}

int report(const Failure& f) {
  if (f.status == kExitUsage) return usage_error(f.message);
  std::fprintf(stderr, "eight: %s\n", f.message.c_str());
  return f.status;
}

void emit(std::string& out) {
  std::fwrite(out.data(), 1, out.size(), stdout);
  out.clear();
}

std::variant<GridBoard, int> goal_of(const Options& opt) {
  QuestionText text;  // a question about the goal alone, read by the core
  text.shape = opt.shape;
  if (opt.goal) text.goal = *opt.goal;
  const auto read = read_question(text);
  if (const auto* bad = std::get_if<QuestionError>(&read)) {
    return usage_error("bad goal: " + bad->error.message);
  }
  return std::get<ReadQuestion>(read).goal;
}

TableSource source_of(const Options& opt) {
  return opt.tables ? TableSource{*opt.tables, true} : TableSource{opt.table, false};
}

std::optional<TableSet> open_tables(const TableSource& source, Check check) {
  auto tables = TableSet::open(source, check);
  if (!tables.ok()) {
    std::fprintf(stderr, "eight: %s\n", tables.error().message.c_str());
    return std::nullopt;
  }
  return std::move(tables).value();
}

}  // namespace eight::cli
