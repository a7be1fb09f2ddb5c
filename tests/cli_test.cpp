#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "eight/random.h"
#include "eight/tablegen.h"
#include "support.h"

using eight::test::run_program;

namespace {

// A table file shared by the CLI tests of one process.
const std::string& table_path() {
  static eight::test::TempDir dir;
  static const std::string path = [] {
    const std::string p = dir.file("eight.tbl");
    eight::test::write_file(p, eight::test::table_bytes());
    return p;
  }();
  return path;
}

}  // namespace

TEST_CASE("eight solve answers boards given as arguments in the moves format") {
  const auto r = run_program(
      "eight", {"solve", "--table", table_path(), "2 3 4 1 5 x 7 6 8", "123456780", "213456780"});
  CHECK(r.status == 0);
  CHECK(r.out == "ullddrurdllurrdlurd\n\nunsolvable\n");
  CHECK(r.err.empty());
}

TEST_CASE("eight solve reads stdin and writes exactly one line per input line") {
  const auto r =
      run_program("eight", {"solve", "--table", table_path(), "--format", "distance"},
                  "8 6 7 2 5 4 3 x 1\n123456780\r\n\n1234a6780\n213456780\n6,4,7,8,5,x,3,2,1");
  CHECK(r.status == 1);
  CHECK(r.out == "31\n0\nerror\nerror\n-1\n31\n");
  CHECK(r.err.find("line 3: board is empty") != std::string::npos);
  CHECK(r.err.find("line 4: 'a' at position 5 is not allowed") != std::string::npos);
}

TEST_CASE("eight solve keeps one line per input line across the batches it asks in") {
  // 2,000 lines, every seventh refused: the tool asks the tables a few
  // hundred boards at a time, and each answer must land on its own line.
  const eight::Solver& solver = eight::test::solver();
  const auto frame = eight::test::frame(eight::test::board("123456780"));
  eight::Rng rng(7);
  std::string in, want;
  for (int i = 0; i < 2000; ++i) {
    if (i % 7 == 3) {
      in += "12345678\n";  // one cell short
      want += "error\n";
      continue;
    }
    const auto b =
        eight::random_board(eight::test::table(), frame, static_cast<int>(rng.below(32)), rng);
    REQUIRE(b.ok());
    in += eight::to_string(*b) + "\n";
    want += std::to_string(solver.distance(*b, frame)) + "\n";
  }
  const auto r =
      run_program("eight", {"solve", "--table", table_path(), "--format", "distance"}, in);
  CHECK(r.status == 1);
  CHECK(r.out == want);
  // The last refused line (i = 1998) is reported under its own number.
  CHECK(r.err.find("line 1999: ") != std::string::npos);
}

TEST_CASE("eight solve --format json prints the HTTP answer's fields, one object per line") {
  const auto r = run_program("eight", {"solve", "--table", table_path(), "--format", "json"},
                             "123456708\n12\n");
  CHECK(r.status == 1);
  CHECK(
      r.out ==
      R"({"board":"123456708","goal":"123456780","shape":"3x3","board_cells":[1,2,3,4,5,6,7,0,8],"goal_cells":[1,2,3,4,5,6,7,8,0],"solvable":true,"distance":1,"optimal":true,"lower_bound":1,"method":"table","moves":["right"],"path":"r","tiles":[8]})"
      "\n"
      R"({"input":"12","error":"expected 9 cells, got 2"})"
      "\n");
}

TEST_CASE("eight solve takes a board and its goal on one line, as judges' inputs write them") {
  // The same boards against the snail, once with --goal and once in pairs.
  const std::string boards = "867254301\n123084765\n283164705\n213456780\n";
  std::string pairs;
  for (const char* b : {"867254301", "123084765", "283164705", "213456780"}) {
    pairs += std::string(b) + " 123804765\n";
  }
  for (const char* format : {"moves", "distance", "json"}) {
    CAPTURE(format);
    const auto with_goal = run_program(
        "eight", {"solve", "--table", table_path(), "--goal", "123804765", "--format", format},
        boards);
    const auto in_pairs =
        run_program("eight", {"solve", "--table", table_path(), "--format", format}, pairs);
    CHECK(with_goal.status == 0);
    CHECK(in_pairs.status == 0);
    CHECK(in_pairs.out == with_goal.out);
  }
  // 18 numbers, as the SOJ 2061 problem writes its cases; a bad goal is
  // named as the goal.
  const auto soj = run_program("eight", {"solve", "--table", table_path(), "--format", "distance"},
                               "8 6 7 2 5 4 3 0 1 1 2 3 4 5 6 7 8 0\n123456780 1234567800\n"
                               "123456780 123456788\n");
  CHECK(soj.out == "31\nerror\nerror\n");
  CHECK(soj.err.find("line 2: expected 9 cells, got 19") != std::string::npos);
  CHECK(soj.err.find("line 3: goal: no blank") != std::string::npos);
}

