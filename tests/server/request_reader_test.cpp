// The request reader on exact bytes, no sockets: framing, limits and the
// refusals that keep a proxy and this server from disagreeing on where a
// request ends.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "server_fixture.h"
#include "transport/request_reader.h"

using eight::server::Limits;
using eight::server::ReadStep;
using eight::server::Refusal;
using eight::server::Request;
using eight::server::RequestReader;
using Kind = ReadStep::Kind;
using eight::test::raw_get;
using eight::test::raw_post;

namespace {

struct Outcome {
  std::vector<Request> requests;
  bool refused = false;
  Refusal why = Refusal::kMalformed;
  std::string detail;
  bool close = false;
  int continues = 0;
  std::size_t left = 0;  // bytes never consumed
};

// Feeds `bytes` to a reader `chunk` bytes at a time, as a connection would,
// taking every request, until the bytes run out or a refusal.
Outcome feed(const std::string& bytes, std::size_t chunk = 1 << 20, const Limits& limits = {}) {
  static Limits kept;  // the reader keeps a reference
  kept = limits;
  RequestReader reader(kept);
  Outcome out;
  std::string buffered;
  std::size_t given = 0;
  while (true) {
    if (given < bytes.size()) {
      const std::size_t n = std::min(chunk, bytes.size() - given);
      buffered.append(bytes, given, n);
      given += n;
    }
    bool progress = true;
    while (progress) {
      progress = false;
      const ReadStep step = reader.read(buffered);
      buffered.erase(0, step.consumed);
      if (step.kind == Kind::kRequest) {
        out.requests.push_back(reader.take());
        progress = true;
      } else if (step.kind == Kind::kContinue) {
        ++out.continues;
        progress = !buffered.empty();
      } else if (step.kind == Kind::kRefused) {
        out.refused = true;
        out.why = step.why;
        out.detail = step.detail;
        out.close = step.close;
        out.left = buffered.size() + bytes.size() - given;
        return out;
      } else if (step.consumed > 0 && !buffered.empty()) {
        progress = true;
      }
    }
    if (given == bytes.size()) break;
  }
  out.left = buffered.size();
  return out;
}

void check_refused(const std::string& bytes, Refusal why, const std::string& detail_part = "") {
  CAPTURE(bytes.substr(0, 120));
  const Outcome o = feed(bytes);
  CHECK(o.requests.empty());
  REQUIRE(o.refused);
  CHECK(static_cast<int>(o.why) == static_cast<int>(why));
  CHECK(o.close);
  if (!detail_part.empty()) CHECK(o.detail.find(detail_part) != std::string::npos);
}

}  // namespace

TEST_CASE("a request is read with its method, target, decoded path and query, headers") {
  const Outcome o = feed(raw_get("/so%6cve?board=8+6+7%202&goal=1", "Accept: */*\r\n"));
  REQUIRE(o.requests.size() == 1);
  const Request& r = o.requests[0];
  CHECK(r.method_text == "GET");
  CHECK(r.target == "/so%6cve?board=8+6+7%202&goal=1");
  CHECK(r.path == "/solve");
  REQUIRE(r.params.size() == 2);
  CHECK(r.params[0].first == "board");
  CHECK(r.params[0].second == "8 6 7 2");
  CHECK(*r.param("goal") == "1");
  CHECK(r.version == 11);
  CHECK(r.header("accept") == "*/*");
  CHECK(o.left == 0);
}

TEST_CASE("pipelined requests are read one after another, in order, however the bytes arrive") {
  std::string three;
  for (int i = 0; i < 3; ++i) three += raw_get("/solve?board=" + std::to_string(i));
  for (std::size_t chunk : {std::size_t{1} << 20, std::size_t{1}, std::size_t{7}}) {
    CAPTURE(chunk);
    const Outcome o = feed(three, chunk);
    REQUIRE(o.requests.size() == 3);
    for (int i = 0; i < 3; ++i)
      CHECK(*o.requests[static_cast<std::size_t>(i)].param("board") == std::to_string(i));
  }
  std::string hundred;
  for (int i = 0; i < 100; ++i)
    hundred += i % 2 ? raw_get("/healthz") : raw_post(R"({"boards":[]})");
  const Outcome o = feed(hundred);
  REQUIRE(o.requests.size() == 100);
  CHECK(o.requests[99].path == "/healthz");
  CHECK(o.requests[98].body == R"({"boards":[]})");
}

