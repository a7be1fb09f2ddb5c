// eight-server's options: command line first, then the environment (for
// containers), then defaults.
//
// Thread safety: pure functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "api/job.h"
#include "common/option_reader.h"
#include "eight/answer.h"
#include "eight/pattern_db.h"
#include "eight/result.h"
#include "eight/table_set.h"
#include "eight/tablegen.h"

namespace eight::server {

// The priority of the --pdb-dir build's threads (--pdb-priority, used by
// pdb_build.h), for the build thread and the workers it starts. kIdle (the
// default): SCHED_IDLE and nice 19, so it takes only CPU time nothing else
// of its scheduling group wants; a host busy at normal priority in the same
// group (no cgroup or session of the server's own) starves it, and the file
// is never built. kLow: nice 19, the compute pool's weight, so it always
// progresses but shares with 4x4 searches. kNormal: the server's own
// priority, the shortest time to ready.
enum class PdbPriority { kIdle, kLow, kNormal };

// The memory budget's default and bounds, in MiB (limits.h says why 16).
inline constexpr int kDefaultMemoryBudgetMib = 16;
inline constexpr int kMaxMemoryBudgetMib = 1 << 20;  // 1 TiB

struct Options {
  // The tables: one file, --table PATH ($EIGHT_TABLE), or every *.tbl file
  // of a folder, --tables DIR ($EIGHT_TABLES); never both (a usage error).
  // Neither: --table data/eight.tbl (as for `eight`). The command line
  // overrides the environment.
  std::string table;   // --table,   $EIGHT_TABLE; empty when tables is set
  std::string tables;  // --tables,  $EIGHT_TABLES

  std::string host;         // --host,    $EIGHT_HOST,    else 127.0.0.1
  int port = 8080;          // --port,    $EIGHT_PORT,    0 = any free port
  int threads = 0;          // --threads, $EIGHT_THREADS: I/O threads, else default_threads()
  int compute_threads = 0;  // --compute-threads, $EIGHT_COMPUTE_THREADS, else default_threads()
  int compute_queue = 0;    // --compute-queue, $EIGHT_COMPUTE_QUEUE, else kDefaultComputeQueue
  // --max-budget, $EIGHT_MAX_BUDGET: the most search nodes one request may
  // spend (budget=, a batch's "budget"), 0 to 500,000,000; 0 turns
  // searches (4x4 questions) off.
  std::uint64_t max_budget = kMaxSearchNodes;
  // --job-deadline, $EIGHT_JOB_DEADLINE: how long one request may work
  // once it runs (api/job.h), in seconds with up to three decimals.
  std::chrono::milliseconds job_deadline = kDefaultJobDeadline;
  // --queue-wait, $EIGHT_QUEUE_WAIT: seconds a long request may wait in the
  // compute pool's queue before it is answered 503 (Limits::queue_wait).
  int queue_wait_seconds = 5;
  // --client-header, $EIGHT_CLIENT_HEADER: the header a trusted reverse
  // proxy sets to the client's address; empty: the peer is the client.
  std::string client_header;
  // --idle-timeout, $EIGHT_IDLE_TIMEOUT: seconds an idle keep-alive
  // connection stays open (Limits::idle_timeout, default 75).
  int idle_timeout_seconds = 75;
  // --memory-budget, $EIGHT_MEMORY_BUDGET: MiB that request bodies and
  // answers waiting to be written may hold, over all connections
  // (Limits::memory_budget, default kDefaultMemoryBudgetMib).
  int memory_budget_mib = kDefaultMemoryBudgetMib;
  // --access-log-format, $EIGHT_ACCESS_LOG_FORMAT: "text" or "json" lines.
  bool access_log_json = false;
  bool quiet = false;    // --quiet,   $EIGHT_QUIET=1: no access log
  bool help = false;     // --help
  bool version = false;  // --version
  // Neither --table nor --tables (nor their variables) was given: table is
  // kDefaultTablePath, which the program replaces by
  // local_or_installed_table_path() (common/defaults.h), as `eight` does.
  bool table_defaulted = false;

