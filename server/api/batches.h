// POST /solve with {"boards": [...], "goal": G, "shape": S, "budget": N,
// "optimal": "required"|"preferred", "fast": true|false}: up to kMaxBatchBoards answers in
// order, each item read as a single question is (question.h), a bad item
// answered in place with its error.
// The body is read here, where the batch runs (on the compute pool): its
// JSON, up to Limits::body_bytes, is itself long to parse (json_body.h:
// linear, cancellable, with its limits).
//
// Thread safety: pure functions (one snapshot of the slot per batch).
#pragma once

#include <cstdint>
#include <string>

#include "job.h"
#include "json_body.h"
#include "problem.h"
#include "request.h"
#include "response.h"
#include "table_slot.h"

namespace eight::server {

// A batch answers at most this many boards of the shapes no table holds
// (eight/answer.h's grid shapes: 2x7, 3x5, 5x5 ... 10x10): their paths run
// to thousands of moves (some 20 KB of JSON for 10x10, a few milliseconds
// each), so 10,000 of them would be 200 MB and a minute. The rest are
// answered in place with an error saying so.
inline constexpr std::size_t kMaxBatchGridBoards = 100;

// Answers the batch `req` (POST /solve) from the slot's table set, its 4x4
// boards searched within one budget they share (at most job.max_budget, the
// server's --max-budget; 0 turns searches off). The job's cancel flag
// stops it between boards and inside a search; its deadline stops a
// search, and past it every item left that a search would answer is
// answered in place, unsearched, saying so (table items still get their
// answers: microseconds each).
void solve_batch(const TableSlot& slot, const Job& job, const Request& req, Response& res);

}  // namespace eight::server
