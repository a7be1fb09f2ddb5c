// The 15-puzzle engine: the 4x4 board, pattern databases, IDA*.
//
// PDBs are generated in memory once per process (about 2 s per 6-6-3 set on
// two cores). Independent checks written here, not in the core: a naive
// 0-1 breadth-first search over (placement, blank) for whole small-group
// PDBs, and a breadth-first search over full boards for true distances.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "eight/answer.h"
#include "eight/board.h"
#include "eight/fifteen_search.h"
#include "eight/goal.h"
#include "eight/pattern_db.h"
#include "eight/table.h"
#include "eight/table_format.h"
#include "eight/table_set.h"
#include "support.h"

namespace f = eight::fifteen;
using eight::ErrorCode;
using eight::Move;

namespace {

eight::Board board(const std::string& text) {
  auto b = eight::parse_board(text, eight::kShape4x4);
  REQUIRE_MESSAGE(b.ok(), text << ": " << (b.ok() ? "" : b.error().message));
  return *b;
}

// A set's PDBs and its solver, generated once per process.
struct Built {
  f::PatternDatabases dbs;
  std::vector<f::PatternDbView> views;
  std::optional<f::IdaSearch> solver;
};

const f::IdaSearch& solver_for(const f::PatternSet& set) {
  static std::map<std::pair<int, std::array<f::TileMask, f::kMaxGroups>>, std::unique_ptr<Built>>
      cache;
  auto& slot = cache[{set.goal_blank, set.groups}];
  if (!slot) {
    slot = std::make_unique<Built>();
    slot->dbs = f::generate_pattern_set(set);
    slot->views = slot->dbs.views();
    auto s = f::IdaSearch::create(set, slot->views);
    REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
    slot->solver.emplace(std::move(s).value());
  }
  return *slot->solver;
}

// The 6-6-3 solver of the canonical goal of `goal_blank`: the test tables'
// for the goals they hold (blanks 0, 1, 5, and 6, 14, 15; written once per
// build tree), else generated in memory.
const f::IdaSearch& solver663(int goal_blank) {
  for (const eight::Table* table :
       {&eight::test::fifteen_table(), &eight::test::fifteen_other_goals_table()}) {
    if (const auto section = table->view().section_for(eight::kShape4x4, goal_blank)) {
      const f::IdaSearch* s = table->ida_search(*section);
      REQUIRE(s != nullptr);
      REQUIRE(s->set().groups == f::pattern_set(f::Partition::k663, goal_blank).groups);
      return *s;
    }
  }
  return solver_for(f::pattern_set(f::Partition::k663, goal_blank));
}

// Boards packed one cell per nibble, cell 0 lowest, for the full-board BFS.
using Packed = std::uint64_t;

Packed pack(const eight::Board& b) {
  Packed p = 0;
  for (int c = 0; c < f::kCells; ++c) p |= static_cast<Packed>(b.cells[c]) << (4 * c);
  return p;
}

eight::Board unpack(Packed p) {
  eight::Board b{{}, eight::kShape4x4};
  for (int c = 0; c < f::kCells; ++c) b.cells[c] = static_cast<std::uint8_t>((p >> (4 * c)) & 0xF);
  return b;
}

// True when `path` is legal from `start` and ends on `goal`.
bool is_solution(const eight::Board& start, std::span<const Move> path, const eight::Board& goal) {
  eight::Board b = start;
  for (const Move m : path) {
    const auto next = eight::apply_move(b, m);
    if (!next) return false;
    b = *next;
  }
  return b == goal;
}

// layers[d]: every board exactly d moves from `goal`, sorted, for d up to
// `depth`. The graph is bipartite (each move flips the blank's colour on a
// checkerboard), so a neighbour of layer d - 1 lies in layer d - 2 or d.
std::vector<std::vector<Packed>> bfs_layers(const eight::Board& goal, int depth) {
  std::vector<std::vector<Packed>> layers{{pack(goal)}};
  for (int d = 1; d <= depth; ++d) {
    std::vector<Packed> next;
    next.reserve(layers.back().size() * 3);
    for (Packed p : layers.back()) {
      int blank = 0;
      while (((p >> (4 * blank)) & 0xF) != 0) ++blank;
      for (Move m : eight::kAllMoves) {
        const int to = eight::neighbor(eight::kShape4x4, blank, m);
        if (to < 0) continue;
        const Packed tile = (p >> (4 * to)) & 0xF;
        next.push_back((p & ~(Packed{0xF} << (4 * to))) | (tile << (4 * blank)));
      }
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    if (d >= 2) {
      const auto& before = layers[d - 2];
      std::vector<Packed> fresh;
      fresh.reserve(next.size());
      std::set_difference(next.begin(), next.end(), before.begin(), before.end(),
                          std::back_inserter(fresh));
      next.swap(fresh);
    }
    layers.push_back(std::move(next));
  }
  return layers;
}

// Every board up to `small` moves away, and `sample` boards from each
// deeper layer, each with its distance.
std::vector<std::pair<eight::Board, int>> sample_layers(
    const std::vector<std::vector<Packed>>& layers, std::size_t small, std::size_t sample) {
  std::mt19937_64 rng(20260101);
  std::vector<std::pair<eight::Board, int>> out;
  for (std::size_t d = 0; d < layers.size(); ++d) {
    const auto& layer = layers[d];
    if (d <= small) {
      for (Packed p : layer) out.emplace_back(unpack(p), static_cast<int>(d));
    } else {
      std::uniform_int_distribution<std::size_t> pick(0, layer.size() - 1);
      for (std::size_t i = 0; i < sample; ++i) out.emplace_back(unpack(layer[pick(rng)]), d);
    }
  }
  return out;
}

// The naive PDB: a 0-1 breadth-first search over (cells of the group's
// tiles, blank cell), states numbered in base 16, from the goal's placement
// with the blank on its goal cell; a blank step onto a free cell costs 0, a
// swap with a group tile 1. Returns, per placement number (base-16 digits:
// the cell of tile i times 16^i), the fewest group moves over blank cells,
// or 255 if not reached (and for non-placements).
std::vector<std::uint8_t> naive_pdb(int goal_blank, const std::vector<int>& tiles) {
  const int k = static_cast<int>(tiles.size());
  const std::uint32_t placements = 1u << (4 * k);
  std::vector<std::uint8_t> dist(static_cast<std::size_t>(placements) * 16, 255);
  const eight::Board goal = eight::canonical_goal<Board>(goal_blank, eight::kShape4x4);
  std::uint32_t start = static_cast<std::uint32_t>(goal_blank) << (4 * k);
  for (int i = 0; i < k; ++i) {
    for (int c = 0; c < f::kCells; ++c) {
      if (goal.cells[c] == tiles[i]) start |= static_cast<std::uint32_t>(c) << (4 * i);
    }
  }
  std::deque<std::uint32_t> queue{start};
  dist[start] = 0;
  while (!queue.empty()) {
    const std::uint32_t s = queue.front();
    queue.pop_front();
    const int d = dist[s];
    const int blank = static_cast<int>(s >> (4 * k));
    for (Move m : eight::kAllMoves) {
      const int to = eight::neighbor(eight::kShape4x4, blank, m);
      if (to < 0) continue;
      std::uint32_t next = (s & (placements - 1)) | (static_cast<std::uint32_t>(to) << (4 * k));
      int cost = 0;
      for (int i = 0; i < k; ++i) {
        if (static_cast<int>((s >> (4 * i)) & 0xF) == to) {
          next = (next & ~(0xFu << (4 * i))) | (static_cast<std::uint32_t>(blank) << (4 * i));
          cost = 1;
        }
      }
      if (dist[next] <= d + cost) continue;
      dist[next] = static_cast<std::uint8_t>(d + cost);
      if (cost == 0) {
        queue.push_front(next);
      } else {
        queue.push_back(next);
      }
    }
  }
  std::vector<std::uint8_t> best(placements, 255);
  for (std::uint32_t s = 0; s < dist.size(); ++s) {
    const std::uint32_t p = s & (placements - 1);
    best[p] = std::min(best[p], dist[s]);
  }
  return best;
}

// Checks every entry of the generated PDB of `tiles` against naive_pdb().
void check_against_naive(int goal_blank, const std::vector<int>& tiles) {
  f::TileMask group = 0;
  for (int t : tiles) group = static_cast<f::TileMask>(group | (1u << t));
  const auto bytes = f::generate_pattern_db(goal_blank, group);
  auto view = f::PatternDbView::open(bytes, goal_blank, group);
  REQUIRE(view.ok());
  const auto best = naive_pdb(goal_blank, tiles);
  const eight::Board goal = eight::canonical_goal<Board>(goal_blank, eight::kShape4x4);
  std::array<int, f::kCells> home{};
  for (int c = 0; c < f::kCells; ++c) home[goal.cells[c]] = c;
  const int k = static_cast<int>(tiles.size());
  std::uint64_t checked = 0;
  int mismatches = 0;
  for (std::uint32_t p = 0; p < best.size(); ++p) {
    std::uint8_t cells[f::kMaxGroupSize];
    std::uint32_t used = 0;
    int md = 0;
    bool distinct = true;
    for (int i = 0; i < k; ++i) {
      cells[i] = static_cast<std::uint8_t>((p >> (4 * i)) & 0xF);
      distinct = distinct && ((used >> cells[i]) & 1) == 0;
      used |= 1u << cells[i];
      md += f::cell_distance(cells[i], home[tiles[i]]);
    }
    if (!distinct) continue;
    ++checked;
    const int pdb = best[p];
    REQUIRE(pdb != 255);  // every placement is reachable
    REQUIRE((pdb - md) % 2 == 0);
    const int expected = std::min(15, (pdb - md) / 2);
    const int got = view->entry(f::placement_rank({cells, static_cast<std::size_t>(k)}));
    if (got != expected && ++mismatches <= 5) {
      INFO("placement " << p << ": naive " << expected << ", generated " << got);
      CHECK(got == expected);
    }
  }
  CHECK(mismatches == 0);
  CHECK(checked == f::placement_count(k));
}

struct KorfInstance {
  int number = 0;
  int length = 0;
  eight::Board board{};
};

const std::vector<KorfInstance>& korf100() {
  static const std::vector<KorfInstance> all = [] {
    std::ifstream in(EIGHT_SOURCE_DIR "/tests/data/korf100.txt");
    REQUIRE(in.good());
    std::vector<KorfInstance> v;
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      KorfInstance k;
      fields >> k.number >> k.length;
      std::string rest;
      std::getline(fields, rest);
      k.board = board(rest);
      v.push_back(k);
    }
    return v;
  }();
  return all;
}

void check_solved(const f::IdaSearch& solver, const eight::Board& start, const f::SearchResult& r,
                  int expected_length) {
  INFO("board " << eight::to_string(start) << " goal blank " << solver.goal_blank());
  REQUIRE(r.status == f::SearchStatus::kSolved);
  CHECK(r.length == expected_length);
  CHECK(r.bound == r.length);
  CHECK(r.initial_bound == solver.heuristic(start));
  CHECK(r.initial_bound <= r.length);
  CHECK(is_solution(start, r.path(), solver.goal()));
}

}  // namespace

