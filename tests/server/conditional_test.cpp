// If-None-Match and Range decisions for /table, as pure functions.
#include <doctest/doctest.h>

#include "api/conditional.h"

using eight::server::decide_range;
using eight::server::if_none_match;
using Kind = eight::server::RangeDecision::Kind;

namespace {
constexpr const char* kTag = "\"00112233aabbccdd\"";
}

TEST_CASE("If-None-Match matches the ETag alone, in a list, weakly, or as a star") {
  CHECK(if_none_match(kTag, kTag));
  CHECK(if_none_match("\"other\", \"00112233aabbccdd\"", kTag));
  CHECK(if_none_match("W/\"00112233aabbccdd\"", kTag));
  CHECK(if_none_match(" * ", kTag));
  CHECK_FALSE(if_none_match("\"other\"", kTag));
  CHECK_FALSE(if_none_match("00112233aabbccdd", kTag));  // unquoted is another tag
  CHECK_FALSE(if_none_match("", kTag));
}

TEST_CASE("a byte range is served as asked, cut at the end of the table") {
  auto d = decide_range("bytes=0-31", "", kTag, 100);
  CHECK(d.kind == Kind::kPartial);
  CHECK(d.first == 0);
  CHECK(d.last == 31);
  d = decide_range("bytes=90-", "", kTag, 100);
  CHECK((d.kind == Kind::kPartial && d.first == 90 && d.last == 99));
  d = decide_range("bytes=-10", "", kTag, 100);
  CHECK((d.kind == Kind::kPartial && d.first == 90 && d.last == 99));
  d = decide_range("bytes=-1000", "", kTag, 100);
  CHECK((d.kind == Kind::kPartial && d.first == 0 && d.last == 99));
  d = decide_range("bytes=50-99999999999999999999999", "", kTag, 100);
  CHECK((d.kind == Kind::kPartial && d.first == 50 && d.last == 99));
  d = decide_range("BYTES = 1-1", "", kTag, 100);
  CHECK((d.kind == Kind::kPartial && d.first == 1 && d.last == 1));
}

TEST_CASE("a range starting past the end or an empty suffix cannot be satisfied") {
  CHECK(decide_range("bytes=100-", "", kTag, 100).kind == Kind::kUnsatisfiable);
  CHECK(decide_range("bytes=100-200", "", kTag, 100).kind == Kind::kUnsatisfiable);
  CHECK(decide_range("bytes=99999999999999999999999-", "", kTag, 100).kind == Kind::kUnsatisfiable);
  CHECK(decide_range("bytes=-0", "", kTag, 100).kind == Kind::kUnsatisfiable);
}

TEST_CASE("malformed, multiple, foreign-unit or stale If-Range ranges send the whole table") {
  for (const char* r : {"", "bytes=", "bytes=a-b", "bytes=5-1", "bytes=0-1,5-6", "items=0-1",
                        "bytes=-", "bytes 0-1", "bytes=1-2-3"}) {
    CAPTURE(r);
    CHECK(decide_range(r, "", kTag, 100).kind == Kind::kFull);
  }
  CHECK(decide_range("bytes=0-1", "\"stale\"", kTag, 100).kind == Kind::kFull);
  CHECK(decide_range("bytes=0-1", "Tue, 01 Jan 2030 00:00:00 GMT", kTag, 100).kind == Kind::kFull);
  CHECK(decide_range("bytes=0-1", kTag, kTag, 100).kind == Kind::kPartial);
}
