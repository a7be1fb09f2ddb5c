// load_remote_module() (remote_module.h): dlopen of eight-remote.so from
// the directory of the running program. EIGHT_REMOTE_MODULE is its path
// relative to that directory (cli/CMakeLists.txt: BINDIR to LIBDIR/eight).
#include <dlfcn.h>

#include <filesystem>
#include <system_error>

#include "common/exit_codes.h"
#include "remote_module.h"

namespace eight::cli {

std::variant<RemoteModule*, Failure> load_remote_module() {
  static RemoteModule* loaded = nullptr;
  if (loaded != nullptr) return loaded;
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path path = (self.parent_path() / EIGHT_REMOTE_MODULE).lexically_normal();
  const auto failure = [&](const std::string& why) {
    return Failure{
        kExitUnreachable,
        "--server and fetch need the module eight-remote.so, which cannot be loaded: " + why};
  };
  if (ec)
    return failure("/proc/self/exe: " + ec.message() + " (so " + path.string() + " is not found)");
  // Never closed: the backend's code is the module's until the tool exits.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return failure(::dlerror());
  using Entry = RemoteModule* (*)();
  const auto entry = reinterpret_cast<Entry>(::dlsym(handle, EIGHT_REMOTE_MODULE_ENTRY));
  if (entry == nullptr) return failure(::dlerror());
  loaded = entry();
  return loaded;
}

}  // namespace eight::cli