TEST_CASE("4x4 boards parse from every notation, and each error names its fault") {
  using eight::parse_board;
  const eight::Board korf1 = board("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3");
  CHECK(korf1.shape == eight::kShape4x4);
  CHECK(korf1.cells[0] == 14);
  CHECK(korf1.cells[9] == 0);
  // Sixteen numbers need no shape: 4x4 is the only board of 16 cells.
  CHECK(parse_board("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3").value() == korf1);
  CHECK(parse_board("14,13,15,7/11,12,9,5/6,x,2,1/4,8,10,3").value() == korf1);
  CHECK(parse_board(" 14\t13 15 7\n11 12 9 5\r\n6 _ 2 1\n4 8 10 3 ").value() == korf1);
  CHECK(eight::to_string(korf1) == "14,13,15,7/11,12,9,5/6,0,2,1/4,8,10,3");
  CHECK(parse_board(eight::to_string(korf1)).value() == korf1);
  CHECK(parse_board("1 2 3", eight::kShape4x4).error().message ==
        "expected 16 cells for 4x4, got 3");
  // Fifteen numbers are a 3x5 or a 5x3 board, which the count alone does not say.
  CHECK(parse_board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0").error().message ==
        "15 cells fit 3x5 and 5x3: say which shape, or write the rows");
  CHECK(parse_board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 14").error().message ==
        "expected 16 cells, got 17");
  CHECK(parse_board("16 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0").error().message ==
        "tile 16 at position 1 is out of range: a board of 16 cells or fewer has tiles up to "
        "15");
  CHECK(parse_board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16").error().code ==
        ErrorCode::kTileOutOfRange);
  CHECK(parse_board("1 2 3 4 5 6 7 8 9 10 10 12 13 14 15 0").error().message ==
        "tile 10 appears twice and tile 11 is missing");
  CHECK(parse_board("1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0").error().message ==
        "tile 1 appears twice and tile 15 is missing");
  CHECK(parse_board("0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0").error().code == ErrorCode::kTwoBlanks);
  CHECK(parse_board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 15").error().code == ErrorCode::kNoBlank);
  CHECK(parse_board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 a").error().code ==
        ErrorCode::kBadCharacter);
  CHECK(parse_board("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15").error().code == ErrorCode::kWrongShape);
}

TEST_CASE("4x4 canonical goals, classes and symmetries behave as on the other boards") {
  using eight::kShape4x4;
  CHECK(eight::to_string(eight::canonical_goal<Board>(0, kShape4x4)) ==
        "0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15");
  CHECK(eight::standard_goal<Board>(kShape4x4) == eight::canonical_goal<Board>(15, kShape4x4));
  CHECK(eight::is_canonical_goal(eight::canonical_goal<Board>(7, kShape4x4)));
  CHECK_FALSE(eight::is_canonical_goal(board("1 0 2 3 4 5 6 7 8 9 10 11 12 13 15 14")));
  // Moves keep the class; swapping two tiles changes it; goals with the
  // blank on rows of different parity are in different classes.
  std::mt19937 rng(7);
  eight::Board b = eight::canonical_goal<Board>(0, kShape4x4);
  const int cls = eight::board_class(b);
  for (int i = 0; i < 1000; ++i) {
    auto next = eight::apply_move(b, eight::kAllMoves[rng() % 4]);
    if (next) b = *next;
    REQUIRE(eight::board_class(b) == cls);
  }
  eight::Board swapped = b;
  std::swap(swapped.cells[eight::blank_cell(b) == 0 ? 1 : 0],
            swapped.cells[eight::blank_cell(b) == 15 ? 14 : 15]);
  CHECK(eight::board_class(swapped) != cls);
  CHECK(eight::same_class(eight::canonical_goal<Board>(0, kShape4x4),
                          eight::canonical_goal<Board>(3, kShape4x4)));
  CHECK_FALSE(eight::same_class(eight::canonical_goal<Board>(0, kShape4x4),
                                eight::canonical_goal<Board>(4, kShape4x4)));
  // The diagonals the mirror lookup uses: 6 (transpose), 7 (anti-transpose).
  const auto& sym = eight::symmetries(kShape4x4);
  CHECK(sym[6].cell_map[1] == 4);
  CHECK(sym[6].cell_map[5] == 5);
  CHECK(sym[7].cell_map[0] == 15);
  CHECK(sym[7].cell_map[6] == 6);
}

TEST_CASE("placement ranks follow the documented formula, densely, and unrank inverts them") {
  // The header's example.
  const std::uint8_t example[3] = {1, 2, 3};
  CHECK(f::placement_rank(example) == 225);
  CHECK(f::pattern_rank(eight::canonical_goal<Board>(0, eight::kShape4x4), 0b1110) == 225);
  CHECK(f::placement_count(3) == 3360);
  CHECK(f::placement_count(6) == 5765760);
  CHECK(f::placement_count(7) == 57657600);
  CHECK(f::placement_count(8) == 518918400);
  CHECK(f::pattern_db_size(8) == 259459200);
  // Every 3-tile placement gets a distinct rank below 3,360.
  std::vector<bool> seen(3360);
  for (int a = 0; a < 16; ++a) {
    for (int b = 0; b < 16; ++b) {
      for (int c = 0; c < 16; ++c) {
        if (a == b || b == c || a == c) continue;
        const std::uint8_t cells[3] = {static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b),
                                       static_cast<std::uint8_t>(c)};
        const std::uint32_t r = f::placement_rank(cells);
        REQUIRE(r < 3360);
        CHECK_FALSE(seen[r]);
        seen[r] = true;
      }
    }
  }
  // For every size, the formula written out with factorials, and unrank.
  std::mt19937 rng(11);
  for (int k = 1; k <= 8; ++k) {
    for (int trial = 0; trial < 2000; ++trial) {
      std::array<std::uint8_t, 16> pool{};
      for (int i = 0; i < 16; ++i) pool[i] = static_cast<std::uint8_t>(i);
      std::shuffle(pool.begin(), pool.end(), rng);
      const std::span<const std::uint8_t> cells(pool.data(), k);
      std::uint64_t expected = 0;
      for (int i = 0; i < k; ++i) {
        int smaller_before = 0;
        for (int j = 0; j < i; ++j) smaller_before += cells[j] < cells[i];
        std::uint64_t weight = 1;  // (15 - i)! / (16 - k)!
        for (int m = 16 - k + 1; m <= 15 - i; ++m) weight *= m;
        expected += (cells[i] - smaller_before) * weight;
      }
      const std::uint32_t r = f::placement_rank(cells);
      REQUIRE(r == expected);
      std::array<std::uint8_t, 8> back{};
      f::placement_unrank(r, std::span<std::uint8_t>(back.data(), k));
      CHECK(std::equal(cells.begin(), cells.end(), back.begin()));
    }
  }
}

