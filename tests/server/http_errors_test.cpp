// Every bad request gets a 4xx application/problem+json whose detail says
// exactly what is wrong; nothing produces a 5xx or a crash. Bad questions
// are asked of the Service in process (service_fixture.h); what the transport
// refuses (long request lines, large bodies, malformed bytes) and other
// methods go to the real server over HTTP.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "eight/board.h"
#include "server_fixture.h"
#include "service_fixture.h"

using eight::test::check_problem;
using eight::test::ServerProcess;
using eight::test::ServiceFixture;
using nlohmann::json;

namespace {

// Checks a problem response and returns its JSON.

// The core parser's own message for `text`.
std::string parser_says(const std::string& text) {
  auto b = eight::parse_board(text);
  REQUIRE_FALSE(b.ok());
  return b.error().message;
}

}  // namespace

TEST_CASE("each class of bad board is a 400 problem in the core parser's words") {
  ServiceFixture server;
  auto cli = server.client();
  struct Case {
    std::string what;
    std::string value;  // decoded, as the parser sees it
  };
  const std::vector<Case> cases = {
      {"empty", ""},
      {"blank only", "   "},
      {"too short", "1234"},
      {"too long", "1234567801"},
      {"duplicated tile", "123456077"},
      {"two blanks", "1234567x0"},
      {"no blank", "123456781"},
      {"tile 9", "123456789"},
      {"letters", "12345678a"},
      {"non-ASCII", "1234567\xc3\xa9"},
      {"percent-encoded NUL", std::string("1234\0"
                                          "5678",
                                          9)},
      {"over 128 characters", std::string(200, '1')},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const json j = check_problem(cli.Get("/solve?board=" + eight::test::url_encode(c.value)), 400,
                                 "bad-board");
    CHECK(j["title"] == "Bad board");
    CHECK(j["detail"] == parser_says(c.value));
    CHECK(j["parameter"] == "board");
  }
  // Spot checks that those words are the precise ones.
  CHECK(parser_says("123456077") == "tile 7 appears twice and tile 8 is missing");
  CHECK(parser_says(std::string("1234\0"
                                "5678",
                                9))
            .rfind("byte 0x00 at position 5 is not", 0) == 0);
}

TEST_CASE("a bad goal is a 400 bad-goal problem and /distance checks it the same way") {
  ServiceFixture server;
  auto cli = server.client();
  for (const char* route : {"/solve", "/distance"}) {
    CAPTURE(route);
    const json j =
        check_problem(cli.Get(std::string(route) + "?board=123456780&goal=11"), 400, "bad-goal");
    CHECK(j["detail"] == "expected 9 cells, got 2");
    CHECK(j["parameter"] == "goal");
    check_problem(cli.Get(std::string(route) + "?board=12345678&goal=123456780"), 400, "bad-board");
    check_problem(cli.Get(std::string(route) + "?board=123456780&goal="), 400, "bad-goal");
  }
}

TEST_CASE("boards of other shapes: an open shape is a 400, a shape no table holds a 404") {
  ServiceFixture server;
  auto cli = server.client();
  json j = check_problem(cli.Get("/solve?board=123450"), 400, "bad-board");
  CHECK(j["detail"] == "6 cells fit 2x3 and 3x2: say which shape, or write the rows");
  j = check_problem(cli.Get("/solve?board=123/45/670"), 400, "bad-board");
  CHECK(j["detail"] == "rows of 3, 2 and 3 cells: every row needs the same number");
  j = check_problem(cli.Get("/solve?board=867254301&goal=123/450"), 400, "bad-goal");
  CHECK(j["detail"] == "the board is 3x3 and the goal 2x3: a goal has the board's shape");
  // The default goal of a 2x3 board is 2x3's standard goal, which the 3x3
  // table cannot answer.
  j = check_problem(cli.Get("/solve?board=123/405"), 404, "shape-not-served");
  CHECK(j["detail"] ==
        "the table answers 3x3 boards, not 2x3 ones such as goal 123/450; `eight-tablegen` "
        "generates them");
  j = check_problem(cli.Get("/hint?board=1,2,3,4/5,6,7,8/9,10,0,11"), 404, "shape-not-served");
  CHECK(j["detail"] ==
        "the table answers 3x3 boards, not 3x4 ones such as goal 1,2,3,4/5,6,7,8/9,10,11,0; "
        "`eight-tablegen --shape 3x4` generates them");
  // And a batch refuses such an item alone.
  auto res =
      cli.Post("/solve", R"({"boards":["867254301",{"board":"123/405","goal":"123/450"},"1230"]})",
               "application/json");
  REQUIRE(res);
  CHECK(res->status == 200);
  const json a = json::parse(res->body)["answers"];
  CHECK(a[0]["distance"] == 31);
  CHECK(a[1]["error"] ==
        "goal: the table answers 3x3 boards, not 2x3 ones such as goal 123/450; `eight-tablegen` "
        "generates "
        "them");
  // A batch without a goal solves each board to its own shape's standard
  // goal, which this 3x3-only table does not hold.
  CHECK(a[2]["error"] ==
        "goal: the table answers 3x3 boards, not 2x2 ones such as goal 12/30; `eight-tablegen` "
        "generates them");
}

