#include "server_client.h"

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <mutex>
#include <stop_token>
#include <thread>
#include <utility>

#include "common/exit_codes.h"
#include "common/text.h"
#include "socket_bytes.h"

namespace eight::cli {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::string_view kProblemBase = "https://eight.invalid/problems/";
// What messages call the cap of a JSON answer ("the 33554432 bytes ...").
const std::string kAnswerLimit = "an answer may have";

// The media type of a Content-Type value, without parameters.
std::string_view media_type(std::string_view content_type) {
  const auto semi = content_type.find(';');
  std::string_view t = content_type.substr(0, semi);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  return t;
}

// A JSON value as a message shows it: short, and never more than a line.
std::string shown_value(const nlohmann::json& v) {
  return escape_bytes(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 40);
}

std::string_view type_name(JsonType type) {
  switch (type) {
    case JsonType::kString:
      return "a string";
    case JsonType::kBoolean:
      return "true or false";
    case JsonType::kUnsigned:
      return "a whole number from 0";
    case JsonType::kInteger:
      return "a whole number";
    case JsonType::kArray:
      return "an array";
    case JsonType::kObject:
      return "an object";
  }
  return "";
}

bool has_type(const nlohmann::json& v, JsonType type) {
  switch (type) {
    case JsonType::kString:
      return v.is_string();
    case JsonType::kBoolean:
      return v.is_boolean();
    case JsonType::kUnsigned:
      return v.is_number_unsigned();
    case JsonType::kInteger:
      return v.is_number_integer();
    case JsonType::kArray:
      return v.is_array();
    case JsonType::kObject:
      return v.is_object();
  }
  return false;
}

// A Content-Encoding that leaves the bytes as they are: none, or identity.
bool identity_encoding(std::string value) {
  std::transform(value.begin(), value.end(), value.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const auto first = value.find_first_not_of(" \t");
  const auto last = value.find_last_not_of(" \t");
  return first == std::string::npos || value.substr(first, last - first + 1) == "identity";
}

}  // namespace

std::optional<Problem> problem_of(const httplib::Response& r) {
  if (r.status == 200 ||
      media_type(r.get_header_value("Content-Type")) != "application/problem+json") {
    return std::nullopt;
  }
  const auto p = nlohmann::json::parse(r.body, nullptr, false);
  // Only a problem whose type and detail are strings is one of eight's (the
  // types checked before they are read).
  if (field_problem(p, "type", JsonType::kString) ||
      field_problem(p, "detail", JsonType::kString) ||
      p["type"].get_ref<const std::string&>().rfind(kProblemBase, 0) != 0) {
    return std::nullopt;
  }
  return Problem{p["type"].get<std::string>().substr(kProblemBase.size()),
                 p["detail"].get<std::string>()};
}

std::optional<std::string> field_problem(const nlohmann::json& object, std::string_view field,
                                         JsonType type) {
  const auto it = object.is_object() ? object.find(field) : object.end();
  if (!object.is_object() || it == object.end()) {
    return "field '" + std::string(field) + "' is missing, expected " +
           std::string(type_name(type));
  }
  if (has_type(*it, type)) return std::nullopt;
  return "field '" + std::string(field) + "' is " + shown_value(*it) + ", expected " +
         std::string(type_name(type));
}

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
  // httplib would inflate a gzip or brotli answer on its own, without a
  // bound (a 1 MB gzip body took 2.1 GB): the client asks for identity and
  // refuses anything else (exchange()), and never inflates.
  client_.set_decompress(false);
  client_.set_socket_options([this](int sock) {
    const std::lock_guard lock(socket_mutex_);
    socket_ = sock;
    socket_start_ = 0;
  });
}

std::uint64_t ServerClient::received_since_start() {
  const std::lock_guard lock(socket_mutex_);
  if (socket_ < 0) return 0;
  const std::uint64_t now = tcp_bytes_received(socket_).value_or(0);
  return now > socket_start_ ? now - socket_start_ : 0;
}

