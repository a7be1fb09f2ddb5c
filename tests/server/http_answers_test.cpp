// Answers of eight-server: asked of the Service in process (service_fixture.h),
// but for HEAD and concurrent clients, which ask the real server over HTTP.
#include <doctest/doctest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "api/routes.h"
#include "json/answer_json.h"
#include "server_fixture.h"
#include "service_fixture.h"
#include "support.h"

using eight::test::ServerProcess;
using eight::test::ServiceFixture;
using nlohmann::json;

namespace {

// What the server must answer, computed in process from the same table.
std::string expected(const std::string& board, const std::string& goal, bool with_path) {
  const auto& solver = eight::test::solver();
  const auto frame = eight::test::frame(eight::test::board(goal));
  return eight::solution_json(*solver.solve(eight::test::board(board), frame, with_path),
                              {with_path, false});
}

// Applies the answer's moves to its board and checks they reach its goal,
// sliding the tiles it names.
void check_path_reaches_goal(const json& j) {
  eight::GridBoard b = eight::test::board(j["board"]);
  const auto& moves = j["moves"];
  const std::string path = j["path"];
  REQUIRE(moves.size() == j["distance"].get<std::size_t>());
  REQUIRE(path.size() == moves.size());
  REQUIRE(j["tiles"].size() == moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const auto m = eight::move_from_letter(path[i]);
    REQUIRE(m);
    CHECK(moves[i] == std::string(eight::move_name(*m)));
    std::uint8_t tile = 0;
    auto next = eight::apply_move(b, *m, &tile);
    REQUIRE(next);
    CHECK(j["tiles"][i] == tile);
    b = *next;
  }
  CHECK(eight::to_string(b) == j["goal"]);
}

}  // namespace

TEST_CASE("/solve answers board, goal, shape, cells, solvable, distance, moves, path and tiles") {
  ServiceFixture server;
  auto cli = server.client();
  auto r = cli.Get("/solve?board=867254301");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Content-Type") == "application/json");
  CHECK(r->get_header_value("Cache-Control") == "public, max-age=86400");
  CHECK(r->body == expected("867254301", "123456780", true));
  const json j = json::parse(r->body);
  CHECK(j["board"] == "867254301");
  CHECK(j["goal"] == "123456780");
  CHECK(j["shape"] == "3x3");
  CHECK(j["board_cells"] == json::parse("[8,6,7,2,5,4,3,0,1]"));
  CHECK(j["goal_cells"] == json::parse("[1,2,3,4,5,6,7,8,0]"));
  CHECK(j["solvable"] == true);
  CHECK(j["distance"] == 31);
  check_path_reaches_goal(j);
  // Keys in the documented order.
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  const std::string body = r->body;
  CHECK(body.find("\"board\"") < body.find("\"goal\""));
  CHECK(body.find("\"goal\"") < body.find("\"shape\""));
  CHECK(body.find("\"shape\"") < body.find("\"board_cells\""));
  CHECK(body.find("\"board_cells\"") < body.find("\"goal_cells\""));
  CHECK(body.find("\"goal_cells\"") < body.find("\"solvable\""));
  CHECK(body.find("\"distance\"") < body.find("\"optimal\""));
  CHECK(body.find("\"optimal\"") < body.find("\"lower_bound\""));
  CHECK(body.find("\"lower_bound\"") < body.find("\"method\""));
  CHECK(body.find("\"method\"") < body.find("\"moves\""));
  CHECK(body.find("\"path\"") < body.find("\"tiles\""));
  CHECK(keys.size() == 13);
}

TEST_CASE("/solve of the goal itself is distance 0 with empty moves") {
  ServiceFixture server;
  auto r = server.client().Get("/solve?board=123456780");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(
      r->body ==
      R"({"board":"123456780","goal":"123456780","shape":"3x3","board_cells":[1,2,3,4,5,6,7,8,0],"goal_cells":[1,2,3,4,5,6,7,8,0],"solvable":true,"distance":0,"optimal":true,"lower_bound":0,"method":"table","moves":[],"path":"","tiles":[]})");
}

