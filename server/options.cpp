#include "options.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "common/defaults.h"
#include "common/option_reader.h"
#include "common/text.h"

namespace eight::server {

const char* const kUsage =
    "usage: eight-server [--table PATH | --tables DIR] [--host HOST] [--port PORT]\n"
    "                    [--threads N] [--compute-threads N] [--compute-queue N]\n"
    "                    [--max-budget N] [--job-deadline SECONDS] [--queue-wait SECONDS]\n"
    "                    [--client-header NAME] [--idle-timeout SECONDS] [--memory-budget MIB]\n"
    "                    [--access-log-format text|json] [--quiet]\n"
    "                    [--metrics-host HOST] [--metrics-port PORT] [--pdb-dir DIR]\n"
    "                    [--pdb-priority idle|low|normal]\n"
    "       eight-server --help | --version\n"
    "\n"
    "Serves the sliding-puzzle tables over HTTP: /solve (GET, or POST a batch), /distance, /hint,\n"
    "/random, /stats, /table, /healthz, /readyz, /metrics, /openapi.yaml; GET / lists them\n"
    "(and shows a playground in a browser). docs/api.md describes every endpoint.\n"
    "\n"
    "  --table PATH         the table file (env EIGHT_TABLE, default data/eight.tbl, else\n"
    "                       PREFIX/share/eight/eight.tbl for a program in PREFIX/bin)\n"
    "  --tables DIR         every *.tbl file in DIR instead, each answering its shapes\n"
    "                       (env EIGHT_TABLES; not with --table)\n"
    "  --host HOST          address to listen on (env EIGHT_HOST, default 127.0.0.1)\n"
    "  --port PORT          port, 0 for any free one (env EIGHT_PORT, default 8080)\n"
    "  --threads N          I/O threads, each serving any number of connections\n"
    "                       (env EIGHT_THREADS, default one per CPU the process may use)\n"
    "  --compute-threads N  threads for long requests: POST /solve batches\n"
    "                       (env EIGHT_COMPUTE_THREADS, default one per CPU)\n"
    "  --compute-queue N    long requests that may wait for a compute thread; more get 503\n"
    "                       (env EIGHT_COMPUTE_QUEUE, default 64; one client may hold an\n"
    "                       eighth of them, and run on all compute threads but one)\n"
    "  --max-budget N       the most search nodes one request may spend (budget=), 0 to\n"
    "                       500000000; 0 turns searches (4x4 questions) off\n"
    "                       (env EIGHT_MAX_BUDGET, default 500000000)\n"
    "  --job-deadline S     seconds one request may work once it runs (a search, a batch,\n"
    "                       draws), 0.01 to 3600, decimals allowed; a search stopped there\n"
    "                       is a 503 saying so (env EIGHT_JOB_DEADLINE, default 10)\n"
    "  --queue-wait S       seconds a long request may wait for a compute thread before\n"
    "                       it gets 503, 1 to 3600 (env EIGHT_QUEUE_WAIT, default 5)\n"
    "  --client-header NAME the header a trusted reverse proxy sets to the client's\n"
    "                       address (its last address counts), for each client's fair\n"
    "                       share of the compute pool; only behind such a proxy\n"
    "                       (env EIGHT_CLIENT_HEADER, default none: the peer address)\n"
    "  --idle-timeout S     seconds an idle keep-alive connection stays open, 1 to 3600\n"
    "                       (env EIGHT_IDLE_TIMEOUT, default 75)\n"
    "  --memory-budget MIB  MiB that request bodies arriving and answers waiting to be\n"
    "                       written may hold, over all connections; past it, new work gets\n"
    "                       503 with Retry-After, 1 to 1048576 (env EIGHT_MEMORY_BUDGET,\n"
    "                       default 16)\n"
    "  --access-log-format F  text or json (JSON lines) (env EIGHT_ACCESS_LOG_FORMAT,\n"
    "                       default text)\n"
    "  --metrics-port PORT  answer /metrics only on this port, 0 for any free one, and 404\n"
    "                       on the public port (env EIGHT_METRICS_PORT; default: /metrics\n"
    "                       on the public port)\n"
    "  --metrics-host HOST  address of the metrics port (env EIGHT_METRICS_HOST,\n"
    "                       default 127.0.0.1; needs --metrics-port)\n"
    "  --pdb-dir DIR        a writable folder for the 7-8 pattern databases of the 4x4\n"
    "                       board and of 2x8's: served from DIR/eight-4x4-7-8.tbl and\n"
    "                       DIR/eight-2x8-7-8.tbl when they are there and sound, else\n"
    "                       built there in the background at the lowest priority, one\n"
    "                       after the other (865 MB and 288 MB on disk, about 2.2 GB of\n"
    "                       memory at the peak, minutes of two cores) and each switched\n"
    "                       in when ready; not the --tables folder (env EIGHT_PDB_DIR,\n"
    "                       default none: nothing is built)\n"
    "  --pdb-priority P     the --pdb-dir build's priority: idle (SCHED_IDLE: only CPU time\n"
    "                       nothing else wants; a host kept busy at normal priority, outside\n"
    "                       a cgroup or session of the server's own, starves it), low (nice\n"
    "                       19, the compute pool's: it always progresses) or normal (the\n"
    "                       server's: soonest ready) (env EIGHT_PDB_PRIORITY, default idle)\n"
    "  --quiet              no access log on stderr (env EIGHT_QUIET=1)\n"
    "  --help               this text\n"
    "  --version            print the version and exit\n"
    "\n"
    "Options may also be written --name=value. SIGTERM or SIGINT stops the server;\n"
    "SIGHUP reloads the table file (or every file of DIR), switching only if all are sound.\n"
    "Handed a listening socket by systemd (LISTEN_FDS=1, eight-server.socket), it serves\n"
    "that socket and ignores --host and --port.\n"
    "Exit status: 0 stopped by a signal; 1 the listen loop failed; 2 usage error;\n"
    "3 a table is missing or bad (or DIR holds none); 4 cannot listen on HOST:PORT.\n";

namespace {

// The CPUs this process may run on (its affinity mask: taskset, a cpuset).
unsigned allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) {
    return std::max(1u, std::thread::hardware_concurrency());
  }
  return static_cast<unsigned>(CPU_COUNT(&set));
}

