#include "problem.h"

#include <nlohmann/json.hpp>

#include "routes.h"

namespace eight::server {
namespace {

// Shows request text inside a detail message: printable ASCII as is, other
// bytes as \xNN, and long text cut, so details stay short and readable.
std::string quote(std::string_view s) {
  constexpr std::size_t kMaxShown = 64;
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (s.size() > kMaxShown) out += "...";
  out += "'";
  return out;
}

}  // namespace

Problem problem_from_error(const Error& error, std::string_view parameter) {
  const bool goal = parameter == "goal";
  switch (error.code) {
    case ErrorCode::kEmptyBoard:
    case ErrorCode::kBoardTooLong:
    case ErrorCode::kBadCharacter:
    case ErrorCode::kWrongCellCount:
    case ErrorCode::kTileOutOfRange:
    case ErrorCode::kDuplicateTile:
    case ErrorCode::kNoBlank:
    case ErrorCode::kTwoBlanks:
      return {400, goal ? "bad-goal" : "bad-board", goal ? "Bad goal" : "Bad board", error.message,
              parameter};
    case ErrorCode::kNoSection:
      // A valid goal this table was built without: the request is well formed
      // but this server cannot answer it, which is not a server fault.
      return {422, "goal-not-covered", "Goal not covered by this table", error.message, parameter};
    case ErrorCode::kBadArgument:
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
    case 413:
      return {413, "payload-too-large", "Payload too large",
              "the request body is larger than this server accepts: POST /solve takes at most " +
                  std::to_string(kMaxBatchBytes) + " bytes (" + std::to_string(kMaxBatchBoards) +
                  " boards)"};
    case 414:
      // httplib refuses request lines over CPPHTTPLIB_REQUEST_URI_MAX_LENGTH
      // before any handler runs. The issue asks for 400 on an over-long
      // query, so the status is 400 and the type names the cause.
      return {400, "query-too-long", "Query too long",
              "the request line is longer than " +
                  std::to_string(CPPHTTPLIB_REQUEST_URI_MAX_LENGTH) +
                  " bytes; a board or goal is at most 128 characters"};
    case 416:
      return {416, "range-not-satisfiable", "Range not satisfiable",
              "the Range header cannot be parsed; /table serves one range, written "
              "bytes=first-last, bytes=first- or bytes=-suffix"};
    case 400:
      return {400, "bad-request", "Bad request",
              "the request line or headers are malformed or too long"};
    default:
      break;
  }
  if (status >= 500) {
    return {status, "internal-error", "Internal server error",
            "the server failed to answer; this is a bug, please report it"};
  }
  return {status, "bad-request", "Bad request", "the request was refused"};
}

std::string problem_json(const Problem& p) {
  nlohmann::ordered_json j;
  j["type"] = std::string(kProblemBase) + std::string(p.slug);
  j["title"] = p.title;
  j["status"] = p.status;
  j["detail"] = p.detail;
  if (!p.parameter.empty()) j["parameter"] = p.parameter;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void set_problem(httplib::Response& res, const Problem& p) {
  res.status = p.status;
  res.set_content(problem_json(p), kProblemContentType);
}

}  // namespace eight::server
