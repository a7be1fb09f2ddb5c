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

#include <atomic>
#include <memory>
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

// Holds the current table. get() and set() are safe from any thread at once;
// get() is lock-free on the reader's side apart from the shared_ptr count.
class TableSlot {
 public:
  TableSlot() = default;
  explicit TableSlot(std::shared_ptr<const Loaded> table) : table_(std::move(table)) {}

  // The current table, or null before one is set.
  std::shared_ptr<const Loaded> get() const { return table_.load(std::memory_order_acquire); }
  void set(std::shared_ptr<const Loaded> table) {
    table_.store(std::move(table), std::memory_order_release);
  }

  // Maps and verifies `path` (Loaded::open) and, only if it is sound, makes
  // it the current table; returns it. On an error the current table stays.
  // Requests keep running meanwhile. Safe from any thread; of overlapping
  // reloads, the last to finish wins.
  Result<std::shared_ptr<const Loaded>> reload(const std::string& path);

 private:
  std::atomic<std::shared_ptr<const Loaded>> table_;
};

}  // namespace eight::server
