// One HTTP response as the API layer writes it: status, headers and body.
// The transport adds the framing (Content-Length, Connection, Keep-Alive,
// Date), drops the body of a HEAD answer and writes headers and body in one
// go (transport/response_writer.h).
//
// Thread safety: a Response is a plain value. The bytes `external` points at
// must stay valid while `owner` lives.
#pragma once

#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "routes.h"

namespace eight::server {

namespace http = boost::beast::http;

// Cache policies. Answers depend only on the (verified, deterministic) table,
// so shared caches may keep them; a day bounds how long a replaced table's
// paths could still be served. The table itself carries an ETag, so an hour
// of freshness followed by a cheap 304 revalidation suits a CDN.
inline constexpr const char* kAnswerCacheControl = "public, max-age=86400";
inline constexpr const char* kTableCacheControl = "public, max-age=3600";
inline constexpr const char* kNoStore = "no-store";

// The content type of every JSON answer but a problem (problem.h).
inline constexpr const char* kJsonType = "application/json";

struct Response {
  // Status and headers (a message with no body of its own). 200 until set.
  http::response<http::empty_body> head{http::status::ok, 11};
  std::string body;
  // When set, the body is these bytes instead of `body`, and `owner` (null
  // for bytes that live as long as the program, such as the compiled-in
  // pages) keeps them alive until they are sent: a /table download straight
  // from the table's mapping, with no copy per request.
  std::span<const char> external;
  std::shared_ptr<const void> owner;
  // The route that answered, for the metrics' label; kOther for none.
  Route route = Route::kOther;

  int status() const { return static_cast<int>(head.result_int()); }
  void set_status(int status) { head.result(static_cast<unsigned>(status)); }
  void set_header(std::string_view name, std::string_view value) { head.set(name, value); }
  std::string_view header(std::string_view name) const {
    const auto it = head.find(name);
    if (it == head.end()) return {};
    const auto v = it->value();
    return {v.data(), v.size()};
  }
  // Sets the body and its Content-Type.
  void set_content(std::string content, std::string_view type) {
    body = std::move(content);
    head.set(http::field::content_type, type);
  }
  std::size_t body_size() const {
    return external.data() != nullptr ? external.size() : body.size();
  }
};

}  // namespace eight::server
