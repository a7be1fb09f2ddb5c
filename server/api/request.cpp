#include "request.h"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include <algorithm>
#include <cassert>

namespace eight::server {

namespace urls = boost::urls;

Result<Target> parse_target(std::string_view target) {
  Target out;
  if (target == "*") {  // OPTIONS * (RFC 9112 3.2.4): no path, no query
    out.path = "*";
    return out;
  }
  urls::result<urls::url_view> url;
  if (!target.empty() && target.front() == '/') {
    url = urls::parse_origin_form(target);
  } else {
    url = urls::parse_absolute_uri(target);
    if (url && url->scheme_id() != urls::scheme::http && url->scheme_id() != urls::scheme::https) {
      return make_error(ErrorCode::kBadArgument, "the request target names scheme '" +
                                                     std::string(url->scheme()) +
                                                     "'; this server answers http targets");
    }
  }
  if (!url) {
    return make_error(
        ErrorCode::kBadArgument,
        "the request target is not a valid URL path and query (" + url.error().message() + ")");
  }
  out.path = url->path();
  // "http://host" and "http://host?x" mean "/". (assign(): GCC 12 warns
  // falsely, -Wrestrict, on assigning the literal.)
  if (out.path.empty()) out.path.assign(1, '/');
  for (const auto& p : url->params()) {
    if (p.key.empty()) continue;
    std::pair<std::string, std::string> pair{p.key, p.has_value ? p.value : std::string()};
    if (std::find(out.params.begin(), out.params.end(), pair) != out.params.end()) continue;
    out.params.push_back(std::move(pair));
  }
  return out;
}

std::string_view Request::header(std::string_view name) const {
  const auto it = headers.find(name);
  if (it == headers.end()) return {};
  const auto v = it->value();
  return {v.data(), v.size()};
}

const std::string* Request::param(std::string_view name) const {
  for (const auto& [k, v] : params) {
    if (k == name) return &v;
  }
  return nullptr;
}

std::size_t Request::params_named(std::string_view name) const {
  return static_cast<std::size_t>(std::count_if(params.begin(), params.end(),
                                                [name](const auto& p) { return p.first == name; }));
}

Request make_request(http::verb method, std::string_view target, http::fields headers,
                     std::string body) {
  auto parsed = parse_target(target);
  assert(parsed.ok());
  Request req;
  req.method = method;
  req.method_text = std::string(http::to_string(method));
  req.target = std::string(target);
  req.path = std::move(parsed->path);
  req.params = std::move(parsed->params);
  req.headers = std::move(headers);
  req.body = std::move(body);
  return req;
}

}  // namespace eight::server