// Whole CPUs (rounded up) that `quota` microseconds per `period` allow; 0
// for no limit.
unsigned quota_cpus(long long quota, long long period) {
  if (quota <= 0 || period <= 0) return 0;
  return static_cast<unsigned>((quota + period - 1) / period);
}

// The CPU time a cgroup quota allows this process, in whole CPUs rounded
// up; 0 when nothing limits it. A container with a CPU limit of 1 on a
// 16-core node must not start 16 threads that the quota then throttles.
// cgroup v2 ("cpu.max": "quota period" or "max period", on the process's
// cgroup and each parent), else v1 (cpu.cfs_quota_us, -1 for none).
unsigned cpu_quota() {
  std::ifstream self("/proc/self/cgroup");
  std::string line, v2_path, v1_path;
  while (std::getline(self, line)) {
    if (line.rfind("0::", 0) == 0) v2_path = line.substr(3);
    const auto colon = line.find(':');
    const auto controllers = line.substr(colon + 1, line.find(':', colon + 1) - colon - 1);
    if (controllers == "cpu" || controllers == "cpu,cpuacct" || controllers == "cpuacct,cpu") {
      v1_path = line.substr(line.find(':', colon + 1) + 1);
    }
  }
  unsigned limit = 0;
  const auto take = [&limit](unsigned cpus) {
    if (cpus > 0) limit = limit == 0 ? cpus : std::min(limit, cpus);
  };
  for (std::string path = v2_path; !path.empty();) {
    std::ifstream max("/sys/fs/cgroup" + (path == "/" ? std::string() : path) + "/cpu.max");
    std::string quota;
    long long period = 0;
    if (max >> quota >> period && quota != "max")
      take(quota_cpus(std::atoll(quota.c_str()), period));
    if (path == "/") break;
    const auto slash = path.find_last_of('/');
    path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
  }
  if (!v1_path.empty()) {
    const std::string dir = "/sys/fs/cgroup/cpu" + (v1_path == "/" ? std::string() : v1_path);
    long long quota = -1, period = 0;
    std::ifstream(dir + "/cpu.cfs_quota_us") >> quota;
    std::ifstream(dir + "/cpu.cfs_period_us") >> period;
    take(quota_cpus(quota, period));
  }
  return limit;
}

}  // namespace