TEST_CASE("shape= names the shape of the board and goal texts, a bad one is a 400 bad-shape") {
  ServiceFixture server;
  auto cli = server.client();
  // The 6 cells read as 2x3 (or 3x2), then meet the 3x3-only table.
  json j = check_problem(cli.Get("/solve?board=123405&shape=2x3"), 404, "shape-not-served");
  CHECK(j["detail"] ==
        "the table answers 3x3 boards, not 2x3 ones such as goal 123/450; `eight-tablegen` "
        "generates them");
  j = check_problem(cli.Get("/distance?board=123405&shape=3x2"), 404, "shape-not-served");
  CHECK(j["detail"] ==
        "the table answers 3x3 boards, not 3x2 ones such as goal 12/34/50; `eight-tablegen` "
        "generates them");
  j = check_problem(cli.Get("/solve?board=123405&shape=2x3&goal=12/34/50"), 400, "bad-goal");
  CHECK(j["detail"] == "the rows make a 3x2 board, not the 2x3 asked for");
  CHECK(j["parameter"] == "goal");
  j = check_problem(cli.Get("/stats?shape=2x5"), 404, "shape-not-served");
  CHECK(j["detail"] ==
        "the table answers 3x3 boards, not 2x5 ones such as goal 12345/67890; `eight-tablegen` "
        "generates them");
  // shape=3x3 is the default's own shape: answers as without it.
  auto res = cli.Get("/distance?board=867254301&shape=3x3");
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(json::parse(res->body)["distance"] == 31);
  j = check_problem(cli.Get("/solve?board=123456780&shape=11x5"), 400, "bad-shape");
  CHECK(j["parameter"] == "shape");
  CHECK(j["detail"] ==
        "eight answers no 11x5 boards; the shapes have rows and columns from 2 to 10");
  // 5x5 is a shape (no table: search and reduction); nine cells are not one.
  j = check_problem(cli.Get("/solve?board=123456780&shape=5x5"), 400, "bad-board");
  CHECK(j["detail"] == "expected 25 cells for 5x5, got 9");
  // 4x4 is a shape (searched): nine cells are not one.
  j = check_problem(cli.Get("/solve?board=123456780&shape=4x4"), 400, "bad-board");
  CHECK(j["detail"] == "expected 16 cells for 4x4, got 9");
  check_problem(cli.Get("/hint?board=123456780&shape=big"), 400, "bad-shape");
  j = check_problem(cli.Get("/solve?board=123456780&shape=3x4"), 400, "bad-board");
  CHECK(j["detail"] == "expected 12 cells for 3x4, got 9");
  // In a batch's body too.
  res = cli.Post("/solve", R"({"shape":"2x3","boards":["123405"]})", "application/json");
  REQUIRE(res);
  j = check_problem(res, 404, "shape-not-served");
  // (9x9 was the bad shape here before boards went to 10x10: it is a shape.)
  res = cli.Post("/solve", R"({"shape":"11x11","boards":["123405"]})", "application/json");
  REQUIRE(res);
  j = check_problem(res, 400, "bad-shape");
  CHECK(j["detail"] ==
        "eight answers no 11x11 boards; the shapes have rows and columns from 2 to 10");
  res = cli.Post("/solve", R"({"shape":3,"boards":["123405"]})", "application/json");
  REQUIRE(res);
  check_problem(res, 400, "bad-body");
}

