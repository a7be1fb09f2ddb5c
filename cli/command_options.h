// `eight`'s command line: which options each command takes, read by
// Boost.Program_options (common/option_reader.h) into the Options every
// command shares (command_line.h), and each command's own --help.
//
// Thread safety: pure functions (print_* write to stdout or stderr).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "command_line.h"

namespace eight::cli {

// What main() does next: run `command` with the options read, or exit with
// `status` (0 after printing a --help, 2 after a usage error).
struct Parsed {
  std::string command;
  Options options;
};
struct Exit {
  int status;
};

// Reads `args` (argv without the program's name): the client's options
// (--server URL, --timeout-ms N) before the command, the command, then the
// command's options and arguments. --help (and -h, `eight help [COMMAND]`)
// prints the global usage, or after a command that command's own; --version
// prints the version. An unknown option is refused naming its command and,
// when it is near one of the command's own, that one; an option of another
// command names that command. `probe` is read by probe.cpp: it comes back
// with its arguments in options.args.
std::variant<Parsed, Exit> parse_command_line(std::span<const std::string> args);

// The --help of `command` ("solve"), or nullptr for a name that is none.
const char* command_usage(std::string_view command);

}  // namespace eight::cli