Failure ServerClient::failure(httplib::Error error, Clock::duration took, const std::string& target,
                              bool answering, bool stopped) const {
  const std::string ms = std::to_string(timeout_.count()) + " ms";
  // The watchdog stopped the exchange at the deadline, or (in the switch
  // below) one wait for bytes outlasted the timeout.
  if (stopped && answering) {
    // The answer began but did not end in time (a server dripping bytes).
    return {kExitTimeout, where(target) + ": no whole answer within " + ms +
                              " (--timeout-ms bounds the whole exchange)"};
  }
  if (stopped) {
    return {kExitTimeout,
            where(target) + ": no answer within " + ms + " (--timeout-ms sets the wait)"};
  }
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

std::optional<Failure> ServerClient::check_field(const std::string& target,
                                                 const nlohmann::json& object,
                                                 std::string_view field, JsonType type) const {
  if (auto why = field_problem(object, field, type)) return not_eight(target, *why);
  return std::nullopt;
}

std::variant<httplib::Response, Failure> ServerClient::exchange(
    httplib::Request req, const std::string& target, std::uint64_t max_bytes,
    const std::string& limit, httplib::ResponseHandler on_response,
    httplib::ContentReceiver on_data) {
  const std::string cap = "the " + std::to_string(max_bytes) + " bytes " + limit;
  req.path = url_.prefix + target;
  req.headers.emplace("Accept-Encoding", "identity");
  std::optional<Failure> refused;
  bool answering = false;  // the status line and headers came
  std::uint64_t received = 0;
  std::string body;
  req.response_handler = [&](const httplib::Response& r) {
    answering = true;
    // Refused before a byte of the body is read: an encoding the client
    // did not ask for, or a length past the cap.
    if (r.has_header("Content-Encoding") &&
        !identity_encoding(r.get_header_value("Content-Encoding"))) {
      refused = not_eight(target, "Content-Encoding '" +
                                      escape_bytes(r.get_header_value("Content-Encoding"), 40) +
                                      "', but the client asked for identity (it never inflates)");
      refused->refused = true;
      return false;
    }
    if (r.has_header("Content-Length")) {
      const auto length = parse_decimal(r.get_header_value("Content-Length"));
      if (length && *length > max_bytes) {
        refused = not_eight(target, "a body of " + std::to_string(*length) +
                                        " bytes (Content-Length), over " + cap);
        refused->refused = true;
        return false;
      }
    }
    return on_response ? on_response(r) : true;
  };
  req.content_receiver = [&](const char* data, std::size_t n, std::uint64_t, std::uint64_t) {
    // Counted as it comes, so memory (or the disk) never takes more.
    if (n > max_bytes - received) {
      refused = not_eight(target, "a body of more than " + cap);
      refused->refused = true;
      return false;
    }
    received += n;
    if (on_data) return on_data(data, n);
    body.append(data, n);
    return true;
  };

  // httplib's timeouts bound each connect, send and receive, not their sum:
  // a server dripping a byte a second would hold the client for ever. At
  // the deadline the watchdog stops the client, which shuts the socket down
  // under a blocked read (ClientImpl::stop in httplib 0.11.4); the exchange
  // then fails and is reported as the timeout it is. Every kPoll it also
  // counts the bytes the socket received (headers included, which httplib
  // reads without a bound) and stops an answer past its cap and
  // kMaxHeadBytes, so memory holds at most one kPoll's worth more.
  constexpr auto kPoll = std::chrono::milliseconds(10);
  const std::uint64_t most = max_bytes + kMaxHeadBytes;
  {
    const std::lock_guard lock(socket_mutex_);
    // A socket kept alive from the last exchange counts from here; a new
    // one counts from 0 (set_socket_options).
    if (socket_ >= 0) socket_start_ = tcp_bytes_received(socket_).value_or(0);
  }
  const auto start = Clock::now();
  const auto deadline = start + timeout_;
  std::mutex mutex;
  std::condition_variable_any woken;
  bool stopped = false;  // at the deadline
  bool flooded = false;  // past `most` bytes
  std::jthread watchdog([&](std::stop_token done) {
    std::unique_lock lock(mutex);
    while (!done.stop_requested()) {
      const auto now = Clock::now();
      if (now >= deadline || received_since_start() > most) {
        (now >= deadline ? stopped : flooded) = true;
        client_.stop();
        return;
      }
      woken.wait_until(lock, done, std::min(deadline, now + kPoll), [] { return false; });
    }
  });
  httplib::Response res;
  httplib::Error error = httplib::Error::Success;
  const bool ok = client_.send(req, res, error);
  watchdog.request_stop();
  watchdog.join();  // `stopped` and `flooded` are read only after this
  if (refused) return *refused;
  if (flooded) {
    Failure f =
        not_eight(target, "more than " + std::to_string(most) + " bytes in all: " + cap + ", and " +
                              std::to_string(kMaxHeadBytes) + " bytes of headers");
    f.refused = true;
    return f;
  }
  if (!ok) return failure(error, Clock::now() - start, target, answering, stopped);
  if (!on_data) res.body = std::move(body);
  return res;
}

std::variant<httplib::Response, Failure> ServerClient::get(const std::string& target,
                                                           const httplib::Headers& headers) {
  httplib::Request req;
  req.method = "GET";
  req.headers = headers;
  return exchange(std::move(req), target, kMaxAnswerBytes, kAnswerLimit, nullptr, nullptr);
}

std::variant<httplib::Response, Failure> ServerClient::post_json(const std::string& target,
                                                                 const std::string& body) {
  httplib::Request req;
  req.method = "POST";
  req.headers.emplace("Content-Type", "application/json");
  req.body = body;
  return exchange(std::move(req), target, kMaxAnswerBytes, kAnswerLimit, nullptr, nullptr);
}

std::variant<httplib::Response, Failure> ServerClient::download(
    const std::string& target, const httplib::Headers& headers, std::uint64_t max_bytes,
    const std::string& limit, httplib::ResponseHandler on_response,
    httplib::ContentReceiver on_data) {
  httplib::Request req;
  req.method = "GET";
  req.headers = headers;
  // httplib 0.11 reads the body of a 304 (which has none, and no
  // Content-Length) up to the connection's end: the server must close it.
  req.headers.emplace("Connection", "close");
  return exchange(std::move(req), target, max_bytes, limit, std::move(on_response),
                  std::move(on_data));
}

std::variant<nlohmann::json, Failure> ServerClient::answer_json(const httplib::Response& r,
                                                                const std::string& target) const {
  const std::string content_type = r.get_header_value("Content-Type");
  const std::string_view type = media_type(content_type);
  if (r.status != 200) {
    if (const auto p = problem_of(r)) {
      // As offline: a goal or shape the tables lack is the table's fault.
      const bool table = p->slug == "shape-not-served" || p->slug == "goal-not-covered" ||
                         p->slug == "table-not-found";
      return Failure{table ? kExitBadTable : kExitFailed, p->detail};
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
