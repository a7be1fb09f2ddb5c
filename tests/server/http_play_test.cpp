// Integration: what players and puzzle makers use (issue 5): hints, puzzles
// by difficulty, batches, stats, CORS and the playground page, asked of the
// Service in process (service_fixture.h); a batch's body limit is the
// transport's, asked of the real eight-server over HTTP.
#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "eight/answer.h"
#include "json/answer_json.h"
#include "server_fixture.h"
#include "service_fixture.h"
#include "support.h"

using eight::test::check_problem;
using eight::test::ServerProcess;
using eight::test::ServiceFixture;
using nlohmann::json;

namespace {

int distance_of(const std::string& board, const std::string& goal) {
  const auto& solver = eight::test::solver();
  return solver.distance(eight::test::board(board), eight::test::frame(eight::test::board(goal)));
}

template <class Client>
httplib::Result post_json(Client& cli, const std::string& body) {
  return cli.Post("/solve", body, "application/json");
}

}  // namespace

TEST_CASE("/hint lists every optimal next move with the board it leads to") {
  ServiceFixture server;
  auto cli = server.client();
  const json j = eight::test::get_json(cli, "/hint?board=8+6+7+2+5+4+3+x+1");
  CHECK(j["board"] == "867254301");
  CHECK(j["goal"] == "123456780");
  CHECK(j["solvable"] == true);
  CHECK(j["distance"] == 31);
  REQUIRE(j["hints"].size() == 3);
  for (const auto& h : j["hints"]) {
    CHECK(h["distance"] == 30);
    CHECK(distance_of(h["board"], "123456780") == 30);
    const auto m = eight::move_from_letter(h["letter"].get<std::string>()[0]);
    REQUIRE(m);
    CHECK(h["move"] == std::string(eight::move_name(*m)));
    std::uint8_t tile = 0;
    CHECK(eight::to_string(*eight::apply_move(eight::test::board("867254301"), *m, &tile)) ==
          h["board"]);
    CHECK(h["tile"] == tile);
  }
  // Another goal, a solved board, an unsolvable one.
  const json snail = eight::test::get_json(cli, "/hint?board=123084765&goal=123804765");
  REQUIRE(snail["hints"].size() == 1);
  CHECK(snail["hints"][0]["board"] == "123804765");
  CHECK(eight::test::get_json(cli, "/hint?board=123456780")["hints"].empty());
  const json u = eight::test::get_json(cli, "/hint?board=213456780");
  CHECK(u["solvable"] == false);
  CHECK(u["distance"].is_null());
  CHECK(u["hints"].empty());
}

TEST_CASE(
    "/hint lists every legal move best first, each with its distance and whether it is optimal") {
  ServiceFixture server;
  auto cli = server.client();
  for (const std::string board : {"867254301", "123456708", "123456780", "413726580"}) {
    CAPTURE(board);
    const json j = eight::test::get_json(cli, "/hint?board=" + board);
    const int here = j["distance"];
    std::vector<std::string> letters;
    bool seen_worse = false;
    for (const auto& m : j["moves"]) {
      const std::string next = m["board"];
      CHECK(m["distance"] == distance_of(next, "123456780"));
      // Every move is one closer or one farther: there is no third kind.
      CHECK(std::abs(m["distance"].get<int>() - here) == 1);
      CHECK(m["optimal"] == (m["distance"].get<int>() == here - 1));
      if (!m["optimal"].get<bool>()) seen_worse = true;
      CHECK_FALSE((m["optimal"].get<bool>() && seen_worse));  // best first
      letters.push_back(m["letter"]);
    }
    // All the legal moves, no more.
    std::size_t legal = 0;
    for (eight::Move m : eight::kAllMoves) {
      legal += eight::apply_move(eight::test::board(board), m).has_value() ? 1 : 0;
    }
    CHECK(letters.size() == legal);
    // hints is the optimal ones, in the same order.
    std::size_t optimal = 0;
    for (const auto& m : j["moves"]) optimal += m["optimal"].get<bool>() ? 1 : 0;
    REQUIRE(j["hints"].size() == optimal);
    for (std::size_t i = 0; i < optimal; ++i)
      CHECK(j["hints"][i]["board"] == j["moves"][i]["board"]);
  }
  const json u = eight::test::get_json(cli, "/hint?board=213456780");
  REQUIRE(u["moves"].size() == 2);
  for (const auto& m : u["moves"]) {
    CHECK(m["distance"].is_null());
    CHECK(m["optimal"] == false);
  }
}

