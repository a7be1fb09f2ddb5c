#include "eight/fifteen_search.h"

#include <algorithm>
#include <cassert>
#include <climits>

#include "duplicate_paths.h"
#include "eight/goal.h"
#include "rank/placement.h"

namespace eight::fifteen {
namespace {

// The PDB of the extra group (the blank and tiles in no group): one entry, 0.
constexpr std::uint8_t kZeroPdb[1] = {0};

// Cell-index change of a blank move, in Move order: up, down, left, right.
constexpr int kStep[4] = {move_step(kSide, Move::kUp), move_step(kSide, Move::kDown),
                          move_step(kSide, Move::kLeft), move_step(kSide, Move::kRight)};
constexpr int kNoMove = 4;  // "no previous move": never the opposite of a move

// The diagonal mirrors' places in symmetries() (goal.h lists the order).
constexpr int kTransposeSymmetry = 6;
constexpr int kAntiTransposeSymmetry = 7;

enum class MirrorKind { kNone, kTranspose, kAntiTranspose };

// How a tile's step in reading order on the board looks on its mirror
// image. Transpose: (r, c) -> (c, r), so a step along a row (+-1) becomes a
// step along a column (+-4) and back. Anti-transpose: (r, c) -> (3-c, 3-r),
// so the signs flip as well.
constexpr int mirror_step(MirrorKind kind, int step) {
  const int swapped = step == 1 ? kSide : step == -1 ? -kSide : step == kSide ? 1 : -1;
  return kind == MirrorKind::kAntiTranspose ? -swapped : swapped;
}

inline int entry(const std::uint8_t* pdb, std::uint32_t r) {
  return (pdb[r >> 1] >> ((r & 1) << 2)) & 0xF;
}

// The one move table's 4x4 slice (board.h), indexed [cell][move], for
// inner loops that know their shape.
constexpr const auto& kNeighbors = kNeighborTables[kSide - 1][kSide - 1];

}  // namespace

// One search: the board, its mirror, and every incremental quantity, on the
// stack of solve(); friend of IdaSearch for its tables.
class SearchRun {
 public:
  template <MirrorKind kMirror>
  static SearchResult run(const IdaSearch& search, const Board& start, const SearchBudget& budget);
};

namespace {

template <MirrorKind kMirror>
class Ida {
 public:
  static constexpr bool kHasMirror = kMirror != MirrorKind::kNone;
  static constexpr int kGroups = kMaxGroups + 1;

  // Copies of the search's tables (about 1.7 KB), so the hot loop reads
  // them straight off this object.
  struct Tables {
    std::array<std::uint8_t, kCells> group_of;
    std::array<std::int32_t, kCells> weight;
    std::array<std::array<std::int32_t, kCells>, kCells> between;
    std::array<std::array<std::uint8_t, kCells>, kCells> distance;
    std::array<const std::uint8_t*, kMaxGroups + 1> pdb;
    std::array<std::uint8_t, kCells> mirror_tile;
    std::array<std::uint8_t, kCells> mirror_cell;
  };

  Ida(const Tables& t, const SearchBudget& budget) : t_(t), budget_(budget) {}

  // Sets the start position; `b` and `m` are the board and its mirror,
  // ranks/entries per group computed from scratch by the caller.
  void start(const Cells& b, const Cells& m, int md, const std::int32_t* ranks,
             const std::int32_t* mirror_ranks) {
    b_ = b;
    m_ = m;
    for (int c = 0; c < kCells; ++c) {
      if (b[c] == 0) blank_ = c;
    }
    md_ = md;
    sum_ = 0;
    msum_ = 0;
    for (int g = 0; g < kGroups; ++g) {
      rank_[g] = ranks[g];
      entry_[g] = entry(t_.pdb[g], static_cast<std::uint32_t>(ranks[g]));
      sum_ += entry_[g];
      if constexpr (kHasMirror) {
        mrank_[g] = mirror_ranks[g];
        mentry_[g] = entry(t_.pdb[g], static_cast<std::uint32_t>(mirror_ranks[g]));
        msum_ += mentry_[g];
      }
    }
  }

  int heuristic() const { return md_ + 2 * std::max(sum_, msum_); }

