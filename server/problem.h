// Problem details (RFC 9457): the body of every error response.
//
// The one place where core error codes become HTTP statuses. Every problem
// has a stable `type` URI, kProblemBase + a slug ("bad-board", ...); the
// .invalid domain (RFC 2606) marks them as identifiers that never resolve.
// docs/api.md lists every type.
//
// Thread safety: pure functions.
#pragma once

#include <httplib.h>

#include <string>
#include <string_view>

#include "eight/result.h"

namespace eight::server {

inline constexpr std::string_view kProblemBase = "https://eight.invalid/problems/";
inline constexpr const char* kProblemContentType = "application/problem+json";

struct Problem {
  int status = 400;
  std::string_view slug;            // the type is kProblemBase + slug
  std::string_view title;           // short, the same for every problem of this type
  std::string detail;               // exactly what is wrong with this request
  std::string_view parameter = {};  // the query parameter at fault, if any
};

// A core error about the text of query parameter `parameter` ("board" or
// "goal"), or about answering it. `detail` is the core's message verbatim.
Problem problem_from_error(const Error& error, std::string_view parameter);

Problem missing_parameter(std::string_view parameter);
Problem repeated_parameter(std::string_view parameter, std::size_t times);
Problem unknown_parameter(std::string_view parameter, std::string_view allowed);

// Problems for statuses httplib decides on before or instead of a handler
// (unknown route, over-long request line, oversized body, bad Range, ...).
// `path` is the decoded request path, empty when httplib never parsed it.
Problem problem_for_status(int status, std::string_view method, std::string_view path);

// The problem+json body, keys in the order type, title, status, detail
// [, parameter]. Never throws, whatever bytes `detail` holds: invalid UTF-8
// becomes U+FFFD.
std::string problem_json(const Problem& p);

// Fills `res` with the problem: status, content type and body.
void set_problem(httplib::Response& res, const Problem& p);

}  // namespace eight::server
