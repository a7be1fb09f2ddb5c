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
  kOther,  // unknown paths, and requests httplib rejected before routing
};
inline constexpr std::size_t kRouteCount = static_cast<std::size_t>(Route::kOther) + 1;

struct RouteInfo {
  Route route;
  std::string_view path;         // exact path; also the metrics label
  std::string_view query;        // query parameters, as shown in the index
  std::string_view description;  // one line, for the index
};

// Every routed path (kOther excluded), in the order the index lists them.
const std::array<RouteInfo, kRouteCount - 1>& routes();

// The route for an exact, decoded request path; kOther when none matches.
Route route_of(std::string_view path);

// The metrics label: the route's path, or "other".
std::string_view route_label(Route r);

// Methods every route answers. HEAD is GET without the body.
inline constexpr std::string_view kAllowedMethods = "GET, HEAD";

}  // namespace eight::server
