// The server's routes, listed once: registration, the index at /, the
// metrics' route label and the 405 check all read this list, so a route added
// here shows up everywhere.
//
// Thread safety: constants and pure functions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace eight::server {

enum class Route : std::uint8_t {
  kIndex,
  kSolve,
  kDistance,
  kTable,
  kHealthz,
  kReadyz,
  kMetrics,
  kOpenapi,
  kHint,
  kRandom,
  kStats,
  kTables,
  kOther,  // unknown paths, and requests the transport refused before routing
};
inline constexpr std::size_t kRouteCount = static_cast<std::size_t>(Route::kOther) + 1;

struct RouteInfo {
  Route route;
  std::string_view path;         // exact path; also the metrics label
  std::string_view query;        // query parameters, as shown in the index
  std::string_view description;  // one line, for the index
  bool post = false;             // also answers POST (a JSON body)
  // The query parameters a GET takes (empty names unused); any other is
  // refused, on every route alike.
  std::array<std::string_view, 8> params = {};
};

// Every routed path (kOther excluded), in the order the index lists them.
const std::array<RouteInfo, kRouteCount - 1>& routes();

// The route for an exact, decoded request path; kOther when none matches.
Route route_of(std::string_view path);

// The metrics label: the route's path, or "other".
std::string_view route_label(Route r);

// Batches (POST /solve): at most this many boards. Their body's size is
// the transport's Limits::body_bytes.
inline constexpr std::size_t kMaxBatchBoards = 10000;

// Methods a route answers, for Allow and CORS preflights: "GET, HEAD" plus
// POST where the route takes a body. HEAD is GET without the body. OPTIONS
// (a CORS preflight) is answered on every route.
std::string_view allowed_methods(Route r);

}  // namespace eight::server
