// The Backend of `eight --server URL`: an eight-server, asked over HTTP by
// a ServerClient (server_client.h). Its answers are turned back into the
// values the offline tool computes (Solution, MoveOptions, boards), checked
// as they are read (json/answer_json.h), so the commands print them alike.
// Built into eight-remote.so (remote_module.h), never into `eight` itself.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "backend.h"
#include "server_client.h"

namespace eight::cli {

class ServerBackend final : public Backend {
 public:
  // `url` and `timeout_ms` as given (--server, --timeout-ms): checked by
  // open(). `fast` (--fast): every solve and hint asks for the fast answer
  // (a batch's "fast": true, GET /hint's fast=1).
  ServerBackend(std::string url, std::string timeout_ms, bool fast = false);

  std::optional<Failure> open() override;
  // GET /stats?goal=: whether the server's tables answer the goal (framed
  // as every question is, with the same message when they do not), and its
  // maximum distance; a goal answered by search (no statistics) is framed
  // as offline. Nothing framed when the server lacks the goal's shape and
  // every board takes its own shape's goal (`per_board_goal`).
  std::variant<std::optional<Framed>, Failure> frame(const GridBoard& goal,
                                                     bool per_board_goal) override;
  // POST /solve, every question in one request (up to the server's 10,000).
  std::variant<std::vector<SolveAnswer>, Failure> solve(const GridBoard& goal,
                                                        std::span<const SolveQuestion> questions,
                                                        bool path) override;
  // GET /hint.
  std::variant<MoveOptions, Failure> hint(const GridBoard& board, const GridBoard& goal,
                                          const std::optional<std::string>& known_path) override;
  // GET /random with count=: the boards from one generator, as offline, so
  // a seed gives the same boards.
  std::variant<std::vector<GridBoard>, Failure> random(const GridBoard& goal, const Framed& framed,
                                                       std::optional<int> distance,
                                                       std::uint64_t count,
                                                       std::optional<std::uint64_t> seed) override;
  RandomLimits random_limits() const override { return kServerRandomLimits; }
  // One request per 10,000 boards.
  std::size_t max_batch() const override { return kServerMaxBatch; }

 private:
  // random() of a goal framed as answered by search.
  std::variant<std::vector<GridBoard>, Failure> random_searched(const GridBoard& goal,
                                                                std::optional<int> distance,
                                                                std::uint64_t count,
                                                                std::optional<std::uint64_t> seed);

  std::string url_;
  std::string timeout_ms_;
  bool fast_;
  bool framed_ = true;  // false once frame() framed nothing (per_board_goal)
  std::unique_ptr<ServerClient> server_;
};

// The client of `url` with --timeout-ms `timeout_ms`, or why they are not
// usable (a usage error's message): --server's and fetch's.
std::variant<std::unique_ptr<ServerClient>, std::string> connect(const std::string& url,
                                                                 const std::string& timeout_ms);

}  // namespace eight::cli
