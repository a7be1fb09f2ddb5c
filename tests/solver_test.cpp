#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "eight/rank.h"
#include "eight/solver.h"
#include "eight/tablegen.h"
#include "support.h"

using namespace eight;

namespace {

Solution solve(const std::string& board, const std::string& goal = "123456780") {
  auto s = test::solver().solve(test::board(board), test::frame(test::board(goal)));
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  return *s;
}

// Replays a solution on its board: every move legal, the tiles as reported,
// ending on the goal.
void check_path(const Solution& s) {
  REQUIRE(s.solvable);
  REQUIRE(s.length == s.distance);
  GridBoard cur = s.board;
  for (int i = 0; i < s.length; ++i) {
    std::uint8_t slid = 0;
    auto next = apply_move(cur, s.moves[i], &slid);
    REQUIRE(next.has_value());
    REQUIRE(slid == s.tiles[i]);
    cur = *next;
  }
  REQUIRE(cur == s.goal);
}

}  // namespace

TEST_CASE("known puzzles take their known number of moves") {
  CHECK(solve("2 3 4 1 5 x 7 6 8").distance == 19);
  CHECK(solve("8 6 7 2 5 4 3 x 1").distance == 31);
  CHECK(solve("6 4 7 8 5 x 3 2 1").distance == 31);
  CHECK(solve("123456780").distance == 0);
  CHECK(solve("123456708").distance == 1);
  check_path(solve("8 6 7 2 5 4 3 x 1"));
  check_path(solve("2 3 4 1 5 x 7 6 8"));
}

TEST_CASE("the format spec's test vectors are the solver's answers, path for path") {
  std::ifstream in(std::string(EIGHT_SOURCE_DIR) + "/tests/data/table_vectors.txt");
  REQUIRE(in.good());
  int checked = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string board, goal, distance, path;
    REQUIRE((fields >> board >> goal >> distance >> path));
    CAPTURE(line);
    // The default table answers every line; its 3x3 sections are the 3x3
    // table's, so its 3x3 answers are the same.
    const Board g = test::board(goal);
    const auto f = test::default_table().frame(g);
    REQUIRE_MESSAGE(f.ok(), (f.ok() ? "" : f.error().message));
    const auto answer = test::default_table().solver().solve(test::board(board, g.shape), *f);
    REQUIRE_MESSAGE(answer.ok(), (answer.ok() ? "" : answer.error().message));
    const Solution& s = *answer;
    if (board.size() == 9 && board.find('/') == std::string::npos) {
      CHECK(solve(board, goal).distance == s.distance);
    }
    if (distance == "unsolvable") {
      CHECK_FALSE(s.solvable);
    } else {
      check_path(s);
      CHECK(s.distance == std::stoi(distance));
      std::string letters;
      for (Move m : s.path()) letters += move_letter(m);
      CHECK(letters == (path == "-" ? "" : path));
    }
    ++checked;
  }
  CHECK(checked >= 50);
}

TEST_CASE("a solved board has an empty path") {
  const Solution s = solve("123456780");
  CHECK(s.solvable);
  CHECK(s.length == 0);
}

TEST_CASE("a board of the other class is unsolvable, with no distance and no path") {
  const Solution s = solve("213456780");
  CHECK_FALSE(s.solvable);
  CHECK(s.distance == -1);
  CHECK(s.length == 0);
}

TEST_CASE(
    "for all 181,440 positions of every section the path is legal, optimal and reaches the goal") {
  const auto& t = test::view();
  for (std::size_t i = 0; i < t.section_count(); ++i) {
    const GoalFrame frame = test::frame(t.section(i).goal);
    REQUIRE(frame.section() == i);
    for (std::uint32_t r = 0; r < kPositions3x3; ++r) {
      const Board b = unrank_3x3(r, 0);
      const auto s = test::solver().solve(b, frame);
      REQUIRE(s.ok());
      REQUIRE(s->distance == t.entry(i, r).distance);
      check_path(*s);
    }
  }
}

