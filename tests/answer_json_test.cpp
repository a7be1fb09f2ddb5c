// The JSON of answers (json/answer_json.h): the documented fields in order,
// byte for byte what a JSON library writes, for every position.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "eight/rank.h"
#include "json/answer_json.h"
#include "support.h"

using namespace eight;

namespace {

Solution solve(const std::string& board, bool with_path = true) {
  return *test::solver().solve(test::board(board), test::frame(kStandardGoal), with_path);
}

// The documented shape, built as a JSON value the slow, obvious way.
std::string reference_json(const Solution& s, SolveFields fields) {
  nlohmann::ordered_json j;
  j["board"] = to_string(s.board);
  j["goal"] = to_string(s.goal);
  j["solvable"] = s.solvable;
  j["distance"] = s.solvable ? nlohmann::ordered_json(s.distance) : nlohmann::ordered_json(nullptr);
  if (fields.path) {
    auto moves = nlohmann::ordered_json::array();
    auto tiles = nlohmann::ordered_json::array();
    for (Move m : s.path()) moves.push_back(move_name(m));
    for (std::uint8_t t : s.slid_tiles()) tiles.push_back(t);
    j["moves"] = std::move(moves);
    j["path"] = path_letters(s.path());
    j["tiles"] = std::move(tiles);
  }
  if (fields.boards) {
    auto boards = nlohmann::ordered_json::array();
    Board b = s.board;
    for (Move m : s.path()) {
      b = *apply_move(b, m);
      boards.push_back(to_string(b));
    }
    j["boards"] = std::move(boards);
  }
  return j.dump();
}

}  // namespace

TEST_CASE("the JSON answer has the documented fields in order") {
  CHECK(solution_json(solve("123456708")) ==
        R"({"board":"123456708","goal":"123456780","solvable":true,"distance":1,)"
        R"("moves":["right"],"path":"r","tiles":[8]})");
  CHECK(solution_json(solve("123456708"), {true, true}) ==
        R"({"board":"123456708","goal":"123456780","solvable":true,"distance":1,)"
        R"("moves":["right"],"path":"r","tiles":[8],"boards":["123456780"]})");
  CHECK(solution_json(solve("213456780", false), {false, false}) ==
        R"({"board":"213456780","goal":"123456780","solvable":false,"distance":null})");
  CHECK(solution_json(solve("213456780")) ==
        R"({"board":"213456780","goal":"123456780","solvable":false,"distance":null,)"
        R"("moves":[],"path":"","tiles":[]})");
}

TEST_CASE("the JSON text is exactly what a JSON library writes, for every position of every goal") {
  const auto& t = test::view();
  for (std::size_t i = 0; i < t.section_count(); ++i) {
    const GoalFrame frame = test::frame(t.section(i).goal);
    for (std::uint32_t r = 0; r < kPositions; ++r) {
      // Both classes: the goal's, and (every 16th) the other.
      const Board b = unrank(r, r % 16 == 0 ? 1 : 0);
      const SolveFields fields{r % 3 != 0, r % 3 == 2};
      const auto s = test::solver().solve(b, frame, fields.path);
      REQUIRE(s.ok());
      const std::string got = solution_json(*s, fields);
      if (got != reference_json(*s, fields)) {
        CAPTURE(to_string(b));
        REQUIRE(got == reference_json(*s, fields));
      }
    }
  }
}

TEST_CASE("hints list the optimal moves as before, and every move best first with its distance") {
  const Board b = test::board("867254301");
  const GoalFrame f = test::frame(kStandardGoal);
  const auto j = nlohmann::json::parse(hints_json(b, f.goal(), test::solver().moves(b, f)));
  CHECK(j["distance"] == 31);
  REQUIRE(j["hints"].size() == 3);
  CHECK(j["hints"][0] ==
        nlohmann::json::parse(
            R"({"move":"up","letter":"u","tile":5,"board":"867204351","distance":30})"));
  REQUIRE(j["moves"].size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(j["moves"][k]["optimal"] == true);
    CHECK(j["moves"][k]["move"] == j["hints"][k]["move"]);
  }
  // A board with a move that is not optimal lists it last, one farther.
  const Board c = test::board("123456708");
  const auto k = nlohmann::json::parse(hints_json(c, f.goal(), test::solver().moves(c, f)));
  CHECK(k["hints"].size() == 1);
  REQUIRE(k["moves"].size() == 3);
  CHECK(
      k["moves"][0] ==
      nlohmann::json::parse(
          R"({"move":"right","letter":"r","tile":8,"board":"123456780","distance":0,"optimal":true})"));
  CHECK(k["moves"][1]["distance"] == 2);
  CHECK(k["moves"][1]["optimal"] == false);
  // Unsolvable: no hints, every move, no distances.
  const auto u = nlohmann::json::parse(hints_json(
      test::board("213456780"), f.goal(), test::solver().moves(test::board("213456780"), f)));
  CHECK(u["solvable"] == false);
  CHECK(u["hints"].empty());
  CHECK(u["moves"].size() == 2);
  CHECK(u["moves"][0]["distance"].is_null());
}

TEST_CASE("an input that could not be answered is echoed with its error, whatever its bytes") {
  CHECK(input_error_json("12", "expected 9 cells, got 2") ==
        R"({"input":"12","error":"expected 9 cells, got 2"})");
  CHECK(input_error_json(nlohmann::json(5), "x") == R"({"input":5,"error":"x"})");
  CHECK(input_error_json(std::string("\xff"), "bad") ==
        "{\"input\":\"\xef\xbf\xbd\",\"error\":\"bad\"}");
}