TEST_CASE("/hint on a 5x5 board not proven optimal is the first move of /solve's path") {
  // The playground's count is /distance's and its hint /hint's: one answer
  // (issue 39 saw "<=105", then a hint 134 moves from the goal).
  ServiceFixture server;
  auto cli = server.client();
  const std::string board = "3,7,12,4,5/1,14,10,8,16/24,11,2,9,19/6,17,13,0,20/21,22,15,23,18";
  const json s = eight::test::get_json(cli, "/solve?board=" + board);
  REQUIRE(s["optimal"] == false);
  REQUIRE(s["moves"].size() == s["distance"].get<std::size_t>());
  const json h = eight::test::get_json(cli, "/hint?board=" + board);
  CHECK(h["distance"] == s["distance"]);
  CHECK(h["lower_bound"] == s["lower_bound"]);
  CHECK(h["method"] == s["method"]);
  REQUIRE(h["hints"].size() == 1);
  CHECK(h["hints"][0]["move"] == s["moves"][0]);
  CHECK(h["hints"][0]["distance"] == s["distance"].get<int>() - 1);
}

TEST_CASE(
    "fast=1 answers a far 5x5 board with the core's fast answer on /solve, /distance, /hint and "
    "in a batch") {
  ServiceFixture server;
  auto cli = server.client();
  const std::string board = "3,7,12,4,5/1,14,10,8,16/24,11,2,9,19/6,17,13,0,20/21,22,15,23,18";
  // The core's answer with Question::grid_fast (the beam over Manhattan
  // distance and linear conflicts alone: beam_search_test.cpp), whose 5x5
  // databases this process then never builds.
  eight::Question fast = eight::grid_question(eight::standard_goal(eight::Shape{5, 5}));
  fast.grid_fast = true;
  const auto core = eight::solve_board(fast, eight::test::grid_board(board), true, {});
  REQUIRE(core.ok());
  const json expected = json::parse(eight::solution_json(core->solution));
  CHECK(expected["method"] == "beam-search");
  CHECK(expected["optimal"] == false);
  const json s = eight::test::get_json(cli, "/solve?fast=1&board=" + board);
  CHECK(s == expected);
  CHECK(eight::test::get_json(cli, "/solve?fast=true&board=" + board) == expected);
  const json d = eight::test::get_json(cli, "/distance?fast=1&board=" + board);
  for (const char* field : {"distance", "optimal", "lower_bound", "method"}) {
    CHECK(d[field] == expected[field]);
  }
  // The hint is the first move of the fast path, as /hint's is /solve's.
  const json h = eight::test::get_json(cli, "/hint?fast=1&board=" + board);
  CHECK(h["distance"] == expected["distance"]);
  REQUIRE(h["hints"].size() == 1);
  CHECK(h["hints"][0]["move"] == expected["moves"][0]);
  auto r = post_json(cli, R"({"fast": true, "boards": [")" + board + R"(", "867254301"]})");
  REQUIRE(r);
  REQUIRE(r->status == 200);
  const json a = json::parse(r->body)["answers"];
  REQUIRE(a.size() == 2);
  CHECK(a[0] == expected);
  // Exact answers are the same either way.
  CHECK(a[1] == eight::test::get_json(cli, "/solve?board=867254301"));
  CHECK(eight::test::get_json(cli, "/solve?fast=0&board=867254301") == a[1]);
  CHECK(check_problem(cli.Get("/solve?fast=yes&board=867254301"), 400, "bad-fast")["detail"] ==
        "fast must be 1 (the quicker, longer answers) or 0 (the default); got 'yes'");
  CHECK(check_problem(cli.Get("/hint?fast=2&board=867254301"), 400, "bad-fast")["parameter"] ==
        "fast");
  check_problem(cli.Get("/random?fast=1&distance=3"), 400, "unknown-parameter");
  r = post_json(cli, R"({"fast": "yes", "boards": ["867254301"]})");
  CHECK(check_problem(r, 400, "bad-body")["detail"] == "field 'fast' must be true or false");
}

