// Server-side benchmarks: the handlers eight-server runs, without sockets,
// so the figures are the service's own cost (JSON in and out included) and
// not the network's.
//
//   make build && build/bin/eight-server-bench
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>
#include <random>
#include <unistd.h>

#include "eight/rank.h"
#include "eight/tablegen.h"
#include "metrics.h"
#include "service.h"
#include "table_slot.h"

namespace {

struct World {
  eight::server::TableSlot slot;
  eight::server::Metrics metrics;
  std::unique_ptr<eight::server::Service> service;

  World() {
    char path[] = "/tmp/eight-bench-XXXXXX";
    const int fd = ::mkstemp(path);
    ::close(fd);
    (void)eight::write_file_atomically(path, eight::build_table(eight::kDefaultSectionBlanks));
    auto loaded = eight::server::Loaded::open(path);
    ::unlink(path);
    slot.set(*loaded);
    service = std::make_unique<eight::server::Service>(slot, metrics);
  }
};

World& world() {
  static World w;
  return w;
}

// A POST /solve body of `n` boards drawn uniformly (fixed seed) from the
// standard goal's class: 22 moves each on average.
std::string batch_body(int n) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> pick(0, eight::kPositions - 1);
  nlohmann::json body;
  body["boards"] = nlohmann::json::array();
  for (int i = 0; i < n; ++i) body["boards"].push_back(eight::to_string(eight::unrank(pick(rng), 0)));
  return body.dump();
}

void BM_SolveBatch10k(benchmark::State& state) {
  World& w = world();
  httplib::Request req;
  req.method = "POST";
  req.path = "/solve";
  req.target = "/solve";
  req.body = batch_body(10000);
  std::size_t bytes_out = 0;
  for (auto _ : state) {
    httplib::Response res;
    w.service->solve_batch(req, res);
    if (res.status != 200) state.SkipWithError("batch failed");
    bytes_out = res.body.size();
    benchmark::DoNotOptimize(res.body.data());
  }
  state.SetItemsProcessed(state.iterations() * 10000);
  state.counters["response_MB"] = static_cast<double>(bytes_out) / 1e6;
}
BENCHMARK(BM_SolveBatch10k)->Unit(benchmark::kMillisecond);

void BM_SolveQuery(benchmark::State& state) {
  World& w = world();
  httplib::Request req;
  req.method = "GET";
  req.path = "/solve";
  req.params.emplace("board", "8 6 7 2 5 4 3 x 1");
  for (auto _ : state) {
    httplib::Response res;
    w.service->solve(req, res);
    benchmark::DoNotOptimize(res.body.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SolveQuery);

void BM_RandomQuery(benchmark::State& state) {
  World& w = world();
  httplib::Request req;
  req.method = "GET";
  req.path = "/random";
  req.params.emplace("distance", "20");
  for (auto _ : state) {
    httplib::Response res;
    w.service->random(req, res);
    benchmark::DoNotOptimize(res.body.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RandomQuery);

}  // namespace