TEST_CASE("every goal blank cell is answered, with the distances of a naive search") {
  // One goal per blank cell, in both classes, including the snail 123804765.
  for (const char* g :
       {"123456780", "123804765", "012345678", "102345678", "120345678", "123045678", "123450678",
        "123456078", "123456708", "213456780", "876543210"}) {
    const Board goal = test::board(g);
    const GoalFrame frame = test::frame(goal);
    const auto naive = test::bfs_histogram(goal);
    std::vector<int> hist(naive.size(), 0);
    const int parity = tile_parity(goal);
    for (std::uint32_t r = 0; r < kPositions3x3; ++r) {
      const Board b = unrank_3x3(r, parity);
      const int d = test::solver().distance(b, frame);
      REQUIRE(d >= 0);
      REQUIRE(d < static_cast<int>(hist.size()));
      ++hist[d];
      if (r % 97 == 0) check_path(*test::solver().solve(b, frame));
      REQUIRE(test::solver().distance(unrank_3x3(r, 1 - parity), frame) == -1);
    }
    CHECK_MESSAGE(hist == naive, "goal " << g);
  }
}

TEST_CASE("the centre-blank goal 123804765 has max distance 30 over 148 positions") {
  const Board goal = test::board("123804765");
  const GoalFrame frame = test::frame(goal);
  int at30 = 0, max = 0;
  for (std::uint32_t r = 0; r < kPositions3x3; ++r) {
    const int d = test::solver().distance(unrank_3x3(r, tile_parity(goal)), frame);
    max = std::max(max, d);
    at30 += d == 30;
  }
  CHECK(max == 30);
  CHECK(at30 == 148);
}

TEST_CASE("a table without a section for the goal's blank says so") {
  auto table = Table::adopt(build_table(std::vector<int>{4}), "centre-only", Check::kFull);
  REQUIRE(table.ok());
  CHECK((*table)->frame(test::board("123804765")).ok());
  auto frame = (*table)->frame(test::board("123456780"));
  REQUIRE_FALSE(frame.ok());
  CHECK(frame.error().code == ErrorCode::kNoSection);
  CHECK(frame.error().message == "the table has no section for goal 123456780 (blank on cell 8)");
}

TEST_CASE(
    "every legal move's distance is the table's, best first, for every position of every section") {
  const auto& t = test::view();
  long with_several = 0;
  for (std::size_t i = 0; i < t.section_count(); ++i) {
    const GoalFrame f = test::frame(t.section(i).goal);
    for (std::uint32_t r = 0; r < kPositions3x3; ++r) {
      const Board b = unrank_3x3(r, 0);
      const int d = test::solver().distance(b, f);
      const MoveOptions options = test::solver().moves(b, f);
      REQUIRE(options.distance == d);
      int legal = 0, optimal = 0;
      for (Move m : kAllMoves) legal += apply_move(b, m).has_value();
      REQUIRE(options.count == legal);
      bool seen_worse = false;
      for (const MoveOption& o : options.all()) {
        std::uint8_t tile = 0;
        REQUIRE(apply_move(b, o.move, &tile) == o.next);
        REQUIRE(tile == o.tile);
        REQUIRE(o.distance == test::solver().distance(*to_board(o.next), f));
        // In the 8-puzzle a move changes the distance by exactly one.
        REQUIRE((o.distance == d - 1 || o.distance == d + 1));
        REQUIRE(o.optimal == (o.distance == d - 1));
        REQUIRE_FALSE((o.optimal && seen_worse));  // best first
        seen_worse |= !o.optimal;
        optimal += o.optimal;
      }
      REQUIRE((d == 0) == (optimal == 0));
      with_several += optimal > 1;
    }
  }
  CHECK(with_several > 0);
  // An unsolvable board: every move listed, none optimal, no distances.
  const MoveOptions none =
      test::solver().moves(test::board("213456780"), test::frame(kStandardGoal));
  CHECK(none.distance == -1);
  CHECK(none.count == 2);
  for (const MoveOption& o : none.all()) {
    CHECK_FALSE(o.optimal);
    CHECK(o.distance == -1);
  }
}

