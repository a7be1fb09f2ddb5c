// /metrics on an address of its own (eight-server --metrics-port): two
// Handlers that split the API between two transport Servers.
//
//   MetricsOnly  the metrics port: GET and HEAD /metrics, answered by the
//                Service itself (the same text, parameter checks and
//                headers); 405 for other methods there, 404 for every
//                other path. A scraper needs nothing else, and a port that
//                answers nothing else exposes nothing else.
//   WithoutMetrics  the public port: every request as the Service answers
//                it, except /metrics, which is 404 as an unknown path is,
//                so the public port does not reveal it.
//
// Neither answer on /metrics carries CORS headers (service.cpp): it is for
// operators' scrapers, never for web pages.
//
// Lifetime: the Service must outlive the handlers. Thread safety: as
// Handler (every member may run on any thread at once).
#pragma once

#include "handler.h"
#include "service.h"

namespace eight::server {

class MetricsOnly final : public Handler {
 public:
  explicit MetricsOnly(const Service& service) : service_(service) {}

  // The Service's plan of /metrics (quick: nothing here runs long); on
  // any other path, or for any other method, a plan run() never reads.
  Plan plan(const Request& req) const override;
  void run(const Request& req, const Plan& plan, Response& res,
           const std::atomic<bool>& cancelled) const override;
  void refuse(Refusal why, std::string_view detail, Response& res) const override;

 private:
  const Service& service_;
};

class WithoutMetrics final : public Handler {
 public:
  explicit WithoutMetrics(const Service& service) : service_(service) {}

  // The Service's plan, except on /metrics (a plan run() never reads).
  Plan plan(const Request& req) const override;
  void run(const Request& req, const Plan& plan, Response& res,
           const std::atomic<bool>& cancelled) const override;
  void refuse(Refusal why, std::string_view detail, Response& res) const override;

 private:
  const Service& service_;
};

}  // namespace eight::server
