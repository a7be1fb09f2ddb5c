// eight random [--distance D]: boards at a given distance from the goal (any
// distance, for a shape answered by search, without one).
#include <cstdio>
#include <string>

#include "commands.h"
#include "common/text.h"
#include "eight/shape.h"

namespace eight::cli {

int random_command(const Options& opt, Backend& backend) {
  const auto count = parse_decimal(opt.count);
  std::optional<std::uint64_t> seed;
  if (opt.seed) {
    seed = parse_decimal(*opt.seed);
    if (!seed) return usage_error("--seed takes a whole number from 0 to 2^64-1");
  }
  if (!count || *count < 1 || *count > 1000000) {
    return usage_error("--count takes a whole number from 1 to 1000000");
  }
  const Backend::RandomLimits limits = backend.random_limits();
  if (*count > limits.max_count) return usage_error(limits.count_usage);
  const auto goal = goal_of(opt);
  if (goal.index() == 1) return std::get<1>(goal);
  const GridBoard& g = std::get<0>(goal);
  // A table's boards are drawn by distance, whatever answers them: known
  // before anything is opened (or a module loaded, for --server).
  if (!opt.distance && is_table_shape(g.shape)) return usage_error("random needs --distance D");
  if (auto f = backend.open()) return report(*f);
  const auto frame = backend.frame(g, false);
  if (const auto* f = std::get_if<Failure>(&frame)) return report(*f);
  const Framed& framed = *std::get<std::optional<Framed>>(frame);
  // Past the table shapes: drawn by search, distance optional (a uniformly
  // random board).
  std::optional<int> distance;
  if (opt.distance && !framed.exact) {
    return usage_error("--distance is left out for " + to_string(g.shape) +
                       " boards, whose distances are not exact");
  }
  if (opt.distance) {
    const auto d = parse_decimal(*opt.distance);
    if (!d || *d > static_cast<std::uint64_t>(framed.max_distance)) {
      return usage_error("--distance must be a whole number from 0 to " +
                         std::to_string(framed.max_distance) + " for goal " + to_string(g));
    }
    distance = static_cast<int>(*d);
  }
  const auto boards = backend.random(g, framed, distance, *count, seed);
  if (const auto* f = std::get_if<Failure>(&boards)) return report(*f);
  std::string out;
  for (const GridBoard& b : std::get<std::vector<GridBoard>>(boards)) {
    out += to_string(b);
    out += '\n';
  }
  emit(out);
  return kExitOk;
}

}  // namespace eight::cli
