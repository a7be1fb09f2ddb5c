#include "http_server.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <exception>

#include "access_log.h"
#include "problem.h"

namespace eight::server {
namespace {

using Clock = std::chrono::steady_clock;

// When the request now on this thread entered routing. httplib 0.11 runs a
// request from parsing to the logger on one pool thread, so a thread_local
// carries the start from the pre-routing handler to the logger without any
// shared state. Requests httplib rejects before routing (malformed request
// line, request line over 8 KiB, bad Range syntax) never set it and are
// logged with 0 us.
struct RequestClock {
  Clock::time_point start;
  bool started = false;
};
thread_local RequestClock request_clock;

// httplib 0.11 applies req.ranges (parsed from Range) to whatever a routed
// handler returns, without bounds checks: a JSON answer would come back cut
// to the range with status 200, and a range past the end of a content
// provider would read past the data. So httplib's range handling is turned
// off by emptying req.ranges, and /table reads the Range header itself
// (conditional.h). The const_cast is sound: httplib passes its own non-const
// Request object to these callbacks as const.
void disable_httplib_ranges(const httplib::Request& req) {
  const_cast<httplib::Request&>(req).ranges.clear();
}

// httplib 0.11 compresses text and application/json bodies when the client
// accepts gzip or br. Our answers are a few hundred bytes, where compression
// saves little and costs a lot: measured here, ~80 us for a /solve answer
// became ~200 us with gzip and ~1.1 ms with Brotli (which every browser
// asks for). So every response is sent as is, which Accept-Encoding always
// allows; hiding the header from httplib is the only switch 0.11 offers.
void disable_httplib_compression(const httplib::Request& req) {
  const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
}

// Whether the request announces a body. httplib 0.11 reads a body for POST,
// PUT, PATCH and DELETE before routing, and one without Content-Length until
// the read timeout; a request with no body need not wait for that.
bool has_body(const httplib::Request& req) {
  return req.has_header("Transfer-Encoding") ||
         (req.has_header("Content-Length") && req.get_header_value("Content-Length") != "0");
}

// Replaces httplib's default (SO_REUSEADDR and SO_REUSEPORT): with
// SO_REUSEPORT a second server on the same port would bind happily and
// share the traffic. SO_REUSEADDR alone still lets a restarted server bind
// while old connections sit in TIME_WAIT, and a second bind fails with
// EADDRINUSE.
void socket_options(int fd) {
  const int yes = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
}

// CORS: every answer is public and needs no credentials, so any web page may
// read it. A preflight (OPTIONS) learns the route's methods and that
// Content-Type may be set (POST /solve sends JSON), and may cache that for a
// day. Downloads of /table expose their validators and ranges to scripts.
void add_cors_headers(const httplib::Request& req, httplib::Response& res) {
  res.set_header("Access-Control-Allow-Origin", "*");
  if (req.method == "OPTIONS") {
    res.set_header("Access-Control-Allow-Methods",
                   std::string(allowed_methods(route_of(req.path))) + ", OPTIONS");
    res.set_header("Access-Control-Allow-Headers", "Content-Type, If-None-Match, Range, If-Range");
    res.set_header("Access-Control-Max-Age", "86400");
  } else {
    res.set_header("Access-Control-Expose-Headers",
                   "ETag, Content-Range, Content-Disposition, Accept-Ranges");
  }
}

}  // namespace

std::string access_log_line(const httplib::Request& req, int status,
                            std::chrono::microseconds elapsed) {
  constexpr std::size_t kMaxTarget = 256;
  std::string line;
  line.reserve(64 + std::min(req.target.size(), kMaxTarget) * 4);
  auto append_clean = [&line](std::string_view s, std::size_t max) {
    if (s.empty()) {
      line += '-';
      return;
    }
    for (std::size_t i = 0; i < s.size() && i < max; ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c > 0x20 && c < 0x7f && c != '\\') {
        line += static_cast<char>(c);
      } else {
        static constexpr char kHex[] = "0123456789abcdef";
        line += "\\x";
        line += kHex[c >> 4];
        line += kHex[c & 15];
      }
    }
    if (s.size() > max) line += "...";
  };
  append_clean(req.method, 16);
  line += ' ';
  append_clean(req.target.empty() ? req.path : req.target, kMaxTarget);
  line += ' ';
  line += std::to_string(status);
  line += ' ';
  line += std::to_string(elapsed.count());
  line += "us";
  return line;
}

