// eight-server --pdb-dir DIR (issues 20 and 39): the 4x4 board's and 2x8's
// pattern databases built where the server runs, in the background, then
// switched in. The real 7-8 builds are minutes, so these tests build with
// the hidden --pdb-partition 6-6-3 (Korf's goal alone, seconds; with
// 6-6-3,2x8 then 2x8's first set, seconds): the same code path, write_table
// and TableSlot::add, with the file DIR/eight-4x4-6-6-3.tbl. The server they
// start serves the 3x3 test table alone, so a 4x4 answer shows the built
// file is served. .ci/run builds the real 7-8 file through the server and
// runs the 17 hardest 4x4 boards against it.
#include <doctest/doctest.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "eight/table.h"
#include "server_fixture.h"
#include "support.h"

using eight::test::ExitInfo;
using eight::test::ServerProcess;
using eight::test::ServerSpec;
using eight::test::TempDir;
using eight::test::wait_until;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

constexpr const char* kBuilt = "eight-4x4-6-6-3.tbl";
// Korf's first benchmark board (57 moves), goal 0 1 2 ... 15.
constexpr const char* kKorf1 =
    "/solve?board=14,13,15,7/11,12,9,5/6,0,2,1/4,8,10,3&goal=0,1,2,3/4,5,6,7/8,9,10,11/"
    "12,13,14,15";

// A server of the 3x3 test table building the 6-6-3 databases into `dir`.
// At the server's own priority: these tests are about the build and the
// switch, and share the machine with the rest of the suite (ctest -j), whose
// tests run at normal priority in the same session; the default, SCHED_IDLE,
// would wait for all of them (the next test case checks each priority).
ServerSpec building_into(const std::string& dir, std::vector<std::string> more = {}) {
  ServerSpec spec{
      .args = {"--pdb-dir", dir, "--pdb-partition", "6-6-3", "--pdb-priority", "normal"}};
  spec.args.insert(spec.args.end(), more.begin(), more.end());
  return spec;
}

bool in_state(const ServerProcess& server, const std::string& state) {
  auto r = server.client().Get("/metrics");
  REQUIRE(r);
  CAPTURE(r->body);
  return r->status == 200 &&
         r->body.find("eight_pdb_build_state{state=\"" + state + "\"} 1\n") != std::string::npos;
}

// The paths /readyz lists.
std::vector<std::string> served_paths(const ServerProcess& server) {
  auto r = server.client().Get("/readyz");
  REQUIRE(r);
  INFO(r->body);
  REQUIRE(r->status == 200);
  const json readyz = json::parse(r->body);
  std::vector<std::string> paths;
  for (const auto& t : readyz["tables"]) paths.push_back(t["path"].get<std::string>());
  return paths;
}

bool serves(const ServerProcess& server, const std::string& path) {
  const auto paths = served_paths(server);
  return std::find(paths.begin(), paths.end(), path) != paths.end();
}

// A server on `dir` whose sound file `built` is already there: it serves the
// file from the start, answers a 4x4 board, stops cleanly, and built nothing.
void expect_served_unbuilt(const std::string& dir, const std::string& built) {
  ServerProcess server(building_into(dir));
  CHECK(server.wait_for_stderr("serving the pattern databases of " + built));
  CHECK(in_state(server, "ready"));
  CHECK(serves(server, built));
  auto r = server.client().Get(kKorf1);
  REQUIRE(r);
  CHECK(r->status == 200);
  const ExitInfo e = server.stop(SIGTERM);
  CHECK(e.status == 0);
  CHECK(server.stderr_text().find("building") == std::string::npos);
}

// The hang guard of a build of seconds on a busy machine: never a time
// bound.
constexpr auto kBuildGuard = 300s;

}  // namespace