namespace {

// The default table with `edit` applied to its entries and the checksum
// recomputed: it passes Check::kChecksum, and is wrong.
template <typename Edit>
std::shared_ptr<const Table> resealed_table(Edit edit) {
  auto t = Table::adopt(test::resealed(test::table_bytes(), edit), "resealed", Check::kChecksum);
  REQUIRE(t.ok());
  return std::move(t).value();
}

void set_entry(std::vector<std::uint8_t>& bytes, std::size_t section, std::uint32_t r,
               format::Entry e) {
  format::put_u32(bytes.data() + format::section_offset(3, section) + 4 * r, format::pack_entry(e));
}

format::Entry entry_of(const std::vector<std::uint8_t>& bytes, std::size_t section,
                       std::uint32_t r) {
  return format::unpack_entry(
      format::get_u32(bytes.data() + format::section_offset(3, section) + 4 * r));
}

// Every question the solver answers, asked of every position of section 0:
// none may crash or hang, each answer is a solution or a kBadEntry refusal.
int refusals_over_section(const Table& t) {
  const GoalFrame f = *t.frame(kStandardGoal);
  int refused = 0;
  for (std::uint32_t r = 0; r < kPositions3x3; ++r) {
    const Board b = unrank_3x3(r, 0);
    const auto s = t.solver().solve(b, f);
    if (!s.ok()) {
      REQUIRE(s.error().code == ErrorCode::kBadEntry);
      ++refused;
    } else {
      REQUIRE(s->length <= format::kMaxDistance);
    }
    (void)t.solver().moves(b, f);
  }
  return refused;
}

}  // namespace

TEST_CASE(
    "a resealed table with a wrong parent, a parent cycle or an out-of-range index gives refusals, "
    "never a crash") {
  const std::uint32_t near = rank_3x3(test::board("123456708"));  // one move from the goal
  const std::uint32_t far = rank_3x3(test::board("867254301"));   // 31 moves
  // Out of range: the far board's parent points past the section.
  auto t = resealed_table([&](auto& b) {
    auto e = entry_of(b, 0, far);
    e.parent = 200000;
    set_entry(b, 0, far, e);
  });
  CHECK_FALSE(
      Table::adopt(std::vector<std::uint8_t>(t->view().bytes().begin(), t->view().bytes().end()),
                   "r", Check::kFull)
          .ok());
  auto s = t->solver().solve(test::board("867254301"), *t->frame(kStandardGoal));
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message.find("its parent is out of range") != std::string::npos);
  CHECK(refusals_over_section(*t) >= 1);
  // A cycle: two positions each other's parent at the same distance.
  t = resealed_table([&](auto& b) {
    const auto e = entry_of(b, 0, near);
    set_entry(b, 0, near, {e.parent, e.move, 2});
    set_entry(b, 0, e.parent, {near, opposite(e.move), 2});
  });
  CHECK(refusals_over_section(*t) > 0);
  // A wrong parent of the right distance, not next to the position.
  t = resealed_table([&](auto& b) {
    auto e = entry_of(b, 0, far);
    e.parent = rank_3x3(test::board("647850321"));  // the other 31-move board: not one closer
    set_entry(b, 0, far, e);
  });
  s = t->solver().solve(test::board("867254301"), *t->frame(kStandardGoal));
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message.find("not one move closer") != std::string::npos);
  // Every entry claiming distance 31 with itself as parent: refused, not looped.
  t = resealed_table([&](auto& b) {
    for (std::uint32_t r = 0; r < kPositions3x3; r += 7) set_entry(b, 0, r, {r, Move::kUp, 31});
  });
  CHECK(refusals_over_section(*t) > 1000);
}
