// What every command of `eight` shares: its options as main() parsed them,
// the usage text, and how a command reports what went wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "backend.h"
#include "common/defaults.h"
#include "common/exit_codes.h"
#include "eight/answer.h"
#include "eight/board.h"
#include "eight/table_set.h"

namespace eight::cli {

// The exit status of a bad board or argument (the others still answered).
inline constexpr int kExitBadInput = kExitFailed;

enum class Format { kMoves, kDistance, kJson, kText };

std::optional<Format> parse_format(std::string_view s);

struct Options {
  std::string table;
  std::optional<std::string> tables;  // --tables DIR
  std::optional<std::string> goal;    // default: the standard goal of the shape
  std::optional<Shape> shape;
  std::optional<Format> format;
  std::optional<std::string> distance;
  std::optional<std::string> seed;
  std::string count = "1";
  std::uint64_t budget = kDefaultSearchNodes;  // nodes per searched question
  bool require_optimal = false;                // --optimal required
  bool fast = false;  // --fast: Question::grid_fast, offline and asked of a server
  bool boards = false;
  // --path P (solve and hint, one board): a known path, the answer's
  // Question::known_path (sent as path= to a server).
  std::optional<std::string> path;
  std::optional<std::string> server;  // --server URL
  std::string timeout_ms = "10000";   // --timeout-ms, for --server and fetch
  std::optional<std::string> svg;     // info --svg FILE
  bool table_given = false;
  std::vector<std::string> args;
};

// `eight --help`.
extern const char* const kUsage;

// Prints `eight: WHAT` and a line pointing at `eight --help`; returns
// kExitUsage.
int usage_error(const std::string& what);

// Prints `eight: MESSAGE` (and the line pointing at --help for
// kExitUsage); returns the failure's status.
int report(const Failure& f);

// Writes all of `out` to standard output and clears it.
void emit(std::string& out);

// The goal asked about, offline and remote alike, by the core's reader
// (eight/question.h): --goal (read with --shape), else the standard goal
// of --shape, else 3x3's; or the usage error's status.
std::variant<GridBoard, int> goal_of(const Options& opt);

// The tables asked for: --tables DIR, else the one file of --table (or its
// default).
TableSource source_of(const Options& opt);

// The tables of `source` opened at `check`, or nothing when they cannot be
// (the reason printed).
std::optional<TableSet> open_tables(const TableSource& source, Check check);

}  // namespace eight::cli
