// The programs' command lines, read by Boost.Program_options
// (common/option_reader.h): usage errors of at most three lines with a
// suggestion for a near-miss option, and each command's own --help.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "common/option_reader.h"
#include "support.h"

using eight::test::run_program;

namespace {

int lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

eight::po::options_description server_like() {
  eight::po::options_description d;
  d.add_options()("port", eight::po::value<std::string>())(
      "table", eight::po::value<std::string>())("threads", eight::po::value<std::string>())(
      "quiet,q", "")("help,h", "");
  return d;
}

}  // namespace

TEST_CASE("a near-miss option is suggested: a letter added, left out, changed or two swapped") {
  const auto d = server_like();
  CHECK(eight::nearest_option("--prot", d) == "--port");
  CHECK(eight::nearest_option("--tabel=x", d) == "--table");
  CHECK(eight::nearest_option("--treads", d) == "--threads");
  CHECK(eight::nearest_option("--tables", d) == "--table");
  CHECK(eight::nearest_option("--quite", d) == "--quiet");
  // Too far from every option to be what was meant: no suggestion.
  CHECK(eight::nearest_option("--verbose", d).empty());
  CHECK(eight::nearest_option("--x", d).empty());
  const std::vector<std::string_view> commands = {"solve", "hint", "random", "verify"};
  CHECK(eight::nearest_name("slove", commands) == "solve");
  CHECK(eight::nearest_name("hitn", commands) == "hint");
  CHECK(eight::nearest_name("play", commands).empty());
}

TEST_CASE("the option reader keeps order, values and arguments, and names what is wrong") {
  const auto d = server_like();
  const std::vector<std::string> args = {"--port", "80", "board", "--table=t.tbl", "-q", "--port="};
  auto read = eight::read_options(args, d, true);
  REQUIRE(std::holds_alternative<std::vector<eight::GivenOption>>(read));
  const auto& given = std::get<std::vector<eight::GivenOption>>(read);
  REQUIRE(given.size() == 5);
  CHECK(given[0].name == "port");
  CHECK(given[0].value == "80");
  CHECK(given[1].name.empty());
  CHECK(given[1].value == "board");
  CHECK(given[2].name == "table");
  CHECK(given[2].value == "t.tbl");
  CHECK(given[3].name == "quiet");
  CHECK_FALSE(given[3].value.has_value());
  CHECK(given[4].name == "port");
  CHECK(given[4].value == "");  // "--port=": an empty value, the program's to refuse
  const auto error = [&d](std::vector<std::string> a, bool arguments = false) {
    auto r = eight::read_options(a, d, arguments);
    REQUIRE(std::holds_alternative<eight::UsageError>(r));
    return std::get<eight::UsageError>(r);
  };
  auto e = error({"--prot", "80"});
  CHECK(e.message == "unknown option '--prot'");
  CHECK(e.suggestion == "--port");
  CHECK(e.unknown == "--prot");
  CHECK(error({"--port"}).message == "--port needs a value");
  CHECK(error({"--quiet=1"}).message == "--quiet takes no value");
  CHECK(error({"board"}).message == "unexpected argument 'board'");
  // No abbreviations: --po is not --port.
  CHECK(error({"--po", "80"}).message == "unknown option '--po'");
  // A value that looks like a number is a value, not an option.
  auto negative = eight::read_options(std::vector<std::string>{"--threads", "-1"}, d, false);
  REQUIRE(std::holds_alternative<std::vector<eight::GivenOption>>(negative));
  CHECK(std::get<std::vector<eight::GivenOption>>(negative)[0].value == "-1");
}

TEST_CASE(
    "a usage error of eight is at most three lines: the error with a suggestion, and --help") {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"solve", "--tabel", "x.tbl", "123456780"},
                                             {"--sever", "http://127.0.0.1:1", "solve"},
                                             {"slove", "123456780"},
                                             {"hint", "--fromat", "json", "123456780"},
                                             {"random", "--distnce", "3"}}) {
    CAPTURE(args[0]);
    const auto r = run_program("eight", args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(lines(r.err) <= 3);
    CHECK(r.err.find("did you mean ") != std::string::npos);
    CHECK(r.err.find("--help' for the options.") != std::string::npos);
  }
  auto r = run_program("eight", {"solve", "--tabel", "x.tbl", "123456780"});
  CHECK(r.err ==
        "eight: unknown option '--tabel' (did you mean --table?)\n"
        "Run 'eight solve --help' for the options.\n");
  r = run_program("eight", {"slove"});
  CHECK(r.err ==
        "eight: unknown command 'slove' (did you mean solve?)\n"
        "Run 'eight --help' for the options.\n");
  // An option of another command says whose it is.
  r = run_program("eight", {"verify", "--goal", "123456780"});
  CHECK(r.status == 2);
  CHECK(r.err ==
        "eight: --goal is an option of solve, hint, random and info, not of verify\n"
        "Run 'eight verify --help' for the options.\n");
  // A usage error a command finds itself is as short.
  r = run_program("eight", {"solve", "--format", "xml", "123456780"});
  CHECK(r.status == 2);
  CHECK(lines(r.err) == 2);
  CHECK(r.err.find("eight: unknown format 'xml'\n") == 0);
  r = run_program("eight", {"hint"});
  CHECK(r.status == 2);
  CHECK(lines(r.err) == 2);
}

TEST_CASE("each command of eight has its own --help, and eight --help lists them all") {
  const auto all = run_program("eight", {"--help"});
  CHECK(all.status == 0);
  for (const char* command : {"solve", "hint", "random", "verify", "info", "fetch"}) {
    CAPTURE(command);
    const auto own = run_program("eight", {command, "--help"});
    CHECK(own.status == 0);
    CHECK(own.err.empty());
    CHECK(own.out.find(std::string("usage: eight ") + command + " ") == 0);
    CHECK(own.out != all.out);
    // The command's usage alone: no other command's.
    for (const char* other : {"solve", "hint", "random", "verify", "info", "fetch"}) {
      if (std::string(other) != command) {
        CHECK(own.out.find(std::string("eight ") + other + " ") == std::string::npos);
      }
    }
    CHECK(run_program("eight", {command, "-h"}).out == own.out);
    CHECK(run_program("eight", {"help", command}).out == own.out);
  }
  // Its options are the ones it takes: solve's has --boards, hint's not.
  CHECK(run_program("eight", {"solve", "--help"}).out.find("--boards") != std::string::npos);
  CHECK(run_program("eight", {"hint", "--help"}).out.find("--boards") == std::string::npos);
  // --help after the client's options, and before the command, is the whole usage.
  CHECK(run_program("eight", {"--server", "http://127.0.0.1:1", "--help"}).out == all.out);
  CHECK(run_program("eight", {"--server", "http://127.0.0.1:1", "solve", "--help"}).out ==
        run_program("eight", {"solve", "--help"}).out);
}

TEST_CASE("a usage error of eight-tablegen is two lines with a suggestion") {
  const auto r = run_program("eight-tablegen", {"--shap", "3x3"});
  CHECK(r.status == 2);
  CHECK(r.err ==
        "eight-tablegen: unknown option '--shap' (did you mean --shape?)\n"
        "Run 'eight-tablegen --help' for the options.\n");
  const auto bad = run_program("eight-tablegen", {"--shape", "5x5"});
  CHECK(bad.status == 2);
  CHECK(lines(bad.err) == 2);
  CHECK(run_program("eight-tablegen", {"--out"}).err.find("--out needs a value") !=
        std::string::npos);
}