TEST_CASE("every entry of small-group PDBs equals a naive 0-1 BFS over placement and blank") {
  check_against_naive(0, {1, 2, 3});
  check_against_naive(0, {4, 8, 12, 13});
  check_against_naive(1, {1, 5, 6, 9});     // edge goal: tile 1 is on cell 0
  check_against_naive(5, {6, 7, 10, 11});   // centre goal
  check_against_naive(10, {1, 6, 11, 15});  // scattered tiles wall off corners
  check_against_naive(5, {2, 5, 7, 10, 13});
}

TEST_CASE("PDB bytes are the same whatever the thread count, and progress reaches the total") {
  const f::TileMask group = 0b0011'0011'0010;  // tiles 1, 4, 5, 8, 9
  f::PdbOptions one;
  one.threads = 1;
  std::vector<f::PdbProgress> seen;
  f::PdbOptions two;
  two.threads = 2;
  two.progress = [&seen](const f::PdbProgress& p) { seen.push_back(p); };
  const auto a = f::generate_pattern_db(0, group, one);
  const auto b = f::generate_pattern_db(0, group, two);
  CHECK(a == b);
  CHECK(a.size() == f::pattern_db_size(5));
  REQUIRE_FALSE(seen.empty());
  for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i].done >= seen[i - 1].done);
  CHECK(seen.back().done == seen.back().total);
  CHECK(seen.back().total == f::placement_count(5));
}

