// Reading HTTP/1.x requests out of the bytes a connection receives, with no
// socket in sight: the session (session.h) feeds it what arrives, the
// fuzzers feed it anything.
//
// Boost.Beast's parser does the parsing (request line, fields, chunked
// bodies). Around it this reader enforces what a server that sits behind
// proxies must, where Beast is lenient or silent, so that no two parties can
// disagree on where a request ends (request smuggling):
//   - limits on the request line (414), the header section's size and field
//     count (431) and the body (413; a declared length over the limit is
//     refused before a byte of it is read), and on a chunked body's framing:
//     each chunk-size line and all chunk extensions together (400), the
//     trailer section (431), from limits.h;
//   - every line ends in CRLF; obs-fold (a header line starting with a space
//     or tab) is refused, as RFC 9112 5.2 allows;
//   - at most one Content-Length, digits only (no "+24", "24abc", "24, 24");
//     Transfer-Encoding only as exactly "chunked", never with a
//     Content-Length and never in HTTP/1.0; another coding is 501;
//   - exactly one Host in HTTP/1.1 (RFC 9112 3.2), at most one in 1.0;
//   - a body with a Content-Encoding is 415: nothing is ever decompressed;
//   - Expect: 100-continue is honoured (kContinue), any other Expect is 417.
// A refusal of the framing means the connection cannot be read further: the
// answer must close it (ReadStep::close).
//
// Thread safety: one reader per connection, used by one thread at a time.
#pragma once

#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "api/handler.h"
#include "api/request.h"
#include "limits.h"

namespace eight::server {

struct ReadStep {
  enum class Kind {
    kNeedMore,  // every byte given was used (or kept for later); send more
    kContinue,  // the head asked "Expect: 100-continue" and its body has not
                // started: send "100 Continue", then more bytes
    kRequest,   // a whole request is ready: RequestReader::take()
    kRefused,   // answer `why` and `detail`, then close if `close`
  };
  Kind kind = Kind::kNeedMore;
  // Bytes of the input used, from its front. The rest (kNeedMore: bytes of a
  // head still incomplete; kRequest: the next, pipelined requests) must be
  // offered again, with whatever arrives after them.
  std::size_t consumed = 0;
  Refusal why = Refusal::kMalformed;
  std::string detail;
  bool close = true;
};

class RequestReader {
 public:
  enum class Phase {
    kIdle,  // between requests: no byte of the next one yet
    kHead,  // the request line and headers are arriving
    kBody,  // the headers are in; the body is arriving
    kDone,  // a request is ready to take(), or was refused
  };

  // `limits` must outlive the reader.
  explicit RequestReader(const Limits& limits) : limits_(limits) {}

  // Reads from the front of `bytes`, which start where the last call's
  // consumed bytes ended. REQUIRES: phase() != kDone.
  ReadStep read(std::string_view bytes);

  Phase phase() const { return phase_; }
  // Body bytes received so far by the request being read (for the body
  // rate): the body itself, not its chunk framing, which buys no time.
  std::size_t body_received() const { return body_received_; }
  // Bytes the reader holds for the body of the request being read (or
  // read, until take()): its buffer's capacity, which Beast reserves for a
  // declared Content-Length as soon as the head has parsed. For the memory
  // budget (limits.h).
  std::size_t body_held() const;
  // The method and target of the request being read once its head has
  // parsed (for the access log of a request that never finished), else empty.
  std::string_view method() const;
  std::string_view target() const;
  // The HTTP version to answer in: the request's once its head parsed, else 11.
  unsigned version() const;
  // A request whose framing was sound but whose target was refused (kRefused
  // with close false): its headers say whether the connection stays open.
  // Null otherwise.
  const Request* refused_request() const;

  // The request read. REQUIRES: the last read() returned kRequest. Leaves the
  // reader ready for the next request (phase() == kIdle).
  Request take();
  // Forgets a refused or finished request; the reader starts over (kIdle).
  void reset();

 private:
  using Parser = boost::beast::http::request_parser<boost::beast::http::string_body>;

  std::optional<ReadStep> read_head(std::string_view head, std::size_t& head_size);
  std::optional<ReadStep> parse_head(std::string_view head);
  std::optional<ReadStep> check_framing();
  ReadStep read_body(std::string_view bytes, std::size_t used);
  std::optional<ReadStep> check_held_framing(std::string_view held, std::size_t used);
  ReadStep refuse(Refusal why, std::string detail, std::size_t consumed, bool close = true);
  ReadStep finish(std::size_t consumed);

  const Limits& limits_;
  Phase phase_ = Phase::kIdle;
  // Head scanning, in bytes from the start of the head; kept across calls so
  // a head that trickles in is scanned once.
  std::size_t scanned_ = 0;
  std::size_t line_start_ = 0;
  std::size_t request_line_end_ = 0;  // 0 until the request line has ended
  std::size_t fields_ = 0;
  std::optional<Parser> parser_;
  bool expect_continue_ = false;
  std::size_t body_received_ = 0;
  std::size_t extension_bytes_ = 0;  // chunk extensions of this body so far
  // Beast's chunk-header callback; it must outlive parser_.
  std::function<void(std::uint64_t, std::string_view, boost::beast::error_code&)> on_chunk_;
  std::optional<Request> request_;
};

}  // namespace eight::server
