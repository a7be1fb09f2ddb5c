// Fuzzes every endpoint's query handling through the same Service the server
// runs, without sockets:
//
//   byte 0      which route (routes() in order, then an unknown path)
//   byte 1      bit 0 HEAD instead of GET; bit 1 send the rest after the
//               first newline as If-None-Match; bit 2 ... as Range
//   the rest    the raw query string (split and percent-decoded by the one
//               target parser the server uses), then optionally a header value
//
// Whatever comes in, the answer must not be a 5xx; an error must be a
// well-formed problem+json naming its status; a JSON answer must parse.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "api/problem.h"
#include "api/request.h"
#include "api/routes.h"
#include "standalone.h"

namespace {

eight::server::Standalone& world() {
  static eight::server::Standalone w;
  return w;
}

void check(const eight::server::Response& res) {
  const int status = res.status();
  if (status < 200 || status >= 500) std::abort();
  const std::string type(res.header("Content-Type"));
  if (status >= 400) {
    if (type != eight::server::kProblemContentType) std::abort();
    const auto j = nlohmann::json::parse(res.body, nullptr, false);
    if (j.is_discarded() || j.value("status", 0) != status || !j.contains("type") ||
        !j.contains("title") || !j.contains("detail")) {
      std::abort();
    }
  } else if (type.rfind("application/json", 0) == 0) {
    if (nlohmann::json::parse(res.body, nullptr, false).is_discarded()) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace http = boost::beast::http;
  if (size < 2) return 0;
  auto& w = world();
  const auto& routes = eight::server::routes();
  const std::size_t which = data[0] % (routes.size() + 1);
  const std::uint8_t flags = data[1];
  std::string rest(reinterpret_cast<const char*>(data + 2), size - 2);
  std::string header;
  if (const auto nl = rest.find('\n'); nl != std::string::npos && (flags & 6)) {
    header = rest.substr(nl + 1);
    rest.resize(nl);
  }
  const std::string path =
      which < routes.size() ? std::string(routes[which].path) : "/no-such-route";
  auto target = eight::server::parse_target(path + "?" + rest);
  if (!target.ok()) return 0;  // the transport answers these itself (a 400)
  eight::server::Request req;
  req.method = (flags & 1) ? http::verb::head : http::verb::get;
  req.method_text = (flags & 1) ? "HEAD" : "GET";
  req.target = path + "?" + rest;
  req.path = std::move(target->path);
  req.params = std::move(target->params);
  try {
    if (flags & 2) req.headers.insert("If-None-Match", header);
    if (flags & 4) req.headers.insert("Range", header);
  } catch (const std::exception&) {
    return 0;  // not a header value Beast would have parsed
  }
  eight::server::Response res;
  const std::atomic<bool> cancelled{false};
  w.service.handle(req, res, cancelled);
  check(res);
  return 0;
}
