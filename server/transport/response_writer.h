// The bytes of one HTTP/1.x answer: the status line and the headers an API
// Response holds in Beast's fields, after the transport has added the
// framing (Content-Length, Connection, Keep-Alive, Date), and the body in
// the same buffer, so that an answer leaves in one write: one system call,
// one TCP segment for a short answer.
//
// Thread safety: pure functions over their arguments.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "api/request.h"
#include "api/response.h"
#include "limits.h"

namespace eight::server {

struct Framing {
  unsigned version = 11;              // the request's: 10 is answered as HTTP/1.0
  bool keep_alive = true;             // else "Connection: close" and the connection ends
  bool head_only = false;             // HEAD: the headers of the GET answer, no body
  std::string_view date;              // the Date header's value (IMF-fixdate)
  std::string_view keep_alive_value;  // "timeout=75, max=1000" (keep_alive_header())
};

// Whether the client asked for the connection to stay open after `req`:
// HTTP/1.1 unless "Connection: close", HTTP/1.0 only with "Connection:
// keep-alive" (RFC 9112 9.3).
bool wants_keep_alive(const Request& req);

// The Keep-Alive header's value for `limits`.
std::string keep_alive_header(const Limits& limits);

// Appends `res` to `out`: status line, headers, and the body if it is in
// res.body. Returns the bytes of an external body (res.external), which the
// caller writes right after `out` (and keeps alive through res.owner); empty
// otherwise.
std::span<const char> write_response(Response& res, const Framing& framing, std::string& out);

// The interim answer to "Expect: 100-continue".
inline constexpr std::string_view kContinueResponse = "HTTP/1.1 100 Continue\r\n\r\n";

// "Sun, 06 Nov 1994 08:49:37 GMT" for a time in seconds since the epoch.
std::string http_date(long long seconds_since_epoch);

}  // namespace eight::server
