#include "pdb_build.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <span>
#include <system_error>

#include "common/text.h"
#include "eight/table.h"
#include "eight/tablegen.h"

namespace eight::server {
namespace {

using Clock = std::chrono::steady_clock;

std::string seconds_since(Clock::time_point start) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s",
                std::chrono::duration<double>(Clock::now() - start).count());
  return text;
}

// Lowers this thread to `priority`, for itself and the workers it starts
// (Linux threads inherit both the nice value and the policy): kIdle is
// SCHED_IDLE, which runs only when nothing else of the scheduling group
// wants the CPU, with nice 19 as its weight if SCHED_IDLE is refused; kLow
// is nice 19 alone; kNormal changes nothing. Neither needs a privilege; a
// sandbox may still refuse them (systemd's SystemCallFilter=~@resources):
// then the build runs at the server's priority, and the returned text says
// so. Empty when every change was made.
std::string lower_priority(PdbPriority priority) {
  if (priority == PdbPriority::kNormal) return {};
  std::string refused;
  if (::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19) != 0) {
    refused += std::string("nice 19: ") + std::strerror(errno);
  }
  if (priority == PdbPriority::kIdle) {
    sched_param param{};
    if (::sched_setscheduler(0, SCHED_IDLE, &param) != 0) {
      if (!refused.empty()) refused += ", ";
      refused += std::string("SCHED_IDLE: ") + std::strerror(errno);
    }
  }
  return refused;
}

// How the log says `priority`.
std::string priority_words(PdbPriority priority) {
  switch (priority) {
    case PdbPriority::kIdle:
      return "the lowest priority (SCHED_IDLE, nice 19)";
    case PdbPriority::kLow:
      return "a low priority (nice 19, as the compute pool)";
    case PdbPriority::kNormal:
      return "the server's own priority";
  }
  return {};
}

// The memory the build needs at its peak: the file's bytes (write_table
// holds them all) and the largest database's search (1.75 bytes a
// placement, eight/pattern_db.h).
std::uint64_t build_bytes(std::span<const SectionSpec> sections) {
  std::uint64_t file = 0;
  std::uint64_t search = 0;
  for (const SectionSpec& s : sections) {
    const int k = fifteen::group_size(s.group);
    // pattern_db_size() and placement_count() count 16 cells: 4x4's and 2x8's.
    file += fifteen::pattern_db_size(k);
    search = std::max(search, fifteen::placement_count(k) * 7 / 4);
  }
  return file + search;
}

// A number from the first line of `path`; nullopt when it cannot be read
// or says "max" (no limit).
std::optional<std::uint64_t> read_limit(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return std::nullopt;
  const auto v = parse_decimal(word);
  return v;
}

// The memory this process's cgroup allows, in bytes: the smallest
// memory.max from its cgroup up (v2), else memory.limit_in_bytes (v1; huge
// when unlimited); nullopt when nothing limits it. A container's memory
// limit is one: a build beyond it would have the kernel kill the server.
std::optional<std::uint64_t> memory_limit() {
  std::ifstream self("/proc/self/cgroup");
  std::string line, v2_path, v1_path;
  while (std::getline(self, line)) {
    if (line.rfind("0::", 0) == 0) v2_path = line.substr(3);
    const auto colon = line.find(':');
    const auto second = line.find(':', colon + 1);
    if (colon == std::string::npos || second == std::string::npos) continue;
    if (line.substr(colon + 1, second - colon - 1) == "memory") v1_path = line.substr(second + 1);
  }
  std::optional<std::uint64_t> limit;
  const auto take = [&limit](std::optional<std::uint64_t> v) {
    if (v && (!limit || *v < *limit)) limit = v;
  };
  for (std::string path = v2_path; !path.empty();) {
    take(read_limit("/sys/fs/cgroup" + (path == "/" ? std::string() : path) + "/memory.max"));
    if (path == "/") break;
    const auto slash = path.find_last_of('/');
    path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
  }
  if (!v1_path.empty()) {
    auto v1 = read_limit("/sys/fs/cgroup/memory" + (v1_path == "/" ? std::string() : v1_path) +
                         "/memory.limit_in_bytes");
    if (v1 && *v1 < (std::uint64_t{1} << 60)) take(v1);  // unlimited reads as ~2^63
  }
  return limit;
}