TEST_CASE("a PDB view checks the size, the group and the goal's entry") {
  const f::TileMask group = 0b1110;  // tiles 1, 2, 3
  auto bytes = f::generate_pattern_db(0, group);
  CHECK(f::PatternDbView::open(bytes, 0, group).ok());
  auto short_bytes = bytes;
  short_bytes.pop_back();
  CHECK(f::PatternDbView::open(short_bytes, 0, group).error().code == ErrorCode::kTruncated);
  CHECK(f::PatternDbView::open(bytes, 0, 0b1111).error().code == ErrorCode::kBadArgument);
  CHECK(f::PatternDbView::open(bytes, 16, group).error().code == ErrorCode::kBadArgument);
  CHECK(f::PatternDbView::open(bytes, 0, 0x3FE).error().code ==
        ErrorCode::kBadArgument);  // 9 tiles
  auto bad = bytes;
  const std::uint32_t goal_rank =
      f::pattern_rank(eight::canonical_goal<Board>(0, eight::kShape4x4), group);
  bad[goal_rank / 2] = static_cast<std::uint8_t>(bad[goal_rank / 2] | (3 << (4 * (goal_rank % 2))));
  CHECK(f::PatternDbView::open(bad, 0, group).error().code == ErrorCode::kBadEntry);
  // value() = the group's MD + 2 * entry: a placement needing a detour.
  auto view = *f::PatternDbView::open(bytes, 0, group);
  const eight::Board swapped = board("0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15");
  CHECK(view.value(swapped) > f::group_manhattan(swapped, group, 0));
  CHECK(view.value(eight::canonical_goal<Board>(0, eight::kShape4x4)) == 0);
}

TEST_CASE("both partitions split the 15 tiles for every goal, as documented for Korf's goal") {
  for (f::Partition p : {f::Partition::k663, f::Partition::k78}) {
    for (int blank = 0; blank < f::kCells; ++blank) {
      const f::PatternSet set = f::pattern_set(p, blank);
      INFO(f::partition_name(p) << " blank " << blank);
      CHECK(set.goal_blank == blank);
      CHECK(f::check_pattern_set(set).ok());
      f::TileMask all = 0;
      std::vector<int> sizes;
      for (f::TileMask g : set.group_list()) {
        all = static_cast<f::TileMask>(all | g);
        sizes.push_back(f::group_size(g));
      }
      CHECK(all == 0xFFFE);
      CHECK(sizes ==
            (p == f::Partition::k663 ? std::vector<int>{6, 6, 3} : std::vector<int>{7, 8}));
    }
  }
  // Korf's goal: tiles are their goal cells, so the masks are the layouts.
  const f::PatternSet korf663 = f::pattern_set(f::Partition::k663, 0);
  CHECK(korf663.groups[0] == ((1 << 1) | (1 << 2) | (1 << 4) | (1 << 5) | (1 << 8) | (1 << 9)));
  CHECK(korf663.groups[1] == ((1 << 3) | (1 << 6) | (1 << 7) | (1 << 10) | (1 << 11) | (1 << 15)));
  CHECK(korf663.groups[2] == ((1 << 12) | (1 << 13) | (1 << 14)));
  const f::PatternSet korf78 = f::pattern_set(f::Partition::k78, 0);
  CHECK(korf78.groups[0] == 0xFE);    // 1..7
  CHECK(korf78.groups[1] == 0xFF00);  // 8..15
  // The centre goal's tiles 1..5 sit one cell before their number.
  const f::PatternSet centre = f::pattern_set(f::Partition::k663, 5);
  CHECK(centre.groups[2] == ((1 << 13) | (1 << 14) | (1 << 15)));
  CHECK(centre.groups[0] == ((1 << 1) | (1 << 2) | (1 << 5) | (1 << 8) | (1 << 9) | (1 << 12)));
  // Cell 15 is cell 0 turned by 180 degrees: the 3 tiles go to the top row.
  const f::PatternSet corner15 = f::pattern_set(f::Partition::k663, 15);
  CHECK(corner15.groups[2] == ((1 << 2) | (1 << 3) | (1 << 4)));
  f::PatternSet overlapping = korf663;
  overlapping.groups[2] |= 1 << 1;
  CHECK(f::check_pattern_set(overlapping).error().code == ErrorCode::kBadArgument);
}