  SearchResult search() {
    SearchResult result;
    result.initial_bound = heuristic();
    bound_ = result.initial_bound;
    // Every bound searched stays at most 80, so no path outgrows path_: a
    // solvable board is at most 80 moves away and a sound heuristic never
    // overestimates. Only databases that were altered and resealed (the
    // file's checksum level passes them) give more, and their answer is a
    // refusal, never a write past the path.
    if (bound_ > kMaxSolutionLength) {
      result.status = SearchStatus::kBudgetExceeded;
      result.bound = bound_;
      return result;
    }
    for (;;) {
      next_bound_ = INT_MAX;
      // Also before each iteration, so a search that is already cancelled or
      // late does no work at all.
      if (!check_stop() && dfs(0, kNoMove, DuplicatePaths::kStart)) {
        result.status = SearchStatus::kSolved;
        result.bound = length_;
        result.length = length_;
        for (int i = 0; i < length_; ++i) result.moves[i] = static_cast<Move>(path_[i]);
        break;
      }
      if (stopped_) {
        result.status = stop_status_;
        result.bound = bound_;
        break;
      }
      result.completed_bound = bound_;
      // (As above: past 80 only with altered databases.)
      if (next_bound_ > kMaxSolutionLength) {
        result.status = SearchStatus::kBudgetExceeded;
        result.bound = bound_;
        break;
      }
      bound_ = next_bound_;
    }
    result.nodes = nodes_;
    return result;
  }

 private:
  // Rank change of the moved tile's group when tile `t` slides by `kTileStep`
  // from cell `from` on board `x`. Sideways, only the tile's own digit
  // changes, by one. Vertically, it passes three cells; each group tile there
  // with a lower index cancels one of the four steps, and each with a higher
  // index changes that tile's digit by one (between_).
  template <int kTileStep>
  std::int32_t delta(const Cells& x, int t, int from) const {
    const std::int32_t w = t_.weight[t];
    if constexpr (kTileStep == 1) return w;
    if constexpr (kTileStep == -1) return -w;
    constexpr int kLowOffset = kTileStep > 0 ? 0 : kTileStep;
    const int low = from + kLowOffset;
    const auto& between = t_.between[t];
    const std::int32_t s = 4 * w + between[x[low + 1]] + between[x[low + 2]] + between[x[low + 3]];
    if constexpr (kTileStep > 0) {
      return s;
    } else {
      return -s;
    }
  }

  bool check_stop() {
    if (budget_.cancel != nullptr && budget_.cancel->load(std::memory_order_relaxed)) {
      stopped_ = true;
      stop_status_ = SearchStatus::kCancelled;
    } else if (budget_.deadline && std::chrono::steady_clock::now() >= *budget_.deadline) {
      stopped_ = true;
      stop_status_ = SearchStatus::kDeadlineExceeded;
    }
    return stopped_;
  }

  // `state` is the duplicate-path machine's after the path so far.
  bool dfs(int g, int prev, int state) {
    if (md_ == 0) {  // every tile home: the goal
      length_ = g;
      return true;
    }
    if (nodes_ == budget_.max_nodes) {
      stopped_ = true;
      stop_status_ = SearchStatus::kBudgetExceeded;
      return false;
    }
    ++nodes_;
    if ((nodes_ & (kSearchCheckInterval - 1)) == 0 && check_stop()) return false;
    // Every child is found, and its database entries asked of the memory,
    // before the first is read: in the large databases each is a cache
    // miss, and the children's then overlap instead of following one
    // another. (A step undoes all it changes, so a child found here is
    // still right when the steps before it have returned.)
    Child c[4]{};  // (zeroed: GCC cannot see that step() reads only what child() filled)
    const bool up = child<0>(prev, state, c[0]);
    const bool down = child<1>(prev, state, c[1]);
    const bool left = child<2>(prev, state, c[2]);
    const bool right = child<3>(prev, state, c[3]);
    return (up && step<0>(g, c[0])) || (down && step<1>(g, c[1])) || (left && step<2>(g, c[2])) ||
           (right && step<3>(g, c[3]));
  }

