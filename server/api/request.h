// One HTTP request as the API layer sees it, whole: the transport
// (transport/request_reader.h) builds it from the bytes a client sent, and
// tests and fuzzers build it with make_request(). The API never sees a
// socket.
//
// Thread safety: a Request is a plain value.
#pragma once

#include <boost/beast/http/fields.hpp>
#include <boost/beast/http/verb.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eight/result.h"

namespace eight::server {

namespace http = boost::beast::http;

// A query's name=value pairs, percent-decoded ('+' is a space), in the order
// sent. Pairs with an empty name carry nothing and are left out, and a pair
// repeated word for word is kept once: it asks the same thing.
using QueryParams = std::vector<std::pair<std::string, std::string>>;

// A request target split into what routing needs.
struct Target {
  std::string path;  // percent-decoded: "/so%6cve" is "/solve"
  QueryParams params;
};

// Splits a request target: origin-form ("/solve?board=..."), absolute-form
// ("http://host/solve?board=...", which RFC 9112 3.2.2 says a server must
// accept; routed by its path) or asterisk-form ("*", path "*"). Fails
// (kBadArgument) with a message for a person on anything else: a bad
// percent-escape, a byte URLs do not allow, a fragment.
Result<Target> parse_target(std::string_view target);

struct Request {
  http::verb method = http::verb::get;
  std::string method_text = "GET";  // as sent: names an unknown method in a 405
  std::string target;               // as sent, for the access log
  std::string path;                 // of the target, decoded
  QueryParams params;               // of the target, decoded
  unsigned version = 11;            // 10 for HTTP/1.0, 11 for HTTP/1.1
  http::fields headers;
  std::string body;  // de-chunked; never decompressed (the transport refuses encoded bodies)

  // The first value of header `name` (case-insensitive), or empty.
  std::string_view header(std::string_view name) const;
  // The value of query parameter `name`, or null; params_named() counts them.
  const std::string* param(std::string_view name) const;
  std::size_t params_named(std::string_view name) const;
};

// A request for tests, fuzzers and benchmarks. REQUIRES: `target` parses.
Request make_request(http::verb method, std::string_view target, http::fields headers = {},
                     std::string body = {});

}  // namespace eight::server