TEST_CASE("a solver refuses views that do not belong to its set") {
  const f::IdaSearch& s = solver663(0);
  const f::PatternSet set = s.set();
  auto bytes = f::generate_pattern_db(1, set.groups[0]);
  const auto other = *f::PatternDbView::open(bytes, 1, set.groups[0]);
  std::vector<f::PatternDbView> views = {other, other, other};
  CHECK(f::IdaSearch::create(set, views).error().code == ErrorCode::kBadArgument);
  CHECK(f::IdaSearch::create(set, std::span<const f::PatternDbView>{}).error().code ==
        ErrorCode::kBadArgument);
}

TEST_CASE("the 4x4 search refuses a set of another pattern shape") {
  f::PatternSet set;  // one group of three tiles: small to build
  set.shape = eight::Shape{2, 8};
  set.goal_blank = 0;
  set.group_count = 1;
  set.groups[0] = 0b1110;
  REQUIRE(f::check_pattern_set(set).ok());
  const f::PatternDatabases dbs = f::generate_pattern_set(set, f::PdbOptions{1, {}});
  const auto views = dbs.views();
  const auto refused = f::IdaSearch::create(set, views);
  REQUIRE(!refused.ok());
  CHECK(refused.error().code == ErrorCode::kBadArgument);
  CHECK(refused.error().message.find("2x8") != std::string::npos);
}

TEST_CASE("Korf's 100 instances are all there, and the lengths sum to 5305") {
  const auto& all = korf100();
  REQUIRE(all.size() == 100);
  int sum = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const KorfInstance& k = all[i];
    CHECK(k.number == static_cast<int>(i) + 1);
    CHECK(eight::same_class(k.board, eight::canonical_goal<Board>(0, eight::kShape4x4)));
    const int md = f::manhattan_distance(k.board, 0);
    CHECK(md <= k.length);
    CHECK((k.length - md) % 2 == 0);
    sum += k.length;
  }
  CHECK(sum == 5305);
}

TEST_CASE("with 6-6-3 PDBs, Korf instances solve to their published optimal lengths") {
  const f::IdaSearch& solver = solver663(0);
  CHECK(solver.has_mirror());
  // Instances the 6-6-3 search answers in well under 0.1 s each (all 100 are
  // in bench/korf100.sh), from 41 to 62 moves.
  for (int n : {1,  2,  4,  5,  6,  8,  9,  12, 13, 16, 19, 28, 30, 31, 42,
                47, 48, 55, 73, 74, 79, 82, 85, 86, 90, 93, 94, 97, 100}) {
    const KorfInstance& k = korf100()[n - 1];
    INFO("Korf #" << n);
    const auto r = solver.solve(k.board);
    check_solved(solver, k.board, r, k.length);
  }
}

namespace {

// Every board up to 15 moves from the goal and 25,000 from each deeper
// layer up to `depth`: the summed heuristic, its mirror and their max never
// exceed the true distance and share its parity.
void check_admissible(int goal_blank, int depth) {
  const f::IdaSearch& solver = solver663(goal_blank);
  const auto layers = bfs_layers(solver.goal(), depth);
  const auto boards = sample_layers(layers, 15, 25000);
  INFO("goal blank " << goal_blank);
  int exact = 0;
  for (const auto& layer_board :
       boards) {  // no structured binding: clang 14's INFO cannot take one
    const auto& b = layer_board.first;
    const auto d = layer_board.second;
    const int regular = solver.regular_heuristic(b);
    const int mirrored = solver.mirrored_heuristic(b);
    const int h = solver.heuristic(b);
    if (regular > d || mirrored > d || (h - d) % 2 != 0) {
      INFO("board " << eight::to_string(b) << " distance " << d);
      REQUIRE(regular <= d);
      REQUIRE(mirrored <= d);
      REQUIRE((h - d) % 2 == 0);
    }
    CHECK(h == std::max(regular, mirrored));
    exact += h == d;
  }
  CHECK(solver.heuristic(solver.goal()) == 0);
  // Not a property, a sign that the PDBs carry information: most boards
  // this close are estimated exactly.
  CHECK(exact * 2 > static_cast<int>(boards.size()));
}

// Boards from every layer up to 18 moves from the goal (60 from each of the
// deepest three, 5 from the others) solve to their BFS distance.
void check_optimal(int goal_blank) {
  const f::IdaSearch& solver = solver663(goal_blank);
  const auto layers = bfs_layers(solver.goal(), 18);
  INFO("goal blank " << goal_blank);
  std::mt19937_64 rng(static_cast<unsigned>(goal_blank));
  for (int d = 0; d <= 18; ++d) {
    const auto& layer = layers[d];
    std::uniform_int_distribution<std::size_t> pick(0, layer.size() - 1);
    for (int i = 0; i < (d >= 16 ? 60 : 5); ++i) {
      const eight::Board b = unpack(layer[pick(rng)]);
      check_solved(solver, b, solver.solve(b), d);
    }
  }
}

}  // namespace

TEST_CASE("the full-board BFS counts the corner goal's layers as OEIS A089473 does") {
  const auto layers = bfs_layers(eight::canonical_goal<Board>(0, eight::kShape4x4), 20);
  const std::vector<std::size_t> a089473 = {1,     2,     4,      10,     24,     54,     107,
                                            212,   446,   946,    1948,   3938,   7808,   15544,
                                            30821, 60842, 119000, 231844, 447342, 859744, 1637383};
  std::vector<std::size_t> sizes;
  for (const auto& layer : layers) sizes.push_back(layer.size());
  CHECK(sizes == a089473);
}

