// eight-server --tables DIR (issue 11): one server answering from every table
// file of a folder (the answers asked of the Service in process,
// service_fixture.h), each goal from the file that answers its shape; /table
// by shape, /readyz and /metrics per file, SIGHUP reloading the whole set,
// and the refusals at start (a bad file, an empty folder, --table with
// --tables).
#include <doctest/doctest.h>
#include <signal.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "eight/tablegen.h"
#include "server_fixture.h"
#include "service_fixture.h"
#include "support.h"

using eight::test::check_problem;
using eight::test::ServerProcess;
using eight::test::ServerSpec;
using eight::test::ServiceFixture;
using eight::test::TempDir;
using json = nlohmann::json;
using Bytes = std::vector<std::uint8_t>;

namespace {

using eight::format::Encoding;

// A small table of 2x3 sections alone: answers 2x3 and 3x2.
const Bytes& table_2x3() {
  static const Bytes bytes = [] {
    const eight::SectionSpec sections[] = {{eight::Shape{2, 3}, 5, Encoding::kFull},
                                           {eight::Shape{2, 3}, 4, Encoding::kFull}};
    return eight::build_table(sections);
  }();
  return bytes;
}

// The same for 2x4 (answers 2x4 and 4x2).
const Bytes& table_2x4() {
  static const Bytes bytes = [] {
    const eight::SectionSpec sections[] = {{eight::Shape{2, 4}, 7, Encoding::kFull},
                                           {eight::Shape{2, 4}, 6, Encoding::kFull}};
    return eight::build_table(sections);
  }();
  return bytes;
}

// Concatenates `parts`, for the same reason.
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (const std::string_view p : parts) out.append(p);
  return out;
}

// `bytes` with the low bit of its last byte flipped: the checksum no longer
// matches.
Bytes with_last_bit_flipped(Bytes bytes) {
  bytes[bytes.size() - 1] ^= 0x01;
  return bytes;
}

// A folder of the 3x3 test table (eight.tbl) and the 2x3 table, beside
// what must not be read: a generator's temporary file, a non-table file and
// a bad table in a subfolder.
struct TableDir {
  TempDir dir;
  TableDir() {
    eight::test::write_file(dir.file("eight.tbl"), eight::test::table_bytes());
    eight::test::write_file(dir.file("small-2x3.tbl"), table_2x3());
    eight::test::write_file(dir.file("next.tbl.tmp"), Bytes{1, 2, 3});
    eight::test::write_file(dir.file("README"), Bytes{'h', 'i'});
    std::filesystem::create_directory(dir.file("old"));
    eight::test::write_file(dir.file("old/bad.tbl"), Bytes{1, 2, 3});
  }
  ServerSpec spec(std::vector<std::string> more = {}) const {
    ServerSpec s{.args = {"--tables", dir.path(), "--host", "127.0.0.1", "--port", "0"},
                 .default_args = false};
    s.args.insert(s.args.end(), more.begin(), more.end());
    return s;
  }
};

}  // namespace

TEST_CASE("--tables DIR answers every shape of every file, each from its own file") {
  TableDir d;
  ServiceFixture server(eight::TableSource{d.dir.path(), true});
  auto cli = server.client();
  // 3x3 from eight.tbl, 2x3 and its transpose 3x2 from small-2x3.tbl.
  CHECK(eight::test::get_json(cli, "/distance?board=867254301")["distance"] == 31);
  json j = eight::test::get_json(cli, "/solve?board=123/405");
  CHECK(j["goal"] == "123/450");
  CHECK(j["distance"] == 1);
  CHECK(eight::test::get_json(cli, "/distance?board=213405&shape=3x2")["goal"] == "12/34/50");
  CHECK(eight::test::get_json(cli, "/hint?board=123/405")["distance"] == 1);
  j = eight::test::get_json(cli, "/random?distance=7&shape=2x3&seed=3");
  CHECK(j["goal"] == "123/450");
  CHECK(j["distance"] == 7);
  // 2x3 from a corner: max 21 (OEIS A089473), from the file that holds it.
  CHECK(eight::test::get_json(cli, "/stats?shape=2x3")["max_distance"] == 21);
  CHECK(eight::test::get_json(cli, "/stats")["max_distance"] == 31);
  // A batch whose items' goals hit different files.
  auto r = cli.Post("/solve",
                    R"({"boards":["867254301",{"board":"123/405","goal":"123/450"},)"
                    R"({"board":"21/34/50","goal":"12/34/50"},"1230"]})",
                    "application/json");
  REQUIRE(r);
  CHECK(r->status == 200);
  const json a = json::parse(r->body)["answers"];
  CHECK(a[0]["distance"] == 31);
  CHECK(a[1]["distance"] == 1);
  CHECK(a[2]["solvable"] == false);
  // Without a goal in the body, the 2x2 board's own standard goal, which no file holds.
  CHECK(a[3]["error"] ==
        "goal: the tables answer 2x3, 3x2 and 3x3 boards, not 2x2 ones such as goal 12/30; "
        "`eight-tablegen` generates them");
}

