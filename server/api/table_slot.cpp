#include "table_slot.h"

#include <cinttypes>
#include <cstdio>

namespace eight::server {

Result<std::shared_ptr<const Loaded>> Loaded::open(const std::string& path) {
  auto table = MappedTable::open(path);
  if (!table.ok()) return table.error();
  return std::shared_ptr<const Loaded>(std::make_shared<Loaded>(std::move(table).value()));
}

Loaded::Loaded(MappedTable table)
    : table_(std::move(table)), solver_(table_.view()), index_(table_.view()) {
  auto frame = solver_.frame(kStandardGoal);
  if (frame.ok()) standard_frame_ = *frame;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, view().checksum());
  checksum_hex_ = hex;
  etag_ = "\"" + checksum_hex_ + "\"";
}

Result<std::shared_ptr<const Loaded>> TableSlot::reload(const std::string& path) {
  auto loaded = Loaded::open(path);
  if (loaded.ok()) set(*loaded);
  return loaded;
}

Result<GoalFrame> Loaded::frame(const Board& goal) const {
  if (standard_frame_ && goal == kStandardGoal) return *standard_frame_;
  return solver_.frame(goal);
}

}  // namespace eight::server
