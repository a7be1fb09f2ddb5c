// Problem details (RFC 9457): the body of every error response.
//
// The one place where core error codes and transport refusals become HTTP
// statuses. Every problem has a stable `type` URI, kProblemBase + a slug
// ("bad-board", ...); the .invalid domain (RFC 2606) marks them as
// identifiers that never resolve. docs/api.md lists every type.
//
// Thread safety: pure functions.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eight/answer.h"
#include "eight/result.h"
#include "refusal.h"
#include "response.h"

namespace eight::server {

inline constexpr std::string_view kProblemBase = "https://eight.invalid/problems/";
inline constexpr const char* kProblemContentType = "application/problem+json";

struct Problem {
  int status = 400;
  std::string_view slug;            // the type is kProblemBase + slug
  std::string_view title;           // short, the same for every problem of this type
  std::string detail;               // exactly what is wrong with this request
  std::string_view parameter = {};  // the query parameter at fault, if any
  // Extension members (RFC 9457 section 3.2), numbers after the standard
  // ones: a stopped search's nodes and bounds.
  std::vector<std::pair<std::string_view, std::uint64_t>> members = {};
};

// A 4x4 search that stopped at its budget of `budget` nodes: 503
// search-budget-exceeded, with the nodes searched, the bound reached and
// the proven lower bound as members, and how to ask for more (at most
// `max_budget`, the server's --max-budget). One that stopped at its
// deadline first (the server's --job-deadline, `time_limit`) is the same
// problem, its detail saying so (and `nodes` below `budget`): a larger
// budget would not help there.
Problem budget_exceeded(const SearchReport& report, std::uint64_t budget,
                        std::uint64_t max_budget = kMaxSearchNodes,
                        std::chrono::milliseconds time_limit = {});

// A core error about the text of query parameter `parameter` ("board" or
// "goal"), or about answering it. `detail` is the core's message verbatim.
Problem problem_from_error(const Error& error, std::string_view parameter);

Problem missing_parameter(std::string_view parameter);
Problem repeated_parameter(std::string_view parameter, std::size_t times);
// `allowed` lists what the endpoint takes ("board and goal").
Problem unknown_parameter(std::string_view parameter, std::string_view allowed);

// 404 on an unknown path, 405 for a method a route does not take, 500 for
// a bug. `path` is the decoded request path.
Problem problem_for_status(int status, std::string_view method, std::string_view path);

// A request the transport refused, with its detail.
Problem problem_for_refusal(Refusal why, std::string_view detail);

// Request text shown inside a detail: in single quotes, printable ASCII as
// is, other bytes as \xNN, cut after `max_shown` bytes with "...", so
// details stay short and readable whatever a client sent.
std::string quote(std::string_view s, std::size_t max_shown = 64);

// The problem+json body, keys in the order type, title, status, detail
// [, parameter]. Never throws, whatever bytes `detail` holds: invalid UTF-8
// becomes U+FFFD.
std::string problem_json(const Problem& p);

// Fills `res` with the problem: status, content type and body.
void set_problem(Response& res, const Problem& p);

}  // namespace eight::server