TEST_CASE("every notation the parser accepts works URL-encoded") {
  ServiceFixture server;
  auto cli = server.client();
  const std::string want = expected("867254301", "123456780", true);
  for (const char* target :
       {"/solve?board=867254301", "/solve?board=8672543x1", "/solve?board=8672543X1",
        "/solve?board=8672543_1", "/solve?board=8+6+7+2+5+4+3+x+1",
        "/solve?board=8%206%207%202%205%204%203%20x%201", "/solve?board=8,6,7,2,5,4,3,0,1",
        "/solve?board=8%2C6%2C7%2C2%2C5%2C4%2C3%2C0%2C1", "/solve?board=867/254/301",
        "/solve?board=867%2F254%2F301", "/solve?board=8%096%097%092%095%094%093%09x%091",
        "/solve?board=867%0A254%0D%0A301", "/solve?board=%38%36%37%32%35%34%33%30%31"}) {
    CAPTURE(target);
    auto r = cli.Get(target);
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->body == want);
  }
}

TEST_CASE("answers a board of the other class with solvable false, null distance, empty moves") {
  ServiceFixture server;
  auto cli = server.client();
  auto r = cli.Get("/solve?board=213456780");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(
      r->body ==
      R"({"board":"213456780","goal":"123456780","shape":"3x3","board_cells":[2,1,3,4,5,6,7,8,0],"goal_cells":[1,2,3,4,5,6,7,8,0],"solvable":false,"distance":null,"optimal":true,"lower_bound":null,"method":"table","moves":[],"path":"","tiles":[]})");
  r = cli.Get("/distance?board=123456870");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(
      r->body ==
      R"({"board":"123456870","goal":"123456780","shape":"3x3","board_cells":[1,2,3,4,5,6,8,7,0],"goal_cells":[1,2,3,4,5,6,7,8,0],"solvable":false,"distance":null,"optimal":true,"lower_bound":null,"method":"table"})");
}

TEST_CASE("answers for several goals, each path reaching its goal") {
  ServiceFixture server;
  auto cli = server.client();
  struct Case {
    const char* board;
    const char* goal;
  };
  for (const Case c : {Case{"123456780", "123804765"}, Case{"123456780", "012345678"},
                       Case{"876543210", "123405678"}, Case{"283104765", "123804765"},
                       Case{"867254301", "867254301"}, Case{"123456780", "876543210"},
                       Case{"123456780", "120453786"}, Case{"413726580", "x12345678"}}) {
    CAPTURE(c.board);
    CAPTURE(c.goal);
    auto r = cli.Get(std::string("/solve?board=") + c.board + "&goal=" + c.goal);
    REQUIRE(r);
    CHECK(r->status == 200);
    const std::string goal = eight::to_string(eight::test::board(c.goal));
    CHECK(r->body == expected(c.board, goal, true));
    const json j = json::parse(r->body);
    CHECK(j["goal"] == goal);
    if (j["solvable"] == true) check_path_reaches_goal(j);
    r = cli.Get(std::string("/distance?goal=") + c.goal + "&board=" + c.board);
    REQUIRE(r);
    CHECK(r->body == expected(c.board, goal, false));
  }
}

TEST_CASE("/distance answers the same as /solve without moves, path and tiles") {
  ServiceFixture server;
  auto cli = server.client();
  auto r = cli.Get("/distance?board=8+6+7+2+5+4+3+x+1");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(
      r->body ==
      R"({"board":"867254301","goal":"123456780","shape":"3x3","board_cells":[8,6,7,2,5,4,3,0,1],"goal_cells":[1,2,3,4,5,6,7,8,0],"solvable":true,"distance":31,"optimal":true,"lower_bound":31,"method":"table"})");
}

TEST_CASE("HEAD answers the GET headers without a body") {
  ServerProcess server;
  auto cli = server.client();
  auto get = cli.Get("/solve?board=867254301");
  auto head = cli.Head("/solve?board=867254301");
  REQUIRE(get);
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(head->body.empty());
  CHECK(head->get_header_value("Content-Length") == std::to_string(get->body.size()));
  CHECK(head->get_header_value("Content-Type") == "application/json");
  auto bad = cli.Head("/solve?board=12");
  REQUIRE(bad);
  CHECK(bad->status == 400);
  CHECK(bad->body.empty());
}

