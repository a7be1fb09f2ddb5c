// The memory budget's side of a session (session.h, "Memory";
// Limits::memory_budget): what a connection holds, its share of the
// server's count, and the refusal past the budget.
#include "session.h"

#include <string>

namespace eight::server {

std::string Session::over_budget_detail() const {
  return "the server holds as much request and answer data as its memory budget (" +
         std::to_string(state_.limits.memory_budget / (1024 * 1024)) +
         " MiB) allows; retry in a moment";
}

std::size_t Session::held() const {
  return in_.capacity() + reader_.body_held() +
         (computing_request_ ? computing_request_->body.capacity() : 0) + out_.capacity() +
         external_held_;
}

void Session::account() {
  const std::size_t now = held();
  if (now == accounted_) return;
  state_.memory.fetch_add(static_cast<std::int64_t>(now) - static_cast<std::int64_t>(accounted_),
                          std::memory_order_relaxed);
  accounted_ = now;
}

bool Session::over_budget(std::size_t extra) const {
  return state_.memory.load(std::memory_order_relaxed) + static_cast<std::int64_t>(extra) >
         static_cast<std::int64_t>(state_.limits.memory_admitted());
}

// A body that would take the connections past the memory budget: 503, and
// the connection closes after it (its body cannot be skipped otherwise).
void Session::refuse_for_memory(Clock::time_point start) {
  ReadStep step;
  step.kind = ReadStep::Kind::kRefused;
  step.why = Refusal::kOverloaded;
  step.detail = over_budget_detail();
  step.close = true;
  refused(step, start);
}

}  // namespace eight::server