TEST_CASE("following a 3x6 hint with path= the rest of the path shown, the distance goes down") {
  // Issue 39: following hints on this board the distance shown rose from
  // 93 to 96 (docs/answers.md#hints), as the next board's answer is a new
  // beam search. The client sends the rest of the path it showed: 92. The
  // fast option's beam (4,000 wide, the default's then) still does so; the
  // default's, 16,000 wide, answers the next board in 92 itself.
  ServiceFixture server;
  auto cli = server.client();
  const std::string from = "5,17,6,14,16,13/12,3,15,9,11,2/8,10,0,1,7,4";
  const json shown = eight::test::get_json(cli, "/solve?fast=1&board=" + from);
  REQUIRE(shown["distance"] == 93);
  const json h = eight::test::get_json(cli, "/hint?fast=1&board=" + from);
  REQUIRE(h["hints"].size() == 1);
  const std::string to = h["hints"][0]["board"];
  const std::string rest = shown["path"].get<std::string>().substr(1);
  CHECK(h["hints"][0]["letter"] == shown["path"].get<std::string>().substr(0, 1));
  // Alone, the next board's answer is longer than the rest of that path.
  CHECK(eight::test::get_json(cli, "/distance?fast=1&board=" + to)["distance"] == 96);
  // With it: the rest, its hint the rest's first move, at every endpoint.
  const json s = eight::test::get_json(cli, "/solve?fast=1&board=" + to + "&path=" + rest);
  CHECK(s["distance"] == 92);
  CHECK(s["path"] == rest);
  CHECK(s["optimal"] == false);
  CHECK(s["method"] == "beam-search");
  CHECK(eight::test::get_json(cli, "/distance?fast=1&board=" + to + "&path=" + rest)["distance"] ==
        92);
  const json next = eight::test::get_json(cli, "/hint?fast=1&board=" + to + "&path=" + rest);
  CHECK(next["distance"] == 92);
  REQUIRE(next["hints"].size() == 1);
  CHECK(next["hints"][0]["letter"] == rest.substr(0, 1));
  CHECK(next["hints"][0]["distance"] == 91);
  // Upper case reads the same; a path on a board the tables answer changes
  // no optimal distance.
  CHECK(eight::test::get_json(cli, "/distance?board=123456708&path=R")["distance"] == 1);
}

TEST_CASE(
    "a path= that is no path from the board to the goal is a bad-path problem naming the move") {
  ServiceFixture server;
  auto cli = server.client();
  for (const std::string endpoint : {"/solve", "/distance", "/hint"}) {
    CAPTURE(endpoint);
    json p = check_problem(cli.Get(endpoint + "?board=123456708&path=rdx"), 400, "bad-path");
    CHECK(p["parameter"] == "path");
    CHECK(p["detail"] ==
          "the known path is no path from the board to the goal: move 2 (down) would take the "
          "blank off the board");
    p = check_problem(cli.Get(endpoint + "?board=123456708&path=rx"), 400, "bad-path");
    CHECK(
        p["detail"] ==
        "the known path is no path from the board to the goal: move 2 is 'x', not one of u d l r");
    p = check_problem(cli.Get(endpoint + "?board=123456708&path=ur"), 400, "bad-path");
    CHECK(p["detail"] ==
          "the known path is no path from the board to the goal: the path is legal but ends on "
          "123460758, not the goal 123456780");
    // Another goal's path: legal, ending elsewhere.
    p = check_problem(cli.Get(endpoint + "?board=123456708&goal=123456078&path=r"), 400,
                      "bad-path");
    CHECK(p["detail"] ==
          "the known path is no path from the board to the goal: the path is legal but ends on "
          "123456780, not the goal 123456078");
  }
  // The endpoints without a board take no path.
  check_problem(cli.Get("/random?distance=3&path=r"), 400, "unknown-parameter");
}