TEST_CASE("body bytes are never read as a request, wherever a request line hides in them") {
  std::string body(6000, ' ');
  const std::string hidden = "GET /stats HTTP/1.1\r\nHost: x\r\n\r\n";
  body.replace(4096 - 60, hidden.size(), hidden);  // from byte 4096 of the write
  const Outcome o = feed(raw_post(body) + raw_get("/healthz"), 4096);
  REQUIRE(o.requests.size() == 2);
  CHECK(o.requests[0].method_text == "POST");
  CHECK(o.requests[0].body == body);
  CHECK(o.requests[1].path == "/healthz");
}

TEST_CASE("a chunked body is read whole and its framing checked") {
  const Outcome o = feed(
      "POST /solve HTTP/1.1\r\nHost: e\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n" +
          raw_get("/healthz"),
      3);
  REQUIRE(o.requests.size() == 2);
  CHECK(o.requests[0].body == "hello world");
  check_refused(
      "POST /solve HTTP/1.1\r\nHost: e\r\nTransfer-Encoding: chunked\r\n\r\n"
      "0x18\r\n{\"boards\":[\"123456780\"]}\r\n0\r\n\r\n",
      Refusal::kMalformed, "chunked");
  check_refused(
      "POST /solve HTTP/1.1\r\nHost: e\r\nTransfer-Encoding: chunked\r\n\r\n"
      "3\r\nabcX\r\n0\r\n\r\n",
      Refusal::kMalformed, "chunked");
}

TEST_CASE("an empty chunked body fed a byte at a time is read, with assertions on too") {
  // The exact bytes fuzz_http_reader found (tests/data/beast-chunk-assert.bin,
  // after its piece-size byte 0x00: one byte at a time). Boost 1.81's
  // parser asserts on "0\r\n" then "0\r\n\r" (boostorg/beast#2861); the
  // reader never hands it fewer than 5 bytes of a chunked body.
  const std::string bytes =
      "POST /solve HTTP/1.1\r\nHost: e\r\nCongth: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
      "0\r\n\r\n";
  for (std::size_t chunk = 1; chunk <= bytes.size(); ++chunk) {
    CAPTURE(chunk);
    const Outcome o = feed(bytes + raw_get("/healthz"), chunk);
    REQUIRE(o.requests.size() == 2);
    CHECK(o.requests[0].body.empty());
    CHECK(o.requests[1].path == "/healthz");
    CHECK(o.left == 0);
  }
  // A last chunk after data, and one with a trailer, a byte at a time.
  const Outcome o = feed(
      "POST /solve HTTP/1.1\r\nHost: e\r\nTransfer-Encoding: chunked\r\n\r\n"
      "2\r\nab\r\n0\r\nX-T: 1\r\n\r\n",
      1);
  REQUIRE(o.requests.size() == 1);
  CHECK(o.requests[0].body == "ab");
  // A short malformed chunk line is refused as it arrives, not held for more.
  const Outcome bad = feed(
      "POST /solve HTTP/1.1\r\nHost: e\r\nTransfer-Encoding: chunked\r\n\r\n"
      "X\r\n",
      1);
  CHECK(bad.requests.empty());
  CHECK(bad.refused);
  CHECK(static_cast<int>(bad.why) == static_cast<int>(Refusal::kMalformed));
}

TEST_CASE("a chunked body's framing has limits of its own: line, extensions, trailers") {
  const std::string head = "POST /solve HTTP/1.1\r\nHost: e\r\nTransfer-Encoding: chunked\r\n\r\n";
  // The replay: an extension that never ends (`1;a=bbbb...`), fed as a
  // connection would; it is refused as it passes 4 KiB, whatever follows.
  for (std::size_t chunk : {std::size_t{1} << 20, std::size_t{1000}}) {
    const Outcome o = feed(head + "1;a=" + std::string(64 * 1024, 'b'), chunk);
    REQUIRE(o.refused);
    CHECK(static_cast<int>(o.why) == static_cast<int>(Refusal::kMalformed));
    CHECK(o.detail.find("chunk-size line") != std::string::npos);
    CHECK(o.close);
  }
  // At the limit a line is still read; one byte more is refused.
  const std::string at_limit = "1;a=" + std::string(4096 - 4, 'b');
  const Outcome fits = feed(head + at_limit + "\r\nx\r\n0\r\n\r\n");
  REQUIRE(fits.requests.size() == 1);
  CHECK(fits.requests[0].body == "x");
  check_refused(head + at_limit + "b", Refusal::kMalformed, "chunk-size line");
  // Extensions add up over a body's chunks: 16 KiB in all.
  std::string many = head;
  for (int i = 0; i < 8; ++i) many += "1;x=" + std::string(3000, 'c') + "\r\n.\r\n";
  check_refused(many, Refusal::kMalformed, "chunk extensions are longer than 16384");
  // A trailer section that never ends: 431 at 8 KiB.
  const Outcome trailer = feed(head + "2\r\n{}\r\n0\r\nX-T: " + std::string(20000, 'd'), 1000);
  REQUIRE(trailer.refused);
  CHECK(static_cast<int>(trailer.why) == static_cast<int>(Refusal::kHeadersTooLarge));
  CHECK(trailer.detail.find("trailer section") != std::string::npos);
  // An honest trailer is read and ignored.
  const Outcome honest = feed(head + "2\r\n{}\r\n0\r\nX-Checksum: abc\r\n\r\n");
  REQUIRE(honest.requests.size() == 1);
  CHECK(honest.requests[0].body == "{}");
}

