#include "problem.h"

#include <nlohmann/json.hpp>

#include "common/text.h"
#include "routes.h"

namespace eight::server {

std::string quote(std::string_view s, std::size_t max_shown) {
  // Appended rather than "'" + ... + "'": GCC 12 warns (-Wrestrict, a false
  // positive in libstdc++'s operator+) on that form.
  const std::string escaped = escape_bytes(s, max_shown);
  std::string out;
  out.reserve(escaped.size() + 2);
  out += '\'';
  out += escaped;
  out += '\'';
  return out;
}

Problem problem_from_error(const Error& error, std::string_view parameter) {
  const bool goal = parameter == "goal";
  switch (error.code) {
    case ErrorCode::kEmptyBoard:
    case ErrorCode::kBoardTooLong:
    case ErrorCode::kBadCharacter:
    case ErrorCode::kWrongCellCount:
    case ErrorCode::kAmbiguousShape:
    case ErrorCode::kWrongShape:
    case ErrorCode::kTileOutOfRange:
    case ErrorCode::kDuplicateTile:
    case ErrorCode::kNoBlank:
    case ErrorCode::kTwoBlanks:
      return {400, goal ? "bad-goal" : "bad-board", goal ? "Bad goal" : "Bad board", error.message,
              parameter};
    case ErrorCode::kNoShape:
      // A shape none of the server's files holds: a resource it does not
      // have (and could, once generated), so a 404; the message names the
      // shapes served and the generator command.
      return {404, "shape-not-served", "Shape not served", error.message, parameter};
    case ErrorCode::kNoSection:
      // A valid goal of a shape it serves, but a hand-built table without its
      // section: the request is well formed but this server cannot answer
      // it, which is not a server fault.
      return {422, "goal-not-covered", "Goal not covered by this table", error.message, parameter};
    case ErrorCode::kBadArgument:
      if (parameter == "shape") return {400, "bad-shape", "Bad shape", error.message, parameter};
      if (parameter == "path") return {400, "bad-path", "Bad path", error.message, parameter};
      return {400, "bad-request", "Bad request", error.message, parameter};
    case ErrorCode::kIo:
    case ErrorCode::kTruncated:
    case ErrorCode::kBadMagic:
    case ErrorCode::kBadVersion:
    case ErrorCode::kBadChecksum:
    case ErrorCode::kBadHeader:
    case ErrorCode::kBadEntry:
      // Table errors stop the server at start; no request can cause one.
      return {503, "table-unavailable", "Table unavailable", error.message, {}};
    case ErrorCode::kCancelled:
      // Only a stop cancels work whose answer is still read.
      return {503, "stopping", "Stopping", error.message, {}};
    case ErrorCode::kDeadlineExceeded:
      // The request's time (eight-server --job-deadline) ran out: the same
      // request would meet it again, so no Retry-After.
      return {503, "deadline-exceeded", "Deadline exceeded", error.message, parameter};
  }
  return {400, "bad-request", "Bad request", error.message, parameter};
}

Problem missing_parameter(std::string_view parameter) {
  return {400, "missing-parameter", "Missing query parameter",
          "query parameter '" + std::string(parameter) + "' is required", parameter};
}

Problem repeated_parameter(std::string_view parameter, std::size_t times) {
  return {400, "repeated-parameter", "Repeated query parameter",
          "query parameter '" + std::string(parameter) + "' is given " + std::to_string(times) +
              " times; give it once",
          parameter};
}

Problem unknown_parameter(std::string_view parameter, std::string_view allowed) {
  return {400,
          "unknown-parameter",
          "Unknown query parameter",
          "unknown query parameter " + quote(parameter) + "; this endpoint takes " +
              std::string(allowed),
          {}};
}

Problem problem_for_status(int status, std::string_view method, std::string_view path) {
  switch (status) {
    case 404:
      return {404, "not-found", "Not found",
              "no endpoint at " + quote(path) + "; GET / lists the endpoints"};
    case 405:
      return {405, "method-not-allowed", "Method not allowed",
              "method " + quote(method) + " is not allowed on " + quote(path) + "; use " +
                  std::string(allowed_methods(route_of(path)))};
    default:
      break;
  }
  return {500, "internal-error", "Internal server error",
          "the server failed to answer; this is a bug, please report it"};
}

Problem problem_for_refusal(Refusal why, std::string_view detail) {
  std::string d(detail);
  switch (why) {
    case Refusal::kMalformed:
      return {400, "bad-request", "Bad request", std::move(d)};
    case Refusal::kRequestLineTooLong:
      return {414, "query-too-long", "Query too long", std::move(d)};
    case Refusal::kHeadersTooLarge:
      return {431, "headers-too-large", "Request header fields too large", std::move(d)};
    case Refusal::kBodyTooLarge:
      return {413, "payload-too-large", "Payload too large", std::move(d)};
    case Refusal::kEncodedBody:
      return {415, "unsupported-content-encoding", "Unsupported content encoding", std::move(d)};
    case Refusal::kUnknownTransferCoding:
      return {501, "unsupported-transfer-coding", "Transfer coding not implemented", std::move(d)};
    case Refusal::kExpectation:
      return {417, "expectation-failed", "Expectation failed", std::move(d)};
    case Refusal::kOverloaded:
      return {503, "overloaded", "Overloaded", std::move(d)};
    case Refusal::kStopping:
      return {503, "stopping", "Stopping", std::move(d)};
  }
  return {400, "bad-request", "Bad request", std::move(d)};
}

Problem budget_exceeded(const SearchReport& report, std::uint64_t budget, std::uint64_t max_budget,
                        std::chrono::milliseconds time_limit) {
  const std::string advice =
      report.status == fifteen::SearchStatus::kDeadlineExceeded
          ? "; a request may take at most that long here (eight-server --job-deadline), so a "
            "larger budget would not help"
          : "; ask again with a larger budget=N (at most " + std::to_string(max_budget) + ")";
  Problem p{503, "search-budget-exceeded", "Search budget exceeded",
            describe_stop(report, budget, time_limit) + advice, "budget"};
  p.members = {{"nodes", report.nodes},
               {"budget", budget},
               {"bound", static_cast<std::uint64_t>(report.bound)},
               {"lower_bound", static_cast<std::uint64_t>(report.lower_bound)}};
  return p;
}

std::string problem_json(const Problem& p) {
  nlohmann::ordered_json j;
  j["type"] = std::string(kProblemBase) + std::string(p.slug);
  j["title"] = p.title;
  j["status"] = p.status;
  j["detail"] = p.detail;
  if (!p.parameter.empty()) j["parameter"] = p.parameter;
  for (const auto& [name, value] : p.members) j[std::string(name)] = value;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void set_problem(Response& res, const Problem& p) {
  res.set_status(p.status);
  res.set_content(problem_json(p), kProblemContentType);
}

}  // namespace eight::server
