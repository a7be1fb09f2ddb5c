// eight verify [PATH | --tables DIR]: every entry of each table proven
// (Check::kExhaustive).
#include <cstdio>

#include "commands.h"
#include "eight/table.h"

namespace eight::cli {

int verify_command(const TableSource& source) {
  const auto tables = open_tables(source, Check::kExhaustive);
  if (!tables) return kExitBadTable;
  for (const auto& table : tables->tables()) {
    const auto& v = table->view();
    std::printf("%s: ok, %zu sections, %zu bytes, checksum %s, every entry proven\n",
                table->path().c_str(), v.section_count(), v.bytes().size(),
                table->checksum_hex().c_str());
  }
  return kExitOk;
}

}  // namespace eight::cli