TEST_CASE("GET / is a JSON index of every endpoint") {
  ServiceFixture server;
  auto r = server.client().Get("/");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Content-Type") == "application/json");
  const json j = json::parse(r->body);
  CHECK(j["name"] == "eight");
  CHECK(j["docs"] == "/openapi.yaml");
  std::vector<std::string> paths;
  for (const auto& e : j["endpoints"]) paths.push_back(e["path"]);
  CHECK(paths == std::vector<std::string>{"/", "/solve", "/distance", "/table", "/tables",
                                          "/healthz", "/readyz", "/metrics", "/hint", "/random",
                                          "/stats", "/openapi.yaml"});
  CHECK(j["endpoints"][1]["methods"] == json{"GET", "HEAD", "POST"});
  CHECK(j["endpoints"][1]["query"] ==
        "board=B[&goal=G][&shape=RxC][&boards=1][&budget=N][&optimal=required][&fast=1][&path=P]");
}

TEST_CASE("/healthz says ok and /readyz names the verified table") {
  ServiceFixture server;
  auto cli = server.client();
  auto r = cli.Get("/healthz");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == R"({"status":"ok"})");
  CHECK(r->get_header_value("Cache-Control") == "no-store");
  r = cli.Get("/readyz");
  REQUIRE(r);
  CHECK(r->status == 200);
  const json j = json::parse(r->body);
  CHECK(j["status"] == "ready");
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(eight::test::view().checksum()));
  CHECK(j["table"]["checksum"] == hex);
  CHECK(j["table"]["sections"] == 3);
  CHECK(j["table"]["bytes"] == eight::test::table_bytes().size());
}

TEST_CASE("/openapi.yaml serves docs/openapi.yaml byte for byte, describing every endpoint") {
  ServiceFixture server;
  auto r = server.client().Get("/openapi.yaml");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Content-Type") == "application/yaml");
  const auto file = eight::test::read_file(std::string(EIGHT_SOURCE_DIR) + "/docs/openapi.yaml");
  CHECK(r->body == std::string(file.begin(), file.end()));
  CHECK(r->body.rfind("openapi: 3.", 0) == 0);
  // Every route the server registers, from the one route list.
  for (const auto& route : eight::server::routes()) {
    const std::string path = "  " + std::string(route.path) + ":";
    CAPTURE(path);
    CHECK(r->body.find("\n" + path + "\n") != std::string::npos);
  }
  CHECK(r->body.find("\n    post:\n") != std::string::npos);  // POST /solve
}

TEST_CASE("8 concurrent clients get only correct answers") {
  ServerProcess server;
  constexpr int kClients = 8;
  constexpr int kRequests = 150;
  const char* goals[] = {"123456780", "123804765", "012345678", "123405678"};
  // Boards by random walks from each goal, answers computed up front.
  std::mt19937 rng(1234);
  struct Query {
    std::string target;
    std::string want;
  };
  std::vector<std::vector<Query>> work(kClients);
  for (int c = 0; c < kClients; ++c) {
    for (int i = 0; i < kRequests; ++i) {
      const std::string goal = goals[(c + i) % 4];
      eight::GridBoard b = eight::test::board(goal);
      const int steps = static_cast<int>(rng() % 60);
      for (int s = 0; s < steps; ++s) {
        if (auto n = eight::apply_move(b, eight::kAllMoves[rng() % 4])) b = *n;
      }
      if (i % 9 == 0) std::swap(b.cells[b.cells[0] == 0 ? 1 : 0], b.cells[b.cells[2] == 0 ? 1 : 2]);
      const bool with_path = i % 2 == 0;
      const std::string board = eight::to_string(b);
      work[c].push_back(
          {std::string(with_path ? "/solve" : "/distance") + "?board=" + board + "&goal=" + goal,
           expected(board, goal, with_path)});
    }
  }
  std::atomic<int> right{0}, wrong{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      auto cli = server.client();
      cli.set_keep_alive(c % 2 == 0);  // half reuse connections, half do not
      for (const Query& q : work[c]) {
        auto r = cli.Get(q.target);
        (r && r->status == 200 && r->body == q.want ? right : wrong)++;
      }
    });
  }
  for (auto& t : clients) t.join();
  CHECK(wrong == 0);
  CHECK(right == kClients * kRequests);
}

