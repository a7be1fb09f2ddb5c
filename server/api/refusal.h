// The transport's refusals (handler.h), apart so problem.h can map them
// without the whole Handler interface.
#pragma once

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

}  // namespace eight::server
