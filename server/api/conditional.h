// Conditional and range requests for /table (RFC 9110 sections 13 and 14),
// as pure functions over header values.
//
// Only /table honours Range; every other answer is whole whatever the
// request asks (RFC 9110 14.2 lets a server ignore Range).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string_view>

namespace eight::server {

// True when an If-None-Match value matches `etag` (a quoted strong ETag):
// "*", or any listed entity tag equal to it under weak comparison (a W/
// prefix is ignored).
bool if_none_match(std::string_view header, std::string_view etag);

struct RangeDecision {
  enum class Kind {
    kFull,           // no usable Range: send 200 and the whole representation
    kPartial,        // send 206 with bytes [first, last]
    kUnsatisfiable,  // send 416 with Content-Range: bytes */size
  };
  Kind kind = Kind::kFull;
  std::uint64_t first = 0;
  std::uint64_t last = 0;  // inclusive
};

// What to send for a Range header `range` (empty when absent) and an
// If-Range header `if_range` (empty when absent) on a representation of
// `size` > 0 bytes with strong ETag `etag`. One byte range is served; a
// malformed header, another unit, several ranges, or an If-Range that does
// not match `etag` all give kFull, which RFC 9110 allows. A last position
// past the end is cut to the end; a first position past the end, or a
// zero-length suffix, is unsatisfiable.
RangeDecision decide_range(std::string_view range, std::string_view if_range, std::string_view etag,
                           std::uint64_t size);

}  // namespace eight::server