TEST_CASE("--tables DIR: a shape no file holds is a 404 naming the shapes and the generator") {
  TableDir d;
  ServiceFixture server(eight::TableSource{d.dir.path(), true});
  auto cli = server.client();
  json j = check_problem(cli.Get("/stats?shape=2x5"), 404, "shape-not-served");
  CHECK(j["detail"] ==
        "the tables answer 2x3, 3x2 and 3x3 boards, not 2x5 ones such as goal 12345/67890; "
        "`eight-tablegen` generates them");
  CHECK(j["parameter"] == "goal");
  j = check_problem(cli.Get("/solve?board=1,2,3,4/5,6,7,8/9,10,0,11"), 404, "shape-not-served");
  CHECK(j["detail"] ==
        "the tables answer 2x3, 3x2 and 3x3 boards, not 3x4 ones such as goal "
        "1,2,3,4/5,6,7,8/9,10,11,0; `eight-tablegen --shape 3x4` generates them");
  auto r = cli.Post("/solve", R"({"goal":"12/30","boards":["1230"]})", "application/json");
  REQUIRE(r);
  check_problem(r, 404, "shape-not-served");
  r = cli.Post("/solve", R"({"boards":["867254301",{"board":"12/30","goal":"12/30"}]})",
               "application/json");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(json::parse(r->body)["answers"][1]["error"] ==
        "goal: the tables answer 2x3, 3x2 and 3x3 boards, not 2x2 ones such as goal 12/30; "
        "`eight-tablegen` generates them");
}

TEST_CASE("--tables DIR: /table serves the 3x3 file, or with shape= the file answering it") {
  TableDir d;
  ServiceFixture server(eight::TableSource{d.dir.path(), true});
  auto cli = server.client();
  const Bytes& t3 = eight::test::table_bytes();
  auto r = cli.Get("/table");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == std::string(t3.begin(), t3.end()));
  CHECK(r->get_header_value("ETag") == eight::test::etag_of(t3));
  CHECK(r->get_header_value("Content-Disposition") == "attachment; filename=\"eight.tbl\"");
  for (const char* shape : {"2x3", "3x2"}) {
    CAPTURE(shape);
    r = cli.Get(std::string("/table?shape=") + shape);
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->body == std::string(table_2x3().begin(), table_2x3().end()));
    CHECK(r->get_header_value("ETag") == eight::test::etag_of(table_2x3()));
    CHECK(r->get_header_value("Content-Disposition") == "attachment; filename=\"small-2x3.tbl\"");
  }
  // Validators and ranges per file.
  const std::string etag = eight::test::etag_of(table_2x3());
  r = cli.Get("/table?shape=2x3", {{"If-None-Match", etag}});
  REQUIRE(r);
  CHECK(r->status == 304);
  r = cli.Get("/table?shape=2x3", {{"Range", "bytes=0-7"}});
  REQUIRE(r);
  CHECK(r->status == 206);
  CHECK(r->body == std::string(table_2x3().begin(), table_2x3().begin() + 8));
  CHECK(r->get_header_value("Content-Range") == "bytes 0-7/" + std::to_string(table_2x3().size()));
  r = cli.Get("/table?shape=3x3", {{"If-None-Match", etag}});
  REQUIRE(r);
  CHECK(r->status == 200);
  json j = check_problem(cli.Get("/table?shape=3x4"), 404, "shape-not-served");
  CHECK(j["detail"] ==
        "the tables answer 2x3, 3x2 and 3x3 boards, not 3x4 ones; `eight-tablegen --shape 3x4` "
        "generates them");
  CHECK(j["parameter"] == "shape");
  j = check_problem(cli.Get("/table?shape=4x4"), 404, "shape-not-served");
  CHECK(j["detail"].get<std::string>().find("eight-tablegen (its 6-6-3 pattern databases) or "
                                            "--pdb 7-8") != std::string::npos);
  // A shape no table holds: nothing to download, and no generator for it.
  j = check_problem(cli.Get("/table?shape=5x5"), 404, "shape-not-served");
  CHECK(j["detail"] ==
        "the tables answer 2x3, 3x2 and 3x3 boards, not 5x5 ones; no table holds 5x5 boards: "
        "eight answers them by search and reduction, without a table");
  check_problem(cli.Get("/table?shape=11x5"), 400, "bad-shape");
  check_problem(cli.Get("/table?goal=123456780"), 400, "unknown-parameter");
}

