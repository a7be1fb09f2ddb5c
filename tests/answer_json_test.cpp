// The JSON of answers (json/answer_json.h): the documented fields in order,
// byte for byte what a JSON library writes, for every position.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <functional>

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
  j["shape"] = std::to_string(s.board.shape.rows) + "x" + std::to_string(s.board.shape.cols);
  const auto cells = [](const GridBoard& b) {
    auto out = nlohmann::ordered_json::array();
    for (int i = 0; i < b.size(); ++i) out.push_back(b.cells[static_cast<std::size_t>(i)]);
    return out;
  };
  j["board_cells"] = cells(s.board);
  j["goal_cells"] = cells(s.goal);
  j["solvable"] = s.solvable;
  j["distance"] = s.solvable ? nlohmann::ordered_json(s.distance) : nlohmann::ordered_json(nullptr);
  j["optimal"] = s.quality.optimal;
  j["lower_bound"] = !s.solvable         ? nlohmann::ordered_json(nullptr)
                     : s.quality.optimal ? nlohmann::ordered_json(s.distance)
                                         : nlohmann::ordered_json(s.quality.lower_bound);
  j["method"] = method_name(s.quality.method);
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
    auto boards_cells = nlohmann::ordered_json::array();
    GridBoard b = s.board;
    for (Move m : s.path()) {
      b = *apply_move(b, m);
      boards.push_back(to_string(b));
      boards_cells.push_back(cells(b));
    }
    j["boards"] = std::move(boards);
    j["boards_cells"] = std::move(boards_cells);
  }
  return j.dump();
}

}  // namespace

TEST_CASE("the JSON answer has the documented fields in order") {
  CHECK(solution_json(solve("123456708")) ==
        R"({"board":"123456708","goal":"123456780","shape":"3x3",)"
        R"("board_cells":[1,2,3,4,5,6,7,0,8],"goal_cells":[1,2,3,4,5,6,7,8,0],)"
        R"("solvable":true,"distance":1,"optimal":true,"lower_bound":1,"method":"table",)"
        R"("moves":["right"],"path":"r","tiles":[8]})");
  CHECK(solution_json(solve("123456708"), {true, true}) ==
        R"({"board":"123456708","goal":"123456780","shape":"3x3",)"
        R"("board_cells":[1,2,3,4,5,6,7,0,8],"goal_cells":[1,2,3,4,5,6,7,8,0],)"
        R"("solvable":true,"distance":1,"optimal":true,"lower_bound":1,"method":"table",)"
        R"("moves":["right"],"path":"r","tiles":[8],)"
        R"("boards":["123456780"],"boards_cells":[[1,2,3,4,5,6,7,8,0]]})");
  CHECK(solution_json(solve("213456780", false), {false, false}) ==
        R"({"board":"213456780","goal":"123456780","shape":"3x3",)"
        R"("board_cells":[2,1,3,4,5,6,7,8,0],"goal_cells":[1,2,3,4,5,6,7,8,0],)"
        R"("solvable":false,"distance":null,"optimal":true,"lower_bound":null,"method":"table"})");
  CHECK(solution_json(solve("213456780")) ==
        R"({"board":"213456780","goal":"123456780","shape":"3x3",)"
        R"("board_cells":[2,1,3,4,5,6,7,8,0],"goal_cells":[1,2,3,4,5,6,7,8,0],)"
        R"("solvable":false,"distance":null,"optimal":true,"lower_bound":null,"method":"table",)"
        R"("moves":[],"path":"","tiles":[]})");
}

TEST_CASE("every answer says its shape and its boards' cells, whatever the notation") {
  // The three notations a client would otherwise parse three ways.
  CHECK(cells_json(test::board("867254301")).dump() == "[8,6,7,2,5,4,3,0,1]");
  CHECK(cells_json(test::board("123/405")).dump() == "[1,2,3,4,0,5]");
  CHECK(cells_json(test::board("5,1,2,3/0,6,7,4/9,10,11,8/13,14,15,12")).dump() ==
        "[5,1,2,3,0,6,7,4,9,10,11,8,13,14,15,12]");
  nlohmann::ordered_json j;
  const GridBoard board = test::board("123/405");
  add_board_fields(j, &board, standard_goal(board.shape));
  CHECK(j.dump() == R"({"board":"123/405","goal":"123/450","shape":"2x3",)"
                    R"("board_cells":[1,2,3,4,0,5],"goal_cells":[1,2,3,4,5,0]})");
  // Without a board (a goal's statistics): the goal's fields alone.
  nlohmann::ordered_json g;
  add_board_fields(g, nullptr, standard_goal(kShape4x4));
  CHECK(g.dump() == R"({"goal":"1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,0","shape":"4x4",)"
                    R"("goal_cells":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0]})");
}

