#include "common/defaults.h"

#include <cstdlib>
#include <filesystem>

namespace eight {

std::string default_table_path() {
  const char* env = std::getenv(kTableEnvironment);
  if (env != nullptr && *env != '\0') return env;
  return local_or_installed_table_path();
}

std::string local_or_installed_table_path() {
  std::error_code ec;
  if (std::filesystem::exists(kDefaultTablePath, ec)) return kDefaultTablePath;
  // An installed program: PREFIX/bin/eight (or eight-server) finds
  // PREFIX/share/eight/eight.tbl.
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path().parent_path() / "share" / "eight" / "eight.tbl";
    if (std::filesystem::exists(installed, ec)) return installed.string();
  }
  return kDefaultTablePath;
}

}  // namespace eight