TEST_CASE("a missing, repeated or unknown parameter is a 400 problem") {
  ServiceFixture server;
  auto cli = server.client();
  auto j = check_problem(cli.Get("/solve"), 400, "missing-parameter");
  CHECK(j["detail"] == "query parameter 'board' is required");
  check_problem(cli.Get("/distance?goal=123456780"), 400, "missing-parameter");
  check_problem(cli.Get("/solve?board"), 400, "bad-board");  // present but empty
  j = check_problem(cli.Get("/solve?board=123456780&goal=123456780&goal=123804765"), 400,
                    "repeated-parameter");
  CHECK(j["detail"] == "query parameter 'goal' is given 2 times; give it once");
  // A pair repeated word for word asks the same thing, and counts once.
  auto r = cli.Get("/solve?board=123456780&board=123456780");
  REQUIRE(r);
  CHECK(r->status == 200);
  j = check_problem(cli.Get("/solve?board=123456780&gaol=123456780"), 400, "unknown-parameter");
  CHECK(j["detail"] ==
        "unknown query parameter 'gaol'; this endpoint takes board, goal, shape, boards, budget, "
        "optimal, fast and path");
  j = check_problem(cli.Get("/distance?board=123456780&gaol=123456780"), 400, "unknown-parameter");
  CHECK(j["detail"] ==
        "unknown query parameter 'gaol'; this endpoint takes board, goal, shape, budget, optimal, "
        "fast and path");
}

TEST_CASE("a 10,000-character value or any request line over 8 KiB is a 414 problem") {
  ServerProcess server;
  auto cli = server.client();
  for (const std::string& target : {"/solve?board=" + std::string(10000, '1'),
                                    "/distance?board=123456780&goal=" + std::string(10000, 'x'),
                                    std::string("/").append(9000, 'a')}) {
    CAPTURE(target.size());
    const json j = check_problem(cli.Get(target), 414, "query-too-long");
    CHECK(j["detail"] ==
          "the request line is longer than 8192 bytes; a board or goal is at most 512 characters");
  }
  // Under the request line limit, the parser's own limit speaks.
  const json j = check_problem(cli.Get("/solve?board=" + std::string(5000, '1')), 400, "bad-board");
  CHECK(j["detail"] == "board is 5000 characters long; at most 512 are allowed");
  // The server is still fine.
  auto r = cli.Get("/healthz");
  REQUIRE(r);
  CHECK(r->status == 200);
}

TEST_CASE("an unknown route is a 404 problem and another method on a route is a 405") {
  ServerProcess server;
  auto cli = server.client();
  auto j = check_problem(cli.Get("/solver?board=123456780"), 404, "not-found");
  CHECK(j["detail"] == "no endpoint at '/solver'; GET / lists the endpoints");
  check_problem(cli.Get("/solve/"), 404, "not-found");
  check_problem(cli.Get("/SOLVE?board=123456780"), 404, "not-found");
  check_problem(cli.Get("/solve%00?board=123456780"), 404, "not-found");
  auto r = cli.Post("/table");
  j = check_problem(r, 405, "method-not-allowed");
  CHECK(r->get_header_value("Allow") == "GET, HEAD");
  r = cli.Delete("/solve");
  check_problem(r, 405, "method-not-allowed");
  CHECK(r->get_header_value("Allow") == "GET, HEAD, POST");
  check_problem(cli.Post("/distance", "board=123456780", "application/x-www-form-urlencoded"), 405,
                "method-not-allowed");
  check_problem(cli.Delete("/table"), 405, "method-not-allowed");
  check_problem(cli.Put("/nowhere", "x", "text/plain"), 404, "not-found");
  // A preflight learns it too (it was a 204); one of a route is still a 204.
  j = check_problem(cli.Options("/nonexistent"), 404, "not-found");
  CHECK(j["detail"] == "no endpoint at '/nonexistent'; GET / lists the endpoints");
  r = cli.Options("/solve");
  REQUIRE(r);
  CHECK(r->status == 204);
  // POST /solve takes a JSON batch: a body past the limit is a 413.
  check_problem(cli.Post("/solve", std::string(3 * 1024 * 1024, 'x'), "application/json"), 413,
                "payload-too-large");
}

