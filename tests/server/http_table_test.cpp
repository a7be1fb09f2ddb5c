// /table serves the table file from the mapping, with its validators,
// conditional requests and byte ranges. Ranges are asked of the Service in
// process (service_fixture.h); what the transport frames (Content-Length,
// HEAD, 304) of the real eight-server over HTTP.
#include <doctest/doctest.h>

#include <cstdio>

#include "server_fixture.h"
#include "service_fixture.h"
#include "support.h"

using eight::test::ServerProcess;
using eight::test::ServiceFixture;

namespace {

std::string file_bytes() {
  const auto bytes = eight::test::read_file(eight::test::server_table_path());
  return {bytes.begin(), bytes.end()};
}

std::string expected_etag() {
  char buf[32];
  std::snprintf(buf, sizeof buf, "\"%016llx\"",
                static_cast<unsigned long long>(eight::test::view().checksum()));
  return buf;
}

}  // namespace

TEST_CASE("/table sends the table file byte for byte, as a named download with an ETag") {
  ServerProcess server;
  auto r = server.client().Get("/table");
  REQUIRE(r);
  CHECK(r->status == 200);
  const std::string file = file_bytes();
  REQUIRE(r->body.size() == file.size());
  CHECK(r->body == file);
  CHECK(r->get_header_value("Content-Type") == "application/octet-stream");
  CHECK(r->get_header_value("Content-Length") == std::to_string(file.size()));
  CHECK(r->get_header_value("Content-Disposition") == "attachment; filename=\"eight.tbl\"");
  CHECK(r->get_header_value("ETag") == expected_etag());
  CHECK(r->get_header_value("Cache-Control") == "public, max-age=3600");
  CHECK(r->get_header_value("Accept-Ranges") == "bytes");
  CHECK(r->get_header_value_count("Content-Length") == 1);
}

TEST_CASE("/table answers 304 to a matching If-None-Match and 200 to a stale one") {
  ServerProcess server;
  auto cli = server.client();
  for (const std::string& inm :
       {expected_etag(), "W/" + expected_etag(), "\"old\", " + expected_etag(), std::string("*")}) {
    CAPTURE(inm);
    auto r = cli.Get("/table", {{"If-None-Match", inm}});
    REQUIRE(r);
    CHECK(r->status == 304);
    CHECK(r->body.empty());
    CHECK(r->get_header_value("ETag") == expected_etag());
    CHECK(r->get_header_value("Cache-Control") == "public, max-age=3600");
    CHECK_FALSE(r->has_header("Content-Length"));
  }
  auto r = cli.Get("/table", {{"If-None-Match", "\"0000000000000000\""}});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == file_bytes());
}

TEST_CASE("/table answers a byte range with 206 and the right Content-Range") {
  ServiceFixture server;
  auto cli = server.client();
  const std::string file = file_bytes();
  const std::string size = std::to_string(file.size());
  struct Case {
    std::string range;
    std::size_t first, last;
  };
  for (const Case& c : {Case{"bytes=0-31", 0, 31}, Case{"bytes=1000-1999", 1000, 1999},
                        Case{"bytes=-16", file.size() - 16, file.size() - 1},
                        Case{"bytes=2177000-", 2177000, file.size() - 1},
                        Case{"bytes=2177400-3000000", 2177400, file.size() - 1}}) {
    CAPTURE(c.range);
    auto r = cli.Get("/table", {{"Range", c.range}});
    REQUIRE(r);
    CHECK(r->status == 206);
    CHECK(r->get_header_value("Content-Range") ==
          "bytes " + std::to_string(c.first) + "-" + std::to_string(c.last) + "/" + size);
    CHECK(r->body == file.substr(c.first, c.last - c.first + 1));
    CHECK(r->get_header_value("ETag") == expected_etag());
  }
  // If-Range with the current ETag keeps the range; with another, the whole file.
  auto r = cli.Get("/table", {{"Range", "bytes=0-7"}, {"If-Range", expected_etag()}});
  REQUIRE(r);
  CHECK(r->status == 206);
  r = cli.Get("/table", {{"Range", "bytes=0-7"}, {"If-Range", "\"old\""}});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body.size() == file.size());
  // Several ranges are answered with the whole file (no multipart).
  r = cli.Get("/table", {{"Range", "bytes=0-1,4-5"}});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == file);
}

TEST_CASE("/table answers 416 with the size for a range past the end") {
  ServiceFixture server;
  const std::string size = std::to_string(file_bytes().size());
  auto r = server.client().Get("/table", {{"Range", "bytes=" + size + "-"}});
  REQUIRE(r);
  CHECK(r->status == 416);
  CHECK(r->get_header_value("Content-Range") == "bytes */" + size);
  CHECK(r->get_header_value("Content-Type") == "application/problem+json");
  // A Range that cannot be parsed is ignored (RFC 9110 14.2): the whole table.
  r = server.client().Get("/table", {{"Range", "bytes=abc"}});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body.size() == file_bytes().size());
}

TEST_CASE("a Range header on an answer is ignored, not applied to the JSON") {
  ServiceFixture server;
  auto cli = server.client();
  auto full = cli.Get("/solve?board=867254301");
  auto ranged = cli.Get("/solve?board=867254301", {{"Range", "bytes=0-9"}});
  REQUIRE(full);
  REQUIRE(ranged);
  CHECK(ranged->status == 200);
  CHECK(ranged->body == full->body);
  CHECK_FALSE(ranged->has_header("Content-Range"));
}

TEST_CASE("HEAD /table gives the size and validators without the body") {
  ServerProcess server;
  auto r = server.client().Head("/table");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body.empty());
  CHECK(r->get_header_value("Content-Length") == std::to_string(file_bytes().size()));
  CHECK(r->get_header_value("ETag") == expected_etag());
}
