// The table the server answers from, and the slot that holds it.
//
// A Loaded is one mapped, fully verified table plus everything derived from
// it once at load time (solver, standard-goal frame, ETag). It never changes
// after construction. Requests take a std::shared_ptr<const Loaded> snapshot
// from the TableSlot and use only that for their whole life, including a
// /table download that outlives the handler; so a reload (SIGHUP) swaps the
// slot atomically and the old mapping goes away when its last request
// finishes.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "eight/goal.h"
#include "eight/random.h"
#include "eight/result.h"
#include "eight/solver.h"
#include "eight/table.h"

namespace eight::server {

class Loaded {
 public:
  // Maps and verifies `path`; the error message names the file and says what
  // is wrong with it (from MappedTable::open).
  static Result<std::shared_ptr<const Loaded>> open(const std::string& path);

  // Wraps an already verified mapping.
  explicit Loaded(MappedTable table);
  // The solver points into table_: a Loaded stays where it was built.
  Loaded(const Loaded&) = delete;
  Loaded& operator=(const Loaded&) = delete;

  const MappedTable& table() const { return table_; }
  const TableView& view() const { return table_.view(); }
  const Solver& solver() const { return solver_; }
  // Positions grouped by distance, for /random and /stats (built at load).
  const DistanceIndex& index() const { return index_; }

  // The frame for `goal` (a valid board): the one built at load time for the
  // standard goal, else a new one (cheap: a lookup over 8 symmetries). Fails
  // with kNoSection when this table has no section that answers `goal`. The
  // one place that turns a goal into a frame, so every endpoint agrees.
  Result<GoalFrame> frame(const Board& goal) const;

  // "0123456789abcdef": the table checksum, 16 lowercase hex digits.
  const std::string& checksum_hex() const { return checksum_hex_; }
  // The strong ETag of /table: the checksum hex in double quotes.
  const std::string& etag() const { return etag_; }

 private:
  MappedTable table_;
  Solver solver_;
  DistanceIndex index_;
  std::optional<GoalFrame> standard_frame_;  // empty if no section answers it
  std::string checksum_hex_;
  std::string etag_;
};

// Holds the current table. get() and set() are safe from any thread at once.
//
// A mutex guards the pointer, held for the copy of a shared_ptr (an atomic
// increment). std::atomic<std::shared_ptr> would do the same with a spin
// lock in the pointer's low bit, but libstdc++ 12's load() releases that
// lock with a relaxed store after reading the pointer, so a concurrent
// store is not ordered after the read: a data race by the C++ memory model,
// which ThreadSanitizer reports as soon as a reload (SIGHUP) stores under
// load (google/sanitizers#1558). The mutex costs nothing measurable
// (bench/http).
class TableSlot {
 public:
  TableSlot() = default;
  explicit TableSlot(std::shared_ptr<const Loaded> table) : table_(std::move(table)) {}

  // The current table, or null before one is set.
  std::shared_ptr<const Loaded> get() const {
    std::lock_guard lock(mutex_);
    return table_;
  }
  // Makes `table` current. The previous table is released after the lock,
  // so its unmapping (if this was its last reference) blocks no reader.
  void set(std::shared_ptr<const Loaded> table) {
    std::unique_lock lock(mutex_);
    table_.swap(table);
    lock.unlock();
  }

  // Maps and verifies `path` (Loaded::open) and, only if it is sound, makes
  // it the current table; returns it. On an error the current table stays.
  // Requests keep running meanwhile. Safe from any thread; of overlapping
  // reloads, the last to finish wins.
  Result<std::shared_ptr<const Loaded>> reload(const std::string& path);

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const Loaded> table_;
};

}  // namespace eight::server
