// The table the server answers from, and the slot that holds it.
//
// The table is an eight::Table (eight/table.h): mapped, fully proven
// (Check::kFull: the server can afford a few milliseconds at start and at
// each reload), with its solver and distance index. Requests take a
// std::shared_ptr<const Table> snapshot from the TableSlot and use only that
// for their whole life, including a /table download that outlives the
// handler; so a reload (SIGHUP) swaps the slot and the old mapping goes away
// when its last request finishes.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "eight/result.h"
#include "eight/table.h"

namespace eight::server {

// Maps `path` and proves it (Check::kFull), builds its distance index (for
// /random and /stats), so the first request finds everything ready. The
// error message names the file and says what is wrong with it.
Result<std::shared_ptr<const Table>> load_table(const std::string& path);

// The strong ETag of /table: the checksum's 16 hex digits in double quotes.
std::string etag_of(const Table& table);

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
  explicit TableSlot(std::shared_ptr<const Table> table) : table_(std::move(table)) {}

  // The current table, or null before one is set.
  std::shared_ptr<const Table> get() const {
    std::lock_guard lock(mutex_);
    return table_;
  }
  // Makes `table` current. The previous table is released after the lock,
  // so its unmapping (if this was its last reference) blocks no reader.
  void set(std::shared_ptr<const Table> table) {
    std::unique_lock lock(mutex_);
    table_.swap(table);
    lock.unlock();
  }

  // Loads `path` (load_table) and, only if it is sound, makes it the current
  // table; returns it. On an error the current table stays. Requests keep
  // running meanwhile. Safe from any thread; of overlapping reloads, the
  // last to finish wins.
  Result<std::shared_ptr<const Table>> reload(const std::string& path);

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const Table> table_;
};

}  // namespace eight::server