  // The node's child by the blank's move kDir: the tile that slides, and its
  // group's rank after the move, on the board and on its mirror.
  struct Child {
    int a;           // the tile's cell, the blank's next
    int t;           // the tile
    int gi;          // its group
    std::int32_t r;  // the group's rank after the move
    int next_state;  // the duplicate-path machine's after the move
    int u, mgi, ma;  // on the mirror (kHasMirror): the tile, its group, its cell
    std::int32_t mr;
  };

  // Fills `c` and prefetches its database entries; false when kDir is no
  // child: it undoes the last move, an earlier or shorter path reaches the
  // same board, or it leaves the board.
  template <int kDir>
  bool child(int prev, int state, Child& c) const {
    if (prev == (kDir ^ 1)) return false;
    c.next_state = duplicate_paths_[state * 4 + kDir];
    if (c.next_state == DuplicatePaths::kPruned) return false;
    c.a = kNeighbors[blank_][kDir];
    if (c.a < 0) return false;
    // The tile on `a` slides onto the blank's cell.
    constexpr int kTileStep = -kStep[kDir];
    c.t = b_[c.a];
    c.gi = t_.group_of[c.t];
    c.r = rank_[c.gi] + delta<kTileStep>(b_, c.t, c.a);
    __builtin_prefetch(t_.pdb[c.gi] + (static_cast<std::uint32_t>(c.r) >> 1));
    if constexpr (kHasMirror) {
      c.u = t_.mirror_tile[c.t];
      c.mgi = t_.group_of[c.u];
      c.ma = t_.mirror_cell[c.a];
      c.mr = mrank_[c.mgi] + delta<mirror_step(kMirror, kTileStep)>(m_, c.u, c.ma);
      __builtin_prefetch(t_.pdb[c.mgi] + (static_cast<std::uint32_t>(c.mr) >> 1));
    }
    return true;
  }

  // Tries the child `c` (child<kDir>()'s) of this node; true once a solution
  // is found below it.
  template <int kDir>
  bool step(int g, const Child& c) {
    if (stopped_) return false;
    const int blank = blank_;
    const int a = c.a, t = c.t, gi = c.gi;
    const std::int32_t r = c.r;
    const int md = md_ - t_.distance[t][a] + t_.distance[t][blank];
    const int e = entry(t_.pdb[gi], static_cast<std::uint32_t>(r));
    const int sum = sum_ - entry_[gi] + e;
    const int f = g + 1 + md + 2 * sum;
    if (f > bound_) {
      next_bound_ = std::min(next_bound_, f);
      return false;
    }
    [[maybe_unused]] int u = 0, mgi = 0, me = 0, msum = 0, ma = 0, mb = 0;
    [[maybe_unused]] std::int32_t mr = 0;
    if constexpr (kHasMirror) {
      u = c.u;
      mgi = c.mgi;
      ma = c.ma;
      mb = t_.mirror_cell[blank];
      mr = c.mr;
      me = entry(t_.pdb[mgi], static_cast<std::uint32_t>(mr));
      msum = msum_ - mentry_[mgi] + me;
      const int mf = g + 1 + md + 2 * msum;
      if (mf > bound_) {
        next_bound_ = std::min(next_bound_, mf);
        return false;
      }
    }
    // Descend.
    const int old_md = md_;
    const std::int32_t old_rank = rank_[gi];
    const int old_entry = entry_[gi];
    const int old_sum = sum_;
    b_[blank] = static_cast<std::uint8_t>(t);
    b_[a] = 0;
    blank_ = a;
    md_ = md;
    rank_[gi] = r;
    entry_[gi] = e;
    sum_ = sum;
    [[maybe_unused]] std::int32_t old_mrank = 0;
    [[maybe_unused]] int old_mentry = 0, old_msum = 0;
    if constexpr (kHasMirror) {
      old_mrank = mrank_[mgi];
      old_mentry = mentry_[mgi];
      old_msum = msum_;
      m_[mb] = static_cast<std::uint8_t>(u);
      m_[ma] = 0;
      mrank_[mgi] = mr;
      mentry_[mgi] = me;
      msum_ = msum;
    }
    path_[g] = static_cast<std::uint8_t>(kDir);
    if (dfs(g + 1, kDir, c.next_state)) return true;
    // Undo.
    b_[a] = static_cast<std::uint8_t>(t);
    b_[blank] = 0;
    blank_ = blank;
    md_ = old_md;
    rank_[gi] = old_rank;
    entry_[gi] = old_entry;
    sum_ = old_sum;
    if constexpr (kHasMirror) {
      m_[ma] = static_cast<std::uint8_t>(u);
      m_[mb] = 0;
      mrank_[mgi] = old_mrank;
      mentry_[mgi] = old_mentry;
      msum_ = old_msum;
    }
    return false;
  }

