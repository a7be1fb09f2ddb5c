// The endpoints that answer a question (question.h) from the table or by
// search, turning the core's results into responses: /solve, /distance,
// /hint, /random and /stats. Each takes the question its plan read
// (plan.h), its own parameters included (read_asks()): none reads the
// request again.
//
// `job` (job.h) bounds each: its max_budget is the server's --max-budget,
// for the 503 of a search that stopped at its budget; its deadline and its
// cancel flag (the client has gone, or the server stops) stop a search or
// a run of draws. A search stopped at the deadline is answered as one
// stopped at its budget (503 search-budget-exceeded, saying so); draws
// stopped there, 503 deadline-exceeded.
//
// Thread safety: pure functions of their arguments (fresh seeds come from
// one generator behind a mutex).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>

#include "job.h"
#include "problem.h"
#include "question.h"
#include "request.h"
#include "response.h"
#include "routes.h"

namespace eight::server {

// GET /random?count=N draws at most this many boards. Each draw from a full
// section is O(1), but from a mod-3 section a far distance costs up to about
// 0.1 s (random.h), so a request with count= runs on the compute pool.
inline constexpr std::uint64_t kMaxRandomCount = 1000;

// Reads the parameters of `route`'s own into q.asks (optimal= and boards=
// for /solve and /distance, optimal= for /hint, distance=, seed= and
// count= for /random: the rules depend on the question's goal; fast= for
// /solve, /distance and /hint into q.framed->grid_fast), or the
// problem with the first that is refused. The plan step calls it after
// read_question(), so the answers below read no parameter.
std::optional<Problem> read_asks(Route route, const Request& req, Question& q);

// /solve (`with_path`) and /distance; /hint; /random; /stats.
void answer_solve(const Question& q, bool with_path, const Job& job, Response& res);
void answer_hint(const Question& q, const Job& job, Response& res);
void answer_random(const Question& q, const Job& job, Response& res);
void answer_stats(const Question& q, Response& res);

// Sets `res` to `j` as a 200 application/json answer.
void set_json(Response& res, const nlohmann::ordered_json& j);

}  // namespace eight::server
