// The batch body reader (api/json_body.h) on exact bodies, no socket: the
// hostile bodies of issue 41 (finding 2), its limits, its stops, and the
// same DOM as nlohmann's own parser on honest bodies.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <string>

#include "api/json_body.h"
#include "api/problem.h"

namespace {

using eight::server::BodyRead;
using eight::server::BodyStop;
using eight::server::kMaxBatchBoards;
using eight::server::Problem;
using eight::server::read_batch_body;
using Clock = std::chrono::steady_clock;

BodyRead read(const std::string& body) {
  const std::atomic<bool> not_cancelled{false};
  return read_batch_body(body, not_cancelled, std::nullopt);
}

// The problem a read refused with (the test fails if it did not refuse).
Problem refusal(const BodyRead& r) {
  const auto* p = std::get_if<Problem>(&r);
  REQUIRE(p != nullptr);
  return *p;
}

// {"boards":[X,X,...]} of about `bytes` bytes, `item` repeated.
std::string repeated_items(const std::string& item, std::size_t bytes) {
  std::string body = R"({"boards":[)";
  while (body.size() + item.size() + 3 < bytes) body += item + ",";
  body += item + "]}";
  return body;
}

}  // namespace

TEST_CASE("the 2 MiB body of empty objects is refused 413 at its board 10,001, in linear time") {
  // Issue 41's body: 699,000 {} in "boards", which nlohmann's callback
  // parser took 73 s of a compute thread to refuse. Read 20 times over: a
  // quadratic reader would take hours; the hang guard is minutes above the
  // milliseconds each takes.
  const std::string body = repeated_items("{}", 2 * 1024 * 1024);
  REQUIRE(body.size() > 2 * 1024 * 1024 - 8);
  const auto start = Clock::now();
  for (int i = 0; i < 20; ++i) {
    const Problem p = refusal(read(body));
    CHECK(p.status == 413);
    CHECK(p.slug == "too-many-boards");
    CHECK(p.detail == "at most 10000 boards per request; got more than 10000");
  }
  CHECK(Clock::now() - start < std::chrono::seconds(120));
}

TEST_CASE("a 2 MiB body of empty objects anywhere else is refused at the body's value limit") {
  // The same objects inside one item, or under an unknown field: no count
  // of boards stops them, the count of values does (the DOM stays small).
  for (const std::string& prefix : {std::string(R"({"boards":[[)"), std::string(R"({"x":[)")}) {
    std::string body = prefix;
    while (body.size() < 2 * 1024 * 1024) body += "{},";
    body += "{}]]}";
    const Problem p = refusal(read(body));
    CHECK(p.status == 400);
    CHECK(p.slug == "bad-body");
    CHECK(p.detail.find("body holds more than 40064 JSON values") == 0);
  }
}

TEST_CASE("a batch of exactly 10,000 boards is read whole, and one more is 413") {
  const auto boards = [](std::size_t n) {
    std::string body = R"({"goal":"123456780","boards":[)";
    for (std::size_t i = 0; i < n; ++i)
      body += std::string(i ? "," : "") + R"({"board":"867254301","goal":"123456780"})";
    return body + "]}";
  };
  const auto whole = read(boards(kMaxBatchBoards));
  REQUIRE(std::holds_alternative<nlohmann::json>(whole));
  CHECK(std::get<nlohmann::json>(whole)["boards"].size() == kMaxBatchBoards);
  CHECK(refusal(read(boards(kMaxBatchBoards + 1))).status == 413);
  // Counted only in the root's "boards": an item of 12,000 values is one.
  std::string one_item = R"({"boards":[[1)";
  for (int i = 1; i < 12000; ++i) one_item += ",1";
  const auto item = read(one_item + "]]}");
  REQUIRE(std::holds_alternative<nlohmann::json>(item));
  CHECK(std::get<nlohmann::json>(item)["boards"][0].size() == 12000);
}

TEST_CASE("a batch body's depth, repeated keys and syntax are refused as nlohmann's parser did") {
  CHECK(refusal(read(R"({"boards":)" + std::string(65, '[') + std::string(65, ']') + "}")).detail ==
        "body nests deeper than 64 levels");
  CHECK(refusal(read(std::string(100000, '['))).detail == "body nests deeper than 64 levels");
  CHECK(refusal(read(R"({"goal":"123456780","boards":[],"goal":"123456780"})")).detail ==
        "body gives key 'goal' twice in one object; give each key once");
  // A key may repeat in different objects.
  CHECK(std::holds_alternative<nlohmann::json>(
      read(R"({"boards":[{"board":"1","goal":"2"},{"board":"3","goal":"4"}]})")));
  const Problem p = refusal(read(R"({"boards": [)"));
  CHECK(p.detail.find("body is not valid JSON: [json.exception.parse_error.101]") == 0);
  CHECK(refusal(read("")).slug == "bad-body");
  CHECK(refusal(read("{} {}")).slug == "bad-body");
}

TEST_CASE("a batch body reads into the DOM nlohmann's parser builds") {
  for (const std::string& body :
       {std::string(
            R"({"boards":["867254301",{"board":"1 2 3","goal":"x"},5,-3,1.5e3,null,true,[],{}],)"
            R"("goal":"123456780","shape":"3x3","budget":18446744073709551615,)"
            R"("optimal":"required"})"),
        std::string(R"("a string")"), std::string("[1,[2,[3,{\"a\":[]}]]]"), std::string("{}"),
        std::string(R"({"\u00e9\ud83d\ude00":"\n\t\"","":0})"), std::string(" 17 ")}) {
    CAPTURE(body);
    const auto r = read(body);
    REQUIRE(std::holds_alternative<nlohmann::json>(r));
    CHECK(std::get<nlohmann::json>(r) == nlohmann::json::parse(body));
  }
}

TEST_CASE("a body read stops at the cancel flag or the deadline, many times over") {
  // A 2 MiB body of boards: over 10,000 parse events before its 413, so
  // the reader looks at the flag and the clock twice before it.
  const std::string body = repeated_items(R"("867254301")", 2 * 1024 * 1024);
  for (int i = 0; i < 50; ++i) {
    const std::atomic<bool> cancelled{true};
    const auto r = read_batch_body(body, cancelled, std::nullopt);
    REQUIRE(std::holds_alternative<BodyStop>(r));
    CHECK(std::get<BodyStop>(r) == BodyStop::kCancelled);
    const std::atomic<bool> not_cancelled{false};
    const auto late = read_batch_body(body, not_cancelled, Clock::now());
    REQUIRE(std::holds_alternative<BodyStop>(late));
    CHECK(std::get<BodyStop>(late) == BodyStop::kDeadline);
    // A deadline far away is no stop, nor is a small body past its deadline
    // (it is read in fewer events than the reader looks after).
    CHECK(std::holds_alternative<Problem>(
        read_batch_body(body, not_cancelled, Clock::now() + std::chrono::hours(1))));
    CHECK(std::holds_alternative<nlohmann::json>(
        read_batch_body(R"({"boards":["1"]})", cancelled, Clock::now())));
  }
}