TEST_CASE(
    "--pdb-dir: the server answers at once, builds the file in the background, gives it its name "
    "only whole, switches it in, keeps it on SIGHUP and serves it after a restart unbuilt") {
  TempDir dir;
  const std::string built = dir.file(kBuilt);
  // Watches the final name from before the server starts: whenever a file
  // is there, it must be a whole, sound table.
  std::atomic<bool> stop{false};
  std::atomic<int> seen{0};
  std::atomic<int> partial{0};
  std::thread watcher([&] {
    while (!stop) {
      std::error_code ec;
      if (std::filesystem::exists(built, ec)) {
        ++seen;
        if (!eight::Table::open(built, eight::Check::kChecksum).ok()) ++partial;
      }
      std::this_thread::sleep_for(1ms);
    }
  });
  struct stat before {};
  {
    ServerProcess server(building_into(dir.path()));
    // Serving already: a 3x3 answer while the build has only begun.
    auto r = server.client().Get("/solve?board=867254301");
    REQUIRE(r);
    CHECK(r->status == 200);
    const bool switched =
        server.wait_for_stderr("serving the 4x4 6-6-3 pattern databases", kBuildGuard);
    stop = true;
    watcher.join();
    REQUIRE(switched);
    CHECK(seen > 0);
    CHECK(partial == 0);
    const std::string log = server.stderr_text();
    CAPTURE(log);
    // Listening came first, then the build.
    const auto listening = log.find("listening on");
    const auto building = log.find("building the 4x4 6-6-3 pattern databases (" + built + ")");
    const auto done = log.find("built " + built + " in ");
    REQUIRE(listening != std::string::npos);
    REQUIRE(building != std::string::npos);
    REQUIRE(done != std::string::npos);
    CHECK(listening < building);
    CHECK(building < done);
    CHECK(in_state(server, "ready"));
    CHECK(serves(server, built));
    // The bytes `eight-tablegen --pdb 6-6-3 --pdb-goals corner` writes (the
    // fixture is write_table of the same sections); no temporary file left.
    CHECK(eight::test::read_file(built) ==
          eight::test::read_file(eight::test::fifteen_korf_table_path()));
    CHECK(!std::filesystem::exists(built + ".tmp"));
    // 4x4 questions, which the 3x3 table cannot answer, now are.
    r = server.client().Get(kKorf1);
    REQUIRE(r);
    CAPTURE(r->body);
    CHECK(r->status == 200);
    CHECK(json::parse(r->body)["distance"] == 57);
    REQUIRE(::stat(built.c_str(), &before) == 0);
    // A reload keeps the built file.
    ::kill(server.pid(), SIGHUP);
    REQUIRE(server.wait_for_stderr("SIGHUP: reloaded", 60s));
    CHECK(serves(server, built));
    r = server.client().Get(kKorf1);
    REQUIRE(r);
    CHECK(r->status == 200);
    const ExitInfo e = server.stop(SIGTERM);
    CHECK(e.status == 0);
  }
  // Served from the start: no build, the same file.
  expect_served_unbuilt(dir.path(), built);
  struct stat after {};
  REQUIRE(::stat(built.c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);
  CHECK(after.st_mtim.tv_sec == before.st_mtim.tv_sec);
  CHECK(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
}

TEST_CASE(
    "--pdb-dir: the files are built one after the other, each served once written, and a restart "
    "builds only the one missing") {
  // The seam 6-6-3,2x8: the 4x4 file, then 2x8's (its first set of three
  // in place of the 7-8 databases, seconds), as the real build does.
  TempDir dir;
  const std::string built_4x4 = dir.file(kBuilt);
  const std::string built_2x8 = dir.file("eight-2x8-6-6-3.tbl");
  const auto spec = [&] {
    ServerSpec s{.args = {"--pdb-dir", dir.path(), "--pdb-partition", "6-6-3,2x8", "--pdb-priority",
                          "normal"}};
    return s;
  };
  // A 2x8 board 60 moves from the standard goal (bench/two_by_eight.sh
  // --boards 100 --seed 20261203's board 97).
  const std::string far_2x8 = "/solve?board=12,10,13,1,4,15,8,7/9,2,3,14,6,0,5,11";
  {
    ServerProcess server(spec());
    REQUIRE(server.wait_for_stderr("serving the 2x8 6-6-3 pattern databases", kBuildGuard));
    const std::string log = server.stderr_text();
    CAPTURE(log);
    const std::vector<std::string> order = {
        "listening on",
        "building the 4x4 6-6-3 pattern databases (" + built_4x4 + ")",
        "built " + built_4x4 + " in ",
        "serving the 4x4 6-6-3 pattern databases (" + built_4x4 +
            ") beside the other tables: "
            "4x4 questions use them from now on",
        "building the 2x8 6-6-3 pattern databases (" + built_2x8 + ")",
        "built " + built_2x8 + " in ",
        "serving the 2x8 6-6-3 pattern databases (" + built_2x8 +
            ") beside the other tables: "
            "2x8 and 8x2 questions use them from now on"};
    std::size_t at = 0;
    for (const std::string& line : order) {
      CAPTURE(line);
      const auto found = log.find(line);
      REQUIRE(found != std::string::npos);
      CHECK(found >= at);
      at = found;
    }
    CHECK(in_state(server, "ready"));
    CHECK(serves(server, built_4x4));
    CHECK(serves(server, built_2x8));
    auto r = server.client().Get(far_2x8);
    REQUIRE(r);
    CAPTURE(r->body);
    REQUIRE(r->status == 200);
    CHECK(json::parse(r->body)["distance"] == 60);
    CHECK(json::parse(r->body)["optimal"] == true);
    CHECK(server.stop(SIGTERM).status == 0);
  }
  // 2x8's file gone: the 4x4 one is served from the start, 2x8's built again.
  REQUIRE(std::filesystem::remove(built_2x8));
  {
    ServerProcess server(spec());
    REQUIRE(server.wait_for_stderr("serving the 2x8 6-6-3 pattern databases", kBuildGuard));
    const std::string log = server.stderr_text();
    CAPTURE(log);
    CHECK(log.find("serving the pattern databases of " + built_4x4) != std::string::npos);
    CHECK(log.find("building the 4x4") == std::string::npos);
    CHECK(log.find("built " + built_2x8 + " in ") != std::string::npos);
    CHECK(in_state(server, "ready"));
    CHECK(serves(server, built_4x4));
    CHECK(serves(server, built_2x8));
    CHECK(server.stop(SIGTERM).status == 0);
  }
  // Both there: nothing built, both served, ready from the start.
  ServerProcess server(spec());
  REQUIRE(server.wait_for_stderr("serving the pattern databases of " + built_2x8));
  CHECK(server.stderr_text().find("serving the pattern databases of " + built_4x4) !=
        std::string::npos);
  CHECK(in_state(server, "ready"));
  CHECK(server.stop(SIGTERM).status == 0);
  CHECK(server.stderr_text().find("building") == std::string::npos);
}

TEST_CASE("--pdb-dir: a sound file already there is served from the start, nothing built") {
  TempDir dir;
  const std::string built = dir.file(kBuilt);
  eight::test::write_file(built, eight::test::read_file(eight::test::fifteen_korf_table_path()));
  expect_served_unbuilt(dir.path(), built);
}

TEST_CASE("--pdb-dir: a corrupt file there is logged and built again") {
  TempDir dir;
  const std::string built = dir.file(kBuilt);
  auto bytes = eight::test::read_file(eight::test::fifteen_korf_table_path());
  bytes[bytes.size() / 2] ^= 0x10;
  eight::test::write_file(built, bytes);
  ServerProcess server(building_into(dir.path()));
  // Logged before the server listens.
  CHECK(server.stderr_text().find(built + " does not prove sound, so it is built again") !=
        std::string::npos);
  REQUIRE(server.wait_for_stderr("serving the 4x4 6-6-3", kBuildGuard));
  // Never served before it was built again.
  const std::string log = server.stderr_text();
  CAPTURE(log);
  CHECK(log.find("serving the pattern databases of") == std::string::npos);
  CHECK(log.find("built " + built) < log.find("serving the 4x4 6-6-3"));
  CHECK(serves(server, built));
  CHECK(eight::test::read_file(built) ==
        eight::test::read_file(eight::test::fifteen_korf_table_path()));
}

TEST_CASE("--pdb-dir: two servers sharing the folder build the file once") {
  TempDir dir;
  const std::string built = dir.file(kBuilt);
  ServerProcess first(building_into(dir.path()));
  REQUIRE(first.wait_for_stderr("building the 4x4 6-6-3 pattern databases", 60s));
  ServerProcess second(building_into(dir.path()));
  // The second waits for the first's lock, unless the first was already done.
  REQUIRE(second.wait_for_stderr("serving the 4x4", kBuildGuard));
  REQUIRE(first.wait_for_stderr("serving the 4x4 6-6-3", kBuildGuard));
  const std::string log = second.stderr_text();
  CAPTURE(log);
  CHECK(log.find("building the 4x4") == std::string::npos);
  CHECK(serves(second, built));
  CHECK(serves(first, built));
}

TEST_CASE("--pdb-dir: SIGTERM during the 7-8 build stops the server at once, leaving no file") {
  TempDir dir;
  // The real partition: minutes of building, so the stop surely comes
  // during it.
  ServerProcess server(ServerSpec{.args = {"--pdb-dir", dir.path()}});
  REQUIRE(server.wait_for_stderr("building the 4x4 7-8 pattern databases", 60s));
  CHECK(in_state(server, "building"));
  const ExitInfo e = server.stop(SIGTERM, 30s);
  CHECK(!e.timed_out);
  CHECK(e.status == 0);
  // A hang guard far below the build's minutes: the stop did not wait for it.
  CHECK(e.elapsed < 10s);
  CHECK(server.stderr_text().find("was abandoned") != std::string::npos);
  CHECK(server.stderr_text().find("stopped") != std::string::npos);
  CHECK(!std::filesystem::exists(dir.file("eight-4x4-7-8.tbl")));
}

namespace {

// The scheduling of each of `server`'s threads named `name` (the build
// thread, and the workers it started, which inherit its name): their nice
// value and policy (proc(5): /proc/PID/task/TID/stat fields 19 and 41).
struct Scheduling {
  int nice;
  int policy;
  bool operator==(const Scheduling&) const = default;
};
Scheduling scheduling(const std::filesystem::path& task) {
  const auto bytes = eight::test::read_file((task / "stat").string());
  const std::string stat(bytes.begin(), bytes.end());
  // After the command's closing parenthesis come fields 3, 4, ...
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  const std::vector<std::string> f(std::istream_iterator<std::string>(fields), {});
  REQUIRE(f.size() >= 39);
  return {std::stoi(f[19 - 3]), std::stoi(f[41 - 3])};
}
Scheduling scheduling(pid_t pid, pid_t tid) {
  return scheduling(std::filesystem::path("/proc") / std::to_string(pid) / "task" /
                    std::to_string(tid));
}
std::vector<Scheduling> threads_named(const ServerProcess& server, const std::string& name) {
  std::vector<Scheduling> found;
  const auto tasks = std::filesystem::path("/proc") / std::to_string(server.pid()) / "task";
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator(tasks, ec)) {
    const auto comm = eight::test::read_file((task.path() / "comm").string());
    if (std::string(comm.begin(), comm.end()) == name + "\n") found.push_back(scheduling(task));
  }
  return found;
}

}  // namespace

TEST_CASE(
    "--pdb-priority: the build thread runs at SCHED_IDLE and nice 19 by default, nice 19 when "
    "low, the server's own priority when normal") {
  constexpr int kOther = 0;  // SCHED_OTHER, the default policy
  constexpr int kIdle = 5;   // SCHED_IDLE
  // The server's own priority is what it inherits from this test (nice 0
  // unless the suite itself runs under nice).
  errno = 0;
  const Scheduling own{::getpriority(PRIO_PROCESS, 0), ::sched_getscheduler(0)};
  REQUIRE(errno == 0);
  REQUIRE(own.policy == kOther);
  const std::pair<std::vector<std::string>, Scheduling> cases[] = {
      {{}, {19, kIdle}},
      {{"--pdb-priority", "idle"}, {19, kIdle}},
      {{"--pdb-priority", "low"}, {19, kOther}},
      {{"--pdb-priority", "normal"}, own}};
  for (const auto& c : cases) {
    // Named copies, not structured bindings: CAPTURE's lambda cannot take
    // those under clang 14.
    const std::vector<std::string>& more = c.first;
    const Scheduling& expected = c.second;
    CAPTURE(more);
    TempDir dir;
    // The 7-8 build: minutes, so it is surely running when looked at.
    ServerSpec spec{.args = {"--pdb-dir", dir.path()}};
    spec.args.insert(spec.args.end(), more.begin(), more.end());
    ServerProcess server(spec);
    // Logged once the priority is set.
    REQUIRE(server.wait_for_stderr("building the 4x4 7-8 pattern databases", 60s));
    const std::string log = server.stderr_text();
    CAPTURE(log);
    CHECK(log.find(more.empty() || more[1] == "idle"
                       ? "at the lowest priority (SCHED_IDLE, nice 19)"
                   : more[1] == "low" ? "at a low priority (nice 19, as the compute pool)"
                                      : "at the server's own priority;") != std::string::npos);
    const auto threads = threads_named(server, "eight-pdb-build");
    REQUIRE(!threads.empty());
    for (const Scheduling& t : threads) {
      CHECK(t.nice == expected.nice);
      CHECK(t.policy == expected.policy);
    }
    // The main thread keeps the server's own priority.
    CHECK(scheduling(server.pid(), server.pid()) == own);
    const ExitInfo e = server.stop(SIGTERM, 30s);
    CHECK(e.status == 0);
  }
}

TEST_CASE("--pdb-dir: a folder that cannot be written is logged and the server keeps serving") {
  TempDir dir;
  // Under a regular file: no user, root included, can create the folder.
  eight::test::write_file(dir.file("a-file"), {1, 2, 3});
  ServerProcess server(building_into(dir.file("a-file/pdb")));
  REQUIRE(server.wait_for_stderr("cannot build the 4x4 6-6-3 pattern databases", 60s));
  CHECK(server.stderr_text().find("cannot create the folder") != std::string::npos);
  CHECK(in_state(server, "failed"));
  auto r = server.client().Get("/solve?board=867254301");
  REQUIRE(r);
  CHECK(r->status == 200);
  const ExitInfo e = server.stop(SIGTERM);
  CHECK(e.status == 0);
}

TEST_CASE("without --pdb-dir nothing is built and /metrics says none") {
  ServerProcess server;
  CHECK(in_state(server, "none"));
  CHECK(server.stderr_text().find("pattern databases") == std::string::npos);
}

TEST_CASE("--pdb-dir naming the --tables folder is a usage error") {
  TempDir dir;
  eight::test::write_file(dir.file("eight.tbl"), eight::test::table_bytes());
  std::string err;
  const ExitInfo e = eight::test::run_to_exit(
      ServerSpec{.args = {"--tables", dir.path(), "--pdb-dir", dir.path(), "--port", "0"},
                 .default_args = false},
      err);
  CHECK(e.status == 2);
  CHECK(err.find("is the --tables folder") != std::string::npos);
}
