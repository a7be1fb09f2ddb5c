// The Backend of the offline tool: the local tables (--table PATH, --tables
// DIR or their default), answered by eight's core library in this process.
#pragma once

#include <optional>

#include "backend.h"
#include "eight/answer.h"
#include "eight/table_set.h"

namespace eight::cli {

class TableBackend final : public Backend {
 public:
  // `budget`: the nodes a search may expand per question (--budget);
  // `require_optimal`: only proven optimal answers (--optimal required);
  // `fast`: every question's Question::grid_fast (--fast).
  TableBackend(TableSource source, std::uint64_t budget, bool require_optimal = false,
               bool fast = false);

  // Opens every file of the source with its checksum checked
  // (Check::kChecksum, about 0.1 ms: nothing proportional to its entries).
  std::optional<Failure> open() override;
  std::variant<std::optional<Framed>, Failure> frame(const GridBoard& goal,
                                                     bool per_board_goal) override;
  std::variant<std::vector<SolveAnswer>, Failure> solve(const GridBoard& goal,
                                                        std::span<const SolveQuestion> questions,
                                                        bool path) override;
  std::variant<MoveOptions, Failure> hint(const GridBoard& board, const GridBoard& goal,
                                          const std::optional<std::string>& known_path) override;
  std::variant<std::vector<GridBoard>, Failure> random(const GridBoard& goal, const Framed& framed,
                                                       std::optional<int> distance,
                                                       std::uint64_t count,
                                                       std::optional<std::uint64_t> seed) override;
  // Few at a time: the answers (some 200 bytes each) stay in the cache and
  // in memory already mapped; 10,000 at once, as for a server, made 10,005
  // boards take 9.53 ms against 7.09 ms now (docs/performance.md).
  std::size_t max_batch() const override { return 256; }
  // As many as the tool draws (its --count limit, checked before).
  RandomLimits random_limits() const override {
    return {1000000, "--count takes a whole number from 1 to 1000000"};
  }

 private:
  TableSource source_;
  fifteen::SearchBudget budget_;
  bool require_optimal_;
  bool fast_;
  std::optional<TableSet> tables_;
  std::optional<Question> question_;  // the goal framed
};

}  // namespace eight::cli