int default_threads() {
  unsigned n = allowed_cpus();
  if (const unsigned quota = cpu_quota(); quota > 0) n = std::min(n, quota);
  return static_cast<int>(std::clamp<unsigned>(n, 1, kMaxThreads));
}

std::optional<std::string> process_getenv(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

namespace {

Error bad(std::string message) {
  return make_error(ErrorCode::kBadArgument, std::move(message));
}

std::optional<int> to_int(std::string_view s, int min, int max) {
  const auto v = parse_decimal(s);
  if (!v || *v < static_cast<std::uint64_t>(min) || *v > static_cast<std::uint64_t>(max)) {
    return std::nullopt;
  }
  return static_cast<int>(*v);
}

// A whole number from `min` to `max` for option `where`, else the error
// "WHERE: 'VALUE' is not WHAT (MIN to MAX)".
Result<int> in_range(std::string_view where, std::string_view value, int min, int max,
                     std::string_view what) {
  if (auto v = to_int(value, min, max)) return *v;
  std::string message(where);  // appended: GCC 12 warns (-Wrestrict) on "'" + s + "'"
  message.append(": '").append(value).append("' is not ").append(what);
  message.append(" (" + std::to_string(min) + " to " + std::to_string(max) + ")");
  return bad(std::move(message));
}

// Seconds with up to three decimals ("10", "0.2", "2.5") as milliseconds.
std::optional<std::chrono::milliseconds> to_milliseconds(std::string_view s) {
  const std::size_t dot = s.find('.');
  const std::string_view whole = s.substr(0, dot);
  const auto seconds = parse_decimal(whole);
  if (!seconds || *seconds > 1'000'000) return std::nullopt;
  std::uint64_t ms = *seconds * 1000;
  if (dot != std::string_view::npos) {
    const std::string_view frac = s.substr(dot + 1);
    if (frac.empty() || frac.size() > 3) return std::nullopt;
    const auto digits = parse_decimal(frac);
    if (!digits) return std::nullopt;
    std::uint64_t scaled = *digits;
    for (std::size_t i = frac.size(); i < 3; ++i) scaled *= 10;
    ms += scaled;
  }
  return std::chrono::milliseconds(ms);
}

std::optional<bool> to_bool(std::string_view s) {
  if (s == "1" || s == "true" || s == "yes" || s == "on") return true;
  if (s == "0" || s == "false" || s == "no" || s == "off") return false;
  return std::nullopt;
}

// Applies one option value; `where` names its origin in errors
// ("--port", "EIGHT_PORT").
std::optional<Error> apply(Options& o, std::string_view name, std::string_view value,
                           std::string_view where) {
  std::string quoted;  // built by appending: GCC 12 warns (-Wrestrict) on "'" + s + "'"
  quoted.reserve(value.size() + 2);
  quoted += '\'';
  quoted.append(value);
  quoted += '\'';
  if (name == "table") {
    if (value.empty()) return bad(std::string(where) + " needs a path");
    o.table = value;
  } else if (name == "tables") {
    if (value.empty()) return bad(std::string(where) + " needs a folder");
    o.tables = value;
  } else if (name == "host") {
    if (value.empty()) return bad(std::string(where) + " needs an address");
    o.host = value;
  } else if (name == "port") {
    auto v = in_range(where, value, 0, 65535, "a port number");
    if (!v) return v.error();
    o.port = *v;
  } else if (name == "threads" || name == "compute-threads") {
    auto v = in_range(where, value, 1, kMaxThreads, "a thread count");
    if (!v) return v.error();
    (name == "threads" ? o.threads : o.compute_threads) = *v;
  } else if (name == "compute-queue") {
    auto v = in_range(where, value, 1, kMaxComputeQueue, "a queue length");
    if (!v) return v.error();
    o.compute_queue = *v;
  } else if (name == "metrics-host") {
    if (value.empty()) return bad(std::string(where) + " needs an address");
    o.metrics_host = value;
  } else if (name == "metrics-port") {
    auto v = in_range(where, value, 0, 65535, "a port number");
    if (!v) return v.error();
    o.metrics_port = *v;
  } else if (name == "max-budget") {
    const auto v = parse_decimal(value);
    if (!v || *v > kMaxSearchNodes) {
      return bad(std::string(where) + ": " + quoted + " is not a search budget (0 to " +
                 std::to_string(kMaxSearchNodes) + " nodes; 0 turns searches off)");
    }
    o.max_budget = *v;
  } else if (name == "client-header") {
    // A header name is a token (RFC 9110 5.1).
    const bool token =
        !value.empty() && value.size() <= 64 && std::all_of(value.begin(), value.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '_';
        });
    if (!token) {
      return bad(std::string(where) + ": " + quoted +
                 " is not a header name (letters, digits, '-' and '_')");
    }
    o.client_header = value;
  } else if (name == "job-deadline") {
    const auto v = to_milliseconds(value);
    if (!v || *v < kMinJobDeadline || *v > kMaxJobDeadline) {
      return bad(std::string(where) + ": " + quoted + " is not a number of seconds (" +
                 describe_seconds(kMinJobDeadline) + " to " + describe_seconds(kMaxJobDeadline) +
                 ", up to three decimals)");
    }
    o.job_deadline = *v;
  } else if (name == "queue-wait") {
    auto v = in_range(where, value, 1, kMaxQueueWaitSeconds, "a number of seconds");
    if (!v) return v.error();
    o.queue_wait_seconds = *v;
  } else if (name == "memory-budget") {
    auto v = in_range(where, value, 1, kMaxMemoryBudgetMib, "a number of MiB");
    if (!v) return v.error();
    o.memory_budget_mib = *v;
  } else if (name == "idle-timeout") {
    auto v = in_range(where, value, 1, kMaxIdleTimeoutSeconds, "a number of seconds");
    if (!v) return v.error();
    o.idle_timeout_seconds = *v;
  } else if (name == "access-log-format") {
    if (value != "text" && value != "json") {
      return bad(std::string(where) + ": " + quoted +
                 " is not an access log format (text or json)");
    }
    o.access_log_json = value == "json";
  } else if (name == "pdb-dir") {
    if (value.empty()) return bad(std::string(where) + " needs a folder");
    o.pdb_dir = value;
  } else if (name == "pdb-partition") {
    if (value == "7-8") {
      o.pdb_partition = fifteen::Partition::k78;
      o.pdb_goal_blanks = {std::begin(kFifteenGoalBlanks), std::end(kFifteenGoalBlanks)};
      o.pdb_two_by_eight = true;
    } else if (value == "6-6-3" || value == "6-6-3,2x8") {
      o.pdb_partition = fifteen::Partition::k663;
      o.pdb_goal_blanks = {0};
      o.pdb_two_by_eight = value != "6-6-3";
    } else {
      return bad(std::string(where) + ": " + quoted +
                 " is not a partition (7-8, 6-6-3 or 6-6-3,2x8)");
    }
  } else if (name == "stop-compute-grace") {
    auto v = in_range(where, value, 0, 60000, "a time in milliseconds");
    if (!v) return v.error();
    o.stop_compute_grace_ms = *v;
  } else if (name == "pdb-priority") {
    if (value == "idle") {
      o.pdb_priority = PdbPriority::kIdle;
    } else if (value == "low") {
      o.pdb_priority = PdbPriority::kLow;
    } else if (value == "normal") {
      o.pdb_priority = PdbPriority::kNormal;
    } else {
      return bad(std::string(where) + ": " + quoted + " is not a priority (idle, low or normal)");
    }
  } else if (name == "quiet") {
    auto v = to_bool(value);
    if (!v) return bad(std::string(where) + ": " + quoted + " is not 1/0, true/false or yes/no");
    o.quiet = *v;
  }
  return std::nullopt;
}

// The command line's options, as --help lists them, and the test seams
// that it does not (--pdb-partition, --stop-compute-grace: options.h).
const po::options_description& declared() {
  static const po::options_description options = [] {
    po::options_description d;
    for (const char* name : {"table", "tables", "host", "port", "threads", "compute-threads",
                             "compute-queue", "max-budget", "queue-wait", "job-deadline",
                             "client-header", "idle-timeout", "access-log-format", "metrics-host",
                             "metrics-port", "pdb-dir", "pdb-priority", "memory-budget"}) {
      d.add_options()(name, po::value<std::string>());
    }
    d.add_options()("quiet,q", "")("help,h", "")("version", "");
    return d;
  }();
  return options;
}

const po::options_description& hidden() {
  static const po::options_description options = [] {
    po::options_description d;
    d.add_options()("pdb-partition", po::value<std::string>());
    d.add_options()("stop-compute-grace", po::value<std::string>());
    return d;
  }();
  return options;
}

}  // namespace

