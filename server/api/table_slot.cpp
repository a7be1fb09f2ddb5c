#include "table_slot.h"

#include "eight/random.h"

namespace eight::server {

Check serving_check() {
  return Check::kFull;
}

Result<std::shared_ptr<const TableSet>> load_tables(const TableSource& source) {
  auto set = TableSet::open(source, serving_check());
  if (!set.ok()) return set.error();
  for (const auto& table : set->tables()) table->index();  // built now, not by the first /random
  return std::make_shared<const TableSet>(std::move(set).value());
}

std::string etag_of(const Table& table) {
  return "\"" + table.checksum_hex() + "\"";
}

Result<std::shared_ptr<const TableSet>> TableSlot::reload(const TableSource& source) {
  auto tables = load_tables(source);
  if (tables.ok()) set(*tables);
  return tables;
}

}  // namespace eight::server