  const Tables t_;
  const SearchBudget& budget_;
  const std::int16_t* const duplicate_paths_ = DuplicatePaths::get().table();
  Cells b_{};
  Cells m_{};
  int blank_ = 0;
  int md_ = 0;
  int sum_ = 0;
  int msum_ = 0;
  std::int32_t rank_[kGroups] = {};
  std::int32_t mrank_[kGroups] = {};
  int entry_[kGroups] = {};
  int mentry_[kGroups] = {};
  int bound_ = 0;
  int next_bound_ = INT_MAX;
  int length_ = 0;
  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
  SearchStatus stop_status_ = SearchStatus::kBudgetExceeded;
  std::array<std::uint8_t, kMaxSolutionLength + 1> path_{};
};

}  // namespace

template <MirrorKind kMirror>
SearchResult SearchRun::run(const IdaSearch& s, const Board& board, const SearchBudget& budget) {
  const Cells start = cells_of(board);
  std::array<std::uint8_t, kCells> mirror_cell{};
  if (s.mirror_ >= 0) {
    std::copy_n(symmetries(kShape4x4)[s.mirror_].cell_map.begin(), kCells, mirror_cell.begin());
  }
  const typename Ida<kMirror>::Tables tables{s.group_of_, s.weight_,      s.between_, s.distance_,
                                             s.pdb_,      s.mirror_tile_, mirror_cell};
  std::int32_t ranks[kMaxGroups + 1] = {};
  std::int32_t mirror_ranks[kMaxGroups + 1] = {};
  Cells mirrored{};
  for (int g = 0; g < s.set_.group_count; ++g) {
    ranks[g] = static_cast<std::int32_t>(pattern_rank(start, s.set_.groups[g]));
  }
  if constexpr (kMirror != MirrorKind::kNone) {
    mirrored = cells_of(s.mirror(board));
    for (int g = 0; g < s.set_.group_count; ++g) {
      mirror_ranks[g] = static_cast<std::int32_t>(pattern_rank(mirrored, s.set_.groups[g]));
    }
  }
  // The run's state is a few hundred bytes; the recursion adds a frame per
  // move, at most 80.
  Ida<kMirror> ida(tables, budget);
  ida.start(start, mirrored, manhattan_distance(board, s.set_.goal_blank), ranks, mirror_ranks);
  return ida.search();
}

int SearchResult::lower_bound() const {
  switch (status) {
    case SearchStatus::kSolved:
      return length;
    case SearchStatus::kUnsolvable:
      return 0;
    default:
      return std::max(initial_bound, completed_bound + 2);
  }
}

Result<IdaSearch> IdaSearch::create(const PatternSet& set, std::span<const PatternDbView> dbs) {
  if (auto ok = check_pattern_set(set); !ok) return ok.error();
  if (set.shape != kShape4x4) {
    return make_error(ErrorCode::kBadArgument, "IDA* search: a set of " + to_string(set.shape) +
                                                   " boards; this search is for 4x4 (the other "
                                                   "pattern shapes are grid_search.h's)");
  }
  if (dbs.size() != static_cast<std::size_t>(set.group_count)) {
    return make_error(ErrorCode::kBadArgument, "IDA* search: " + std::to_string(dbs.size()) +
                                                   " pattern databases for " +
                                                   std::to_string(set.group_count) + " groups");
  }
  for (int g = 0; g < set.group_count; ++g) {
    if (dbs[g].group() != set.groups[g] || dbs[g].goal_blank() != set.goal_blank ||
        dbs[g].bytes().size() != pattern_db_size(group_size(set.groups[g]))) {
      return make_error(ErrorCode::kBadArgument,
                        "IDA* search: pattern database " + std::to_string(g) +
                            " is not the one for group " + std::to_string(g) + " of the set");
    }
  }
  IdaSearch s;
  s.set_ = set;
  s.goal_ = canonical_goal<Board>(set.goal_blank, kShape4x4);
  const Cells goal = cells_of(s.goal_);
  std::array<std::uint8_t, kCells> home{};
  for (int c = 0; c < kCells; ++c) home[goal[c]] = static_cast<std::uint8_t>(c);

  const int extra = set.group_count;  // the blank and tiles in no group
  s.group_of_.fill(static_cast<std::uint8_t>(extra));
  std::array<int, kCells> index{};
  for (int g = 0; g < set.group_count; ++g) {
    const int k = group_size(set.groups[g]);
    int i = 0;
    for (int t = 1; t < kCells; ++t) {
      if (((set.groups[g] >> t) & 1) == 0) continue;
      s.group_of_[t] = static_cast<std::uint8_t>(g);
      index[t] = i;
      s.weight_[t] = detail::placement_weight(i, k);
      ++i;
    }
    s.pdb_[g] = dbs[g].bytes().data();
  }
  for (int g = set.group_count; g <= kMaxGroups; ++g) s.pdb_[g] = kZeroPdb;
  for (int t = 1; t < kCells; ++t) {
    for (int u = 1; u < kCells; ++u) {
      if (u == t || s.group_of_[u] != s.group_of_[t] || s.group_of_[t] == extra) continue;
      // A lower-index tile passed cancels one of t's four steps; t passing a
      // higher-index tile moves that tile's digit by one.
      s.between_[t][u] = index[u] < index[t] ? -s.weight_[t] : s.weight_[u];
    }
    for (int c = 0; c < kCells; ++c) {
      s.distance_[t][c] = static_cast<std::uint8_t>(cell_distance(c, home[t]));
    }
  }
  // The diagonal through the goal's blank, if there is one.
  for (int k : {kTransposeSymmetry, kAntiTransposeSymmetry}) {
    const Symmetry& sym = symmetries(kShape4x4)[k];
    if (sym.cell_map[set.goal_blank] != set.goal_blank) continue;
    s.mirror_ = k;
    for (int t = 0; t < kCells; ++t) s.mirror_tile_[t] = goal[sym.cell_map[home[t]]];
  }
  return s;
}

Board IdaSearch::mirror(const Board& b) const {
  assert(has_mirror() && b.shape == kShape4x4 && is_valid(b));
  const Symmetry& sym = symmetries(kShape4x4)[mirror_];
  Board out{{}, kShape4x4};
  for (int c = 0; c < kCells; ++c) out.cells[sym.cell_map[c]] = mirror_tile_[b.cells[c]];
  return out;
}

int IdaSearch::regular_heuristic(const Board& b) const {
  int h = manhattan_distance(b, set_.goal_blank);
  for (int g = 0; g < set_.group_count; ++g) {
    h += 2 * entry(pdb_[g], pattern_rank(b, set_.groups[g]));
  }
  return h;
}

int IdaSearch::mirrored_heuristic(const Board& b) const {
  return has_mirror() ? regular_heuristic(mirror(b)) : regular_heuristic(b);
}

int IdaSearch::heuristic(const Board& b) const {
  return std::max(regular_heuristic(b), mirrored_heuristic(b));
}

SearchResult IdaSearch::solve(const Board& start, const SearchBudget& budget) const {
  assert(start.shape == kShape4x4 && is_valid(start));
  if (!same_class(start, goal_)) return SearchResult{};
  if (mirror_ == kTransposeSymmetry)
    return SearchRun::run<MirrorKind::kTranspose>(*this, start, budget);
  if (mirror_ == kAntiTransposeSymmetry) {
    return SearchRun::run<MirrorKind::kAntiTranspose>(*this, start, budget);
  }
  return SearchRun::run<MirrorKind::kNone>(*this, start, budget);
}

}  // namespace eight::fifteen