TEST_CASE("--tables DIR: /tables lists every file with a URL that downloads it, and its ETag") {
  TableDir d;
  ServiceFixture server(eight::TableSource{d.dir.path(), true});
  auto cli = server.client();
  const json j = eight::test::get_json(cli, "/tables");
  REQUIRE(j["tables"].size() == 2);
  const json& a = j["tables"][0];
  const json& b = j["tables"][1];
  CHECK(a["name"] == "eight.tbl");
  CHECK(a["url"] == "/table?name=eight.tbl");
  CHECK(a["etag"] == eight::test::etag_of(eight::test::table_bytes()));
  CHECK(a["checksum"] == eight::test::checksum_hex(eight::test::table_bytes()));
  CHECK(a["bytes"] == eight::test::table_bytes().size());
  CHECK(a["sections"] == 3);
  CHECK(a["shapes"] == json{"3x3"});
  CHECK(a["default"] == true);
  CHECK(b["name"] == "small-2x3.tbl");
  CHECK(b["url"] == "/table?name=small-2x3.tbl");
  CHECK(b["etag"] == eight::test::etag_of(table_2x3()));
  CHECK(b["shapes"] == json{"2x3", "3x2"});
  CHECK(b["default"] == false);
  auto r = cli.Get("/tables");
  CHECK(r->get_header_value("Cache-Control") == "no-store");
  // Each URL sends its file, named and validated as /table?shape= does.
  for (const auto& [entry, bytes] :
       {std::pair{a, eight::test::table_bytes()}, std::pair{b, table_2x3()}}) {
    const std::string url =
        entry["url"].get<std::string>();  // clang 14's CAPTURE cannot take a binding
    CAPTURE(url);
    r = cli.Get(entry["url"].get<std::string>());
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->body == std::string(bytes.begin(), bytes.end()));
    CHECK(r->get_header_value("ETag") == entry["etag"]);
    CHECK(r->get_header_value("Content-Disposition") ==
          cat({"attachment; filename=\"", entry["name"].get<std::string>(), "\""}));
    r = cli.Get(entry["url"].get<std::string>(), {{"If-None-Match", entry["etag"]}});
    REQUIRE(r);
    CHECK(r->status == 304);
  }
  json p = check_problem(cli.Get("/table?name=old.tbl"), 404, "table-not-found");
  CHECK(p["detail"] ==
        "no table file is named 'old.tbl'; GET /tables lists them: eight.tbl, small-2x3.tbl");
  CHECK(p["parameter"] == "name");
  // Not a path: a name with a folder in it names no file.
  check_problem(cli.Get("/table?name=old%2Fbad.tbl"), 404, "table-not-found");
  check_problem(cli.Get("/table?name=eight.tbl&shape=2x3"), 400, "bad-request");
  check_problem(cli.Get("/tables?name=eight.tbl"), 400, "unknown-parameter");
}

TEST_CASE("--tables DIR: /readyz lists each file, /metrics gives each its info") {
  TableDir d;
  ServerProcess server(d.spec());
  auto cli = server.client();
  const Bytes& t3 = eight::test::table_bytes();
  const json j = eight::test::get_json(cli, "/readyz");
  CHECK(j["status"] == "ready");
  CHECK(j["table"]["checksum"] == eight::test::checksum_hex(t3));
  CHECK(j["shapes"] == json({"2x3", "3x2", "3x3"}));
  REQUIRE(j["tables"].size() == 2);
  // In file-name order: eight.tbl, small-2x3.tbl.
  CHECK(j["tables"][0] == json({{"path", d.dir.file("eight.tbl")},
                                {"checksum", eight::test::checksum_hex(t3)},
                                {"sections", 3},
                                {"bytes", t3.size()},
                                {"shapes", {"3x3"}}}));
  CHECK(j["tables"][1] == json({{"path", d.dir.file("small-2x3.tbl")},
                                {"checksum", eight::test::checksum_hex(table_2x3())},
                                {"sections", 2},
                                {"bytes", table_2x3().size()},
                                {"shapes", {"2x3", "3x2"}}}));
  auto r = cli.Get("/metrics");
  REQUIRE(r);
  const std::string& m = r->body;
  const std::string p3 = d.dir.file("eight.tbl");
  const std::string p2 = d.dir.file("small-2x3.tbl");
  const std::string bytes = std::to_string(t3.size() + table_2x3().size());
  const std::string c3 = eight::test::checksum_hex(t3);
  const std::string c2 = eight::test::checksum_hex(table_2x3());
  for (const std::string& line :
       {cat({"eight_table_info{path=\"", p3, "\",checksum=\"", c3, "\"} 1"}),
        cat({"eight_table_info{path=\"", p2, "\",checksum=\"", c2, "\"} 1"}),
        cat({"eight_table_files 2"}), cat({"eight_table_bytes ", bytes}),
        cat({"eight_table_sections 5"}), cat({"eight_table_file_sections{path=\"", p2, "\"} 2"}),
        cat({"eight_table_section_max_distance{goal=\"123/450\",path=\"", p2, "\"} 21"})}) {
    CAPTURE(line);
    CHECK(m.find(line + "\n") != std::string::npos);
  }
  CHECK(server.stderr_text().find("shapes 2x3, 3x2 and 3x3") != std::string::npos);
}

