// The pattern databases a server builds where it runs (--pdb-dir DIR,
// issues 20 and 39): the default table's databases leave the hardest 4x4
// boards beyond the default search budget and some far 2x8 boards unproven;
// the 4x4 board's 7-8 databases answer each 4x4 board within a second, and
// 2x8's 7-8 ones prove every 2x8 (and 8x2) board of a corner-blank goal in
// well under a second, but they are 865 MB and 288 MB and minutes of
// building, so they are neither shipped nor built by `make`.
//
// At start, each sound file of the list (PdbFile: DIR/eight-4x4-7-8.tbl,
// then DIR/eight-2x8-7-8.tbl, the names and bytes of `eight-tablegen --pdb
// 7-8` and `--pdb 2x8-7-8`) is served with the other tables. The server
// serves at once with what it has while one thread, at the priority the
// operator picks (PdbPriority, options.h; by default the lowest, SCHED_IDLE
// and nice 19, so below the I/O threads and the compute pool), builds the
// missing files one after the other, each with write_table
// (eight/tablegen.h: DIR/*.tmp, fsynced, proved, renamed), and adds each to
// the served set as soon as it is written, through TableSlot::add, the
// reload path SIGHUP takes: requests in flight keep their tables, and every
// later reload loads the file too. TableSet prefers the databases with the
// most bytes, so 4x4 and 2x8 questions then use the 7-8 ones.
//
// Every step is logged; Metrics::set_pdb_build shows the state on /metrics
// (ready once every file is served, failed when one could not be). A file
// that does not prove sound is built again (its error logged), a folder that
// cannot be written is logged and nothing is built, and servers sharing DIR
// build each file one at a time (a lock file a file, DIR/.eight-4x4-7-8.lock
// and DIR/.eight-2x8-7-8.lock): the second finds the first's file. The build
// cannot be cancelled: a server stopping while it runs ends the process
// without waiting for it (stop()).
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
#include "eight/tablegen.h"
#include "options.h"

namespace eight::server {

// One file the server builds into --pdb-dir.
struct PdbFile {
  std::string name;      // its name in the folder: "eight-4x4-7-8.tbl"
  std::string what;      // how the log names it: "the 4x4 7-8 pattern databases"
  std::string users;     // whose answers use it: "4x4 questions"
  std::string tablegen;  // eight-tablegen's arguments for the same bytes: "--pdb 7-8"
  std::vector<SectionSpec> sections;
};

// The files of `options`' --pdb-dir, in the order they are built: the 4x4
// databases of options.pdb_partition for options.pdb_goal_blanks
// (eight-4x4-7-8.tbl, as `eight-tablegen --pdb 7-8`), then, when
// options.pdb_two_by_eight, 2x8's standard key's 7-8 databases
// (eight-2x8-7-8.tbl, as `eight-tablegen --pdb 2x8-7-8`; with the 6-6-3
// test seam, that key's first set of three, eight-2x8-6-6-3.tbl, seconds).
std::vector<PdbFile> pdb_files(const Options& options);

class PdbBuild {
 public:
  using Log = std::function<void(const std::string& line)>;

  // Nothing is read or built before found() and start(). `log` gets one
  // line per step, from main's thread and the build's. Sets `metrics`'s
  // state to kBuilding until found() or the build says otherwise. The
  // thread runs at `priority`. REQUIRES: !files.empty().
  PdbBuild(std::string dir, std::vector<PdbFile> files, PdbPriority priority, Log log,
           Metrics& metrics);
  // REQUIRES: stop() returned true, or start() was never called.
  ~PdbBuild();
  PdbBuild(const PdbBuild&) = delete;
  PdbBuild& operator=(const PdbBuild&) = delete;

  // At start, before the tables are loaded: the paths of the files that are
  // there and prove sound (serving_check()), to be loaded with the others
  // (every file: state kReady); having logged why for each file that is
  // there but unsound. The others are missing(), to be built.
  std::vector<std::string> found();
  // After found(): true when a file must be built.
  bool missing() const { return !to_build_.empty(); }

  // Starts the build thread, which builds the missing files in order and
  // adds each to `slot` (with `source`, TableSlot::add) once written.
  // `slot` and `source` must outlive the thread: until stop() returns true,
  // or the process ends. REQUIRES: found() was called, missing(), and
  // start() not called before.
  void start(TableSlot& slot, const TableSource& source);

  // True while the build thread runs.
  bool running() const;

  // Waits up to `timeout` for the build thread to end and joins it: true.
  // False when it is still building: the thread is detached and the caller
  // must end the process without returning from main (std::_Exit), as it
  // uses main's objects; whatever it had written is a *.tmp file, which the
  // next start writes over.
  bool stop(std::chrono::milliseconds timeout);

  // The folder's path of `file`.
  std::string path(const PdbFile& file) const;

 private:
  void run(TableSlot& slot, const TableSource& source);
  // Builds one file and serves it: false when it could not (logged).
  // `completes`: the last file to build, every one before it served, so
  // that serving it makes the state kReady (set before the line is logged).
  bool build(const PdbFile& file, const std::string& refused, bool completes, TableSlot& slot,
             const TableSource& source);
  // True when the file at `path` proves sound, else false (logged when it
  // is there).
  bool sound(const std::string& path);

  std::string dir_;
  std::vector<PdbFile> files_;
  std::vector<const PdbFile*> to_build_;  // into files_, after found()
  PdbPriority priority_;
  Log log_;
  Metrics& metrics_;

  mutable std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = true;  // guarded by mutex_: no thread, or it has finished
  std::thread thread_;
};

}  // namespace eight::server
