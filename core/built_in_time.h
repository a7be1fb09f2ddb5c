// Waiting for a set of pattern databases whose build runs in the
// background: the grid IDA*'s sets (grid_search.cpp; the beam's 5x5 sets
// are read from tables, never built while answering). Private to the core.
//
// Thread safety: a pure function; `ready` must be safe to call from the
// calling thread.
#pragma once

#include <chrono>
#include <thread>

#include "eight/fifteen_search.h"

namespace eight::grid {

// What `ready()` returns (it starts the build if it is not under way and
// returns the set once built, else null), asked every 10 ms until it is not
// null, the cancel flag is set or half the time to budget.deadline has
// passed (the other half is the search's; no deadline: no wait): null when
// it is not built by then. Waiting, rather than searching at once without
// it, keeps a board's answer the same from the first question on whenever
// the build takes less than that: the playground showed a 5x5 board "found
// in 128 moves", the next ask 96, once its set was built.
template <typename Ready>
auto built_within_half_the_time(Ready ready, const fifteen::SearchBudget& budget) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const Clock::time_point until = budget.deadline ? start + (*budget.deadline - start) / 2 : start;
  for (;;) {
    if (const auto built = ready()) return built;
    if (Clock::now() >= until) return decltype(ready()){};
    if (budget.cancel != nullptr && budget.cancel->load(std::memory_order_relaxed)) {
      return decltype(ready()){};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace eight::grid
