// The entry point of eight-remote.so (remote_module.h).
#include "remote_module.h"

#include "fetch.h"
#include "server_backend.h"

namespace eight::cli {
namespace {

class Remote final : public RemoteModule {
 public:
  std::unique_ptr<Backend> server_backend(const std::string& url, const std::string& timeout_ms,
                                          bool fast) override {
    return std::make_unique<ServerBackend>(url, timeout_ms, fast);
  }

  std::variant<int, std::string> fetch(const std::string& url, const std::string& timeout_ms,
                                       const FetchInto& into) override {
    auto client = connect(url, timeout_ms);
    if (auto* why = std::get_if<std::string>(&client)) return *why;
    return run_fetch(*std::get<std::unique_ptr<ServerClient>>(client), into);
  }
};

}  // namespace
}  // namespace eight::cli

extern "C" __attribute__((visibility("default"))) eight::cli::RemoteModule*
eight_remote_module_v3() {
  static eight::cli::Remote remote;
  return &remote;
}
