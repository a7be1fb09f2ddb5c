// What the API makes of a request before answering it: Handler::plan()
// reads and checks it on the I/O thread (cheap and bounded: the route, the
// method, the query parameters, the question's board and goal, and the
// endpoint's own parameters), and says where it runs; Handler::run()
// answers from the plan, inline or on the compute pool, without reading a
// query parameter again.
//
// Thread safety: a plain value; it may move to another thread with its
// request.
#pragma once

#include <optional>

#include "problem.h"
#include "question.h"
#include "request.h"
#include "routes.h"

namespace eight::server {

struct Plan {
  // What run() does.
  enum class Step : std::uint8_t {
    kNotFound,     // 404: no such path
    kPreflight,    // 204 to OPTIONS, with the route's methods
    kWrongMethod,  // 405, with the route's methods
    kRefuse,       // `problem`: the parameters or the question were refused
    kBatch,        // POST /solve: its body is read where it runs
    kEndpoint,     // the route's endpoint, with `question` on routes that ask one
    kFailed,       // planning failed (out of memory): 500
  };

  Route route = Route::kOther;
  Step step = Step::kNotFound;
  // Whether answering may take long (milliseconds and up): those run on the
  // compute pool, the rest inline on the I/O thread. Set by runs_long()
  // below, the one definition.
  bool runs_long = false;
  std::optional<Problem> problem;  // for kRefuse
  // For kEndpoint on /solve, /distance, /hint, /random, /stats: the
  // question and every parameter of the endpoint's own, read.
  std::optional<Question> question;
};

// The one definition of a long answer, from what the plan read: a batch
// (up to kMaxBatchBoards boards, and searches among them); a question a
// search answers (a 4x4 board or goal: up to budget= nodes); /random with
// count= (up to kMaxRandomCount draws) or for a goal of a section not
// stored in full (mod-3: rejection sampling, up to about a second). A
// request refused before its endpoint runs is answered inline.
bool runs_long(const Plan& plan);

}  // namespace eight::server