// This process's resident memory now, in bytes (0 when unknown).
std::uint64_t resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  std::uint64_t kib = 0;
  while (status >> key) {
    if (key == "VmRSS:") {
      status >> kib;
      break;
    }
    status.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return kib * 1024;
}

std::string megabytes(std::uint64_t bytes) {
  return std::to_string((bytes + 500'000) / 1'000'000) + " MB";
}

}  // namespace

std::vector<PdbFile> pdb_files(const Options& options) {
  const std::string partition(fifteen::partition_name(options.pdb_partition));
  std::vector<PdbFile> files;
  files.push_back({"eight-4x4-" + partition + ".tbl", "the 4x4 " + partition + " pattern databases",
                   "4x4 questions", "--pdb " + partition,
                   pattern_sections(options.pdb_partition, options.pdb_goal_blanks)});
  if (options.pdb_two_by_eight) {
    if (options.pdb_partition == fifteen::Partition::k78) {
      files.push_back({"eight-2x8-7-8.tbl", "the 2x8 7-8 pattern databases",
                       "2x8 and 8x2 questions", "--pdb 2x8-7-8", two_by_eight_78_sections()});
    } else {
      // The test seam: 2x8's first set of three, seconds to build.
      files.push_back(
          {"eight-2x8-6-6-3.tbl", "the 2x8 6-6-3 pattern databases", "2x8 and 8x2 questions", "",
           pattern_set_sections(fifteen::pattern_set(Shape{2, 8}, kStandardTwoByEightKey, 0))});
    }
  }
  return files;
}

PdbBuild::PdbBuild(std::string dir, std::vector<PdbFile> files, PdbPriority priority, Log log,
                   Metrics& metrics)
    : dir_(std::move(dir)),
      files_(std::move(files)),
      priority_(priority),
      log_(std::move(log)),
      metrics_(metrics) {
  assert(!files_.empty());
  metrics_.set_pdb_build(Metrics::PdbBuild::kBuilding);
}

PdbBuild::~PdbBuild() {
  if (thread_.joinable()) thread_.join();  // stop() returned true: it has ended
}

std::string PdbBuild::path(const PdbFile& file) const {
  return (std::filesystem::path(dir_) / file.name).string();
}

bool PdbBuild::sound(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return false;
  auto table = Table::open(path, serving_check());
  if (!table.ok()) {
    log_(path + " does not prove sound, so it is built again: " + table.error().message);
    return false;
  }
  return true;
}

std::vector<std::string> PdbBuild::found() {
  std::vector<std::string> paths;
  to_build_.clear();
  for (const PdbFile& file : files_) {
    if (sound(path(file))) {
      paths.push_back(path(file));
    } else {
      to_build_.push_back(&file);
    }
  }
  if (to_build_.empty()) metrics_.set_pdb_build(Metrics::PdbBuild::kReady);
  return paths;
}

void PdbBuild::start(TableSlot& slot, const TableSource& source) {
  assert(!to_build_.empty());
  {
    std::lock_guard lock(mutex_);
    done_ = false;
  }
  thread_ = std::thread([this, &slot, &source] {
    // Named, so an operator (top -H) and the tests can tell it apart.
    ::pthread_setname_np(::pthread_self(), "eight-pdb-build");
    run(slot, source);
    std::lock_guard lock(mutex_);
    done_ = true;
    done_cv_.notify_all();
  });
}

bool PdbBuild::running() const {
  std::lock_guard lock(mutex_);
  return !done_;
}

bool PdbBuild::stop(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!done_cv_.wait_for(lock, timeout, [this] { return done_; })) {
    thread_.detach();
    return false;
  }
  lock.unlock();
  if (thread_.joinable()) thread_.join();
  return true;
}