TEST_CASE("eight solve --boards adds the board after every move to the json format") {
  auto r = run_program(
      "eight", {"solve", "--table", table_path(), "--format", "json", "--boards", "123405786"});
  CHECK(r.status == 0);
  CHECK(
      r.out ==
      R"({"board":"123405786","goal":"123456780","shape":"3x3","board_cells":[1,2,3,4,0,5,7,8,6],"goal_cells":[1,2,3,4,5,6,7,8,0],"solvable":true,)"
      R"("distance":2,"optimal":true,"lower_bound":2,"method":"table","moves":["right","down"],"path":"rd","tiles":[5,6],)"
      R"("boards":["123450786","123456780"],"boards_cells":[[1,2,3,4,5,0,7,8,6],[1,2,3,4,5,6,7,8,0]]})"
      "\n");
  r = run_program("eight", {"solve", "--table", table_path(), "--boards", "123450786"});
  CHECK(r.status == 2);
  CHECK(r.err.find("--boards needs --format json") != std::string::npos);
}

TEST_CASE("eight solve answers for another goal") {
  const auto r =
      run_program("eight", {"solve", "--table", table_path(), "--goal", "123804765", "--format",
                            "distance", "123804765", "123084765", "123456780"});
  CHECK(r.status == 0);
  CHECK(r.out == "0\n1\n-1\n");
}

TEST_CASE("eight solve reads the table from EIGHT_TABLE") {
  ::setenv("EIGHT_TABLE", table_path().c_str(), 1);
  const auto r = run_program("eight", {"solve", "--format", "distance", "123456708"});
  ::unsetenv("EIGHT_TABLE");
  CHECK(r.status == 0);
  CHECK(r.out == "1\n");
}

TEST_CASE("eight solve rejects a bad goal, a bad format and a missing table") {
  auto r = run_program("eight", {"solve", "--table", table_path(), "--goal", "1234", "123456780"});
  CHECK(r.status == 2);
  CHECK(r.err.find("bad goal: expected 9 cells, got 4") != std::string::npos);
  r = run_program("eight", {"solve", "--table", table_path(), "--format", "xml"});
  CHECK(r.status == 2);
  r = run_program("eight", {"solve", "--table", "/nonexistent/eight.tbl", "123456780"});
  CHECK(r.status == 3);
  CHECK(r.err.find("/nonexistent/eight.tbl: cannot open") != std::string::npos);
}

TEST_CASE("eight verify accepts a sound table and refuses a corrupted one with the reason") {
  auto r = run_program("eight", {"verify", table_path()});
  CHECK(r.status == 0);
  CHECK(r.out.find("ok, 3 sections") != std::string::npos);
  eight::test::TempDir dir;
  auto bytes = eight::test::table_bytes();
  bytes[500000] ^= 0xFF;
  eight::test::write_file(dir.file("bad.tbl"), bytes);
  r = run_program("eight", {"verify", dir.file("bad.tbl")});
  CHECK(r.status == 3);
  CHECK(r.err.find(dir.file("bad.tbl") + ": checksum mismatch") != std::string::npos);
}

TEST_CASE("eight info prints the header, histograms and hardest positions") {
  const auto r = run_program("eight", {"info", table_path()});
  CHECK(r.status == 0);
  CHECK(r.out.find("version    2") != std::string::npos);
  CHECK(r.out.find("shapes     3x3") != std::string::npos);
  CHECK(r.out.find("checksum   a27e6686843aa0fa") != std::string::npos);
  CHECK(r.out.find("section 0: 3x3 goal 123456780, blank on cell 8, full, 181440 positions, max "
                   "distance 31") != std::string::npos);
  CHECK(r.out.find("hardest (31 moves, 2 in all): 647850321 867254301") != std::string::npos);
  CHECK(r.out.find("hardest (30 moves, 148 in all)") != std::string::npos);
}

