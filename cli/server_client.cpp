#include "server_client.h"

#include <utility>

#include "eight/exit_codes.h"
#include "eight/text.h"

namespace eight::cli {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::string_view kProblemBase = "https://eight.invalid/problems/";

// The media type of a Content-Type value, without parameters.
std::string_view media_type(std::string_view content_type) {
  const auto semi = content_type.find(';');
  std::string_view t = content_type.substr(0, semi);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  return t;
}

}  // namespace

std::variant<ServerUrl, std::string> parse_server_url(std::string_view text) {
  const std::string shown = escape_bytes(text, 80);
  std::string_view rest = text;
  std::string scheme;
  for (std::string_view s : {"http://", "https://"}) {
    if (rest.substr(0, s.size()) == s) {
      scheme = s.substr(0, s.size() - 3);
      rest.remove_prefix(s.size());
    }
  }
  if (scheme.empty())
    return "the server URL must start with http:// or https://; got '" + shown + "'";
  const auto slash = rest.find('/');
  const std::string_view authority = rest.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash);
  if (authority.empty()) return "the server URL names no host: '" + shown + "'";
  if (authority.find_first_of("@?# \t") != std::string_view::npos ||
      path.find_first_of("?# \t") != std::string_view::npos) {
    return "the server URL must be http://HOST[:PORT][/PATH], without user, query or fragment; "
           "got '" +
           shown + "'";
  }
  if (authority.front() != '[' && authority.find(':') != authority.rfind(':')) {
    return "an IPv6 address in a URL goes in brackets: http://[::1]:8080; got '" + shown + "'";
  }
  // The port, if any: after the last ':' outside an IPv6 address's brackets.
  const auto close = authority.rfind(']');
  const auto colon = authority.rfind(':');
  if (colon != std::string_view::npos && (close == std::string_view::npos || colon > close)) {
    const auto port = parse_decimal(authority.substr(colon + 1));
    if (!port || *port < 1 || *port > 65535) {
      return "bad port in the server URL '" + shown + "': a port is a number from 1 to 65535";
    }
  }
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  ServerUrl url;
  url.origin = scheme + "://" + std::string(authority);
  url.prefix = std::string(path);
  url.text = url.origin + url.prefix;
  return url;
}

ServerClient::ServerClient(ServerUrl url, std::chrono::milliseconds timeout)
    : url_(std::move(url)), timeout_(timeout), client_(url_.origin) {
  const auto s = static_cast<time_t>(timeout.count() / 1000);
  const auto us = static_cast<time_t>(timeout.count() % 1000 * 1000);
  client_.set_connection_timeout(s, us);
  client_.set_read_timeout(s, us);
  client_.set_write_timeout(s, us);
  client_.set_keep_alive(true);
  // Targets go out exactly as the tool encoded them.
  client_.set_url_encode(false);
}

Failure ServerClient::failure(httplib::Error error, Clock::duration took,
                              const std::string& target) const {
  const std::string ms = std::to_string(timeout_.count()) + " ms";
  switch (error) {
    case httplib::Error::Connection:
      return {kExitUnreachable, "cannot connect to " + url_.text +
                                    ": connection refused, no such host, or no route to it"};
    case httplib::Error::ConnectionTimeout:
      return {kExitTimeout, "cannot connect to " + url_.text + ": no connection within " + ms};
    case httplib::Error::Read:
      // httplib says Read for a wait that timed out and for a connection
      // that ended early; the time taken tells them apart.
      if (took + std::chrono::milliseconds(50) >= timeout_) {
        return {kExitTimeout,
                where(target) + ": no answer within " + ms + " (--timeout-ms sets the wait)"};
      }
      return not_eight(target, "the connection ended before a whole HTTP answer came");
    case httplib::Error::Write:
      return {kExitUnreachable, where(target) + ": the connection was cut while sending"};
    case httplib::Error::SSLConnection:
    case httplib::Error::SSLLoadingCerts:
    case httplib::Error::SSLServerVerification:
      return {kExitUnreachable, where(target) + ": TLS failed (" + httplib::to_string(error) + ")"};
    default:
      return not_eight(target, "no HTTP answer (" + httplib::to_string(error) + ")");
  }
}

Failure ServerClient::not_eight(const std::string& target, const std::string& why) const {
  return {kExitNotEight, where(target) + ": not an eight server's answer: " + why};
}

std::variant<httplib::Response, Failure> ServerClient::get(const std::string& target,
                                                           const httplib::Headers& headers) {
  const auto start = Clock::now();
  auto r = client_.Get(url_.prefix + target, headers);
  if (!r) return failure(r.error(), Clock::now() - start, target);
  return std::move(*r);
}

std::variant<httplib::Response, Failure> ServerClient::post_json(const std::string& target,
                                                                 const std::string& body) {
  const auto start = Clock::now();
  auto r = client_.Post(url_.prefix + target, body, "application/json");
  if (!r) return failure(r.error(), Clock::now() - start, target);
  return std::move(*r);
}

std::variant<httplib::Response, Failure> ServerClient::download(
    const std::string& target, const httplib::Headers& headers,
    httplib::ResponseHandler on_response, httplib::ContentReceiver on_data) {
  // httplib 0.11 reads the body of a 304 (which has none, and no
  // Content-Length) up to the connection's end: the server must close it.
  httplib::Headers with_close = headers;
  with_close.emplace("Connection", "close");
  const auto start = Clock::now();
  auto r =
      client_.Get(url_.prefix + target, with_close, std::move(on_response), std::move(on_data));
  if (!r) return failure(r.error(), Clock::now() - start, target);
  return std::move(*r);
}

std::variant<nlohmann::json, Failure> ServerClient::answer_json(const httplib::Response& r,
                                                                const std::string& target) const {
  const std::string content_type = r.get_header_value("Content-Type");
  const std::string_view type = media_type(content_type);
  if (r.status != 200) {
    if (type == "application/problem+json") {
      const auto p = nlohmann::json::parse(r.body, nullptr, false);
      if (p.is_object() && p.value("type", "").rfind(kProblemBase, 0) == 0 &&
          p.contains("detail") && p["detail"].is_string()) {
        const std::string slug = p["type"].get<std::string>().substr(kProblemBase.size());
        // As offline: a goal or shape the tables lack is the table's fault.
        const bool table =
            slug == "shape-not-served" || slug == "goal-not-covered" || slug == "table-not-found";
        return Failure{table ? kExitBadTable : kExitFailed, p["detail"].get<std::string>()};
      }
    }
    return not_eight(target, "status " + std::to_string(r.status) +
                                 (type.empty() ? "" : ", " + std::string(type)));
  }
  if (type != "application/json") {
    return not_eight(target, "status 200 with " +
                                 (type.empty() ? std::string("no Content-Type")
                                               : "'" + escape_bytes(type, 40) + "'") +
                                 ", not JSON");
  }
  auto j = nlohmann::json::parse(r.body, nullptr, false);
  if (!j.is_object()) return not_eight(target, "the body is not a JSON object");
  return j;
}

}  // namespace eight::cli
