#include "metrics_handler.h"

#include "problem.h"
#include "routes.h"

namespace eight::server {

void MetricsOnly::handle(const Request& req, Response& res,
                         const std::atomic<bool>& cancelled) const {
  if (route_of(req.path) != Route::kMetrics) {
    res.route = Route::kOther;
    return set_problem(res, problem_for_status(404, req.method_text, req.path));
  }
  if (req.method == http::verb::get || req.method == http::verb::head) {
    return service_.handle(req, res, cancelled);
  }
  // Not even OPTIONS: no web page has any business here.
  res.route = Route::kMetrics;
  res.set_header("Allow", "GET, HEAD");
  set_problem(res, problem_for_status(405, req.method_text, req.path));
}

void MetricsOnly::refuse(Refusal why, std::string_view detail, Response& res) const {
  service_.refuse(why, detail, res);
}

bool WithoutMetrics::runs_long(const Request& req) const {
  return route_of(req.path) != Route::kMetrics && service_.runs_long(req);
}

void WithoutMetrics::handle(const Request& req, Response& res,
                            const std::atomic<bool>& cancelled) const {
  if (route_of(req.path) == Route::kMetrics) {
    res.route = Route::kOther;
    return set_problem(res, problem_for_status(404, req.method_text, req.path));
  }
  service_.handle(req, res, cancelled);
}

void WithoutMetrics::refuse(Refusal why, std::string_view detail, Response& res) const {
  service_.refuse(why, detail, res);
}

}  // namespace eight::server
