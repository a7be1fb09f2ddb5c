// Server-side benchmarks: the handlers eight-server runs, without sockets,
// so the figures are the service's own cost (JSON in and out included) and
// not the network's.
//
//   make build && build/bin/eight-server-bench
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>
#include <random>

#include "eight/rank.h"
#include "standalone.h"

namespace {

eight::server::Standalone& world() {
  static eight::server::Standalone w;
  return w;
}

// A POST /solve body of `n` boards drawn uniformly (fixed seed) from the
// standard goal's class: 22 moves each on average.
std::string batch_body(int n) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> pick(0, eight::kPositions3x3 - 1);
  nlohmann::json body;
  body["boards"] = nlohmann::json::array();
  for (int i = 0; i < n; ++i)
    body["boards"].push_back(eight::to_string(eight::unrank_3x3(pick(rng), 0)));
  return body.dump();
}

void BM_SolveBatch10k(benchmark::State& state) {
  auto& w = world();
  const auto req =
      eight::server::make_request(boost::beast::http::verb::post, "/solve", {}, batch_body(10000));
  const std::atomic<bool> cancelled{false};
  std::size_t bytes_out = 0;
  for (auto _ : state) {
    eight::server::Response res;
    w.service.handle(req, res, cancelled);
    if (res.status() != 200) state.SkipWithError("batch failed");
    bytes_out = res.body.size();
    benchmark::DoNotOptimize(res.body.data());
  }
  state.SetItemsProcessed(state.iterations() * 10000);
  state.counters["response_MB"] = static_cast<double>(bytes_out) / 1e6;
}
BENCHMARK(BM_SolveBatch10k)->Unit(benchmark::kMillisecond);

// One GET through the same dispatch the server uses, with one parameter.
void BM_Get(benchmark::State& state, const char* path, const char* name, const char* value) {
  auto& w = world();
  eight::server::Request req;
  req.path = path;
  req.target = path;
  req.params.emplace_back(name, value);
  const std::atomic<bool> cancelled{false};
  for (auto _ : state) {
    eight::server::Response res;
    w.service.handle(req, res, cancelled);
    if (res.status() != 200) state.SkipWithError("request failed");
    benchmark::DoNotOptimize(res.body.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_Get, solve_31_moves, "/solve", "board", "8 6 7 2 5 4 3 x 1");
BENCHMARK_CAPTURE(BM_Get, hint_31_moves, "/hint", "board", "8 6 7 2 5 4 3 x 1");
BENCHMARK_CAPTURE(BM_Get, random_distance_20, "/random", "distance", "20");

}  // namespace