TEST_CASE("from the default table the server answers every shape up to 10 cells, any goal") {
  const std::string& path = eight::test::default_table_path();
  ServiceFixture server(path);
  auto cli = server.client();
  const auto& table = eight::test::default_table();
  // A board of each shape (3x2, 4x2 and 5x2 through their transposes' sections), to its
  // standard goal and to another goal, compared with the in-process answer.
  const std::vector<std::pair<std::string, std::string>> questions = {
      {"21/30", "12/30"},
      {"231/405", "123/450"},
      {"23/14/05", "12/34/50"},
      {"2134/5607", "1234/5670"},
      {"21/34/56/70", "01/23/45/67"},
      {"21345/6789x", "12345/67890"},
      {"x2/13/45/67/89", "12/34/56/78/90"},
      {"123/405", "012/345"},
      {"867254301", "123804765"}};
  for (const auto& question :
       questions) {  // no structured binding: clang 14's CAPTURE cannot take one
    const auto& [board, goal] = question;
    CAPTURE(question.first);
    auto r = cli.Get("/solve?board=" + board + "&goal=" + goal);
    REQUIRE(r);
    REQUIRE(r->status == 200);
    const json j = json::parse(r->body);
    const auto b = eight::test::board(board);
    const auto g = eight::test::board(goal);
    const auto frame = table.frame(g);
    REQUIRE(frame.ok());
    const auto s = table.solver().solve(b, *frame, true);
    REQUIRE(s.ok());
    CHECK(j["distance"] == (s->solvable ? json(s->distance) : json()));
    if (s->solvable) check_path_reaches_goal(j);
    // /distance and /hint agree with /solve.
    r = cli.Get("/distance?board=" + board + "&goal=" + goal);
    REQUIRE(r);
    CHECK(json::parse(r->body)["distance"] == j["distance"]);
  }
  // The shape named, for a count several shapes share.
  auto r = cli.Get("/solve?board=213405&shape=3x2");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(json::parse(r->body)["goal"] == "12/34/50");
  // What the table does not hold says which shapes it does.
  r = cli.Get("/solve?board=1,2,3,4/5,6,7,8/9,10,0,11");
  REQUIRE(r);
  CHECK(r->status == 404);
  CHECK(json::parse(r->body)["detail"] ==
        "the table answers 2x2, 2x3, 3x2, 2x4, 4x2, 3x3, 2x5 and 5x2 boards, not 3x4 ones such "
        "as goal 1,2,3,4/5,6,7,8/9,10,11,0; `eight-tablegen --shape 3x4` generates them");
  // /stats gives each shape's own histogram: 2x5 from a corner reaches 55 (OEIS A090036).
  r = cli.Get("/stats?shape=2x5");
  REQUIRE(r);
  const json st = json::parse(r->body);
  CHECK(st["max_distance"] == 55);
  CHECK(st["solvable_positions"] == 1814400);
}

TEST_CASE("POST /solve without a goal solves each board to its own shape's goal, as GET does") {
  const std::string& path = eight::test::default_table_path();
  ServiceFixture server(path);
  auto cli = server.client();
  // The issue's replay, byte for byte: the batch's answer is GET's.
  auto single = cli.Get("/solve?board=123/405");
  REQUIRE(single);
  REQUIRE(single->status == 200);
  CHECK(
      single->body ==
      R"({"board":"123/405","goal":"123/450","shape":"2x3","board_cells":[1,2,3,4,0,5],)"
      R"("goal_cells":[1,2,3,4,5,0],"solvable":true,"distance":1,"optimal":true,"lower_bound":1,"method":"table","moves":["right"],)"
      R"("path":"r","tiles":[5]})");
  auto r = cli.Post("/solve", R"({"boards":["123/405"]})", "application/json");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == R"({"goal":"123456780","shape":"3x3","goal_cells":[1,2,3,4,5,6,7,8,0],)"
                   R"("count":1,"answers":[)" +
                       single->body + "]}");
}
