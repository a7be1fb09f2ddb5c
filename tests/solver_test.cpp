#include <doctest/doctest.h>

#include "eight/json.h"
#include "eight/rank.h"
#include "eight/solver.h"
#include "eight/tablegen.h"
#include "support.h"

using namespace eight;

namespace {

Solution solve(const std::string& board, const std::string& goal = "123456780") {
  auto frame = test::solver().frame(test::board(goal));
  REQUIRE(frame.ok());
  return test::solver().solve(test::board(board), *frame);
}

// Replays a solution on its board: every move legal, the tiles as reported,
// ending on the goal.
void check_path(const Solution& s) {
  REQUIRE(s.solvable);
  REQUIRE(s.length == s.distance);
  Board cur = s.board;
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

TEST_CASE("for all 181,440 positions of every section the path is legal, optimal and reaches the goal") {
  const auto& t = test::table();
  for (std::size_t i = 0; i < t.section_count(); ++i) {
    auto frame = test::solver().frame(t.section(i).goal);
    REQUIRE(frame.ok());
    REQUIRE(frame->section() == static_cast<int>(i));
    for (std::uint32_t r = 0; r < kPositions; ++r) {
      const Board b = unrank(r, 0);
      const Solution s = test::solver().solve(b, *frame);
      REQUIRE(s.distance == t.entry(i, r).distance);
      check_path(s);
    }
  }
}

TEST_CASE("every goal blank cell is answered, with the distances of a naive search") {
  // One goal per blank cell, in both classes, including the snail 123804765.
  for (const char* g : {"123456780", "123804765", "012345678", "102345678", "120345678",
                        "123045678", "123450678", "123456078", "123456708", "213456780",
                        "876543210"}) {
    const Board goal = test::board(g);
    auto frame = test::solver().frame(goal);
    REQUIRE(frame.ok());
    const auto naive = test::bfs_histogram(goal);
    std::vector<int> hist(naive.size(), 0);
    const int parity = tile_parity(goal);
    for (std::uint32_t r = 0; r < kPositions; ++r) {
      const Board b = unrank(r, parity);
      const int d = test::solver().distance(b, *frame);
      REQUIRE(d >= 0);
      REQUIRE(d < static_cast<int>(hist.size()));
      ++hist[d];
      if (r % 97 == 0) check_path(test::solver().solve(b, *frame));
      REQUIRE(test::solver().distance(unrank(r, 1 - parity), *frame) == -1);
    }
    CHECK_MESSAGE(hist == naive, "goal " << g);
  }
}

TEST_CASE("the centre-blank goal 123804765 has max distance 30 over 148 positions") {
  const Board goal = test::board("123804765");
  auto frame = test::solver().frame(goal);
  REQUIRE(frame.ok());
  int at30 = 0, max = 0;
  for (std::uint32_t r = 0; r < kPositions; ++r) {
    const int d = test::solver().distance(unrank(r, tile_parity(goal)), *frame);
    max = std::max(max, d);
    at30 += d == 30;
  }
  CHECK(max == 30);
  CHECK(at30 == 148);
}

TEST_CASE("a table without a section for the goal's blank says so") {
  const auto bytes = build_table(std::vector<int>{4});
  auto view = TableView::parse(bytes, "centre-only");
  REQUIRE(view.ok());
  const Solver solver(*view);
  CHECK(solver.frame(test::board("123804765")).ok());
  auto frame = solver.frame(test::board("123456780"));
  REQUIRE_FALSE(frame.ok());
  CHECK(frame.error().code == ErrorCode::kNoSection);
  CHECK(frame.error().message == "the table has no section for goal 123456780 (blank on cell 8)");
}

TEST_CASE("the JSON answer has the documented fields in order") {
  CHECK(solution_json(solve("123456708"), true) ==
        R"({"board":"123456708","goal":"123456780","solvable":true,"distance":1,)"
        R"("moves":["right"],"path":"r","tiles":[8]})");
  CHECK(solution_json(solve("213456780"), false) ==
        R"({"board":"213456780","goal":"123456780","solvable":false,"distance":null})");
  CHECK(solution_json(solve("213456780"), true) ==
        R"({"board":"213456780","goal":"123456780","solvable":false,"distance":null,)"
        R"("moves":[],"path":"","tiles":[]})");
}

namespace {

// The documented shape, built as a JSON value the slow, obvious way.
std::string reference_json(const Solution& s, bool with_path) {
  nlohmann::ordered_json j;
  j["board"] = to_string(s.board);
  j["goal"] = to_string(s.goal);
  j["solvable"] = s.solvable;
  j["distance"] = s.solvable ? nlohmann::ordered_json(s.distance) : nlohmann::ordered_json(nullptr);
  if (with_path) {
    auto moves = nlohmann::ordered_json::array();
    auto tiles = nlohmann::ordered_json::array();
    for (Move m : s.path()) moves.push_back(move_name(m));
    for (std::uint8_t t : s.slid_tiles()) tiles.push_back(t);
    j["moves"] = std::move(moves);
    j["path"] = path_letters(s.path());
    j["tiles"] = std::move(tiles);
  }
  return j.dump();
}

}  // namespace

TEST_CASE("the JSON text is exactly what a JSON library writes, for every position of every goal") {
  const auto& solver = test::solver();
  for (std::size_t i = 0; i < solver.table().section_count(); ++i) {
    const auto frame = *solver.frame(solver.table().section(i).goal);
    for (std::uint32_t r = 0; r < kPositions; ++r) {
      // Both classes: the goal's, and (every 16th) the other.
      const Board b = unrank(r, r % 16 == 0 ? 1 : 0);
      const bool with_path = r % 3 != 0;
      const Solution s = solver.solve(b, frame, with_path);
      const std::string got = solution_json(s, with_path);
      if (got != reference_json(s, with_path)) {
        CAPTURE(to_string(b));
        REQUIRE(got == reference_json(s, with_path));
      }
    }
  }
}
