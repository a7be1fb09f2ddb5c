#include "table_slot.h"

#include "eight/random.h"

namespace eight::server {

Result<std::shared_ptr<const Table>> load_table(const std::string& path) {
  auto table = Table::open(path, Check::kFull);
  if (table.ok()) (*table)->index();  // built now, not by the first /random
  return table;
}

std::string etag_of(const Table& table) {
  return "\"" + table.checksum_hex() + "\"";
}

Result<std::shared_ptr<const Table>> TableSlot::reload(const std::string& path) {
  auto table = load_table(path);
  if (table.ok()) set(*table);
  return table;
}

}  // namespace eight::server