void PdbBuild::run(TableSlot& slot, const TableSource& source) {
  const std::string refused = lower_priority(priority_);
  bool all = true;
  for (std::size_t i = 0; i < to_build_.size(); ++i) {
    const bool last = i + 1 == to_build_.size();
    all = build(*to_build_[i], refused, last && all, slot, source) && all;
  }
  if (!all) metrics_.set_pdb_build(Metrics::PdbBuild::kFailed);
}

bool PdbBuild::build(const PdbFile& file, const std::string& refused, bool completes,
                     TableSlot& slot, const TableSource& source) {
  const std::string file_path = path(file);
  const std::string what = file.what + " (" + file_path + ")";
  const auto fail = [&](const std::string& why) {
    // Failed before the line, which tests wait for; a later file's success
    // does not make the build whole again (run()).
    metrics_.set_pdb_build(Metrics::PdbBuild::kFailed);
    log_("cannot build " + what + ": " + why + "; serving without them");
    return false;
  };
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return fail(dir_ + ": cannot create the folder: " + ec.message());
  if (::access(dir_.c_str(), W_OK | X_OK) != 0) {
    return fail(dir_ + ": the folder is not writable: " + std::strerror(errno));
  }
  // One builder per file and folder: a server sharing it waits here, then
  // finds the file the other built.
  // DIR/.eight-4x4-7-8.lock for eight-4x4-7-8.tbl (appended: GCC 12's
  // -Wrestrict misreads "." + a substring).
  std::string lock_name(".");
  lock_name.append(std::filesystem::path(file.name).stem().string()).append(".lock");
  const std::string lock_path = (std::filesystem::path(dir_) / lock_name).string();
  const int lock_fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd < 0) return fail(lock_path + ": cannot open: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }  // releases the lock
  } closer{lock_fd};
  if (::flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
    log_("another process is building " + file_path + " (it holds " + lock_path +
         "); waiting for it");
    while (::flock(lock_fd, LOCK_EX) != 0) {
      if (errno != EINTR) return fail(lock_path + ": cannot lock: " + std::strerror(errno));
    }
    if (sound(file_path)) {
      auto added = slot.add(source, file_path);
      if (!added.ok()) return fail(added.error().message);
      if (completes) metrics_.set_pdb_build(Metrics::PdbBuild::kReady);
      log_("serving " + what + ", built by another process");
      return true;
    }
  }
  // Beyond a memory limit the kernel would kill the whole server.
  const std::uint64_t need = build_bytes(file.sections);
  if (const auto limit = memory_limit(); limit && resident_bytes() + need > *limit) {
    return fail("it needs about " + megabytes(need) + " of memory beside the server's " +
                megabytes(resident_bytes()) + ", and the memory limit (cgroup) is " +
                megabytes(*limit) + "; raise the limit, or build the file elsewhere " +
                "(`eight-tablegen " + file.tablegen + " --out " + file_path + "`) and restart");
  }
  log_("building " + what + " in the background" +
       (refused.empty() ? ", at " + priority_words(priority_)
                        : ", at the server's own priority (" + priority_words(priority_) +
                              " was refused: " + refused + ")") +
       "; " + file.users + " use the tables served until then");
  const auto start = Clock::now();
  // One line as each database begins (the sections are built one at a time,
  // the progress called on this thread).
  std::size_t reported = file.sections.size();
  const TableProgress progress = [&](std::size_t section, int, std::uint64_t) {
    if (section == reported) return;
    reported = section;
    log_("building " + file_path + ": pattern database " + std::to_string(section + 1) + " of " +
         std::to_string(file.sections.size()) + " (" + seconds_since(start) + ")");
  };
  const Status written = write_table(file_path, file.sections, progress);
  if (!written.ok()) return fail(written.error().message);
  log_("built " + file_path + " in " + seconds_since(start));
  auto added = slot.add(source, file_path);
  if (!added.ok()) return fail("built, but not served: " + added.error().message);
  // Ready before the line, which tests wait for.
  if (completes) metrics_.set_pdb_build(Metrics::PdbBuild::kReady);
  log_("serving " + what + " beside the other tables: " + file.users + " use them from now on");
  return true;
}

}  // namespace eight::server
