// The programs' command lines, read by Boost.Program_options: the one
// reader of eight-server's, eight's and eight-tablegen's options, their
// usage errors (the error, a suggestion for a near-miss option, one line
// pointing at --help) and the near-miss suggestion itself.
//
// Each program declares its options (a po::options_description, values as
// text) and reads them here; what a value means stays the program's own
// (server/options.cpp, cli/main.cpp, tablegen/main.cpp), as does the --help
// text, which is written by hand for people (the tests read it too).
//
// Thread safety: pure functions, but print_usage_error writes to stderr.
#pragma once

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/parsers.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace eight {

namespace po = boost::program_options;

// What is wrong with a command line: a message in the programs' words
// ("unknown option '--prot'", "--port needs a value"); for an unknown
// option, that option as given ("--prot"), and when it is near a declared
// one, that one ("--port"); else both empty.
struct UsageError {
  std::string message;
  std::string suggestion;
  std::string unknown;
};

// One option or argument as given, in command-line order: `name` is the
// option's long name ("port"), or empty for an argument that is no option
// (a board, a path); `value` is its value, if it takes one.
struct GivenOption {
  std::string name;
  std::optional<std::string> value;
};

// Reads `args` (without the program's name) against `options`: --name
// VALUE, --name=VALUE (an empty VALUE too: what it means is the program's
// to say), the short aliases declared ("help,h"), in Unix style but with no
// abbreviations (--po is not --port). Options that take a value are
// declared po::value<std::string>(); the others take none. Arguments that
// are no option are kept, in place, when `arguments_allowed`, else refused
// ("unexpected argument 'x'"). `options` is what the suggestion of a
// near-miss is drawn from; `hidden` holds options read as well but never
// suggested (test seams).
std::variant<std::vector<GivenOption>, UsageError> read_options(
    std::span<const std::string> args, const po::options_description& options,
    bool arguments_allowed, const po::options_description* hidden = nullptr);

// The declared long option nearest to `given` ("--prot" or "--prot=1"),
// as "--port", if it is near enough to be what was meant: at most one edit
// (a letter added, left out, changed, or two swapped) for a name of up to
// four letters, two for a longer one; the first declared on a tie. Else
// empty.
std::string nearest_option(std::string_view given, const po::options_description& options);

// The same for a word among `names` (a command: "slove" -> "solve"),
// returned as it is in `names`.
std::string nearest_name(std::string_view given, std::span<const std::string_view> names);

// Prints the usage error to stderr, two lines:
//   PROGRAM: MESSAGE (did you mean --port?)   (the question only with a suggestion)
//   Run 'HELP' for the options.
// and returns kExitUsage (common/exit_codes.h). `help` is the command that
// prints the relevant usage ("eight-server --help", "eight solve --help").
int print_usage_error(std::string_view program, const UsageError& error, std::string_view help);

}  // namespace eight
