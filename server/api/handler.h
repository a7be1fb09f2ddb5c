// What the transport asks of the API: the one interface between the two
// layers of eight-server. The transport reads requests, keeps deadlines and
// writes answers; a Handler decides what each request means, in two steps:
// plan() reads and checks the request and says whether it runs long; run()
// answers it from that plan, inline on the I/O thread or on the compute
// pool (plan.h).
//
// Thread safety: every member function may be called from any thread at
// once (I/O threads and compute-pool threads).
#pragma once

#include <atomic>
#include <string_view>

#include "plan.h"
#include "refusal.h"
#include "request.h"
#include "response.h"

namespace eight::server {

class Handler {
 public:
  virtual ~Handler() = default;

  // Reads and checks `req`, cheaply (bounded in advance: no search, no
  // body), and says where it runs: plan.runs_long ones on the compute pool,
  // the rest inline on the I/O thread, which must never wait on one of
  // them. Never throws.
  virtual Plan plan(const Request& req) const = 0;

  // Answers `req` into `res` (a fresh Response) from `plan`, this handler's
  // plan of `req`. Never throws for any input. `cancelled` becomes true
  // when the client has gone: a long answer may stop early, since its
  // response will be dropped.
  virtual void run(const Request& req, const Plan& plan, Response& res,
                   const std::atomic<bool>& cancelled) const = 0;

  // The answer to a request the transport refused; `detail` says exactly
  // what was wrong, for a person.
  virtual void refuse(Refusal why, std::string_view detail, Response& res) const = 0;

  // Both steps at once, where the thread does not matter (tests,
  // benchmarks, fuzzers).
  void handle(const Request& req, Response& res, const std::atomic<bool>& cancelled) const {
    run(req, plan(req), res, cancelled);
  }
  bool runs_long(const Request& req) const { return plan(req).runs_long; }
};

}  // namespace eight::server
