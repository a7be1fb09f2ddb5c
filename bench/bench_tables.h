// The table a search benchmark's answers read (--table PATH): its pattern
// databases, as a deployment's default table holds them. Shared by
// eight-grid-bench and eight-korf24-bench.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "eight/table.h"
#include "eight/table_set.h"

namespace eight::bench {

// The tables of `path` (checksum checked), or none when `path` is empty; or
// the reader's message when the file cannot be used.
inline std::variant<std::vector<std::shared_ptr<const Table>>, std::string> open_tables(
    const std::string& path) {
  std::vector<std::shared_ptr<const Table>> loaded;
  if (path.empty()) return loaded;
  auto t = Table::open(path, Check::kChecksum);
  if (!t.ok()) return t.error().message;
  loaded.push_back(std::move(t).value());
  return loaded;
}

}  // namespace eight::bench
