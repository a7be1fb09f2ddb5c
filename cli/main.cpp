// eight: the offline tool for a downloaded table, and a client of an
// eight-server. This file dispatches (command_options.h reads the options,
// with Boost.Program_options, and prints each command's --help); each command is
// a file of its own (commands/), and solve, hint and random are written once
// over a Backend (backend.h): the local tables (table_backend.h), or with
// --server URL the server (server_backend.h, in the module eight-remote.so
// that is loaded only then: remote_module.h).
//
//   eight solve  [--table PATH | --tables DIR] [--goal BOARD] [--format moves|distance|json]
//                [--boards] [BOARD...]
//   eight verify [PATH | --tables DIR]
//   eight hint   [--table PATH | --tables DIR] [--goal BOARD] [--format text|json] BOARD
//   eight random [--distance D] [--table PATH | --tables DIR] [--goal BOARD] [--seed S] [--count N]
//   eight info   [PATH | --tables DIR] [--goal BOARD] [--shape RxC] [--svg FILE]
//   eight fetch  [URL] [--tables DIR | --table PATH] [--timeout-ms N]    (see fetch.h)
//   eight --server URL solve|hint|random ...
//   eight probe  [--host H] [--port P] [--path /readyz] [--timeout-ms N]   (see probe.cpp)
//
// --tables DIR answers from every *.tbl file in DIR (eight/table_set.h), as
// eight-server --tables does: each goal from the first file, by name, that
// answers its shape.
//
// Exit status (common/exit_codes.h): 0 all answered; 1 some input line or
// argument was bad (the others were still answered); 2 usage error; 3 the
// table cannot be used; 5 the server cannot be reached (or, for --server
// and fetch, the module eight-remote.so cannot be loaded), 6 it did not
// answer in time, 7 its answer is not an eight server's.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "command_line.h"
#include "command_options.h"
#include "commands/commands.h"
#include "common/exit_codes.h"
#include "probe.h"
#include "remote_module.h"
#include "table_backend.h"

using namespace eight::cli;
using eight::kExitOk;

namespace {

// The backend of --server when the module eight-remote.so cannot be
// loaded: the command still checks its own usage first (a bad command line
// is exit 2 whatever is installed), and open() then reports the module's
// failure (exit 5). Nothing after open() is ever asked of it.
class UnloadedServerBackend final : public Backend {
 public:
  explicit UnloadedServerBackend(Failure why) : why_(std::move(why)) {}
  std::optional<Failure> open() override { return why_; }
  std::variant<std::optional<Framed>, Failure> frame(const eight::GridBoard&, bool) override {
    return why_;
  }
  std::variant<std::vector<SolveAnswer>, Failure> solve(const eight::GridBoard&,
                                                        std::span<const SolveQuestion>,
                                                        bool) override {
    return why_;
  }
  std::variant<eight::MoveOptions, Failure> hint(const eight::GridBoard&, const eight::GridBoard&,
                                                 const std::optional<std::string>&) override {
    return why_;
  }
  std::variant<std::vector<eight::GridBoard>, Failure> random(
      const eight::GridBoard&, const Framed&, std::optional<int>, std::uint64_t,
      std::optional<std::uint64_t>) override {
    return why_;
  }
  RandomLimits random_limits() const override { return kServerRandomLimits; }
  std::size_t max_batch() const override { return kServerMaxBatch; }

 private:
  Failure why_;
};

// What answers solve, hint and random: the server of --server (through the
// module, loaded here; a stand-in that reports why when it cannot be), else
// the tables.
std::unique_ptr<Backend> choose_backend(const Options& opt) {
  if (!opt.server) {
    return std::make_unique<TableBackend>(source_of(opt), opt.budget, opt.require_optimal,
                                          opt.fast);
  }
  auto remote = load_remote_module();
  if (auto* f = std::get_if<Failure>(&remote)) {
    return std::make_unique<UnloadedServerBackend>(std::move(*f));
  }
  return std::get<RemoteModule*>(remote)->server_backend(*opt.server, opt.timeout_ms, opt.fast);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  auto parsed = parse_command_line(args);
  if (const auto* done = std::get_if<Exit>(&parsed)) return done->status;
  const std::string command = std::get<Parsed>(parsed).command;
  const Options opt = std::get<Parsed>(std::move(parsed)).options;
  if (command == "probe") return eight::cli::run_probe(opt.args);
  const bool table_given = opt.table_given;
  if (table_given && opt.tables) {
    return usage_error("--table and --tables are both given: give one file or one folder");
  }
  if (command == "fetch") return fetch_command(opt);
  if (opt.server && (table_given || opt.tables)) {
    return usage_error(
        "--server answers from the server's tables: --table and --tables do not "
        "apply (eight fetch downloads them)");
  }
  if (opt.server && command != "solve" && command != "hint" && command != "random") {
    return usage_error("--server asks solve, hint and random; " + std::string(command) +
                       " reads a table here (eight fetch downloads them)");
  }
  if (command == "random" && !opt.args.empty()) {
    return usage_error("random takes no board arguments");
  }
  if (command == "solve" || command == "hint" || command == "random") {
    const std::unique_ptr<Backend> chosen = choose_backend(opt);
    Backend& backend = *chosen;
    if (command == "solve") return solve_command(opt, backend);
    if (command == "hint") return hint_command(opt, backend);
    return random_command(opt, backend);
  }
  if (command == "verify" || command == "info") {
    if (opt.args.size() > 1) return usage_error(std::string(command) + " takes one table path");
    if (!opt.args.empty() && opt.tables) {
      return usage_error(std::string(command) + " takes a table path or --tables DIR, not both");
    }
    const eight::TableSource source =
        opt.args.empty() ? source_of(opt) : eight::TableSource{opt.args[0], false};
    if (command == "info" && opt.svg) return info_svg_command(source, opt);
    return command == "verify" ? verify_command(source) : info_command(source);
  }
  return usage_error("unknown command '" + std::string(command) + "'");
}