TEST_CASE("the JSON text is exactly what a JSON library writes, for every position of every goal") {
  const auto& t = test::view();
  for (std::size_t i = 0; i < t.section_count(); ++i) {
    const GoalFrame frame = test::frame(t.section(i).goal);
    for (std::uint32_t r = 0; r < kPositions3x3; ++r) {
      // Both classes: the goal's, and (every 16th) the other.
      const Board b = unrank_3x3(r, r % 16 == 0 ? 1 : 0);
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
        nlohmann::json::parse(R"({"move":"up","letter":"u","tile":5,"board":"867204351",)"
                              R"("board_cells":[8,6,7,2,0,4,3,5,1],"distance":30})"));
  CHECK(j["shape"] == "3x3");
  CHECK(j["board_cells"] == nlohmann::json::parse("[8,6,7,2,5,4,3,0,1]"));
  CHECK(j["goal_cells"] == nlohmann::json::parse("[1,2,3,4,5,6,7,8,0]"));
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
  CHECK(k["moves"][0] ==
        nlohmann::json::parse(R"({"move":"right","letter":"r","tile":8,"board":"123456780",)"
                              R"("board_cells":[1,2,3,4,5,6,7,8,0],"distance":0,"optimal":true})"));
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

TEST_CASE(
    "a solve answer reads back as the Solution it was written from, for every position of a "
    "goal") {
  const Board goals[] = {kStandardGoal, test::board("123804765")};
  for (const Board& goal : goals) {
    const GoalFrame f = test::frame(goal);
    for (std::uint32_t r = 0; r < kPositions3x3; r += 7) {  // a seventh of them, both classes
      for (int cls = 0; cls < 2; ++cls) {
        const Board b = unrank_3x3(r, cls);
        const Solution s = *test::solver().solve(b, f, true);
        const auto back = parse_solution_json(nlohmann::json::parse(solution_json(s)));
        if (!back.ok() || solution_json(*back, {true, true}) != solution_json(s, {true, true})) {
          CAPTURE(to_string(b));
          REQUIRE(back.ok());
          REQUIRE(solution_json(*back, {true, true}) == solution_json(s, {true, true}));
        }
      }
    }
  }
}

TEST_CASE("a solve answer whose fields disagree is refused, naming the field") {
  const auto good = nlohmann::json::parse(solution_json(solve("867254301")));
  REQUIRE(parse_solution_json(good).ok());
  const auto refused = [&](const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = good;
    edit(j);
    const auto r = parse_solution_json(j);
    REQUIRE_FALSE(r.ok());
    return r.error().message;
  };
  CHECK(refused([](nlohmann::json& j) { j["path"] = std::string(31, 'x'); }) ==
        "answer field 'path': a letter other than u, d, l and r");
  CHECK(refused([](nlohmann::json& j) { j["path"] = std::string(31, 'd'); }) ==
        "answer field 'path': a move off the board");
  CHECK(refused([](nlohmann::json& j) { j["tiles"][3] = 9; }).rfind("answer field 'tiles'", 0) ==
        0);
  CHECK(refused([](nlohmann::json& j) {
          j["moves"][0] = "down";
        }).rfind("answer field 'moves'", 0) == 0);
  CHECK(refused([](nlohmann::json& j) { j["distance"] = 30; }).rfind("answer field 'path'", 0) ==
        0);
  CHECK(refused([](nlohmann::json& j) {
          j["distance"] = 99;
        }).rfind("answer field 'distance'", 0) == 0);
  CHECK(refused([](nlohmann::json& j) {
          j["board"] = "12345678";
        }).rfind("answer field 'board'", 0) == 0);
  CHECK(refused([](nlohmann::json& j) { j["goal"] = "123804765"; }) ==
        "answer field 'path': it does not end on the goal");
  CHECK(refused([](nlohmann::json& j) { j["goal"] = "123/450"; }).rfind("answer field 'goal'", 0) ==
        0);
  CHECK(refused([](nlohmann::json& j) {
          j.erase("solvable");
        }).rfind("answer field 'solvable'", 0) == 0);
  CHECK(refused([](nlohmann::json& j) { j = nlohmann::json::array(); }).find("not an object") !=
        std::string::npos);
  // How good it is: a lower bound over the distance, an optimal answer's
  // bound other than its distance, a method no one has.
  CHECK(refused([](nlohmann::json& j) { j["lower_bound"] = 32; }) ==
        "answer field 'lower_bound': not a bound on the distance");
  CHECK(refused([](nlohmann::json& j) { j["lower_bound"] = 29; }) ==
        "answer field 'lower_bound': not a bound on the distance");
  CHECK(refused([](nlohmann::json& j) { j["method"] = "guess"; }) ==
        "answer field 'method': missing, or not a method");
  CHECK(refused([](nlohmann::json& j) { j["optimal"] = "yes"; }) ==
        "answer field 'optimal': not a boolean");
  // A bound below the distance is an answer not proven optimal.
  nlohmann::json bounded = good;
  bounded["optimal"] = false;
  bounded["lower_bound"] = 29;
  bounded["method"] = "reduction";
  const auto b = parse_solution_json(bounded);
  REQUIRE(b.ok());
  CHECK(b->quality == Quality{false, 29, Method::kReduction});
  // An unsolvable answer has no path and a null distance.
  const auto other = nlohmann::json::parse(solution_json(solve("213456780")));
  const auto back = parse_solution_json(other);
  REQUIRE(back.ok());
  CHECK_FALSE(back->solvable);
  CHECK(back->distance == -1);
}

TEST_CASE(
    "a hints answer reads back as the moves it was written from, and is refused when a "
    "move is not its board's") {
  for (const char* text : {"867254301", "123456708", "123456780", "213456780", "123804765"}) {
    CAPTURE(text);
    const Board b = test::board(text);
    const MoveOptions options = test::solver().moves(b, test::frame(kStandardGoal));
    const std::string written = hints_json(b, kStandardGoal, options);
    const auto back = parse_hints_json(nlohmann::json::parse(written));
    REQUIRE(back.ok());
    CHECK(back->board == b);
    CHECK(back->goal == kStandardGoal);
    CHECK(hints_json(back->board, back->goal, back->options) == written);
  }
  auto j = nlohmann::json::parse(
      hints_json(test::board("123456708"), kStandardGoal,
                 test::solver().moves(test::board("123456708"), test::frame(kStandardGoal))));
  j["moves"][0]["board"] = "123456708";
  CHECK_FALSE(parse_hints_json(j).ok());
}