TEST_CASE("the heuristic never exceeds the true distance: corner goal, boards up to 20 moves") {
  check_admissible(0, 20);  // 3.4 million boards in the BFS
}

TEST_CASE("the heuristic never exceeds the true distance: edge goal, boards up to 18 moves") {
  check_admissible(1, 18);
}

TEST_CASE("the heuristic never exceeds the true distance: centre goal, boards up to 18 moves") {
  check_admissible(5, 18);
}

TEST_CASE("goals with the blank on an edge solve optimally (cells 1 and 14)") {
  CHECK_FALSE(solver663(1).has_mirror());
  check_optimal(1);
  check_optimal(14);  // through a symmetry of the square
}

TEST_CASE(
    "goals with the blank on a centre cell solve optimally, either diagonal (cells 5 and 6)") {
  CHECK(solver663(5).has_mirror());
  check_optimal(5);
  check_optimal(6);  // the anti-diagonal's mirror
}

TEST_CASE("a corner goal other than Korf's solves optimally (cell 15)") {
  CHECK(solver663(15).has_mirror());
  check_optimal(15);
}

TEST_CASE("any 4x4 goal is answered from the table's three goals, paths optimal and legal") {
  const eight::Table& table = eight::test::fifteen_table();
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 12; ++trial) {
    eight::Board goal{{}, eight::kShape4x4};
    for (int c = 0; c < f::kCells; ++c) goal.cells[c] = static_cast<std::uint8_t>(c);
    std::shuffle(goal.cells.begin(), goal.cells.begin() + f::kCells, rng);
    INFO("goal " << eight::to_string(goal));
    const auto frame = table.frame(goal);
    REQUIRE(frame.ok());
    REQUIRE(eight::is_search_frame(table, *frame));
    const int blank = table.view().section(frame->section()).blank;
    CHECK((blank == 0 || blank == 1 || blank == 5));
    CHECK(frame->to_section(goal) == eight::canonical_goal<Board>(blank, eight::kShape4x4));
    const auto layers = bfs_layers(goal, 14);
    for (int d : {0, 1, 7, 13, 14}) {
      for (int i = 0; i < 5; ++i) {
        const eight::Board b = unpack(layers[d][rng() % layers[d].size()]);
        const auto answer = eight::search_solve(table, *frame, b, {});
        REQUIRE(answer.report.status == f::SearchStatus::kSolved);
        CHECK(answer.solution.distance == d);
        CHECK(answer.solution.length == d);
        CHECK(is_solution(b, answer.solution.path(), goal));
        // The tiles slid are the tiles the path moves.
        eight::Board cur = b;
        for (int k = 0; k < answer.solution.length; ++k) {
          std::uint8_t tile = 0;
          cur = *eight::apply_move(cur, answer.solution.moves[k], &tile);
          CHECK(answer.solution.tiles[k] == tile);
        }
      }
    }
    // The other class is unsolvable at once.
    eight::Board other = goal;
    std::swap(other.cells[goal.cells[0] == 0 ? 1 : 0], other.cells[goal.cells[15] == 0 ? 14 : 15]);
    const auto r = eight::search_solve(table, *frame, other, {});
    CHECK(r.report.status == f::SearchStatus::kUnsolvable);
    CHECK_FALSE(r.solution.solvable);
    CHECK(r.solution.distance == -1);
  }
}

TEST_CASE("4x4 hints list every move with its true distance, optimal ones first") {
  const eight::Table& table = eight::test::fifteen_table();
  const eight::Board goal = eight::standard_goal<Board>(eight::kShape4x4);
  const auto frame = table.frame(goal);
  REQUIRE(frame.ok());
  const auto layers = bfs_layers(goal, 12);
  std::mt19937 rng(99);
  for (int d : {1, 5, 11}) {
    for (int i = 0; i < 10; ++i) {
      const eight::Board b = unpack(layers[d][rng() % layers[d].size()]);
      const auto hints = eight::search_moves(table, *frame, b, {});
      REQUIRE(hints.report.finished());
      CHECK(hints.options.distance == d);
      bool seen_later = false;
      for (const eight::MoveOption& o : hints.options.all()) {
        // Its true distance: in layer d - 1 or d + 1 of the BFS.
        const Packed p = pack(*eight::to_board(o.next));
        const auto& below = layers[d - 1];
        const bool nearer = std::binary_search(below.begin(), below.end(), p);
        CHECK(o.distance == (nearer ? d - 1 : d + 1));
        CHECK(o.optimal == nearer);
        if (!o.optimal) seen_later = true;
        CHECK_FALSE((o.optimal && seen_later));
      }
    }
  }
}

