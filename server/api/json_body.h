// Reading the JSON body of POST /solve ({"boards": [...], ...}) in time
// linear in its bytes, with every limit checked as the bytes stream past.
//
// nlohmann's SAX parser drives a handler of our own (the public json_sax
// interface), which builds the DOM the batch reads. It replaced
// nlohmann::json::parse with a parser callback, whose DOM builder scans its
// parent container for discarded values after every object it closes:
// quadratic for an array of objects (a 2 MiB body of 699,000 {} took 73 s
// of a compute thread, before its 413; issue 41, finding 2).
//
// Refused (400 bad-body unless said), each as soon as the parse reaches it,
// without reading on:
//   - nesting past kMaxJsonDepth (a value inside more than 64 containers);
//   - a key given twice in one object (nlohmann would keep the last);
//   - more than kMaxBatchBoards items in the root's "boards" array: 413
//     too-many-boards at item 10,001;
//   - more than kMaxBodyValues values in all (bounds the DOM's memory);
//   - anything that is not JSON (nlohmann's own message).
// The checks of the fields themselves (unknown fields, types) are the
// batch's (batches.cpp), on the DOM.
//
// Work: every kBodyCheckEvents parse events the reader checks `cancelled`
// (the client has gone, or the server stops) and `deadline`; either stops it
// (BodyStop) within milliseconds. Memory: the DOM of at most kMaxBodyValues
// values (about 80 bytes each) and the body's strings.
//
// Thread safety: a pure function over its arguments.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string_view>
#include <variant>

#include "problem.h"
#include "routes.h"

namespace eight::server {

// JSON bodies nest at most this deep: a batch body nests two levels
// ({"boards": [...]}), so 64 leaves room for any honest client while a
// body of 100,000 '[' is refused before anything recurses over it.
inline constexpr int kMaxJsonDepth = 64;

// Values (scalars, arrays and objects; not keys) one body may hold: an
// honest batch has at most four per board ({"board": B, "goal": G,
// "path": P}) and a few fields, so four per board and 64 more hold it,
// while a 2 MiB body of [0,0,0,...] inside one item (1,000,000 values, 16
// MB of DOM) is refused.
inline constexpr std::size_t kMaxBodyValues = 4 * kMaxBatchBoards + 64;

// Parse events between two looks at the cancel flag and the deadline: a
// few hundred microseconds of parsing.
inline constexpr std::size_t kBodyCheckEvents = 4096;

// Why the reader stopped before an answer: nobody will read it (kCancelled),
// or the request's time is up (kDeadline). The caller answers either.
enum class BodyStop { kCancelled, kDeadline };

using BodyRead = std::variant<nlohmann::json, Problem, BodyStop>;

// Reads `body` as a batch body: its DOM, or the problem that refuses it, or
// why it stopped. `deadline`: none, or the time past which the request's
// work stops.
BodyRead read_batch_body(std::string_view body, const std::atomic<bool>& cancelled,
                         std::optional<std::chrono::steady_clock::time_point> deadline);

}  // namespace eight::server
