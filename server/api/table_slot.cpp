#include "table_slot.h"

#include <sys/stat.h>

#include <algorithm>

#include "eight/random.h"

namespace eight::server {

Check serving_check() {
  return Check::kFull;
}

Result<std::shared_ptr<const TableSet>> load_tables(const TableSource& source,
                                                    std::span<const std::string> also) {
  auto set = TableSet::open(source, serving_check());
  if (!set.ok()) return set.error();
  std::vector<std::shared_ptr<const Table>> tables = set->tables();
  for (const std::string& path : also) {
    auto table = Table::open(path, serving_check());
    if (!table.ok()) return table.error();
    tables.push_back(std::move(table).value());
  }
  for (const auto& table : tables) table->index();  // built now, not by the first /random
  return std::make_shared<const TableSet>(std::move(tables));
}

std::string etag_of(const Table& table) {
  return "\"" + table.checksum_hex() + "\"";
}

void TableSlot::stop_if_damaged_in_place() {
  const auto current = get();
  if (!current) return;  // nothing served: stays so
  for (const auto& table : current->tables()) {
    struct stat st {};
    if (::stat(table->path().c_str(), &st) != 0) continue;  // deleted: the served bytes are intact
    const Table::FileId now{static_cast<std::uint64_t>(st.st_dev),
                            static_cast<std::uint64_t>(st.st_ino)};
    if (now != table->file_id()) continue;  // renamed over: ditto
    // The very file served: still a sound table? (Another file made the
    // reload fail, or this one was written in place.)
    auto again = Table::open(table->path(), Check::kChecksum);
    if (again.ok()) continue;
    const std::string& why = again.error().message;
    std::unique_lock lock(mutex_);
    std::shared_ptr<const TableSet> released;
    released.swap(tables_);
    unavailable_ = "the served table file was changed in place and no table is served: " + why +
                   "; a reload (SIGHUP) serves again once every file is sound";
    lock.unlock();
    return;
  }
}

Result<std::shared_ptr<const TableSet>> TableSlot::reload(const TableSource& source) {
  std::lock_guard lock(reload_mutex_);
  auto tables = load_tables(source, also_);
  if (tables.ok()) {
    set(*tables);
  } else {
    stop_if_damaged_in_place();
  }
  return tables;
}

Result<std::shared_ptr<const TableSet>> TableSlot::add(const TableSource& source,
                                                       const std::string& path) {
  std::lock_guard lock(reload_mutex_);
  std::vector<std::string> also = also_;
  if (std::find(also.begin(), also.end(), path) == also.end()) also.push_back(path);
  auto tables = load_tables(source, also);
  if (!tables.ok()) {
    stop_if_damaged_in_place();
    return tables;
  }
  also_ = std::move(also);
  set(*tables);
  return tables;
}

}  // namespace eight::server