TEST_CASE(
    "a 4x4 answer over its budget says how far the search got, random boards keep their word") {
  const eight::Table& table = eight::test::fifteen_table();
  const eight::Board goal = eight::canonical_goal<Board>(0, eight::kShape4x4);
  const auto frame = table.frame(goal);
  REQUIRE(frame.ok());
  f::SearchBudget budget;
  budget.max_nodes = 1000;
  const auto& hardest = korf100()[87];  // #88, 65 moves
  const auto stopped = eight::search_solve(table, *frame, hardest.board, budget);
  CHECK(stopped.report.status == f::SearchStatus::kBudgetExceeded);
  CHECK(stopped.report.nodes >= 1000);
  CHECK(stopped.report.nodes <= 1000 + 64);
  CHECK(stopped.report.lower_bound <= 65);
  CHECK(stopped.report.lower_bound >= 50);
  CHECK_FALSE(stopped.solution.solvable);
  const std::string said = eight::describe_stop(stopped.report, 1000);
  CHECK(said.find("the search stopped at its budget of 1000 nodes: it searched ") == 0);
  auto r = eight::solve_board(eight::question_of(table, *frame), hardest.board, true, budget);
  REQUIRE(r.ok());
  CHECK_FALSE(r->report.finished());
  // Hints share one budget too.
  CHECK_FALSE(eight::search_moves(table, *frame, hardest.board, budget).report.finished());
  // Random boards: uniform ones of the goal's class; at a distance, exactly.
  eight::Rng rng(5);
  for (int i = 0; i < 20; ++i) {
    const auto drawn = eight::random_search_board(table, *frame, std::nullopt, rng, {});
    CHECK(eight::is_valid(drawn.board));
    CHECK(eight::board_class(drawn.board) == frame->board_class());
    REQUIRE(drawn.distance >= 0);
    CHECK(eight::search_solve(table, *frame, *eight::to_board(drawn.board), {}).solution.distance ==
          drawn.distance);
  }
  for (int d : {0, 1, 17, 40, 56}) {
    const auto drawn = eight::random_search_board(table, *frame, d, rng, {});
    REQUIRE(drawn.report.finished());
    CHECK(drawn.distance == d);
    CHECK(eight::search_solve(table, *frame, *eight::to_board(drawn.board), {}).solution.distance ==
          d);
  }
  // A distance few boards have runs out of budget and says so.
  budget.max_nodes = 200000;
  const auto far = eight::random_search_board(table, *frame, 75, rng, budget);
  CHECK_FALSE(far.report.finished());
}

TEST_CASE("the mirror maps the goal to itself and is its own inverse") {
  for (int blank : {0, 5, 6, 15}) {
    const f::IdaSearch& solver = solver663(blank);
    REQUIRE(solver.has_mirror());
    CHECK(solver.mirror(solver.goal()) == solver.goal());
    const eight::Board b = korf100()[0].board;
    CHECK(solver.mirror(solver.mirror(b)) == b);
    CHECK(f::manhattan_distance(solver.mirror(b), blank) == f::manhattan_distance(b, blank));
  }
}

TEST_CASE("a solved board needs no move, a board of the other class is unsolvable at once") {
  const f::IdaSearch& solver = solver663(0);
  const auto solved = solver.solve(solver.goal());
  CHECK(solved.status == f::SearchStatus::kSolved);
  CHECK(solved.length == 0);
  const eight::Board other = board("0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15");
  const auto r = solver.solve(other);
  CHECK(r.status == f::SearchStatus::kUnsolvable);
  CHECK(r.nodes == 0);
  CHECK(r.lower_bound() == 0);
}

TEST_CASE("a node budget stops the search and says how far it got") {
  const f::IdaSearch& solver = solver663(0);
  const KorfInstance& hard = korf100()[59];  // #60, 66 moves
  const auto full = solver.solve(hard.board);
  REQUIRE(full.status == f::SearchStatus::kSolved);
  f::SearchBudget budget;
  budget.max_nodes = full.nodes / 100;
  const auto r = solver.solve(hard.board, budget);
  CHECK(r.status == f::SearchStatus::kBudgetExceeded);
  CHECK(r.nodes == budget.max_nodes);
  CHECK(r.length == 0);
  CHECK(r.initial_bound == solver.heuristic(hard.board));
  CHECK(r.bound >= r.initial_bound);
  CHECK(r.completed_bound < r.bound);
  CHECK(r.lower_bound() >= r.initial_bound);
  CHECK(r.lower_bound() <= hard.length);
  // More nodes get further, and every bound searched in full is below the
  // answer: the last iteration alone takes most of the nodes.
  budget.max_nodes = full.nodes / 2;
  const auto further = solver.solve(hard.board, budget);
  CHECK(further.status == f::SearchStatus::kBudgetExceeded);
  CHECK(further.completed_bound >= r.completed_bound);
  CHECK(further.completed_bound < hard.length);
  CHECK(further.lower_bound() <= hard.length);
  budget.max_nodes = full.nodes;
  CHECK(solver.solve(hard.board, budget).status == f::SearchStatus::kSolved);
  budget.max_nodes = 0;
  CHECK(solver.solve(hard.board, budget).nodes == 0);
}

TEST_CASE("a deadline in the past or a set cancel flag stops the search within a check interval") {
  const f::IdaSearch& solver = solver663(0);
  const eight::Board hard = korf100()[59].board;
  f::SearchBudget late;
  late.deadline = std::chrono::steady_clock::now();
  const auto r = solver.solve(hard, late);
  CHECK(r.status == f::SearchStatus::kDeadlineExceeded);
  CHECK(r.nodes <= f::kSearchCheckInterval);
  std::atomic<bool> cancel{true};
  f::SearchBudget cancelled;
  cancelled.cancel = &cancel;
  const auto c = solver.solve(hard, cancelled);
  CHECK(c.status == f::SearchStatus::kCancelled);
  CHECK(c.nodes <= f::kSearchCheckInterval);
}

TEST_CASE("cancelling from another thread stops a long search promptly") {
  // One of the positions 80 moves from the goal 1 2 ... 15 0 (Brüngger et
  // al., 1999): far beyond what 6-6-3 answers in a test's time, so only the
  // cancel can end the search.
  const f::IdaSearch& solver = solver663(15);
  const eight::Board hardest = board("0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1");
  REQUIRE(eight::same_class(hardest, solver.goal()));
  std::atomic<bool> cancel{false};
  f::SearchBudget budget;
  budget.cancel = &cancel;
  budget.max_nodes = 20'000'000'000;  // a backstop only
  std::jthread canceller([&cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancel.store(true);
  });
  const auto started = std::chrono::steady_clock::now();
  const auto r = solver.solve(hardest, budget);
  const auto took = std::chrono::steady_clock::now() - started;
  CHECK(r.status == f::SearchStatus::kCancelled);
  CHECK(took < std::chrono::seconds(5));
  CHECK(r.lower_bound() <= 80);
  CHECK(r.lower_bound() >= r.initial_bound);
}

