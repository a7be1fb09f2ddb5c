// The 4x4 board's 7-8 pattern databases, built where the server runs
// (--pdb-dir DIR, issue 20): the default table's 6-6-3 databases leave the
// hardest 4x4 boards beyond the default search budget; the 7-8 ones answer
// each within a second, but are 865 MB and minutes of building, so they are
// neither shipped nor built by `make`.
//
// At start, a sound DIR/eight-4x4-7-8.tbl (the name and bytes of
// `eight-tablegen --pdb 7-8`) is served with the other tables. Otherwise the
// server serves at once with what it has while one thread, at the priority
// the operator picks (PdbPriority, options.h; by default the lowest,
// SCHED_IDLE and nice 19, so below the I/O threads and the compute pool),
// builds the file with write_table (eight/tablegen.h: DIR/*.tmp, fsynced,
// proved, renamed) and then adds it to the served set through
// TableSlot::add, the reload path SIGHUP takes: requests in flight keep
// their tables, and every later reload loads the file too. TableSet prefers
// the 4x4 databases with the most bytes, so 4x4 questions then use 7-8.
//
// Every step is logged; Metrics::set_pdb_build shows the state on /metrics.
// A file that does not prove sound is built again (its error logged), a
// folder that cannot be written is logged and nothing is built, and servers
// sharing DIR build one at a time (a lock file, DIR/.eight-4x4-7-8.lock): the
// second finds the first's file. The build cannot be cancelled: a server
// stopping while it runs ends the process without waiting for it (stop()).
//
// Thread safety: start() and stop() from one thread (main's).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "api/metrics.h"
#include "api/table_slot.h"
#include "eight/pattern_db.h"
#include "eight/table_set.h"
#include "options.h"

namespace eight::server {

// The file built into `dir` for `partition`: DIR/eight-4x4-7-8.tbl, the name
// `eight-tablegen --pdb 7-8` gives it.
std::string pdb_file(const std::string& dir, fifteen::Partition partition);

class PdbBuild {
 public:
  using Log = std::function<void(const std::string& line)>;

  // Nothing is read or built before found() and start(). `log` gets one
  // line per step, from main's thread and the build's. Sets `metrics`'s
  // state to kBuilding until found() or the build says otherwise.
  // The file holds `partition`'s databases for the goals of `goal_blanks`
  // (kFifteenGoalBlanks: every goal, as `eight-tablegen --pdb` writes).
  // The thread runs at `priority`.
  PdbBuild(std::string dir, fifteen::Partition partition, std::vector<int> goal_blanks,
           PdbPriority priority, Log log, Metrics& metrics);
  // REQUIRES: stop() returned true, or start() was never called.
  ~PdbBuild();
  PdbBuild(const PdbBuild&) = delete;
  PdbBuild& operator=(const PdbBuild&) = delete;

  // The file's path.
  const std::string& path() const { return path_; }

  // At start, before the tables are loaded: true when the file is there and
  // proves sound (serving_check()), to be loaded with the others (state
  // kReady); false when it must be built, having logged why when a file is
  // there but unsound.
  bool found();

  // Starts the build thread, which adds the built file to `slot` (with
  // `source`, TableSlot::add). `slot` and `source` must outlive the thread:
  // until stop() returns true, or the process ends. REQUIRES: found() was
  // false and start() not called before.
  void start(TableSlot& slot, const TableSource& source);

  // True while the build thread runs.
  bool running() const;

  // Waits up to `timeout` for the build thread to end and joins it: true.
  // False when it is still building: the thread is detached and the caller
  // must end the process without returning from main (std::_Exit), as it
  // uses main's objects; whatever it had written is a *.tmp file, which the
  // next start writes over.
  bool stop(std::chrono::milliseconds timeout);

 private:
  void run(TableSlot& slot, const TableSource& source);
  void build(TableSlot& slot, const TableSource& source);

  std::string dir_;
  fifteen::Partition partition_;
  std::vector<int> goal_blanks_;
  PdbPriority priority_;
  std::string path_;
  Log log_;
  Metrics& metrics_;

  mutable std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = true;  // guarded by mutex_: no thread, or it has finished
  std::thread thread_;
};

}  // namespace eight::server