TEST_CASE("--tables DIR: SIGHUP reloads the whole folder, and keeps the set if any file is bad") {
  TableDir d;
  ServerProcess server(d.spec());
  auto cli = server.client();
  check_problem(cli.Get("/solve?board=1234/5670"), 404, "shape-not-served");
  eight::test::write_file(d.dir.file("w-2x4.tbl"), table_2x4());
  ::kill(server.pid(), SIGHUP);
  REQUIRE(server.wait_for_stderr("SIGHUP: reloaded tables in " + d.dir.path() + ": "));
  CHECK(eight::test::get_json(cli, "/distance?board=1234/5670")["distance"] == 0);
  CHECK(eight::test::get_json(cli, "/readyz")["tables"].size() == 3);
  CHECK(eight::test::get_json(cli, "/readyz")["shapes"] ==
        json({"2x3", "3x2", "2x4", "4x2", "3x3"}));
  // A bad file anywhere in the folder: the whole set stays as it was.
  eight::test::write_file(d.dir.file("x.tbl"), with_last_bit_flipped(table_2x4()));
  ::kill(server.pid(), SIGHUP);
  REQUIRE(server.wait_for_stderr("SIGHUP: kept the current tables "));
  CHECK(server.wait_for_stderr(d.dir.file("x.tbl") + ": checksum mismatch"));
  CHECK(eight::test::get_json(cli, "/distance?board=1234/5670")["distance"] == 0);
  CHECK(eight::test::get_json(cli, "/readyz")["tables"].size() == 3);
}

TEST_CASE("--tables DIR refuses to start on a bad file, naming it, and on an empty folder") {
  TableDir d;
  eight::test::write_file(d.dir.file("broken.tbl"), with_last_bit_flipped(table_2x3()));
  std::string err;
  auto e = eight::test::run_to_exit(d.spec(), err);
  CAPTURE(err);
  CHECK(e.status == 3);
  CHECK(err.find("eight-server: " + d.dir.file("broken.tbl") + ": checksum mismatch") !=
        std::string::npos);
  CHECK(err.find("listening") == std::string::npos);

  TempDir empty;
  eight::test::write_file(empty.file("eight.tbl.tmp"), eight::test::table_bytes());
  e = eight::test::run_to_exit(
      {.args = {"--tables", empty.path(), "--port", "0"}, .default_args = false}, err);
  CHECK(e.status == 3);
  CHECK(err.find(empty.path() + ": the folder holds no table file (*.tbl)") != std::string::npos);

  e = eight::test::run_to_exit(
      {.args = {"--tables", empty.file("none"), "--port", "0"}, .default_args = false}, err);
  CHECK(e.status == 3);
  CHECK(err.find(empty.file("none") + ": cannot read the table folder") != std::string::npos);
}

TEST_CASE("--table and --tables together are a usage error, on the command line or in the env") {
  TableDir d;
  std::string err;
  auto e = eight::test::run_to_exit(d.spec({"--table", d.dir.file("eight.tbl")}), err);
  CHECK(e.status == 2);
  CHECK(err.find("--table and --tables are both given") != std::string::npos);
  e = eight::test::run_to_exit(
      {.args = {"--port", "0"},
       .env = {{"EIGHT_TABLE", d.dir.file("eight.tbl")}, {"EIGHT_TABLES", d.dir.path()}},
       .default_args = false},
      err);
  CHECK(e.status == 2);
  CHECK(err.find("EIGHT_TABLE and EIGHT_TABLES are both set") != std::string::npos);
  // The command line overrides the environment: --table over EIGHT_TABLES.
  ServerProcess server({.args = {"--port", "0", "--table", d.dir.file("small-2x3.tbl")},
                        .env = {{"EIGHT_TABLES", d.dir.path()}},
                        .default_args = false});
  auto cli = server.client();
  CHECK(eight::test::get_json(cli, "/readyz")["tables"].size() == 1);
  // With one file, GET /table serves it, whatever its shapes, as eight.tbl.
  auto r = cli.Get("/table");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == std::string(table_2x3().begin(), table_2x3().end()));
  CHECK(r->get_header_value("Content-Disposition") == "attachment; filename=\"eight.tbl\"");
}