TEST_CASE("/solve with boards=1 adds the board after every move, ending on the goal") {
  ServiceFixture server;
  auto cli = server.client();
  const json j = eight::test::get_json(cli, "/solve?board=283164705&goal=123804765&boards=1");
  REQUIRE(j["boards"].size() == j["distance"].get<std::size_t>());
  eight::GridBoard cur = eight::test::board("283164705");
  for (std::size_t i = 0; i < j["boards"].size(); ++i) {
    const auto m = eight::move_from_letter(j["path"].get<std::string>()[i]);
    REQUIRE(m);
    cur = *eight::apply_move(cur, *m);
    CHECK(j["boards"][i] == eight::to_string(cur));
  }
  CHECK(j["boards"].back() == "123804765");
  CHECK_FALSE(eight::test::get_json(cli, "/solve?board=283164705&boards=0").contains("boards"));
  CHECK(eight::test::get_json(cli, "/solve?board=123456780&boards=1")["boards"].empty());
  CHECK(check_problem(cli.Get("/solve?board=123456780&boards=yes"), 400, "bad-boards")["detail"] ==
        "boards must be 1 (the board after every move) or 0; got 'yes'");
  check_problem(cli.Get("/distance?board=123456780&boards=1"), 400, "unknown-parameter");
}

TEST_CASE("a batch item may carry its own goal, answered as GET /solve answers it") {
  ServiceFixture server;
  auto cli = server.client();
  auto r = post_json(cli, R"({"goal": "123804765", "boards": [
      {"board": "867254301", "goal": "123456708"}, "123084765", {"board": "123084765"},
      {"board": "123456780", "goal": "1"}, {"goal": "123456780"}, {"board": "1", "goal": "2"}]})");
  REQUIRE(r);
  REQUIRE(r->status == 200);
  const json a = json::parse(r->body)["answers"];
  REQUIRE(a.size() == 6);
  CHECK(a[0] == eight::test::get_json(cli, "/solve?board=867254301&goal=123456708"));
  CHECK(a[1] == eight::test::get_json(cli, "/solve?board=123084765&goal=123804765"));
  CHECK(a[2] == a[1]);  // no goal of its own: the batch's
  CHECK(a[3]["error"] == "goal: expected 9 cells, got 1");
  CHECK(a[3]["input"] == json{{"board", "123456780"}, {"goal", "1"}});
  CHECK(a[4]["error"].get<std::string>().find("an item is a board") == 0);
  CHECK(a[5]["error"] == "expected 9 cells, got 1");
}

TEST_CASE("a batch item may carry a known path, answered as GET /solve with path= answers it") {
  ServiceFixture server;
  auto cli = server.client();
  // Another optimal path of 867254301 (its first move "u", the table's "r").
  const std::string other = "uurdlldrrullurrdldluurddluurrdd";
  auto r = post_json(cli, R"({"boards": [{"board": "867254301", "path": ")" + other + R"("},
      {"board": "867254301", "goal": "123456780", "path": "udud)" +
                              other + R"("},
      {"board": "867254301", "path": "d"}, {"board": "867254301", "path": 7}]})");
  REQUIRE(r);
  REQUIRE(r->status == 200);
  const json a = json::parse(r->body)["answers"];
  REQUIRE(a.size() == 4);
  CHECK(a[0]["path"] == other);
  CHECK(a[0] == eight::test::get_json(cli, "/solve?board=867254301&path=" + other));
  CHECK(a[1] == eight::test::get_json(cli, "/solve?board=867254301"));  // longer: its own
  CHECK(a[2]["error"].get<std::string>().find("the known path is no path") == 0);
  CHECK(a[3]["error"].get<std::string>().find("an item is a board") == 0);
}

