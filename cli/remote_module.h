// The network half of `eight`: the ServerBackend of `--server URL` and
// `eight fetch`, everything that includes cpp-httplib, built as the module
// eight-remote.so (cli/CMakeLists.txt). `eight` loads it with dlopen only
// when a remote command runs, so the offline commands load no TLS or
// compression library (httplib's libssl, libcrypto, libz, libbrotli*):
// docs/performance.md, "The offline tool loads no network library".
//
// The module lives at LIBDIR/eight/eight-remote.so beside BINDIR/eight, in
// the build tree (build/bin, build/LIBDIR/eight) as installed; `eight`
// finds it from its own path (/proc/self/exe). Both halves are built
// together, so the interface is C++ (one version: the entry point's name
// says which).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "backend.h"

namespace eight::cli {

// Where `eight fetch` puts what it downloads.
struct FetchInto {
  // Every table, each under its served name, in this folder; or, when
  // `file` is set, the server's default table alone into that file.
  std::string folder;
  std::optional<std::string> file;
};

// What the module gives the tool.
class RemoteModule {
 public:
  // The backend of --server `url` (--timeout-ms `timeout_ms`), both
  // checked by its open(); `fast`: --fast, asked of the server (fast=1).
  virtual std::unique_ptr<Backend> server_backend(const std::string& url,
                                                  const std::string& timeout_ms, bool fast) = 0;
  // `eight fetch` from `url` into `into` (fetch.h): its exit status, or
  // the message of a usage error in `url` or `timeout_ms`.
  virtual std::variant<int, std::string> fetch(const std::string& url,
                                               const std::string& timeout_ms,
                                               const FetchInto& into) = 0;

 protected:
  ~RemoteModule() = default;  // the module's own, never deleted
};

// The module, loaded on first use; or, when it cannot be (missing, not
// loadable), a Failure with kExitUnreachable: the tool cannot reach a
// server without it. Offline commands never call it.
std::variant<RemoteModule*, Failure> load_remote_module();

}  // namespace eight::cli

// The module's one exported symbol.
// (v2: server_backend() takes --fast; v3: Backend::hint() takes a known
// path. An older module is not loaded.)
#define EIGHT_REMOTE_MODULE_ENTRY "eight_remote_module_v3"
extern "C" eight::cli::RemoteModule* eight_remote_module_v3();
