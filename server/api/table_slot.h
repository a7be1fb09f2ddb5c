// The tables the server answers from, and the slot that holds them.
//
// The tables are one eight::TableSet (eight/table_set.h): one file (--table)
// or every table file of a folder (--tables), each read into the server's
// own memory (Table::open, so nothing done to a file later reaches the
// answers or /table's bytes), checked at
// serving_check() and with its distance index built. Requests take a
// std::shared_ptr<const TableSet> snapshot from the TableSlot and use only
// that for their whole life, including a /table download that outlives the
// handler; so a reload (SIGHUP) swaps the slot and the old tables go away
// when their last request finishes.
//
// A reload that fails because a file the server serves was changed in place
// (the path still names the file read, and it is no longer a sound table:
// zeroed, truncated, copied over with other bytes) stops serving: the slot
// holds no tables, table-dependent requests get 503 table-unavailable and
// /readyz is not ready, until a reload finds every file sound. A reload
// that fails for a file renamed over the path, or deleted, keeps the
// current tables: the files they were read from are intact.
#pragma once

#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "eight/result.h"
#include "eight/table.h"
#include "eight/table_set.h"

namespace eight::server {

// How much of each file the server checks before serving it, at start and
// at each reload: the one place that decides. Today the full proof
// (Check::kFull, a few milliseconds a section).
Check serving_check();

// Reads every file of `source`, then each file of `also` (in that order, after
// the source's), once and checks it (serving_check()), builds each table's
// distance index (for /random and /stats), so the first request finds
// everything ready. The error message names the file and says what is wrong
// with it.
Result<std::shared_ptr<const TableSet>> load_tables(const TableSource& source,
                                                    std::span<const std::string> also = {});

// The strong ETag of /table: the checksum's 16 hex digits in double quotes.
std::string etag_of(const Table& table);

// Holds the current tables. get() and set() are safe from any thread at once.
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
  // `also`: the files load_tables(source, also) loaded beside the source
  // into `tables`, which every reload loads again.
  explicit TableSlot(std::shared_ptr<const TableSet> tables, std::vector<std::string> also = {})
      : tables_(std::move(tables)), also_(std::move(also)) {}

  // The current tables, or null when none are served: before any are set,
  // or after a reload stopped serving (unavailable() says why).
  std::shared_ptr<const TableSet> get() const {
    std::lock_guard lock(mutex_);
    return tables_;
  }
  // Why no table is served after a reload stopped serving; "" while tables
  // are served (and before any are set).
  std::string unavailable() const {
    std::lock_guard lock(mutex_);
    return unavailable_;
  }
  // Makes `tables` current. The previous set is released after the lock,
  // so freeing it (if this was its last reference) blocks no reader.
  void set(std::shared_ptr<const TableSet> tables) {
    std::unique_lock lock(mutex_);
    tables_.swap(tables);
    unavailable_.clear();
    lock.unlock();
  }

  // Loads `source` and the files added so far (load_tables(source, also))
  // and, only if every file is sound, makes it the current set; returns it.
  // On an error the current set stays, unless a served file was changed in
  // place and is no longer sound: then no set is served (unavailable()
  // says which file and why) until a reload succeeds. Requests keep running
  // meanwhile, each on the set it took.
  // Safe from any thread; reloads run one at a time (add() too), so none
  // undoes another's file.
  Result<std::shared_ptr<const TableSet>> reload(const TableSource& source);

  // Reloads as reload() with `path` among the files loaded beside `source`
  // from now on (the server's own pattern databases, pdb_build.h); on an
  // error `path` is not added and the current set stays (or is no longer
  // served, as reload() says). Adding a file
  // already added only reloads.
  Result<std::shared_ptr<const TableSet>> add(const TableSource& source, const std::string& path);

 private:
  // After a failed load: stops serving if a served file was changed in
  // place and is no longer sound. Called under reload_mutex_.
  void stop_if_damaged_in_place();

  mutable std::mutex mutex_;
  std::shared_ptr<const TableSet> tables_;
  std::string unavailable_;        // guarded by mutex_
  std::mutex reload_mutex_;        // held for a whole reload or add
  std::vector<std::string> also_;  // guarded by reload_mutex_
};

}  // namespace eight::server
