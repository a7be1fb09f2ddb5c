#include "compute_pool.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

namespace eight::server {

ComputePool::ComputePool(std::size_t threads, std::size_t capacity, ComputeGauges gauges,
                         ComputeShares shares)
    : capacity_(capacity), gauges_(gauges), shares_(shares) {
  assert(threads >= 1 && capacity >= 1);
  if (shares_.per_client_queued == 0) shares_.per_client_queued = capacity;
  if (shares_.per_client_running == 0) shares_.per_client_running = threads;
  workers_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ComputePool::~ComputePool() {
  stop();
}

std::shared_ptr<ComputeTicket> ComputePool::try_submit(std::string client,
                                                       std::function<void()> job, Refused* why) {
  auto ticket = std::make_shared<ComputeTicket>();
  ticket->queued_at_ = std::chrono::steady_clock::now();
  Refused refused = Refused::kNone;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) {
      refused = Refused::kStopped;
    } else if (queued_ >= capacity_) {
      refused = Refused::kFull;
    } else {
      Client& c = clients_[client];
      if (c.queued.size() >= shares_.per_client_queued) {
        refused = Refused::kClientQueued;
        if (c.queued.empty() && c.running == 0) clients_.erase(client);
      } else {
        ticket->job_ = std::move(job);
        ticket->client_ = client;
        if (c.queued.empty()) turns_.push_back(std::move(client));
        c.queued.push_back(ticket);
        ++queued_;
        publish_gauges();
      }
    }
  }
  if (why != nullptr) *why = refused;
  if (refused != Refused::kNone) return nullptr;
  wake_.notify_one();
  return ticket;
}

bool ComputePool::withdraw(const std::shared_ptr<ComputeTicket>& ticket) {
  std::function<void()> dropped;  // destroyed after the lock is released
  {
    std::lock_guard lock(mutex_);
    if (ticket->started_ || ticket->gone_) return false;
    ticket->gone_ = true;
    const auto it = clients_.find(ticket->client_);
    assert(it != clients_.end());
    auto& q = it->second.queued;
    q.erase(std::find(q.begin(), q.end(), ticket));
    --queued_;
    if (q.empty()) {
      turns_.erase(std::find(turns_.begin(), turns_.end(), ticket->client_));
      if (it->second.running == 0) clients_.erase(it);
    }
    publish_gauges();
    dropped = std::move(ticket->job_);
  }
  return true;
}

std::size_t ComputePool::queued() const {
  std::lock_guard lock(mutex_);
  return queued_;
}

std::size_t ComputePool::clients_remembered() const {
  std::lock_guard lock(mutex_);
  return usage_.size();
}

void ComputePool::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) {
    if (w.joinable()) w.join();
  }
}

void ComputePool::publish_gauges() {
  if (gauges_.queued != nullptr) gauges_.queued->store(static_cast<std::int64_t>(queued_));
  if (gauges_.running != nullptr) gauges_.running->store(static_cast<std::int64_t>(running_));
}

namespace {

double seconds_since_epoch(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

// What is left of `seconds` of thread time after `elapsed`.
double decayed(double seconds, std::chrono::steady_clock::duration elapsed) {
  const double halves =
      std::chrono::duration<double>(elapsed) / std::chrono::duration<double>(kUsageHalfLife);
  return seconds * std::exp2(-halves);
}

}  // namespace

double ComputePool::thread_time(const std::string& name, const Client& c,
                                Clock::time_point now) const {
  double t = static_cast<double>(c.running) * seconds_since_epoch(now) - c.running_since;
  if (const auto it = usage_.find(name); it != usage_.end()) {
    t += decayed(it->second.seconds, now - it->second.at);
  }
  return t;
}

void ComputePool::charge(const std::string& name, double seconds, Clock::time_point now) {
  Usage& u = usage_[name];
  u.seconds = decayed(u.seconds, now - u.at) + seconds;
  u.at = now;
  if (usage_.size() <= 2 * kMaxClientsRemembered) return;
  // Too many remembered (many addresses, each a little): keep the most.
  std::vector<std::pair<double, std::string>> all;
  all.reserve(usage_.size());
  for (const auto& [key, v] : usage_) all.emplace_back(decayed(v.seconds, now - v.at), key);
  std::nth_element(all.begin(), all.begin() + kMaxClientsRemembered, all.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto it = all.begin() + kMaxClientsRemembered; it != all.end(); ++it) {
    usage_.erase(it->second);
  }
}

std::size_t ComputePool::next_turn(Clock::time_point now) const {
  // Of the clients waiting, in turn, the first that has used the least
  // thread time and is below its running share.
  std::size_t best = turns_.size();
  double best_time = 0;
  for (std::size_t i = 0; i < turns_.size(); ++i) {
    const Client& c = clients_.at(turns_[i]);
    if (c.running >= shares_.per_client_running) continue;
    const double t = thread_time(turns_[i], c, now);
    if (best == turns_.size() || t < best_time) {
      best = i;
      best_time = t;
    }
  }
  return best;
}

std::shared_ptr<ComputeTicket> ComputePool::take_next() {
  // The client next_turn() names gives its oldest job and goes to the back
  // of the round.
  const Clock::time_point now = Clock::now();
  const std::size_t best = next_turn(now);
  if (best == turns_.size()) return nullptr;
  std::string name = std::move(turns_[best]);
  turns_.erase(turns_.begin() + static_cast<std::ptrdiff_t>(best));
  Client& c = clients_.at(name);
  auto ticket = std::move(c.queued.front());
  c.queued.pop_front();
  ++c.running;
  c.running_since += seconds_since_epoch(now);
  --queued_;
  ++running_;
  if (!c.queued.empty()) turns_.push_back(std::move(name));
  ticket->started_ = true;
  ticket->started_at_ = now;
  publish_gauges();
  return ticket;
}

void ComputePool::work() {
  // Below the I/O threads: on a machine with as many busy workers as cores,
  // a search or a batch must not make a table answer wait for a core (at
  // the same priority, 32 clients' 3x3 p99 went past 5 ms beside 32
  // clients' 4x4 searches on two cores; at this one it stays under). On
  // Linux the nice value is per thread; raising it needs no privilege, so
  // a failure (another system) only leaves the default.
  ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kWorkerNice);
  std::unique_lock lock(mutex_);
  for (;;) {
    std::shared_ptr<ComputeTicket> ticket;
    wake_.wait(lock, [&] {
      ticket = take_next();
      return ticket != nullptr || (stopping_ && queued_ == 0);
    });
    if (!ticket) return;  // stopping, and every queued job has run
    auto job = std::move(ticket->job_);
    lock.unlock();
    job();
    job = nullptr;  // what it holds is released before the next job
    lock.lock();
    --running_;
    publish_gauges();
    const auto it = clients_.find(ticket->client_);
    const Clock::time_point now = Clock::now();
    charge(ticket->client_, std::chrono::duration<double>(now - ticket->started_at_).count(), now);
    it->second.running_since -= seconds_since_epoch(ticket->started_at_);
    if (--it->second.running == 0) {
      it->second.running_since = 0;  // (no rounding error left behind)
      if (it->second.queued.empty()) clients_.erase(it);
    }
    // A client that was at its running share may go on: wake a worker for it.
    wake_.notify_all();
  }
}

}  // namespace eight::server