TEST_CASE("chunk framing buys no body-rate credit: only body bytes count") {
  static Limits limits;
  RequestReader reader(limits);
  const std::string bytes =
      "POST /solve HTTP/1.1\r\nHost: e\r\nTransfer-Encoding: chunked\r\n\r\n"
      "3;" +
      std::string(3000, 'e') + "\r\nabc\r\n1";
  const ReadStep step = reader.read(bytes);
  CHECK(step.kind == Kind::kNeedMore);
  CHECK(reader.phase() == RequestReader::Phase::kBody);
  CHECK(reader.body_received() == 3);
}

TEST_CASE("ambiguous framing is refused and the connection must close") {
  const std::string head = "POST /solve HTTP/1.1\r\nHost: e\r\n";
  check_refused(head + "Content-Length: 24\r\nTransfer-Encoding: chunked\r\n\r\n",
                Refusal::kMalformed);
  check_refused(head + "Transfer-Encoding: chunked\r\nContent-Length: 24\r\n\r\n",
                Refusal::kMalformed);
  check_refused(head + "Content-Length: 24\r\nContent-Length: 25\r\n\r\n", Refusal::kMalformed);
  check_refused(head + "Content-Length: 24\r\nContent-Length: 24\r\n\r\n", Refusal::kMalformed);
  for (const char* length : {"+24", "24abc", "24, 24", "-1", " ", "0x18"}) {
    check_refused(head + "Content-Length: " + length + "\r\n\r\n", Refusal::kMalformed);
  }
  check_refused(head + "Transfer-Encoding: xchunked\r\nContent-Length: 3\r\n\r\nabc",
                Refusal::kUnknownTransferCoding, "'xchunked'");
  check_refused(head + "Transfer-Encoding: gzip, chunked\r\n\r\n", Refusal::kUnknownTransferCoding);
  check_refused(head + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
                Refusal::kMalformed);
  check_refused("POST /solve HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                Refusal::kMalformed, "HTTP/1.0");
}

TEST_CASE("Host must be there once in HTTP/1.1, at most once in HTTP/1.0") {
  check_refused("GET / HTTP/1.1\r\n\r\n", Refusal::kMalformed, "needs a Host");
  check_refused("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", Refusal::kMalformed, "2 Host");
  check_refused("GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", Refusal::kMalformed, "2 Host");
  const Outcome o = feed("GET /healthz HTTP/1.0\r\n\r\n");
  REQUIRE(o.requests.size() == 1);
  CHECK(o.requests[0].version == 10);
}

TEST_CASE("NUL, a space before the colon, obs-fold and bare LF are refused") {
  check_refused(std::string("GET / HTTP/1.1\r\nHost: a\r\nX: a\0b\r\n\r\n", 35),
                Refusal::kMalformed);
  check_refused("GET / HTTP/1.1\r\nHost : a\r\n\r\n", Refusal::kMalformed);
  check_refused("GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n", Refusal::kMalformed,
                "obsolete line folding");
  check_refused("GET / HTTP/1.1\nHost: a\n\n", Refusal::kMalformed, "bare LF");
  check_refused("GET / HTTP/2.0\r\nHost: a\r\n\r\n", Refusal::kMalformed, "bad version");
  check_refused("GET / HTTP/1.2\r\nHost: a\r\n\r\n", Refusal::kMalformed, "bad version");
  check_refused("GARBAGE\r\n\r\n", Refusal::kMalformed);
}

TEST_CASE("the request line, header section and field count have limits") {
  check_refused(raw_get("/solve?board=" + std::string(9000, '1')), Refusal::kRequestLineTooLong,
                "longer than 8192 bytes");
  // Before its end arrives, too: a client cannot make the server hold more.
  check_refused("GET /" + std::string(9000, 'a'), Refusal::kRequestLineTooLong);
  check_refused(raw_get("/", "X: " + std::string(9000, 'h') + "\r\n"), Refusal::kHeadersTooLarge,
                "a header field is longer than 8192");
  std::string big;
  for (int i = 0; i < 3; ++i)
    big.append("X").append(std::to_string(i)).append(": ").append(6000, 'h').append("\r\n");
  check_refused(raw_get("/", big), Refusal::kHeadersTooLarge, "16384");
  std::string many;
  for (int i = 0; i < 101; ++i) many += "X-" + std::to_string(i) + ": 1\r\n";
  check_refused(raw_get("/", many), Refusal::kHeadersTooLarge, "100 header fields");
  // A million short header lines are refused after the hundred-and-first.
  std::string flood = "GET / HTTP/1.1\r\nHost: a\r\n";
  for (int i = 0; i < 1000000; ++i) flood += "a:\r\n";
  const Outcome o = feed(flood, 65536);
  CHECK(o.refused);
  CHECK(static_cast<int>(o.why) == static_cast<int>(Refusal::kHeadersTooLarge));
  CHECK(o.left > flood.size() - 70000);  // refused early: most of it never read
  // Under the limits, long is fine.
  CHECK(feed(raw_get("/solve?board=" + std::string(8000, '1'))).requests.size() == 1);
}

TEST_CASE("a body over the limit is refused: a declared one before a byte of it arrives") {
  const Outcome o = feed("POST /solve HTTP/1.1\r\nHost: e\r\nContent-Length: 99999999999\r\n\r\n");
  REQUIRE(o.refused);
  CHECK(static_cast<int>(o.why) == static_cast<int>(Refusal::kBodyTooLarge));
  CHECK(o.detail.find("99999999999 bytes") != std::string::npos);
  std::string chunked = "POST /solve HTTP/1.1\r\nHost: e\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 40; ++i) chunked += "10000\r\n" + std::string(0x10000, 'x') + "\r\n";
  const Outcome c = feed(chunked + "0\r\n\r\n", 65536);
  REQUIRE(c.refused);
  CHECK(static_cast<int>(c.why) == static_cast<int>(Refusal::kBodyTooLarge));
}

TEST_CASE("an encoded body is 415, an unknown expectation 417, 100-continue is honoured") {
  check_refused(raw_post("xyz", "Content-Encoding: gzip\r\n"), Refusal::kEncodedBody, "'gzip'");
  CHECK(feed(raw_get("/", "Content-Encoding: gzip\r\n")).requests.size() ==
        1);  // no body: harmless
  check_refused(raw_post("xyz", "Expect: something-else\r\n"), Refusal::kExpectation);
  const std::string head =
      "POST /solve HTTP/1.1\r\nHost: e\r\nContent-Length: 3\r\n"
      "Expect: 100-continue\r\n\r\n";
  Outcome o = feed(head + "abc", head.size());  // the head alone first, as curl sends it
  CHECK(o.continues == 1);
  REQUIRE(o.requests.size() == 1);
  CHECK(o.requests[0].body == "abc");
  o = feed(head + "abc");  // body already there: no 100 needed
  CHECK(o.continues == 0);
  CHECK(o.requests.size() == 1);
}

TEST_CASE("absolute-form targets are routed by their path, a bad target keeps the connection") {
  Outcome o = feed(raw_get("http://eight.example/solve?board=123456780"));
  REQUIRE(o.requests.size() == 1);
  CHECK(o.requests[0].path == "/solve");
  CHECK(*o.requests[0].param("board") == "123456780");
  o = feed(raw_get("/solve?board=%zz") + raw_get("/healthz"));
  REQUIRE(o.refused);
  CHECK_FALSE(o.close);  // the framing was sound
  CHECK(o.detail.find("not a valid URL") != std::string::npos);
}

TEST_CASE("empty lines before a request are skipped") {
  const Outcome o = feed("\r\n\r\n" + raw_get("/healthz"));
  REQUIRE(o.requests.size() == 1);
  CHECK(o.requests[0].path == "/healthz");
}
