#include "metrics_handler.h"

#include "problem.h"
#include "routes.h"

namespace eight::server {

namespace {

bool is_metrics_read(const Request& req) {
  return route_of(req.path) == Route::kMetrics &&
         (req.method == http::verb::get || req.method == http::verb::head);
}

}  // namespace

Plan MetricsOnly::plan(const Request& req) const {
  return is_metrics_read(req) ? service_.plan(req) : Plan();
}

void MetricsOnly::run(const Request& req, const Plan& plan, Response& res,
                      const std::atomic<bool>& cancelled) const {
  if (route_of(req.path) != Route::kMetrics) {
    res.route = Route::kOther;
    return set_problem(res, problem_for_status(404, req.method_text, req.path));
  }
  if (is_metrics_read(req)) return service_.run(req, plan, res, cancelled);
  // Not even OPTIONS: no web page has any business here.
  res.route = Route::kMetrics;
  res.set_header("Allow", "GET, HEAD");
  set_problem(res, problem_for_status(405, req.method_text, req.path));
}

void MetricsOnly::refuse(Refusal why, std::string_view detail, Response& res) const {
  service_.refuse(why, detail, res);
}

Plan WithoutMetrics::plan(const Request& req) const {
  return route_of(req.path) == Route::kMetrics ? Plan() : service_.plan(req);
}

void WithoutMetrics::run(const Request& req, const Plan& plan, Response& res,
                         const std::atomic<bool>& cancelled) const {
  if (route_of(req.path) == Route::kMetrics) {
    res.route = Route::kOther;
    return set_problem(res, problem_for_status(404, req.method_text, req.path));
  }
  service_.run(req, plan, res, cancelled);
}

void WithoutMetrics::refuse(Refusal why, std::string_view detail, Response& res) const {
  service_.refuse(why, detail, res);
}

}  // namespace eight::server
