#include "request_reader.h"

#include "common/text.h"
#include "eight/board.h"

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>

#include <algorithm>
#include <cassert>
#include <cstring>

namespace eight::server {
namespace {

namespace beast = boost::beast;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A header value as shown in a detail.
std::string shown(std::string_view v) {
  return "'" + escape_bytes(v, 40) + "'";
}

// The Content-Length a head declares, read from its text: Beast stops at a
// length over the body limit before the head is complete, when its parser
// may not be asked for it.
std::optional<std::uint64_t> declared_length(std::string_view head) {
  for (std::size_t at = head.find('\n'); at != std::string_view::npos;
       at = head.find('\n', at + 1)) {
    std::string_view line = head.substr(at + 1);
    line = line.substr(0, std::min(line.find('\r'), line.find('\n')));
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    if (beast::iequals(line.substr(0, colon), "content-length")) {
      return parse_decimal(trim(line.substr(colon + 1)));
    }
  }
  return std::nullopt;
}

ReadStep step(ReadStep::Kind kind, std::size_t consumed) {
  ReadStep s;
  s.kind = kind;
  s.consumed = consumed;
  return s;
}

}  // namespace

std::string_view RequestReader::method() const {
  if (request_) return request_->method_text;
  if (!parser_ || !parser_->is_header_done()) return {};
  const auto m = parser_->get().method_string();
  return {m.data(), m.size()};
}

std::string_view RequestReader::target() const {
  if (request_) return request_->target;
  if (!parser_ || !parser_->is_header_done()) return {};
  const auto t = parser_->get().target();
  return {t.data(), t.size()};
}

std::size_t RequestReader::body_held() const {
  if (request_) return request_->body.capacity();
  return parser_ ? parser_->get().body().capacity() : 0;
}

const Request* RequestReader::refused_request() const {
  return phase_ == Phase::kDone && request_ ? &*request_ : nullptr;
}

unsigned RequestReader::version() const {
  if (request_) return request_->version;
  return parser_ && parser_->is_header_done() ? parser_->get().version() : 11;
}

void RequestReader::reset() {
  phase_ = Phase::kIdle;
  scanned_ = 0;
  line_start_ = 0;
  request_line_end_ = 0;
  fields_ = 0;
  parser_.reset();
  expect_continue_ = false;
  body_received_ = 0;
  extension_bytes_ = 0;
  request_.reset();
}

ReadStep RequestReader::refuse(Refusal why, std::string detail, std::size_t consumed, bool close) {
  phase_ = Phase::kDone;
  ReadStep refused = step(ReadStep::Kind::kRefused, consumed);
  refused.why = why;
  refused.detail = std::move(detail);
  refused.close = close;
  return refused;
}

ReadStep RequestReader::read(std::string_view bytes) {
  assert(phase_ != Phase::kDone);
  std::size_t used = 0;
  if (phase_ == Phase::kIdle) {
    // RFC 9112 2.2: empty lines before a request line are ignored (some
    // clients send a CRLF after a POST body).
    while (bytes.size() - used >= 2 && bytes[used] == '\r' && bytes[used + 1] == '\n') used += 2;
    if (used == bytes.size() || (bytes.size() - used == 1 && bytes[used] == '\r')) {
      return step(ReadStep::Kind::kNeedMore, used);
    }
    phase_ = Phase::kHead;
  }
  if (phase_ == Phase::kHead) {
    std::size_t head_size = 0;
    if (auto step = read_head(bytes.substr(used), head_size)) {
      step->consumed += used;
      return *step;  // more bytes needed, or refused
    }
    used += head_size;  // the head parsed; its body (if any) follows
    if (expect_continue_ && used == bytes.size() && !parser_->is_done()) {
      expect_continue_ = false;
      return step(ReadStep::Kind::kContinue, used);
    }
  }
  return read_body(bytes, used);
}

// Finds the end of the head in `head` (which starts at the request line),
// enforcing the line, size and field limits as bytes arrive, then parses it.
// Returns the step to report now, or nullopt once the head has parsed
// (phase kBody), with its size in `head_size`.
std::optional<ReadStep> RequestReader::read_head(std::string_view head, std::size_t& head_size) {
  const auto line_too_long = [this] {
    return refuse(Refusal::kRequestLineTooLong,
                  "the request line is longer than " + std::to_string(limits_.request_line) +
                      " bytes; a board or goal is at most " + std::to_string(kMaxBoardText) +
                      " characters",
                  0);
  };
  const auto headers_too_long = [this] {
    return refuse(Refusal::kHeadersTooLarge,
                  "the request's header fields are longer than " +
                      std::to_string(limits_.header_bytes) + " bytes",
                  0);
  };
  const auto field_too_long = [this] {
    return refuse(Refusal::kHeadersTooLarge,
                  "a header field is longer than " + std::to_string(limits_.header_line) + " bytes",
                  0);
  };
  while (scanned_ < head.size()) {
    const void* nl = std::memchr(head.data() + scanned_, '\n', head.size() - scanned_);
    if (nl == nullptr) {
      scanned_ = head.size();
      break;
    }
    const std::size_t end = static_cast<std::size_t>(static_cast<const char*>(nl) - head.data());
    scanned_ = end + 1;
    if (end == line_start_ || head[end - 1] != '\r') {
      return refuse(Refusal::kMalformed,
                    "a line of the request ends in a bare LF; HTTP lines end "
                    "in CRLF",
                    0);
    }
    const std::string_view line = head.substr(line_start_, end - 1 - line_start_);
    if (request_line_end_ == 0) {
      if (line.size() > limits_.request_line) return line_too_long();
      request_line_end_ = end + 1;
    } else if (line.empty()) {
      head_size = end + 1;
      return parse_head(head.substr(0, head_size));
    } else {
      if (line.front() == ' ' || line.front() == '\t') {
        return refuse(Refusal::kMalformed,
                      "a header line starts with whitespace (obsolete line folding, which RFC "
                      "9112 lets a server refuse): write each field on one line",
                      0);
      }
      if (++fields_ > limits_.header_fields) {
        return refuse(
            Refusal::kHeadersTooLarge,
            "the request has more than " + std::to_string(limits_.header_fields) + " header fields",
            0);
      }
      if (end + 1 - request_line_end_ > limits_.header_bytes) return headers_too_long();
      if (line.size() > limits_.header_line) return field_too_long();
    }
    line_start_ = end + 1;
  }
  // A line still arriving may not pass the limits either (+1 for its CR; +2
  // for the CRLF of the empty line that ends the head, which is no field).
  if (request_line_end_ == 0) {
    if (scanned_ - line_start_ > limits_.request_line + 1) return line_too_long();
  } else if (scanned_ - request_line_end_ > limits_.header_bytes + 2) {
    return headers_too_long();
  } else if (scanned_ - line_start_ > limits_.header_line + 1) {
    return field_too_long();
  }
  return step(ReadStep::Kind::kNeedMore, 0);
}

std::optional<ReadStep> RequestReader::parse_head(std::string_view head) {
  parser_.emplace();
  // The scan above already bounds the head; Beast's own limit only has to
  // let it through.
  parser_->header_limit(static_cast<std::uint32_t>(head.size() + 1));
  parser_->body_limit(limits_.body_bytes);
  parser_->eager(true);
  // Every chunk's extensions count toward one limit for the body.
  on_chunk_ = [this](std::uint64_t, std::string_view extensions, beast::error_code& ec) {
    extension_bytes_ += extensions.size();
    if (extension_bytes_ > limits_.chunk_extensions) ec = beast::http::error::bad_chunk_extension;
  };
  parser_->on_chunk_header(on_chunk_);
  beast::error_code ec;
  const std::size_t n = parser_->put(boost::asio::buffer(head.data(), head.size()), ec);
  namespace e = beast::http;
  if (ec == e::error::body_limit) {
    const auto length = declared_length(head);
    return refuse(Refusal::kBodyTooLarge,
                  "the request body is " +
                      (length ? std::to_string(*length) + " bytes" : "too long") +
                      "; this server takes at most " + std::to_string(limits_.body_bytes) +
                      " bytes (POST /solve: 10000 boards)",
                  head.size());
  }
  if (ec == e::error::bad_content_length || ec == e::error::multiple_content_length ||
      ec == e::error::bad_transfer_encoding) {
    return refuse(Refusal::kMalformed,
                  "the body's framing is ambiguous or malformed (" + ec.message() +
                      "): send one Content-Length of digits, or Transfer-Encoding: chunked alone",
                  head.size());
  }
  if (ec || n != head.size() || !parser_->is_header_done()) {
    return refuse(Refusal::kMalformed,
                  "the request line or headers are malformed" +
                      (ec ? " (" + ec.message() + ")" : std::string()),
                  head.size());
  }
  if (auto refused = check_framing()) {
    refused->consumed = head.size();
    return refused;
  }
  phase_ = Phase::kBody;
  return std::nullopt;
}

// What RFC 9112 asks of a request's framing beyond its syntax, on the
// parsed head.
std::optional<ReadStep> RequestReader::check_framing() {
  const auto& msg = parser_->get();
  const unsigned version = msg.version();  // 10 or 11: Beast refuses any other
  const auto count = [&msg](http::field f) {
    const auto range = msg.equal_range(f);
    return static_cast<std::size_t>(std::distance(range.first, range.second));
  };
  const std::size_t hosts = count(http::field::host);
  if (hosts > 1 || (version == 11 && hosts == 0)) {
    return refuse(
        Refusal::kMalformed,
        hosts == 0 ? std::string("an HTTP/1.1 request needs a Host header")
                   : "the request has " + std::to_string(hosts) + " Host headers; it must have one",
        0);
  }
  const std::size_t lengths = count(http::field::content_length);
  if (lengths > 1) {
    return refuse(Refusal::kMalformed,
                  "the request has " + std::to_string(lengths) +
                      " Content-Length headers; it must have at most one",
                  0);
  }
  if (lengths == 1) {
    const auto v = msg[http::field::content_length];
    if (!all_digits({v.data(), v.size()})) {
      return refuse(Refusal::kMalformed,
                    "Content-Length " + shown({v.data(), v.size()}) + " is not a number of bytes",
                    0);
    }
  }
  const std::size_t codings = count(http::field::transfer_encoding);
  if (codings > 0) {
    const auto v = msg[http::field::transfer_encoding];
    const std::string_view value = trim({v.data(), v.size()});
    if (version == 10) {
      return refuse(Refusal::kMalformed, "Transfer-Encoding is not allowed in an HTTP/1.0 request",
                    0);
    }
    if (codings > 1 || !beast::iequals(value, "chunked")) {
      return refuse(Refusal::kUnknownTransferCoding,
                    "transfer coding " + shown(value) +
                        " is not supported: send the body with Content-Length, or with "
                        "Transfer-Encoding: chunked alone",
                    0);
    }
    if (lengths > 0) {
      return refuse(Refusal::kMalformed,
                    "the request has both Content-Length and Transfer-Encoding; send one", 0);
    }
  }
  const bool has_body = parser_->chunked() || parser_->content_length().value_or(0) > 0;
  if (has_body && count(http::field::content_encoding) > 0) {
    const auto v = msg[http::field::content_encoding];
    return refuse(Refusal::kEncodedBody,
                  "the request body has Content-Encoding " + shown({v.data(), v.size()}) +
                      "; this server takes bodies only as they are (identity)",
                  0);
  }
  if (count(http::field::expect) > 0) {
    const auto v = msg[http::field::expect];
    if (!beast::iequals(trim({v.data(), v.size()}), "100-continue")) {
      return refuse(Refusal::kExpectation,
                    "Expect " + shown({v.data(), v.size()}) +
                        " cannot be met; this server knows only 100-continue",
                    0);
    }
    expect_continue_ = has_body && version == 11;
  }
  return std::nullopt;
}

ReadStep RequestReader::read_body(std::string_view bytes, std::size_t used) {
  namespace e = beast::http;
  while (!parser_->is_done()) {
    if (used == bytes.size()) return step(ReadStep::Kind::kNeedMore, used);
    // Boost 1.81's parser asserts (BOOST_ASSERT(n >= 5) in
    // parse_chunk_header) when, having seen the last chunk's "0\r\n", it is
    // handed 4 bytes ("0\r\n\r"): too strict an assertion, fixed by
    // boostorg/beast#2861 (Boost 1.86). It can trip only on fewer than 5
    // bytes that start with the last chunk's "0"; what is left of a chunked
    // body that is not done is never shorter than "0\r\n\r\n", so holding
    // those back until more come changes no answer. (Anything else short,
    // malformed framing say, still goes to the parser and is refused at once.)
    if (parser_->chunked() && bytes.size() - used < 5 && bytes[used] == '0') {
      return step(ReadStep::Kind::kNeedMore, used);
    }
    beast::error_code ec;
    const std::size_t n =
        parser_->put(boost::asio::buffer(bytes.data() + used, bytes.size() - used), ec);
    used += n;
    body_received_ = parser_->get().body().size();
    if (ec == e::error::need_more) {
      if (n == 0) {
        // Beast holds a chunk-size line or the trailer section until it has
        // all of it: what it holds must stay within their limits.
        if (auto refused = check_held_framing(bytes.substr(used), used)) return *refused;
        return step(ReadStep::Kind::kNeedMore, used);  // keep the partial chunk header
      }
      continue;
    }
    if (ec == e::error::body_limit) {
      return refuse(Refusal::kBodyTooLarge,
                    "the request body is longer than " + std::to_string(limits_.body_bytes) +
                        " bytes; this server takes at most that (POST /solve: 10000 boards)",
                    used);
    }
    if (ec == e::error::bad_chunk_extension && extension_bytes_ > limits_.chunk_extensions) {
      return refuse(Refusal::kMalformed,
                    "the request body's chunk extensions are longer than " +
                        std::to_string(limits_.chunk_extensions) + " bytes in all",
                    used);
    }
    if (ec) {
      return refuse(Refusal::kMalformed,
                    "the request body's chunked framing is malformed (" + ec.message() + ")", used);
    }
  }
  return finish(used);
}

// `held`: the bytes of a chunked body Beast has not taken yet, which start
// with the next chunk-size line (after the CRLF that ends the last chunk's
// data), then, after the last chunk's line, the trailer section.
std::optional<ReadStep> RequestReader::check_held_framing(std::string_view held, std::size_t used) {
  if (!parser_->chunked()) return std::nullopt;
  if (held.substr(0, 2) == "\r\n") held.remove_prefix(2);
  const auto eol = held.find("\r\n");
  const std::size_t line = eol == std::string_view::npos ? held.size() : eol;
  if (line > limits_.chunk_line) {
    return refuse(Refusal::kMalformed,
                  "a chunk-size line of the request body (with its extensions) is longer than " +
                      std::to_string(limits_.chunk_line) + " bytes",
                  used);
  }
  if (eol == std::string_view::npos) return std::nullopt;
  // A whole line held back is the last chunk's ("0", extensions): the
  // trailer section follows it.
  if (held.size() - (eol + 2) > limits_.trailer_bytes) {
    return refuse(Refusal::kHeadersTooLarge,
                  "the request body's trailer section is longer than " +
                      std::to_string(limits_.trailer_bytes) + " bytes",
                  used);
  }
  return std::nullopt;
}

ReadStep RequestReader::finish(std::size_t consumed) {
  auto msg = parser_->release();
  Request req;
  req.method = msg.method();
  const auto method = msg.method_string();
  req.method_text.assign(method.data(), method.size());
  const auto target = msg.target();
  req.target.assign(target.data(), target.size());
  req.version = msg.version();
  req.body = std::move(msg.body());
  req.headers = std::move(static_cast<http::fields&>(msg));
  auto parts = parse_target(req.target);
  if (!parts.ok()) {
    // The framing is sound, so the connection can go on after this answer.
    request_ = std::move(req);  // for refused_request()
    return refuse(Refusal::kMalformed, parts.error().message, consumed, false);
  }
  req.path = std::move(parts->path);
  req.params = std::move(parts->params);
  request_ = std::move(req);
  phase_ = Phase::kDone;
  return step(ReadStep::Kind::kRequest, consumed);
}

Request RequestReader::take() {
  assert(request_.has_value());
  Request req = std::move(*request_);
  reset();
  return req;
}

}  // namespace eight::server