TEST_CASE("raw malformed requests get 400 problems and never a 5xx") {
  ServerProcess server;
  for (const std::string& request :
       {std::string("GARBAGE\r\n\r\n"), std::string("GET\r\n\r\n"),
        std::string("GET /solve?board=1") + '\0' +
            "23 HTTP/1.1\r\nHost: eight\r\nConnection: close\r\n\r\n",
        std::string(
            "GET /solve?board=\xff\xfe HTTP/1.1\r\nHost: eight\r\nConnection: close\r\n\r\n"),
        std::string("GET /solve?board=%zz HTTP/1.1\r\nHost: eight\r\nConnection: close\r\n\r\n"),
        std::string("GET /solve?board=% HTTP/1.1\r\nHost: eight\r\nConnection: close\r\n\r\n"),
        std::string("GET /solve?board=123456780 HTTP/1.1\r\nHost: eight\r\nX: ") +
            std::string(9000, 'h') + "\r\n\r\n"}) {
    CAPTURE(request.substr(0, 60));
    auto r = eight::test::raw_exchange(server.port(), request);
    CHECK(r.status >= 400);
    CHECK(r.status < 500);
    CHECK(r.headers["content-type"] == "application/problem+json");
  }
  // Empty query pairs carry nothing and are skipped.
  auto raw = eight::test::raw_exchange(
      server.port(),
      "GET /solve?&&&=&board=123456780&= HTTP/1.1\r\nHost: eight\r\nConnection: close\r\n\r\n");
  CHECK(raw.status == 200);
  auto r = server.client().Get("/healthz");
  REQUIRE(r);
  CHECK(r->status == 200);
}

TEST_CASE("a thousand random queries never produce a 5xx or stop the server") {
  ServerProcess server;
  auto cli = server.client();
  cli.set_keep_alive(true);
  std::mt19937 rng(99);
  const std::string alphabet = "0123456789xX_ ,/+%&=?#;\t-abz";
  int answered = 0;
  for (int i = 0; i < 1000; ++i) {
    std::string value;
    const int len = static_cast<int>(rng() % 40);
    for (int k = 0; k < len; ++k) {
      if (rng() % 8 == 0) {
        value += eight::test::url_encode(std::string(1, static_cast<char>(rng() % 256)));
      } else {
        value += alphabet[rng() % alphabet.size()];
      }
    }
    const char* route = i % 3 == 0 ? "/distance" : "/solve";
    const std::string target = std::string(route) + (i % 5 == 0 ? "?goal=" : "?board=") + value;
    auto r = cli.Get(target);
    REQUIRE_MESSAGE(r, target);
    CAPTURE(target);
    CHECK(r->status < 500);
    CHECK((r->status == 200 || r->get_header_value("Content-Type") == "application/problem+json"));
    ++answered;
  }
  CHECK(answered == 1000);
}

TEST_CASE(
    "a key given twice in a batch body is a 400 bad-body naming it, as a repeated parameter") {
  ServiceFixture server;
  auto cli = server.client();
  // Last-wins before: this answered for goal 123804765.
  auto j = check_problem(
      cli.Post("/solve", R"({"boards":["867254301"],"goal":"123456780","goal":"123804765"})",
               "application/json"),
      400, "bad-body");
  CHECK(j["detail"] == "body gives key 'goal' twice in one object; give each key once");
  j = check_problem(
      cli.Post("/solve", R"({"boards":[{"board":"867254301","board":"123"}]})", "application/json"),
      400, "bad-body");
  CHECK(j["detail"] == "body gives key 'board' twice in one object; give each key once");
  // As the query refuses goal= twice.
  check_problem(cli.Get("/solve?board=867254301&goal=123456780&goal=123804765"), 400,
                "repeated-parameter");
}
