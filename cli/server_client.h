// The tool as a client of an eight-server (`eight fetch`, `eight --server
// URL solve|hint|random`): one HTTP client (cpp-httplib's), the server's URL,
// and the one place where what went wrong on the way becomes a message and
// an exit status (common/exit_codes.h):
//
//   kExitUnreachable  no connection: refused, a name that does not resolve
//   kExitTimeout      connected, but no whole answer in time: --timeout-ms
//                     bounds each exchange (connecting, sending, every byte
//                     of the answer) as well as each wait for bytes
//   kExitNotEight     an answer, but not one an eight server gives (not
//                     HTTP, not its JSON, a status it does not send, a
//                     field of the wrong type, a Content-Encoding, more
//                     bytes than the answer may have)
//
// Nothing an answer holds is trusted: the client asks for identity
// encoding and refuses any other before reading the body (httplib's own
// decompression is off), every body is capped while it is received (so
// memory never holds more than the cap), and every field read from an
// answer has its type checked first (field_problem below) so no
// nlohmann::json exception can escape.
//
// A problem+json answer of an eight server is its own refusal: its detail
// is the message (the same words the offline tool prints for the same
// question), a shape or goal the server's tables lack is kExitBadTable as
// offline, anything else kExitFailed.
//
// Thread safety: a ServerClient is used by one thread at a time.
#pragma once

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "backend.h"  // Failure

namespace eight::cli {

// An http:// (or https://) URL of a server, optionally below a path prefix
// (a server behind a proxy at /eight/).
struct ServerUrl {
  std::string origin;  // scheme://host[:port], as httplib takes it
  std::string prefix;  // "" or "/path" without its trailing slash
  std::string text;    // origin + prefix, for messages
};

// Parses "http://HOST[:PORT][/PREFIX]" (HOST a name, an IPv4 address or a
// bracketed IPv6 one). The error says what is wrong; no preconditions.
std::variant<ServerUrl, std::string> parse_server_url(std::string_view text);

// The most bytes a JSON answer may have. The largest an eight server
// sends is POST /solve's for a batch of 10,000 (its kMaxBatchBoards) 4x4
// boards 80 moves away: about 1.1 kB each (two boards, 80 moves, path and
// tiles; ~1.25 kB with the shape and cells fields), so about 12.5 MB. 32 MiB
// leaves room for that more than twice over, and bounds what parsing it can
// take (a DOM of small values is under ten times its text).
inline constexpr std::uint64_t kMaxAnswerBytes = 32ull << 20;
// The most bytes the status line and headers of an answer may add to its
// body's cap. httplib reads headers without a bound of its own (an endless
// header line took 270 MB in 3 s); an eight server's are under 1 kB.
inline constexpr std::uint64_t kMaxHeadBytes = 64 << 10;

// The JSON type a field of an answer must have.
enum class JsonType { kString, kBoolean, kUnsigned, kInteger, kArray, kObject };

// Why `field` of `object` does not have `type` ("is missing, expected a
// string", "is 123, expected a string"), or nothing when it does. `object`
// need not be an object (then every field is missing).
std::optional<std::string> field_problem(const nlohmann::json& object, std::string_view field,
                                         JsonType type);

// An eight server's problem+json refusal (status not 200): its slug (the
// type past https://eight.invalid/problems/, "no-stats") and its detail. For
// any other answer, nothing.
struct Problem {
  std::string slug;
  std::string detail;
};
std::optional<Problem> problem_of(const httplib::Response& r);

class ServerClient {
 public:
  // `timeout` bounds each exchange as a whole (the connection, the request
  // and every byte of the answer) and every wait for bytes within it.
  ServerClient(ServerUrl url, std::chrono::milliseconds timeout);
  // httplib calls back into this object (the socket it makes).
  ServerClient(const ServerClient&) = delete;
  ServerClient& operator=(const ServerClient&) = delete;

  const ServerUrl& url() const { return url_; }

  // GET prefix + target (target starts with '/', already encoded). The
  // response, whatever its status, or how the exchange failed.
  std::variant<httplib::Response, Failure> get(const std::string& target,
                                               const httplib::Headers& headers = {});
  // POST prefix + target with a JSON body.
  std::variant<httplib::Response, Failure> post_json(const std::string& target,
                                                     const std::string& body);
  // GET with the body streamed: `on_response` sees the status and headers
  // first (false cancels), then `on_data` each piece of the body; at most
  // `max_bytes` of body (a longer answer is refused before `on_data` sees
  // the piece that goes past it), which messages call "the `max_bytes`
  // bytes `limit`" ("/tables lists for eight.tbl").
  std::variant<httplib::Response, Failure> download(const std::string& target,
                                                    const httplib::Headers& headers,
                                                    std::uint64_t max_bytes,
                                                    const std::string& limit,
                                                    httplib::ResponseHandler on_response,
                                                    httplib::ContentReceiver on_data);

  // The JSON object of a 200 answer to `target`; a problem+json refusal of
  // an eight server as its Failure (see above); anything else kExitNotEight.
  std::variant<nlohmann::json, Failure> answer_json(const httplib::Response& r,
                                                    const std::string& target) const;

  // "http://127.0.0.1:8080/tables": a target as a URL, for messages.
  std::string where(const std::string& target) const { return url_.text + target; }

  // kExitNotEight for an answer to `target`, saying why.
  Failure not_eight(const std::string& target, const std::string& why) const;
  // kExitNotEight for a field of an answer to `target` that is not `type`,
  // or nothing when it is.
  std::optional<Failure> check_field(const std::string& target, const nlohmann::json& object,
                                     std::string_view field, JsonType type) const;

 private:
  // One exchange, bounded as a whole by the timeout (a watchdog stops the
  // client at the deadline) and its body by `max_bytes`. Without
  // `on_data`, the body is kept in the Response.
  std::variant<httplib::Response, Failure> exchange(httplib::Request req, const std::string& target,
                                                    std::uint64_t max_bytes,
                                                    const std::string& limit,
                                                    httplib::ResponseHandler on_response,
                                                    httplib::ContentReceiver on_data);
  Failure failure(httplib::Error error, std::chrono::steady_clock::duration took,
                  const std::string& target, bool answering, bool stopped) const;

  // Bytes the current socket has received since the exchange began.
  std::uint64_t received_since_start();

  ServerUrl url_;
  std::chrono::milliseconds timeout_;
  // The socket httplib made last (set_socket_options) and its received
  // bytes when the exchange began: the watchdog's count of every byte of
  // an answer, headers included.
  std::mutex socket_mutex_;
  int socket_ = -1;
  std::uint64_t socket_start_ = 0;
  httplib::Client client_;
};

}  // namespace eight::cli