TEST_CASE("eight hint lists every optimal first move") {
  auto r = run_program("eight", {"hint", "--table", table_path(), "8 6 7 2 5 4 3 x 1"});
  CHECK(r.status == 0);
  CHECK(r.out ==
        "up u tile 5 -> 867204351 (30 moves left)\n"
        "left l tile 3 -> 867254031 (30 moves left)\n"
        "right r tile 1 -> 867254310 (30 moves left)\n");
  r = run_program("eight", {"hint", "--table", table_path(), "123456780"});
  CHECK(r.out == "solved\n");
  r = run_program("eight", {"hint", "--table", table_path(), "213456780"});
  CHECK(r.out == "unsolvable\n");
  r = run_program("eight", {"hint", "--table", table_path(), "--format", "json", "123456708"});
  CHECK(r.out == R"({"board":"123456708","goal":"123456780","shape":"3x3",)"
                 R"("board_cells":[1,2,3,4,5,6,7,0,8],"goal_cells":[1,2,3,4,5,6,7,8,0],)"
                 R"("solvable":true,"distance":1,"optimal":true,"lower_bound":1,"method":"table",)"
                 R"("hints":[{"move":"right","letter":"r","tile":8,"board":"123456780",)"
                 R"("board_cells":[1,2,3,4,5,6,7,8,0],"distance":0}],)"
                 R"("moves":[{"move":"right","letter":"r","tile":8,"board":"123456780",)"
                 R"("board_cells":[1,2,3,4,5,6,7,8,0],"distance":0,"optimal":true},)"
                 R"({"move":"up","letter":"u","tile":5,"board":"123406758",)"
                 R"("board_cells":[1,2,3,4,0,6,7,5,8],"distance":2,"optimal":false},)"
                 R"({"move":"left","letter":"l","tile":7,"board":"123456078",)"
                 R"("board_cells":[1,2,3,4,5,6,0,7,8],"distance":2,"optimal":false}]})"
                 "\n");
  r = run_program("eight", {"hint", "--table", table_path(), "12345"});
  CHECK(r.status == 1);
  CHECK(r.err.find("expected 9 cells, got 5") != std::string::npos);
}

TEST_CASE(
    "eight asks a board of another shape about its own shape's goal, which the 3x3 table lacks") {
  auto r = run_program("eight", {"solve", "--table", table_path(), "--format", "distance"},
                       "867254301\n123/450\n123450\n");
  CHECK(r.out == "31\nerror\nerror\n");  // one line out per line in
  CHECK(r.err.find("line 2: goal: the table answers 3x3 boards, not 2x3 ones such as goal "
                   "123/450") != std::string::npos);
  CHECK(r.err.find("line 3: 6 cells fit 2x3 and 3x2: say which shape, or write the rows") !=
        std::string::npos);
  // A goal given is every line's: a board of another shape is refused.
  r = run_program("eight", {"solve", "--table", table_path(), "--goal", "123456780", "12/30"});
  CHECK(r.status == 1);
  CHECK(r.err.find("argument 1: the board is 2x2 and the goal 3x3: a goal has the board's shape") !=
        std::string::npos);
  r = run_program("eight", {"hint", "--table", table_path(), "12/30"});
  CHECK(r.status == 3);
  CHECK(r.err.find("the table answers 3x3 boards, not 2x2 ones") != std::string::npos);
}