  // /metrics on an address of its own: --metrics-port PORT
  // ($EIGHT_METRICS_PORT; 0 = any free port) on --metrics-host HOST
  // ($EIGHT_METRICS_HOST, else 127.0.0.1). When set, /metrics is answered
  // only there and the public port answers it 404. A host without a port
  // is a usage error.
  std::string metrics_host;
  std::optional<int> metrics_port;

  // --pdb-dir DIR ($EIGHT_PDB_DIR): a writable folder for the 4x4 and 2x8
  // pattern databases the server builds itself (pdb_build.h). At start the
  // sound files of DIR (eight-4x4-7-8.tbl, eight-2x8-7-8.tbl) are served
  // with the other tables; the server serves at once and builds the missing
  // ones in the background, switching each in when ready. Empty: nothing is
  // built. Not the --tables folder (main checks).
  std::string pdb_dir;
  // The 4x4 partition built into pdb_dir, and for which goals (their blank
  // cells): 7-8 for kFifteenGoalBlanks, the file `eight-tablegen --pdb 7-8`
  // writes; then, when pdb_two_by_eight, 2x8's 7-8 file. A test seam, not
  // in --help: --pdb-partition 6-6-3 builds the 6-6-3 databases of Korf's
  // goal alone (blank on cell 0) the same way, in seconds, into
  // DIR/eight-4x4-6-6-3.tbl, and nothing for 2x8; --pdb-partition 6-6-3,2x8
  // builds that file, then 2x8's first set of three (eight-2x8-6-6-3.tbl,
  // seconds) in place of its 7-8 file (pdb_files()).
  fifteen::Partition pdb_partition = fifteen::Partition::k78;
  std::vector<int> pdb_goal_blanks{std::begin(kFifteenGoalBlanks), std::end(kFifteenGoalBlanks)};
  bool pdb_two_by_eight = true;
  // --pdb-priority idle|low|normal ($EIGHT_PDB_PRIORITY): the build
  // thread's priority (pdb_build.h), idle unless told.
  PdbPriority pdb_priority = PdbPriority::kIdle;
  // A test seam, not in --help: --stop-compute-grace MS, how long a stop
  // waits for a computation told to stop before answering its request 503
  // without it (Limits::stop_compute_grace); unset, the default.
  std::optional<int> stop_compute_grace_ms;

  TableSource source() const {
    return tables.empty() ? TableSource{table, false} : TableSource{tables, true};
  }
};

// I/O threads, and compute-pool threads, when none are asked for: one per
// CPU the process may use (its affinity mask, and a cgroup CPU quota such as
// a container's CPU limit, rounded up). An I/O thread serves any number of
// connections, so more threads than CPUs only add context switches.
int default_threads();

inline constexpr int kMaxThreads = 4096;
// Requests that may wait for the compute pool before it answers 503: a
// second of work at ~50 ms per 10,000-board batch on one core.
inline constexpr int kDefaultComputeQueue = 64;
inline constexpr int kMaxComputeQueue = 1 << 20;
inline constexpr int kMaxIdleTimeoutSeconds = 3600;
inline constexpr int kMaxQueueWaitSeconds = 3600;

// Looks up an environment variable; nullopt when unset or empty.
using Getenv = std::function<std::optional<std::string>(const char* name)>;
std::optional<std::string> process_getenv(const char* name);

// Parses `args` (without the program name), read by Boost.Program_options
// (common/option_reader.h). Errors name the option or variable and the
// value at fault; an unknown option near a declared one comes with it as a
// suggestion ("--port" for --prot), which main() prints.
std::variant<Options, UsageError> parse_command_line(std::span<const std::string_view> args,
                                                     const Getenv& getenv = process_getenv);

// The same, the error as a kBadArgument Error (its message alone).
Result<Options> parse_options(std::span<const std::string_view> args,
                              const Getenv& getenv = process_getenv);

// The --help text.
extern const char* const kUsage;

}  // namespace eight::server