void configure(HttpServer& svr, const Service& service, Metrics& metrics,
               const ServerConfig& config, std::atomic<int>* listen_socket) {
  // Pool size = connections served at once (see default_threads()).
  svr.set_threads(static_cast<std::size_t>(std::max(1, config.threads)));

  // Without TCP_NODELAY, Nagle's algorithm holds the body (written after the
  // headers) until the client ACKs the headers, and delayed ACKs make that
  // ~40 ms per response. Accepted sockets inherit it from the listener.
  svr.set_tcp_nodelay(true);
  svr.set_socket_options([listen_socket](socket_t fd) {
    socket_options(fd);
    if (listen_socket != nullptr) listen_socket->store(fd);
  });

  // A keep-alive connection pins a pool thread while it is open, idle or
  // not. A 1 s idle timeout (httplib's unit is seconds; 1 is the least that
  // still keeps connections alive between a client's bursts) bounds how long
  // idle clients can hold threads; and an idle connection gives its thread
  // up at once when another connection waits for one (connection_loop.h).
  // After 1000 requests (nginx's default too; tens of milliseconds at full
  // speed) a connection is closed and its thread goes back to the queue, so
  // busy clients cannot hold threads forever either; reconnecting then costs
  // 0.1% of requests.
  svr.set_keep_alive_max_count(kKeepAliveMaxCount);
  svr.set_keep_alive_timeout(kKeepAliveTimeout.count());
  // Requests are one short line plus headers, arriving in one packet; a
  // client that stalls 1 s mid-request is gone or hostile. httplib's read
  // timeout is per read, so a client sending a byte every half second would
  // never trip it: the head timeout bounds the line and headers instead, so
  // a slow client holds a thread 2 s at most. Bodies (POST /solve, up to
  // 2 MiB) may take longer on a slow link, but must keep coming at 64 KiB/s
  // (half a megabit; 2 MiB in 32 s), so a client dribbling a body cannot
  // hold a thread for long either. Writes get longer: /table is 2 MiB, and a
  // slow client must make progress every 5 s, not finish within 5 s.
  svr.set_read_timeout(kReadTimeout.count(), 0);
  svr.set_head_timeout(kHeadTimeout);
  svr.set_min_body_rate(kMinBodyRate);
  svr.set_write_timeout(kWriteTimeout.count(), 0);
  // Only POST /solve takes a body: up to kMaxBatchBoards boards in at most
  // kMaxBatchBytes; a larger body is refused with 413 before it is read
  // whole. The request line limit is httplib's compiled-in
  // CPPHTTPLIB_REQUEST_URI_MAX_LENGTH (8 KiB), far above any valid query
  // (boards are at most 128 characters).
  svr.set_payload_max_length(kPayloadMaxLength);

  svr.set_pre_routing_handler([&service](const httplib::Request& req, httplib::Response& res) {
    request_head_received();  // httplib reads the body, if any, after this
    request_clock = {Clock::now(), true};
    disable_httplib_ranges(req);
    disable_httplib_compression(req);
    if (req.method == "OPTIONS") {
      service.preflight(req, res);
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.method == "POST" && !has_body(req) &&
        allowed_methods(route_of(req.path)).find("POST") != std::string_view::npos) {
      service.solve_batch(req, res);  // answers the missing body with a 400
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.method != "GET" && req.method != "HEAD" && !has_body(req)) {
      // Answered here, before httplib would wait for a body that never comes.
      // Requests with a body go on: httplib reads it (up to the payload limit,
      // else 413), finds no handler, and the error handler answers 405/404,
      // which keeps the connection in step with the client.
      service.method_not_allowed(req, res);
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });

  for (const RouteInfo& r : routes()) {
    // Exact paths: httplib matches the pattern as a regex, so escape the dot.
    std::string pattern;
    for (char c : r.path) {
      if (c == '.') pattern += '\\';
      pattern += c;
    }
    svr.Get(pattern,
            [&service, route = r.route](const httplib::Request& req, httplib::Response& res) {
              service.handle(route, req, res);
            });
    if (r.post) {
      svr.Post(pattern, [&service](const httplib::Request& req, httplib::Response& res) {
        service.solve_batch(req, res);
      });
    }
  }

  svr.set_error_handler(httplib::Server::HandlerWithResponse(
      [&service](const httplib::Request& req, httplib::Response& res) {
        // Also reached for statuses set before routing (414, 416, 400), when
        // req.ranges may hold a partial parse; httplib would cut our body by it.
        disable_httplib_ranges(req);
        service.error(req, res);
        return httplib::Server::HandlerResponse::Handled;
      }));

  // httplib 0.11 gives every bodiless response "Content-Length: 0". On a
  // 304 that is wrong (RFC 9110 8.6: only the 200's length may be sent), so
  // it goes, as nginx and Go leave it out; a 304 never has a body anyway.
  svr.set_post_routing_handler([](const httplib::Request& req, httplib::Response& res) {
    if (res.status == 304) res.headers.erase("Content-Length");
    add_cors_headers(req, res);
  });

  // Handlers do not throw for any input; this is the last line of defence
  // (std::bad_alloc, say) so a bug shows as a problem+json 500, not a
  // dropped connection with httplib's EXCEPTION_WHAT header.
  svr.set_exception_handler(
      [](const httplib::Request& req, httplib::Response& res, std::exception_ptr) {
        disable_httplib_ranges(req);
        res = httplib::Response();
        set_problem(res, problem_for_status(500, req.method, req.path));
      });

  AccessLog* const access_log = config.access_log;
  svr.set_logger([&metrics, access_log](const httplib::Request& req, const httplib::Response& res) {
    std::chrono::nanoseconds elapsed{0};
    if (request_clock.started) {
      elapsed = Clock::now() - request_clock.start;
      request_clock.started = false;
    }
    // A request cut off at its deadline got no answer: httplib only saw a
    // read fail (400), but what happened to it is a 408.
    const int status = request_timed_out() ? 408 : res.status;
    metrics.record(route_of(req.path), status, elapsed);
    if (access_log != nullptr) {
      access_log->append(access_log_line(
          req, status, std::chrono::duration_cast<std::chrono::microseconds>(elapsed)));
    }
  });
}

}  // namespace eight::server