TEST_CASE("eight --shape names the shape of boards and goal, and refuses shapes it does not know") {
  auto r = run_program("eight", {"solve", "--table", table_path(), "--shape", "3x3", "867254301"});
  CHECK(r.status == 0);
  CHECK(r.out == "ruulddruuldldrrullurrdlldruurdd\n");
  r = run_program("eight", {"solve", "--table", table_path(), "--shape", "2x3", "123405"});
  CHECK(r.status == 3);  // the standard 2x3 goal: no section for it in this table
  CHECK(r.err.find("the table answers 3x3 boards, not 2x3 ones") != std::string::npos);
  r = run_program("eight", {"solve", "--table", table_path(), "--shape", "11x5", "867254301"});
  CHECK(r.status == 2);
  CHECK(r.err.find("eight answers no 11x5 boards; the shapes have rows and columns from 2 to 10") !=
        std::string::npos);
  r = run_program("eight", {"solve", "--table", table_path(), "--shape", "3x4", "--goal",
                            "123456780", "867254301"});
  CHECK(r.status == 2);
  CHECK(r.err.find("bad goal: expected 12 cells for 3x4, got 9") != std::string::npos);
}

TEST_CASE("eight random draws boards at the asked distance, the same ones for the same seed") {
  const std::vector<std::string> args = {"random", "--table", table_path(), "--distance", "20",
                                         "--seed", "12345",   "--count",    "5"};
  const auto a = run_program("eight", args);
  const auto b = run_program("eight", args);
  REQUIRE(a.status == 0);
  CHECK(a.out == b.out);
  CHECK(a.out.rfind("436875021\n", 0) == 0);
  // Each drawn board really is 20 moves away.
  const auto d =
      run_program("eight", {"solve", "--table", table_path(), "--format", "distance"}, a.out);
  CHECK(d.out == "20\n20\n20\n20\n20\n");
  const auto snail = run_program("eight", {"random", "--table", table_path(), "--goal", "123804765",
                                           "--distance", "30", "--count", "3"});
  const auto sd = run_program(
      "eight", {"solve", "--table", table_path(), "--goal", "123804765", "--format", "distance"},
      snail.out);
  CHECK(sd.out == "30\n30\n30\n");
}

TEST_CASE("eight random names the valid range for a distance no board has") {
  auto r = run_program("eight", {"random", "--table", table_path(), "--distance", "32"});
  CHECK(r.status == 2);
  CHECK(r.err.find("--distance must be a whole number from 0 to 31 for goal 123456780") !=
        std::string::npos);
  r = run_program("eight",
                  {"random", "--table", table_path(), "--goal", "123804765", "--distance", "31"});
  CHECK(r.err.find("from 0 to 30 for goal 123804765") != std::string::npos);
  r = run_program("eight", {"random", "--table", table_path(), "--distance", "-1"});
  CHECK(r.status == 2);
  r = run_program("eight", {"random", "--table", table_path(), "--distance", "5", "--seed", "x"});
  CHECK(r.status == 2);
  r = run_program("eight", {"random", "--table", table_path()});
  CHECK(r.err.find("random needs --distance D") != std::string::npos);
}

TEST_CASE("eight --tables DIR answers each goal from the file that answers its shape") {
  eight::test::TempDir dir;
  eight::test::write_file(dir.file("eight.tbl"), eight::test::table_bytes());
  const eight::SectionSpec sections[] = {{eight::Shape{2, 3}, 5, eight::format::Encoding::kFull},
                                         {eight::Shape{2, 3}, 4, eight::format::Encoding::kFull}};
  eight::test::write_file(dir.file("small-2x3.tbl"), eight::build_table(sections));
  eight::test::write_file(dir.file("skip.tbl.tmp"), {1, 2, 3});
  auto r = run_program("eight", {"solve", "--tables", dir.path(), "--format", "distance",
                                 "867254301", "123/405", "21/34/50", "1,2,3,4/5,6,7,8/9,10,0,11"});
  CHECK(r.status == 1);
  CHECK(r.out == "31\n1\n-1\nerror\n");
  CHECK(r.err ==
        "eight: argument 4: goal: the tables answer 2x3, 3x2 and 3x3 boards, not 3x4 ones such "
        "as goal 1,2,3,4/5,6,7,8/9,10,11,0; `eight-tablegen --shape 3x4` generates them\n");
  r = run_program("eight", {"hint", "--tables", dir.path(), "123/405"});
  CHECK(r.status == 0);
  CHECK(r.out.find("(0 moves left)") != std::string::npos);
  r = run_program("eight", {"random", "--tables", dir.path(), "--shape", "3x2", "--distance", "5",
                            "--seed", "1"});
  CHECK(r.status == 0);
  CHECK(r.out.size() == std::string("12/34/50\n").size());
  r = run_program("eight", {"info", "--tables", dir.path()});
  CHECK(r.status == 0);
  CHECK(r.out.find("file       " + dir.file("eight.tbl")) != std::string::npos);
  CHECK(r.out.find("file       " + dir.file("small-2x3.tbl")) != std::string::npos);
  CHECK(r.out.find("skip") == std::string::npos);
  r = run_program("eight", {"verify", "--tables", dir.path()});
  CHECK(r.status == 0);
  CHECK(r.out.find(dir.file("small-2x3.tbl") + ": ok, 2 sections") != std::string::npos);
  // One file or one folder, not both.
  r = run_program("eight",
                  {"solve", "--table", dir.file("eight.tbl"), "--tables", dir.path(), "123456780"});
  CHECK(r.status == 2);
  CHECK(r.err.find("--table and --tables are both given") != std::string::npos);
  // A bad file in the folder stops it, naming the file.
  eight::test::write_file(dir.file("bad.tbl"), {1, 2, 3});
  r = run_program("eight", {"solve", "--tables", dir.path(), "123456780"});
  CHECK(r.status == 3);
  CHECK(r.err.find("eight: " + dir.file("bad.tbl") + ": ") == 0);
}

