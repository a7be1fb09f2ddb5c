#include "table_slot.h"

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

Result<std::shared_ptr<const TableSet>> TableSlot::reload(const TableSource& source) {
  std::lock_guard lock(reload_mutex_);
  auto tables = load_tables(source, also_);
  if (tables.ok()) set(*tables);
  return tables;
}

Result<std::shared_ptr<const TableSet>> TableSlot::add(const TableSource& source,
                                                       const std::string& path) {
  std::lock_guard lock(reload_mutex_);
  std::vector<std::string> also = also_;
  if (std::find(also.begin(), also.end(), path) == also.end()) also.push_back(path);
  auto tables = load_tables(source, also);
  if (!tables.ok()) return tables;
  also_ = std::move(also);
  set(*tables);
  return tables;
}

}  // namespace eight::server
