// What the transport asks of the API: the one interface between the two
// layers of eight-server. The transport reads requests, keeps deadlines and
// writes answers; a Handler decides what each request means.
//
// Thread safety: every member function may be called from any thread at
// once (I/O threads and compute-pool threads).
#pragma once

#include <atomic>
#include <string_view>

#include "request.h"
#include "response.h"

namespace eight::server {

// Why the transport refused a request before handing it to the API. Each
// maps to one status and problem type (problem.h).
enum class Refusal {
  kMalformed,              // 400: bad syntax or framing, chunk lines past their limits
                           // (the connection closes)
  kRequestLineTooLong,     // 414
  kHeadersTooLarge,        // 431: the header or trailer section's size or field count
  kBodyTooLarge,           // 413
  kEncodedBody,            // 415: a Content-Encoding on a request body
  kUnknownTransferCoding,  // 501
  kExpectation,            // 417: an Expect other than 100-continue
  kOverloaded,             // 503: the compute pool (or the client's share of it) is full,
                           // or the request waited past Limits::queue_wait
  kStopping,               // 503: the server stops before it could answer
};

class Handler {
 public:
  virtual ~Handler() = default;

  // Whether answering `req` may take long (milliseconds and up: a batch, a
  // search). Those run on the compute pool; the rest inline on the I/O
  // thread, which must never wait on one of them.
  virtual bool runs_long(const Request& req) const = 0;

  // Answers `req` into `res` (a fresh Response). Never throws for any input.
  // `cancelled` becomes true when the client has gone: a long answer may
  // stop early, since its response will be dropped.
  virtual void handle(const Request& req, Response& res,
                      const std::atomic<bool>& cancelled) const = 0;

  // The answer to a request the transport refused; `detail` says exactly
  // what was wrong, for a person.
  virtual void refuse(Refusal why, std::string_view detail, Response& res) const = 0;
};

}  // namespace eight::server
