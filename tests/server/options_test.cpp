// eight-server's options: command line over environment over defaults.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "options.h"
#include "support.h"

using eight::server::Options;
using eight::server::parse_options;

namespace {

eight::Result<Options> parse(std::vector<std::string_view> args,
                             std::map<std::string, std::string> env = {}) {
  return parse_options(args, [env](const char* name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  });
}

}  // namespace

TEST_CASE("defaults are data/eight.tbl on 127.0.0.1:8080 with the access log on") {
  auto o = parse({});
  REQUIRE(o.ok());
  CHECK(o->table == "data/eight.tbl");
  CHECK(o->host == "127.0.0.1");
  CHECK(o->port == 8080);
  CHECK(o->threads == eight::server::default_threads());
  CHECK(o->threads == eight::server::default_threads());
  CHECK(o->threads >= 1);
  CHECK(o->threads <= static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  CHECK(o->compute_threads == eight::server::default_threads());
  CHECK(o->compute_queue == eight::server::kDefaultComputeQueue);
  CHECK_FALSE(o->quiet);
  CHECK_FALSE(o->help);
}

TEST_CASE("every option can come from the environment") {
  auto o = parse({}, {{"EIGHT_TABLE", "/t.tbl"},
                      {"EIGHT_HOST", "::1"},
                      {"EIGHT_PORT", "9000"},
                      {"EIGHT_THREADS", "12"},
                      {"EIGHT_QUIET", "true"}});
  REQUIRE(o.ok());
  CHECK(o->table == "/t.tbl");
  CHECK(o->host == "::1");
  CHECK(o->port == 9000);
  CHECK(o->threads == 12);
  CHECK(o->quiet);
}

TEST_CASE("the command line overrides the environment, in both spellings") {
  auto o = parse({"--table", "/a.tbl", "--port=0", "--host=0.0.0.0", "--threads", "3", "-q"},
                 {{"EIGHT_TABLE", "/t.tbl"}, {"EIGHT_PORT", "9000"}, {"EIGHT_THREADS", "12"}});
  REQUIRE(o.ok());
  CHECK(o->table == "/a.tbl");
  CHECK(o->port == 0);
  CHECK(o->host == "0.0.0.0");
  CHECK(o->threads == 3);
  CHECK(o->quiet);
  CHECK(parse({"--help"})->help);
}

TEST_CASE("--tables DIR (or EIGHT_TABLES) names a folder instead of one file, never both") {
  auto o = parse({"--tables", "/srv/tables"});
  REQUIRE(o.ok());
  CHECK(o->table.empty());
  CHECK(o->source().folder);
  CHECK(o->source().path == "/srv/tables");
  o = parse({}, {{"EIGHT_TABLES", "/srv/t"}});
  REQUIRE(o.ok());
  CHECK(o->source().folder);
  CHECK(o->source().path == "/srv/t");
  // Neither: the one default file.
  o = parse({});
  REQUIRE(o.ok());
  CHECK(!o->source().folder);
  CHECK(o->source().path == "data/eight.tbl");
  // The command line overrides the environment, either for the other.
  o = parse({"--table", "/a.tbl"}, {{"EIGHT_TABLES", "/srv/t"}});
  REQUIRE(o.ok());
  CHECK(!o->source().folder);
  CHECK(o->source().path == "/a.tbl");
  o = parse({"--tables=/d"}, {{"EIGHT_TABLE", "/t.tbl"}});
  REQUIRE(o.ok());
  CHECK(o->source().folder);
  CHECK(o->source().path == "/d");
  // Both in one place: a usage error.
  auto e = parse({"--table", "/a.tbl", "--tables", "/d"});
  REQUIRE(!e.ok());
  CHECK(e.error().message == "--table and --tables are both given: give one file or one folder");
  e = parse({}, {{"EIGHT_TABLE", "/t.tbl"}, {"EIGHT_TABLES", "/d"}});
  REQUIRE(!e.ok());
  CHECK(e.error().message ==
        "EIGHT_TABLE and EIGHT_TABLES are both set: give one file or one folder");
  e = parse({"--tables="});
  REQUIRE(!e.ok());
  CHECK(e.error().message == "--tables needs a folder");
}

TEST_CASE("bad options and values are refused with a message naming them") {
  auto bad = [](std::vector<std::string_view> args, std::map<std::string, std::string> env = {}) {
    auto o = parse(std::move(args), std::move(env));
    REQUIRE_FALSE(o.ok());
    CHECK(o.error().code == eight::ErrorCode::kBadArgument);
    return o.error().message;
  };
  CHECK(bad({"--port", "65536"}) == "--port: '65536' is not a port number (0 to 65535)");
  CHECK(bad({"--port", "80x"}) == "--port: '80x' is not a port number (0 to 65535)");
  CHECK(bad({"--threads", "0"}) == "--threads: '0' is not a thread count (1 to 4096)");
  CHECK(bad({"--port"}) == "--port needs a value");
  CHECK(bad({"--tabel", "x"}) == "unknown option '--tabel'");
  CHECK(bad({"extra"}) == "unexpected argument 'extra'");
  CHECK(bad({}, {{"EIGHT_PORT", "http"}}) ==
        "EIGHT_PORT: 'http' is not a port number (0 to 65535)");
  CHECK(bad({}, {{"EIGHT_QUIET", "maybe"}}) ==
        "EIGHT_QUIET: 'maybe' is not 1/0, true/false or yes/no");
}

TEST_CASE("--queue-wait (or EIGHT_QUEUE_WAIT) is 1 to 3600 seconds, 5 by default") {
  auto o = parse({});
  REQUIRE(o.ok());
  CHECK(o->queue_wait_seconds == 5);
  o = parse({}, {{"EIGHT_QUEUE_WAIT", "30"}});
  REQUIRE(o.ok());
  CHECK(o->queue_wait_seconds == 30);
  o = parse({"--queue-wait=3600"}, {{"EIGHT_QUEUE_WAIT", "30"}});
  REQUIRE(o.ok());
  CHECK(o->queue_wait_seconds == 3600);
  for (const std::string_view v : {"0", "3601", "5s", ""}) {
    const std::vector<std::string_view> args = {"--queue-wait", v};
    auto e = parse(args);
    REQUIRE_FALSE(e.ok());
    CHECK(e.error().message ==
          "--queue-wait: '" + std::string(v) + "' is not a number of seconds (1 to 3600)");
  }
}

TEST_CASE(
    "--job-deadline (or EIGHT_JOB_DEADLINE) is 0.01 to 3600 seconds with up to three decimals, "
    "10 by default") {
  using std::chrono::milliseconds;
  auto o = parse({});
  REQUIRE(o.ok());
  CHECK(o->job_deadline == milliseconds(10'000));
  o = parse({}, {{"EIGHT_JOB_DEADLINE", "0.2"}});
  REQUIRE(o.ok());
  CHECK(o->job_deadline == milliseconds(200));
  o = parse({"--job-deadline=2.5"}, {{"EIGHT_JOB_DEADLINE", "0.2"}});
  REQUIRE(o.ok());
  CHECK(o->job_deadline == milliseconds(2'500));
  for (const auto& [text, ms] :
       std::vector<std::pair<std::string_view, int>>{{"0.01", 10},
                                                     {"0.125", 125},
                                                     {"3600", 3'600'000},
                                                     {"3600.000", 3'600'000},
                                                     {"7", 7'000}}) {
    const std::vector<std::string_view> args = {"--job-deadline", text};
    o = parse(args);
    REQUIRE(o.ok());
    CHECK(o->job_deadline == milliseconds(ms));
  }
  for (const std::string_view v :
       {"0", "0.009", "3600.001", "3601", "10s", "", ".5", "1.", "1.0001", "-1", "1e3", "1,5"}) {
    const std::vector<std::string_view> args = {"--job-deadline", v};
    auto e = parse(args);
    REQUIRE_FALSE(e.ok());
    CHECK(e.error().message == "--job-deadline: '" + std::string(v) +
                                   "' is not a number of seconds (0.01 s to 3600 s, up to three "
                                   "decimals)");
  }
}

TEST_CASE("--memory-budget (or EIGHT_MEMORY_BUDGET) is 1 to 1048576 MiB, 16 by default") {
  auto o = parse({});
  REQUIRE(o.ok());
  CHECK(o->memory_budget_mib == 16);
  o = parse({}, {{"EIGHT_MEMORY_BUDGET", "48"}});
  REQUIRE(o.ok());
  CHECK(o->memory_budget_mib == 48);
  o = parse({"--memory-budget=1048576"}, {{"EIGHT_MEMORY_BUDGET", "48"}});
  REQUIRE(o.ok());
  CHECK(o->memory_budget_mib == 1048576);
  for (const std::string_view v : {"0", "1048577", "16M", ""}) {
    const std::vector<std::string_view> args = {"--memory-budget", v};
    auto e = parse(args);
    REQUIRE_FALSE(e.ok());
    CHECK(e.error().message ==
          "--memory-budget: '" + std::string(v) + "' is not a number of MiB (1 to 1048576)");
  }
}

TEST_CASE("only a table given by neither option nor environment is the default one") {
  auto o = parse({});
  REQUIRE(o.ok());
  CHECK(o->table_defaulted);
  CHECK_FALSE(parse({"--table", "x.tbl"})->table_defaulted);
  CHECK_FALSE(parse({"--tables", "d"})->table_defaulted);
  CHECK_FALSE(parse({}, {{"EIGHT_TABLE", "y.tbl"}})->table_defaulted);
  CHECK_FALSE(parse({}, {{"EIGHT_TABLES", "d"}})->table_defaulted);
}

TEST_CASE("--metrics-port and --metrics-host: the metrics address, loopback unless told") {
  auto o = parse({});
  REQUIRE(o.ok());
  CHECK_FALSE(o->metrics_port.has_value());
  o = parse({"--metrics-port", "9100"});
  REQUIRE(o.ok());
  CHECK(o->metrics_port == 9100);
  CHECK(o->metrics_host == "127.0.0.1");
  o = parse({"--metrics-port=0", "--metrics-host", "::1"});
  REQUIRE(o.ok());
  CHECK(o->metrics_port == 0);
  CHECK(o->metrics_host == "::1");
  o = parse({}, {{"EIGHT_METRICS_PORT", "9101"}, {"EIGHT_METRICS_HOST", "0.0.0.0"}});
  REQUIRE(o.ok());
  CHECK(o->metrics_port == 9101);
  CHECK(o->metrics_host == "0.0.0.0");
  o = parse({"--metrics-port", "9102"}, {{"EIGHT_METRICS_PORT", "9101"}});
  REQUIRE(o.ok());
  CHECK(o->metrics_port == 9102);
  o = parse({"--metrics-host", "127.0.0.1"});
  REQUIRE_FALSE(o.ok());
  CHECK(o.error().message.find("needs --metrics-port") != std::string::npos);
  o = parse({"--metrics-port", "65536"});
  REQUIRE_FALSE(o.ok());
  CHECK(o.error().message == "--metrics-port: '65536' is not a port number (0 to 65535)");
  o = parse({}, {{"EIGHT_METRICS_PORT", "x"}});
  REQUIRE_FALSE(o.ok());
  CHECK(o.error().message == "EIGHT_METRICS_PORT: 'x' is not a port number (0 to 65535)");
}

TEST_CASE(
    "--pdb-dir (or EIGHT_PDB_DIR) names the folder for built 7-8 databases, none unless told") {
  auto o = parse({});
  REQUIRE(o.ok());
  CHECK(o->pdb_dir.empty());
  CHECK(o->pdb_partition == eight::fifteen::Partition::k78);
  CHECK(o->pdb_goal_blanks == std::vector<int>{0, 1, 5});  // every goal
  CHECK(o->pdb_two_by_eight);                              // then 2x8's 7-8 file
  o = parse({"--pdb-dir", "/var/lib/eight"});
  REQUIRE(o.ok());
  CHECK(o->pdb_dir == "/var/lib/eight");
  o = parse({}, {{"EIGHT_PDB_DIR", "/state"}});
  REQUIRE(o.ok());
  CHECK(o->pdb_dir == "/state");
  o = parse({"--pdb-dir=/cli"}, {{"EIGHT_PDB_DIR", "/state"}});
  REQUIRE(o.ok());
  CHECK(o->pdb_dir == "/cli");
  o = parse({"--pdb-dir="});
  REQUIRE_FALSE(o.ok());
  CHECK(o.error().message == "--pdb-dir needs a folder");
  // The tests' seam: the 6-6-3 databases of Korf's goal build in seconds.
  o = parse({"--pdb-partition", "6-6-3"});
  REQUIRE(o.ok());
  CHECK(o->pdb_partition == eight::fifteen::Partition::k663);
  CHECK(o->pdb_goal_blanks == std::vector<int>{0});
  CHECK_FALSE(o->pdb_two_by_eight);
  // And then 2x8's first set, seconds too, in place of its 7-8 file.
  o = parse({"--pdb-partition", "6-6-3,2x8"});
  REQUIRE(o.ok());
  CHECK(o->pdb_partition == eight::fifteen::Partition::k663);
  CHECK(o->pdb_goal_blanks == std::vector<int>{0});
  CHECK(o->pdb_two_by_eight);
  o = parse({"--pdb-partition", "5-5-5"});
  REQUIRE_FALSE(o.ok());
  CHECK(o.error().message ==
        "--pdb-partition: '5-5-5' is not a partition (7-8, 6-6-3 or 6-6-3,2x8)");
}

TEST_CASE("--pdb-priority (or EIGHT_PDB_PRIORITY) is idle unless told, low or normal when told") {
  using eight::server::PdbPriority;
  auto o = parse({});
  REQUIRE(o.ok());
  CHECK(o->pdb_priority == PdbPriority::kIdle);
  o = parse({"--pdb-priority", "low"});
  REQUIRE(o.ok());
  CHECK(o->pdb_priority == PdbPriority::kLow);
  o = parse({"--pdb-priority=normal"});
  REQUIRE(o.ok());
  CHECK(o->pdb_priority == PdbPriority::kNormal);
  o = parse({}, {{"EIGHT_PDB_PRIORITY", "low"}});
  REQUIRE(o.ok());
  CHECK(o->pdb_priority == PdbPriority::kLow);
  o = parse({"--pdb-priority", "idle"}, {{"EIGHT_PDB_PRIORITY", "normal"}});
  REQUIRE(o.ok());
  CHECK(o->pdb_priority == PdbPriority::kIdle);
  o = parse({"--pdb-priority", "high"});
  REQUIRE_FALSE(o.ok());
  CHECK(o.error().message == "--pdb-priority: 'high' is not a priority (idle, low or normal)");
  o = parse({}, {{"EIGHT_PDB_PRIORITY", "19"}});
  REQUIRE_FALSE(o.ok());
  CHECK(o.error().message == "EIGHT_PDB_PRIORITY: '19' is not a priority (idle, low or normal)");
}

TEST_CASE("the test seam --stop-compute-grace takes milliseconds, unset unless given") {
  auto o = parse({});
  REQUIRE(o.ok());
  CHECK_FALSE(o->stop_compute_grace_ms.has_value());
  o = parse({"--stop-compute-grace", "0"});
  REQUIRE(o.ok());
  CHECK(o->stop_compute_grace_ms == 0);
  o = parse({"--stop-compute-grace=60000"});
  REQUIRE(o.ok());
  CHECK(o->stop_compute_grace_ms == 60000);
  o = parse({"--stop-compute-grace", "60001"});
  REQUIRE_FALSE(o.ok());
  o = parse({"--stop-compute-grace", "-1"});
  REQUIRE_FALSE(o.ok());
}

TEST_CASE("--version is parsed") {
  auto o = parse({"--version"});
  REQUIRE(o.ok());
  CHECK(o->version);
  CHECK_FALSE(parse({})->version);
}

TEST_CASE("an unknown option near a known one comes with it as a suggestion") {
  const std::vector<std::string_view> args = {"--prot", "80"};
  auto r = eight::server::parse_command_line(args, [](const char*) { return std::nullopt; });
  REQUIRE(std::holds_alternative<eight::UsageError>(r));
  CHECK(std::get<eight::UsageError>(r).message == "unknown option '--prot'");
  CHECK(std::get<eight::UsageError>(r).suggestion == "--port");
  // The test seam --pdb-partition is read, never suggested.
  const std::vector<std::string_view> seam = {"--pdb-partitio", "6-6-3"};
  r = eight::server::parse_command_line(seam, [](const char*) { return std::nullopt; });
  REQUIRE(std::holds_alternative<eight::UsageError>(r));
  CHECK(std::get<eight::UsageError>(r).suggestion != "--pdb-partition");
}

TEST_CASE("a wrong eight-server flag prints two lines: the error with a suggestion, and --help") {
  auto r = eight::test::run_program("eight-server", {"--prot", "8080"});
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "eight-server: unknown option '--prot' (did you mean --port?)\n"
        "Run 'eight-server --help' for the options.\n");
  r = eight::test::run_program("eight-server", {"--port", "99999"});
  CHECK(r.status == 2);
  CHECK(r.err ==
        "eight-server: --port: '99999' is not a port number (0 to 65535)\n"
        "Run 'eight-server --help' for the options.\n");
  r = eight::test::run_program("eight-server", {"--memory-budgte=8"});
  CHECK(r.status == 2);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') <= 3);
  CHECK(r.err.find("(did you mean --memory-budget?)") != std::string::npos);
}