TEST_CASE("/hint refuses bad boards, goals and parameters with problems") {
  ServiceFixture server;
  auto cli = server.client();
  check_problem(cli.Get("/hint"), 400, "missing-parameter");
  CHECK(check_problem(cli.Get("/hint?board=12345678"), 400, "bad-board")["detail"] ==
        "expected 9 cells, got 8");
  check_problem(cli.Get("/hint?board=123456780&goal=1"), 400, "bad-goal");
  check_problem(cli.Get("/hint?board=123456780&boards=1"), 400, "unknown-parameter");
  // (httplib 0.11 drops a pair repeated word for word, so the values differ.)
  check_problem(cli.Get("/hint?board=123456780&board=123456708"), 400, "repeated-parameter");
}

TEST_CASE("/random draws a board exactly the asked distance away, the same for the same seed") {
  ServiceFixture server;
  auto cli = server.client();
  const json a = eight::test::get_json(cli, "/random?distance=20&seed=12345");
  CHECK(a["board"] == "436875021");  // the same draw as `eight random --seed 12345`
  CHECK(a["goal"] == "123456780");
  CHECK(a["distance"] == 20);
  CHECK(a["seed"] == "12345");
  CHECK(eight::test::get_json(cli, "/random?distance=20&seed=12345") == a);
  auto r = cli.Get("/random?distance=20&seed=12345");
  CHECK(r->get_header_value("Cache-Control") == "public, max-age=86400");
  // Unseeded: a fresh seed each time, named in the answer so it replays.
  r = cli.Get("/random?distance=25");
  CHECK(r->get_header_value("Cache-Control") == "no-store");
  const json fresh = json::parse(r->body);
  CHECK(distance_of(fresh["board"], "123456780") == 25);
  const json replay =
      eight::test::get_json(cli, "/random?distance=25&seed=" + fresh["seed"].get<std::string>());
  CHECK(replay["board"] == fresh["board"]);
  // Every distance of another goal, including its maximum and 0.
  for (int d = 0; d <= 30; ++d) {
    const json j =
        eight::test::get_json(cli, "/random?goal=123804765&distance=" + std::to_string(d));
    CHECK(distance_of(j["board"], "123804765") == d);
  }
}

TEST_CASE("/random with count=N draws N boards from one generator, as eight random --count") {
  ServiceFixture server;
  auto cli = server.client();
  const json j = eight::test::get_json(cli, "/random?distance=20&seed=12345&count=3");
  // The first is the single draw's board; all three are what the offline
  // tool prints for the same seed.
  CHECK(j["board"] == "436875021");
  CHECK(j["boards"] == json{"436875021", "375206841", "472853160"});
  CHECK(j["seed"] == "12345");
  const auto offline = eight::test::run_program(
      "eight", {"random", "--table", eight::test::server_table_path(), "--distance", "25", "--goal",
                "123804765", "--seed", "99", "--count", "50"});
  REQUIRE(offline.status == 0);
  const json many =
      eight::test::get_json(cli, "/random?distance=25&goal=123804765&seed=99&count=50");
  std::string lines;
  for (const auto& b : many["boards"]) lines += b.get<std::string>() + "\n";
  CHECK(lines == offline.out);
  // Without count= there is no list, as before.
  CHECK_FALSE(eight::test::get_json(cli, "/random?distance=20&seed=12345").contains("boards"));
  for (const char* bad : {"0", "1001", "-1", "x", ""}) {
    CAPTURE(bad);
    const json p =
        check_problem(cli.Get(std::string("/random?distance=5&count=") + bad), 400, "bad-count");
    CHECK(p["parameter"] == "count");
  }
  CHECK(eight::test::get_json(cli, "/random?distance=5&count=1000")["boards"].size() == 1000);
}

