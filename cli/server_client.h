// The tool as a client of an eight-server (`eight fetch`, `eight --server
// URL solve|hint|random`): one HTTP client (cpp-httplib's), the server's URL,
// and the one place where what went wrong on the way becomes a message and
// an exit status (eight/exit_codes.h):
//
//   kExitUnreachable  no connection: refused, a name that does not resolve
//   kExitTimeout      connected, but no answer, or no progress, in time
//   kExitNotEight     an answer, but not one an eight server gives (not
//                     HTTP, not its JSON, a status it does not send)
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
#include <string>
#include <string_view>
#include <variant>

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

// What went wrong, as the tool reports it: `eight: MESSAGE`, exit `status`.
struct Failure {
  int status;
  std::string message;
};

class ServerClient {
 public:
  // `timeout` bounds the connection and every wait for bytes (so a long
  // download may take longer, as long as it keeps coming).
  ServerClient(ServerUrl url, std::chrono::milliseconds timeout);

  const ServerUrl& url() const { return url_; }

  // GET prefix + target (target starts with '/', already encoded). The
  // response, whatever its status, or how the exchange failed.
  std::variant<httplib::Response, Failure> get(const std::string& target,
                                               const httplib::Headers& headers = {});
  // POST prefix + target with a JSON body.
  std::variant<httplib::Response, Failure> post_json(const std::string& target,
                                                     const std::string& body);
  // GET with the body streamed: `on_response` sees the status and headers
  // first (false cancels), then `on_data` each piece of the body.
  std::variant<httplib::Response, Failure> download(const std::string& target,
                                                    const httplib::Headers& headers,
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

 private:
  Failure failure(httplib::Error error, std::chrono::steady_clock::duration took,
                  const std::string& target) const;

  ServerUrl url_;
  std::chrono::milliseconds timeout_;
  httplib::Client client_;
};

}  // namespace eight::cli