namespace {

// The test support's 6-6-3 file of Korf's goal, edited, then resealed with a fresh
// checksum: only the checks past the checksum can tell.
std::vector<std::uint8_t> resealed_pdb(
    const std::function<void(std::vector<std::uint8_t>&)>& edit) {
  auto bytes = eight::test::read_file(eight::test::fifteen_korf_table_path());
  edit(bytes);
  eight::format::put_u64(bytes.data() + eight::format::kChecksumOffset,
                         eight::format::compute_checksum(bytes));
  return bytes;
}

std::string refusal(const std::vector<std::uint8_t>& bytes, eight::Check check) {
  auto t = eight::Table::adopt(bytes, "pdb.tbl", check);
  REQUIRE_FALSE(t.ok());
  return t.error().message;
}

// Section 0's entries: where they start.
std::size_t first_entries(const std::vector<std::uint8_t>& bytes) {
  return static_cast<std::size_t>(eight::format::get_u64(bytes.data() + 32 + 8));
}

}  // namespace

TEST_CASE(
    "a resealed pattern database with two entries swapped passes the full check, not verify") {
  const auto bytes = resealed_pdb([](auto& b) {
    // Two low nibbles of different values exchanged: the same histogram.
    const std::size_t i = first_entries(b) + 1000;
    std::size_t j = i + 1;
    while ((b[i] & 0xF) == (b[j] & 0xF)) ++j;
    const std::uint8_t lo_i = b[i] & 0xF, lo_j = b[j] & 0xF;
    b[i] = static_cast<std::uint8_t>((b[i] & 0xF0) | lo_j);
    b[j] = static_cast<std::uint8_t>((b[j] & 0xF0) | lo_i);
  });
  CHECK(eight::Table::adopt(bytes, "pdb.tbl", eight::Check::kFull).ok());
  CHECK(refusal(bytes, eight::Check::kExhaustive) ==
        "pdb.tbl: section 0: its pattern database differs from a fresh search of its group");
}

TEST_CASE("a resealed pattern database is refused for a changed entry, goal entry or group") {
  // One entry raised: the histogram no longer counts the entries.
  auto bytes = resealed_pdb([](auto& b) {
    const std::size_t i = first_entries(b) + 1000;
    b[i] = static_cast<std::uint8_t>((b[i] & 0xF0) | ((b[i] & 0xF) == 15 ? 14 : (b[i] & 0xF) + 1));
  });
  CHECK(eight::Table::adopt(bytes, "pdb.tbl", eight::Check::kChecksum).ok());
  CHECK(refusal(bytes, eight::Check::kFull).find("entry histogram says") != std::string::npos);
  // The goal's placement (rank of tiles {1,2,4,5,8,9} at home on Korf's
  // goal) must hold 0: every entry of section 0 set to 1 breaks it at once.
  bytes = resealed_pdb([](auto& b) {
    const std::size_t at = first_entries(b);
    const std::size_t size = static_cast<std::size_t>(eight::format::get_u64(b.data() + 32 + 16));
    std::fill(b.begin() + static_cast<std::ptrdiff_t>(at),
              b.begin() + static_cast<std::ptrdiff_t>(at + size), std::uint8_t{0x11});
  });
  CHECK(refusal(bytes, eight::Check::kChecksum).find("the goal's placement") != std::string::npos);
  // Section 1's lowest tile exchanged for tile 1, which section 0 holds: the
  // same group size, but no longer additive.
  bytes = resealed_pdb([](auto& b) {
    const std::uint16_t g = eight::format::get_u16(b.data() + 32 + 64 + 52);
    REQUIRE((g & 0x2) == 0);
    const auto lowest = static_cast<std::uint16_t>(g & (~g + 1));
    eight::format::put_u16(b.data() + 32 + 64 + 52,
                           static_cast<std::uint16_t>((g & ~lowest) | 0x2));
  });
  CHECK(refusal(bytes, eight::Check::kChecksum).find("shares tiles with section 0's") !=
        std::string::npos);
  // A group of no tiles, and a group field on a section that is not a
  // pattern database, are refused too.
  bytes = resealed_pdb([](auto& b) { eight::format::put_u16(b.data() + 32 + 52, 0); });
  CHECK(refusal(bytes, eight::Check::kChecksum).find("group 0 is not 1 to 8 of the tiles") !=
        std::string::npos);
}

TEST_CASE("databases that overstate a board give a refusal, never a path past 80 moves") {
  // What a resealed file could hold: every entry 0 (so below the start the
  // heuristic is the Manhattan distance alone) but the start board's own
  // placements, 15 each, which puts its heuristic far past 80. A search
  // that took that bound would walk paths longer than 80 moves.
  const f::PatternSet set = f::pattern_set(f::Partition::k663, 0);
  const eight::Board start = korf100()[87].board;  // #88
  std::vector<std::vector<std::uint8_t>> bytes;
  std::vector<f::PatternDbView> views;
  for (const f::TileMask g : set.group_list()) {
    auto& b = bytes.emplace_back(f::pattern_db_size(f::group_size(g)), std::uint8_t{0});
    const std::uint32_t r = f::pattern_rank(start, g);
    b[r / 2] = static_cast<std::uint8_t>(b[r / 2] | (0xF << (4 * (r % 2))));
  }
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    auto v = f::PatternDbView::open(bytes[i], 0, set.groups[i]);
    REQUIRE(v.ok());
    views.push_back(*v);
  }
  auto solver = f::IdaSearch::create(set, views);
  REQUIRE(solver.ok());
  const auto r = solver->solve(start);
  CHECK(r.status == f::SearchStatus::kBudgetExceeded);
  CHECK(r.initial_bound > f::kMaxSolutionLength);
  CHECK(r.length == 0);
  CHECK(r.nodes == 0);
}