TEST_CASE("/random names the valid range for a distance no board has") {
  ServiceFixture server;
  auto cli = server.client();
  json j = check_problem(cli.Get("/random?distance=32"), 400, "bad-distance");
  CHECK(j["detail"] == "distance must be a whole number from 0 to 31 for goal 123456780; got '32'");
  CHECK(j["parameter"] == "distance");
  j = check_problem(cli.Get("/random?distance=31&goal=123804765"), 400, "bad-distance");
  CHECK(j["detail"] == "distance must be a whole number from 0 to 30 for goal 123804765; got '31'");
  for (const char* bad : {"-1", "abc", "", "1.5", "99999999999999999999999"}) {
    check_problem(cli.Get(std::string("/random?distance=") + bad), 400, "bad-distance");
  }
  check_problem(cli.Get("/random"), 400, "missing-parameter");
  check_problem(cli.Get("/random?distance=5&seed=-3"), 400, "bad-seed");
  check_problem(cli.Get("/random?distance=5&goal=12"), 400, "bad-goal");
  check_problem(cli.Get("/random?distance=5&board=123456780"), 400, "unknown-parameter");
}

TEST_CASE("/stats gives the goal's histogram, maximum and hardest boards") {
  ServiceFixture server;
  auto cli = server.client();
  json j = eight::test::get_json(cli, "/stats");
  CHECK(j["goal"] == "123456780");
  CHECK(j["solvable_positions"] == 181440);
  CHECK(j["max_distance"] == 31);
  REQUIRE(j["histogram"].size() == 32);
  CHECK(j["histogram"][0] == 1);
  CHECK(j["histogram"][31] == 2);
  CHECK(j["hardest"]["count"] == 2);
  CHECK(j["hardest"]["boards"] == json{"647850321", "867254301"});
  j = eight::test::get_json(cli, "/stats?goal=123804765");
  CHECK(j["max_distance"] == 30);
  CHECK(j["hardest"]["count"] == 148);
  for (const auto& b : j["hardest"]["boards"]) CHECK(distance_of(b, "123804765") == 30);
  check_problem(cli.Get("/stats?goal=1234"), 400, "bad-goal");
  check_problem(cli.Get("/stats?board=123456780"), 400, "unknown-parameter");
}

TEST_CASE("POST /solve answers a batch in order, bad boards in place") {
  ServiceFixture server;
  auto cli = server.client();
  auto r =
      post_json(cli, R"({"boards": ["867254301", "12", 5, "213456780", "1 2 3 4 5 6 7 x 8"]})");
  REQUIRE(r);
  CHECK(r->status == 200);
  const json j = json::parse(r->body);
  CHECK(j["goal"] == "123456780");
  CHECK(j["count"] == 5);
  const auto& a = j["answers"];
  REQUIRE(a.size() == 5);
  const auto& solver = eight::test::solver();
  const auto frame = eight::test::frame(eight::kStandardGoal);
  CHECK(a[0] ==
        json::parse(eight::solution_json(*solver.solve(eight::test::board("867254301"), frame))));
  CHECK(a[1] == json{{"input", "12"}, {"error", "expected 9 cells, got 2"}});
  CHECK(a[2] == json{{"input", 5}, {"error", "expected a board as a string"}});
  CHECK(a[3]["solvable"] == false);
  CHECK(a[4]["distance"] == 1);
  // Another goal.
  r = post_json(cli, R"({"goal": "123804765", "boards": ["123084765"]})");
  CHECK(json::parse(r->body)["answers"][0]["path"] == "r");
}

