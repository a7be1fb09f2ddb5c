#include "routes.h"

namespace eight::server {

const std::array<RouteInfo, kRouteCount - 1>& routes() {
  // One route to a row.
  // clang-format off
  static constexpr std::array<RouteInfo, kRouteCount - 1> kRoutes = {{
      {Route::kIndex, "/", "", "this index of the endpoints"},
      {Route::kSolve, "/solve",
       "board=B[&goal=G][&shape=RxC][&boards=1][&budget=N][&optimal=required][&fast=1][&path=P]",
       "distance and an optimal path from board B to goal G (default 123456780), with the board "
       "after every move if boards=1; POST a JSON body {\"boards\": [...], \"goal\": G} to solve "
       "up to 10000 boards at once; 4x4 boards are searched, within budget=N nodes; boards up to "
       "10x10 that no table holds are searched briefly, then solved by a beam search (past 64 "
       "cells over a reduction's last region) or by reduction (optimal false, with a proven lower_bound) unless optimal=required; "
       "fast=1: quicker, longer bounded answers (a game's 10x10 in milliseconds); "
       "path=P, a path from B to G the client holds (letters u d l r), makes the answer no longer "
       "than it",
       true, {"board", "goal", "shape", "boards", "budget", "optimal", "fast", "path"}},
      {Route::kDistance, "/distance",
       "board=B[&goal=G][&shape=RxC][&budget=N][&optimal=required][&fast=1][&path=P]",
       "distance only from board B to goal G (default 123456780)", false,
       {"board", "goal", "shape", "budget", "optimal", "fast", "path"}},
      {Route::kTable, "/table", "[shape=RxC | name=FILE]",
       "the raw table file for offline use (ETag, If-None-Match, Range); with several files, "
       "shape=RxC picks the one answering that shape (default: the one answering 3x3) and "
       "name=FILE the one /tables names so", false, {"shape", "name"}},
      {Route::kTables, "/tables", "",
       "every table file the server answers from: name, download URL, ETag, size and shapes"},
      {Route::kHealthz, "/healthz", "", "liveness: the process answers"},
      {Route::kReadyz, "/readyz", "", "readiness: the table is mapped and verified"},
      {Route::kMetrics, "/metrics", "", "Prometheus metrics"},
      {Route::kHint, "/hint",
       "board=B[&goal=G][&shape=RxC][&budget=N][&optimal=required][&fast=1][&path=P]",
       "every legal next move from board B, best first, with the board it leads to and its "
       "distance; the optimal ones also as hints (where no answer is proven optimal, the first "
       "move of the path /solve gives, with path=P the same)", false,
       {"board", "goal", "shape", "budget", "optimal", "fast", "path"}},
      {Route::kRandom, "/random",
       "distance=D[&goal=G][&shape=RxC][&seed=S][&count=N][&budget=N]",
       "a board exactly D moves from goal G, uniformly at random (reproducible with seed S); "
       "count=N draws N of them from the one generator; for 4x4, distance is optional (a "
       "uniformly random solvable board); for the shapes no table holds (5x5 ... 10x10), there "
       "is no distance: a uniformly random solvable board", false,
       {"distance", "goal", "shape", "seed", "count", "budget"}},
      {Route::kStats, "/stats", "[goal=G][&shape=RxC]",
       "goal G's distance histogram, maximum distance and hardest boards", false, {"goal", "shape"}},
      {Route::kOpenapi, "/openapi.yaml", "", "OpenAPI 3 description of this API"},
  }};
  // clang-format on
  return kRoutes;
}

Route route_of(std::string_view path) {
  for (const RouteInfo& r : routes()) {
    if (r.path == path) return r.route;
  }
  return Route::kOther;
}

std::string_view allowed_methods(Route r) {
  for (const RouteInfo& info : routes()) {
    if (info.route == r && info.post) return "GET, HEAD, POST";
  }
  return "GET, HEAD";
}

std::string_view route_label(Route r) {
  for (const RouteInfo& info : routes()) {
    if (info.route == r) return info.path;
  }
  return "other";
}

}  // namespace eight::server
