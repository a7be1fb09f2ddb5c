// eight fetch [URL]: the server's tables downloaded to where the tool reads
// them (cli/fetch.h), by the module eight-remote.so (remote_module.h).
#include <cstdlib>
#include <filesystem>
#include <string>

#include "../remote_module.h"
#include "commands.h"

namespace eight::cli {

int fetch_command(const Options& opt) {
  if (opt.args.size() > 1) return usage_error("fetch takes one server URL");
  if (!opt.args.empty() && opt.server) return usage_error("fetch takes its URL once");
  const std::string url = !opt.args.empty() ? opt.args[0]
                          : opt.server      ? *opt.server
                                            : std::string("http://127.0.0.1:8080");
  // Where the tables go: where the tool reads them.
  FetchInto into;
  const char* env = std::getenv(kTableEnvironment);
  if (opt.tables) {
    into.folder = *opt.tables;
  } else if (opt.table_given) {
    into.file = opt.table;
  } else if (env != nullptr && *env != '\0') {
    into.file = env;
  } else {
    into.folder = std::filesystem::path(kDefaultTablePath).parent_path().string();
  }
  const auto remote = load_remote_module();
  if (const auto* f = std::get_if<Failure>(&remote)) return report(*f);
  const auto status = std::get<RemoteModule*>(remote)->fetch(url, opt.timeout_ms, into);
  if (const auto* why = std::get_if<std::string>(&status)) return usage_error(*why);
  return std::get<int>(status);
}

}  // namespace eight::cli