TEST_CASE("eight solve takes each board's own standard goal from tables that hold no 3x3") {
  // The 4x4 pattern databases alone: the default goal (3x3) is not served,
  // but a 4x4 board without --goal is asked about 1..15 with the blank last.
  const auto r =
      run_program("eight", {"solve", "--table", eight::test::fifteen_table_path(), "--format",
                            "distance", "5,1,2,3/9,6,7,4/13,10,11,8/0,14,15,12", "867254301"});
  CHECK(r.status == 1);  // the 3x3 board is refused, the 4x4 one answered
  CHECK(r.out == "9\nerror\n");
  CHECK(r.err.find("argument 2: goal: the table answers 4x4 boards, not 3x3 ones") !=
        std::string::npos);
}

TEST_CASE(
    "without its module eight-remote.so, --server and fetch fail with exit 5, offline works") {
  // The program alone in a folder: no ../lib/eight/eight-remote.so beside it.
  eight::test::TempDir dir;
  const std::string alone = dir.file("eight");
  std::filesystem::copy_file(std::string(EIGHT_BIN_DIR) + "/eight", alone);
  std::filesystem::permissions(alone, std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  const std::string why =
      "eight: --server and fetch need the module eight-remote.so, which cannot be loaded: ";
  auto r = run_program(alone, {"--server", "http://127.0.0.1:1", "solve", "123456780"});
  CHECK(r.status == 5);
  CHECK(r.out.empty());
  CHECK(r.err.find(why) == 0);
  CHECK(r.err.find("eight-remote.so: cannot open shared object file") != std::string::npos);
  r = run_program(alone, {"fetch", "http://127.0.0.1:1", "--tables", dir.path()});
  CHECK(r.status == 5);
  CHECK(r.err.find(why) == 0);
  // A bad command line is a usage error (exit 2) whatever is installed:
  // the module is needed only to ask the server.
  const std::vector<std::vector<std::string>> usage_errors = {
      {"--server", "http://127.0.0.1:1", "hint"},
      {"--server", "http://127.0.0.1:1", "random"},
      {"--server", "http://127.0.0.1:1", "random", "--distance", "5", "--count", "1001"},
      {"--server", "http://127.0.0.1:1", "solve", "--format", "text", "123456780"},
  };
  for (const auto& args : usage_errors) {
    CAPTURE(args.back());
    r = run_program(alone, args);
    CHECK(r.status == 2);
    CHECK(r.err.find("eight-remote.so") == std::string::npos);
  }
  // And the same command line well formed needs the module.
  r = run_program(alone, {"--server", "http://127.0.0.1:1", "hint", "123456780"});
  CHECK(r.status == 5);
  CHECK(r.err.find(why) == 0);
  r = run_program(alone, {"solve", "--table", table_path(), "2 3 4 1 5 x 7 6 8"});
  CHECK(r.status == 0);
  CHECK(r.out == "ullddrurdllurrdlurd\n");
  CHECK(r.err.empty());
}
