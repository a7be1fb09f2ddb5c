#include <doctest/doctest.h>

#include "common/text.h"

using eight::parse_decimal;

TEST_CASE("parse_decimal reads plain unsigned decimals and nothing else") {
  CHECK(parse_decimal("0") == 0u);
  CHECK(parse_decimal("31") == 31u);
  CHECK(parse_decimal("18446744073709551615") == 18446744073709551615ull);
  for (const char* bad :
       {"", "-1", "+1", " 1", "1 ", "1x", "0x10", "18446744073709551616", "1e3"}) {
    CHECK_MESSAGE(!parse_decimal(bad).has_value(), bad);
  }
}