std::variant<Options, UsageError> parse_command_line(std::span<const std::string_view> args,
                                                     const Getenv& getenv) {
  Options o;
  o.host = "127.0.0.1";
  o.threads = default_threads();
  o.compute_threads = default_threads();
  o.compute_queue = kDefaultComputeQueue;
  // Environment first, so the command line overrides it.
  constexpr std::pair<const char*, std::string_view> kEnv[] = {
      {"EIGHT_TABLE", "table"},
      {"EIGHT_TABLES", "tables"},
      {"EIGHT_HOST", "host"},
      {"EIGHT_PORT", "port"},
      {"EIGHT_THREADS", "threads"},
      {"EIGHT_COMPUTE_THREADS", "compute-threads"},
      {"EIGHT_COMPUTE_QUEUE", "compute-queue"},
      {"EIGHT_MAX_BUDGET", "max-budget"},
      {"EIGHT_QUEUE_WAIT", "queue-wait"},
      {"EIGHT_JOB_DEADLINE", "job-deadline"},
      {"EIGHT_CLIENT_HEADER", "client-header"},
      {"EIGHT_IDLE_TIMEOUT", "idle-timeout"},
      {"EIGHT_MEMORY_BUDGET", "memory-budget"},
      {"EIGHT_ACCESS_LOG_FORMAT", "access-log-format"},
      {"EIGHT_QUIET", "quiet"},
      {"EIGHT_METRICS_HOST", "metrics-host"},
      {"EIGHT_METRICS_PORT", "metrics-port"},
      {"EIGHT_PDB_DIR", "pdb-dir"},
      {"EIGHT_PDB_PRIORITY", "pdb-priority"}};
  for (const auto& [var, name] : kEnv) {
    if (auto v = getenv(var)) {
      if (auto e = apply(o, name, *v, var)) return UsageError{std::move(e->message), {}, {}};
    }
  }
  if (!o.table.empty() && !o.tables.empty()) {
    return UsageError{
        "EIGHT_TABLE and EIGHT_TABLES are both set: give one file or one folder", {}, {}};
  }
  const std::vector<std::string> tokens(args.begin(), args.end());
  auto read = eight::read_options(tokens, declared(), false, &hidden());
  if (auto* e = std::get_if<UsageError>(&read)) return std::move(*e);
  bool table_given = false;
  bool tables_given = false;
  for (const GivenOption& given : std::get<std::vector<GivenOption>>(read)) {
    const std::string& name = given.name;
    if (name == "help") {
      o.help = true;
    } else if (name == "version") {
      o.version = true;
    } else if (name == "quiet") {
      o.quiet = true;
    } else if (auto e = apply(o, name, given.value.value_or(""), "--" + name)) {
      return UsageError{std::move(e->message), {}, {}};
    }
    table_given = table_given || name == "table";
    tables_given = tables_given || name == "tables";
  }
  if (table_given && tables_given) {
    return UsageError{"--table and --tables are both given: give one file or one folder", {}, {}};
  }
  // The command line overrides the environment, either for the other.
  if (table_given) o.tables.clear();
  if (tables_given) o.table.clear();
  if (o.table.empty() && o.tables.empty()) {
    o.table = kDefaultTablePath;
    o.table_defaulted = true;
  }
  // A metrics host alone would silently serve /metrics on the public port.
  if (!o.metrics_host.empty() && !o.metrics_port) {
    return UsageError{
        "--metrics-host (EIGHT_METRICS_HOST) needs --metrics-port (EIGHT_METRICS_PORT)", {}, {}};
  }
  if (o.metrics_port && o.metrics_host.empty()) o.metrics_host = "127.0.0.1";
  return o;
}

Result<Options> parse_options(std::span<const std::string_view> args, const Getenv& getenv) {
  auto read = parse_command_line(args, getenv);
  if (auto* e = std::get_if<UsageError>(&read)) return bad(std::move(e->message));
  return std::get<Options>(std::move(read));
}

}  // namespace eight::server
