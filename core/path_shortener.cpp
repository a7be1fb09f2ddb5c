#include "path_shortener.h"

#include <algorithm>
#include <cassert>
#include <chrono>

#include "beam_node.h"
#include "search/ida.h"

namespace eight::grid {
namespace {

// The shortest suffix the endgame searches, and how much longer each next
// one is: a suffix of 20 moves takes tens of nodes, and every fourth length
// (not every second) halves the searches that prove a suffix optimal.
constexpr int kEndgameFirst = 20;
constexpr int kEndgameStep = 4;

// Why a search stopped, if the budget stopped it.
fifteen::SearchStatus budget_status(const fifteen::SearchBudget& b) {
  if (b.cancel != nullptr && b.cancel->load(std::memory_order_relaxed)) {
    return fifteen::SearchStatus::kCancelled;
  }
  if (b.deadline && std::chrono::steady_clock::now() >= *b.deadline) {
    return fifteen::SearchStatus::kDeadlineExceeded;
  }
  return fifteen::SearchStatus::kSolved;
}

// The IDA* driver's Domain (search/ida.h) for the endgame: the beam's board
// with its heuristic kept as tiles move, towards the goal.
class Endgame {
 public:
  Endgame(const Geometry& g, const Pdb5x5Heuristic& pdb, Shape shape, const beam::SmallNode& from,
          std::uint64_t allowance, const fifteen::SearchBudget& budget)
      : g_(g), pdb_(pdb), shape_(shape), n_(from), allowance_(allowance), budget_(budget) {}

  int h() const { return n_.h(); }
  bool at_goal() const { return n_.md == 0; }  // every tile home, so the blank too
  int blank() const { return n_.blank; }
  int target(Move m) const { return neighbor(shape_, n_.blank, m); }
  void slide(int to) { beam::slide(g_, &pdb_, n_, to); }
  search::Visit visit() {
    if (nodes_ == allowance_) return search::Visit::kStop;
    if (++nodes_ % fifteen::kSearchCheckInterval == 0) {
      status_ = budget_status(budget_);
      if (status_ != fifteen::SearchStatus::kSolved) return search::Visit::kStop;
    }
    return search::Visit::kExpand;
  }

  std::uint64_t nodes() const { return nodes_; }
  // kSolved unless the cancel flag or the deadline stopped the search.
  fifteen::SearchStatus status() const { return status_; }

 private:
  const Geometry& g_;
  const Pdb5x5Heuristic& pdb_;
  Shape shape_;
  beam::SmallNode n_;
  std::uint64_t allowance_;
  const fifteen::SearchBudget& budget_;
  std::uint64_t nodes_ = 0;
  fifteen::SearchStatus status_ = fifteen::SearchStatus::kSolved;
};

// The board `moves` moves along `path` from `start`.
beam::SmallNode along(const Geometry& g, const Pdb5x5Heuristic& pdb, const GridBoard& start,
                      const std::vector<Move>& path, int moves) {
  beam::SmallNode n = beam::start_node<beam::SmallNode>(g, &pdb, start);
  for (int i = 0; i < moves; ++i) {
    const int to = neighbor(start.shape, n.blank, path[static_cast<std::size_t>(i)]);
    assert(to >= 0);
    beam::slide(g, &pdb, n, to);
  }
  return n;
}

}  // namespace

ShortenResult shorten_path(const GridBoard& start, const GridBoard& goal,
                           const BeamHeuristic& heuristic, std::vector<Move>& path,
                           const fifteen::SearchBudget& budget) {
  assert(is_valid(start) && is_valid(goal) && start.shape == goal.shape &&
         start.size() <= kSmallBeamCells);
  assert(heuristic.databases != nullptr && goal.shape == kShape5x5);
  ShortenResult out;
  const std::size_t before = path.size();
  const Geometry g(goal);
  const Pdb5x5Heuristic pdb(*heuristic.databases, goal);
  // The endgame: suffixes of the path, longer and longer, each searched for
  // a shorter path to the goal (a bound of its length less two: every path
  // between two boards has one parity); a shorter one found replaces it.
  // The last search is from the start itself.
  const std::uint64_t endgame = std::min(kEndgameNodes, budget.max_nodes);
  for (int r = std::min(kEndgameFirst, static_cast<int>(path.size())); r > 0 && out.nodes < endgame;
       r = std::min(r + kEndgameStep, static_cast<int>(path.size()))) {
    const int at = static_cast<int>(path.size()) - r;
    Endgame d(g, pdb, goal.shape, along(g, pdb, start, path, at), endgame - out.nodes, budget);
    search::Ida<Endgame> ida(d);
    const bool shorter = ida.solve(r - 2);
    out.nodes += d.nodes();
    out.status = d.status();
    if (ida.stopped()) break;
    if (shorter) {
      path.resize(static_cast<std::size_t>(at));
      path.insert(path.end(), ida.path().begin(), ida.path().end());
    }
    if (at == 0) {  // ran to its end from the start: no path is shorter
      out.optimal = true;
      break;
    }
  }
  out.saved = static_cast<int>(before - path.size());
  return out;
}

}  // namespace eight::grid