TEST_CASE("POST /solve takes 10,000 boards and refuses more, or a malformed body") {
  ServerProcess server;
  auto cli = server.client();
  json body;
  body["boards"] = std::vector<std::string>(10000, "8 6 7 2 5 4 3 x 1");
  auto r = post_json(cli, body.dump());
  REQUIRE(r);
  REQUIRE(r->status == 200);
  const json j = json::parse(r->body);
  REQUIRE(j["answers"].size() == 10000);
  CHECK(j["answers"][9999]["distance"] == 31);
  body["boards"].push_back("123456780");
  json p = check_problem(post_json(cli, body.dump()), 413, "too-many-boards");
  CHECK(p["detail"] == "at most 10000 boards per request; got more than 10000");
  check_problem(post_json(cli, std::string(3 * 1024 * 1024, ' ')), 413, "payload-too-large");
  check_problem(post_json(cli, "{\"boards\": ["), 400, "bad-body");
  check_problem(post_json(cli, "[]"), 400, "bad-body");
  check_problem(post_json(cli, R"({"boards": "123456780"})"), 400, "bad-body");
  check_problem(post_json(cli, R"({"board": ["123456780"]})"), 400, "bad-body");
  check_problem(post_json(cli, R"({"boards": [], "goal": 5})"), 400, "bad-body");
  check_problem(post_json(cli, R"({"boards": [], "goal": "11"})"), 400, "bad-goal");
  check_problem(cli.Post("/solve", "", "application/json"), 400, "bad-body");
  check_problem(cli.Post("/solve?board=123456780", "{\"boards\": []}", "application/json"), 400,
                "bad-body");
  // A body labelled form-encoded (curl -d's default type) is read as JSON
  // like any other, however large: a JSON one is answered, anything else is
  // a bad body.
  p = check_problem(
      cli.Post("/solve", std::string(20000, 'x'), "application/x-www-form-urlencoded"), 400,
      "bad-body");
  CHECK(p["detail"].get<std::string>().find("not valid JSON") != std::string::npos);
  body["boards"] = std::vector<std::string>(1000, "8 6 7 2 5 4 3 x 1");
  r = cli.Post("/solve", body.dump(), "application/x-www-form-urlencoded");
  REQUIRE(r);
  CHECK(r->status == 200);
}

TEST_CASE("GET answers carry CORS headers and preflights are answered") {
  ServiceFixture server;
  auto cli = server.client();
  for (const char* target : {"/solve?board=123456780", "/hint?board=123456780", "/stats",
                             "/random?distance=3", "/table", "/nowhere"}) {
    auto r = cli.Get(target, {{"Origin", "https://example.org"}});
    REQUIRE(r);
    CHECK_MESSAGE(r->get_header_value("Access-Control-Allow-Origin") == "*", target);
  }
  auto r = cli.Get("/table");
  CHECK(r->get_header_value("Access-Control-Expose-Headers").find("ETag") != std::string::npos);
  auto pre = cli.Options("/solve", {{"Origin", "https://example.org"},
                                    {"Access-Control-Request-Method", "POST"},
                                    {"Access-Control-Request-Headers", "content-type"}});
  REQUIRE(pre);
  CHECK(pre->status == 204);
  CHECK(pre->get_header_value("Access-Control-Allow-Origin") == "*");
  CHECK(pre->get_header_value("Access-Control-Allow-Methods") == "GET, HEAD, POST, OPTIONS");
  CHECK(pre->get_header_value("Access-Control-Allow-Headers").find("Content-Type") !=
        std::string::npos);
  CHECK(pre->get_header_value("Access-Control-Max-Age") == "86400");
  pre = cli.Options("/stats");
  CHECK(pre->status == 204);
  CHECK(pre->get_header_value("Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS");
  // /metrics is for scrapers, never web pages: no CORS (metrics_port_test.cpp).
  pre = cli.Options("/metrics");
  CHECK(pre->status == 204);
  CHECK_FALSE(pre->has_header("Access-Control-Allow-Methods"));
}

TEST_CASE("GET / serves the playground to a browser and the JSON index to everyone else") {
  ServiceFixture server;
  auto cli = server.client();
  auto r =
      cli.Get("/", {{"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Content-Type") == "text/html; charset=utf-8");
  CHECK(r->get_header_value("Vary") == "Accept");
  CHECK(r->body.find("<title>eight: the 8-puzzle, solved</title>") != std::string::npos);
  // Self-contained: no script, style or font from anywhere else.
  CHECK(r->body.find("src=\"http") == std::string::npos);
  CHECK(r->body.find("href=\"http") == std::string::npos);
  CHECK(r->get_header_value("Content-Security-Policy").find("default-src 'self'") !=
        std::string::npos);
  for (const char* accept : {"application/json", "*/*", "", "text/html;q=0.5, application/json"}) {
    r = cli.Get("/", {{"Accept", accept}});
    REQUIRE(r);
    CHECK_MESSAGE(r->get_header_value("Content-Type") == "application/json", accept);
  }
}
