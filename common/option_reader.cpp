#include "common/option_reader.h"

#include <algorithm>
#include <cstdio>

#include "common/exit_codes.h"

namespace eight {

namespace {

// The edits that make `a` into `b`: letters added, left out or changed, and
// two neighbours swapped ("prot" -> "port" is one), the optimal string
// alignment distance.
std::size_t edits(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t change = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + change});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// The name an argument gives, "--prot=1" -> "prot"; "-x" -> "x".
std::string_view option_name(std::string_view given) {
  given.remove_prefix(std::min(given.find_first_not_of('-'), given.size()));
  return given.substr(0, given.find('='));
}

}  // namespace

std::string nearest_name(std::string_view given, std::span<const std::string_view> names) {
  if (given.empty()) return {};
  const std::size_t allowed = given.size() <= 4 ? 1 : 2;
  std::string_view best;
  std::size_t best_edits = allowed + 1;
  for (const std::string_view name : names) {
    if (name.empty()) continue;
    if (const std::size_t e = edits(given, name); e < best_edits) {
      best_edits = e;
      best = name;
    }
  }
  return std::string(best);
}

std::string nearest_option(std::string_view given, const po::options_description& options) {
  std::vector<std::string_view> names;
  for (const auto& option : options.options()) names.push_back(option->long_name());
  const std::string best = nearest_name(option_name(given), names);
  return best.empty() ? best : "--" + best;
}

std::variant<std::vector<GivenOption>, UsageError> read_options(
    std::span<const std::string> args, const po::options_description& options,
    bool arguments_allowed, const po::options_description* hidden) {
  // Program_options refuses "--name=" (an empty value after '='), which
  // our programs answer in their own words ("--tables needs a folder"):
  // it is read as "--name" and an empty value.
  std::vector<std::string> tokens;
  tokens.reserve(args.size());
  for (const std::string& arg : args) {
    if (arg.size() > 3 && arg.starts_with("--") && arg.back() == '=' &&
        arg.find('=') + 1 == arg.size()) {
      tokens.push_back(arg.substr(0, arg.size() - 1));
      tokens.emplace_back();
    } else {
      tokens.push_back(arg);
    }
  }
  // Arguments that are no option: one positional option of a name no
  // program declares, read in place among the others.
  constexpr const char* kArgument = "\x01argument";
  po::options_description all;
  all.add(options);
  if (hidden != nullptr) all.add(*hidden);
  all.add_options()(kArgument, po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add(kArgument, -1);
  namespace style = po::command_line_style;
  try {
    const po::parsed_options parsed = po::command_line_parser(tokens)
                                          .options(all)
                                          .positional(positional)
                                          .style(style::unix_style & ~style::allow_guessing)
                                          .run();
    std::vector<GivenOption> given;
    for (const po::option& o : parsed.options) {
      if (o.string_key == kArgument) {
        if (!arguments_allowed)
          return UsageError{"unexpected argument '" + o.value.at(0) + "'", {}, {}};
        given.push_back({std::string(), o.value.at(0)});
      } else {
        given.push_back({o.string_key,
                         o.value.empty() ? std::nullopt : std::optional<std::string>(o.value[0])});
      }
    }
    return given;
  } catch (const po::unknown_option& e) {
    return UsageError{"unknown option '" + e.get_option_name() + "'",
                      nearest_option(e.get_option_name(), options), e.get_option_name()};
  } catch (const po::invalid_command_line_syntax& e) {
    const std::string name = e.get_option_name();
    switch (e.kind()) {
      case po::invalid_syntax::missing_parameter:
        return UsageError{name + " needs a value", {}, {}};
      case po::invalid_syntax::extra_parameter:
        return UsageError{name + " takes no value", {}, {}};
      default:
        return UsageError{e.what(), {}, {}};
    }
  } catch (const po::error& e) {
    return UsageError{e.what(), {}, {}};
  }
}

int print_usage_error(std::string_view program, const UsageError& error, std::string_view help) {
  std::string text(program);
  text.append(": ").append(error.message);
  if (!error.suggestion.empty())
    text.append(" (did you mean ").append(error.suggestion).append("?)");
  text.append("\nRun '").append(help).append("' for the options.\n");
  std::fputs(text.c_str(), stderr);
  return kExitUsage;
}

}  // namespace eight
